package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/eboard/relay"
	"github.com/zeitnot/zeitnot/appliance/eboard/settings"
	"github.com/zeitnot/zeitnot/drivers/eboard"
	"github.com/zeitnot/zeitnot/drivers/eboard/dgt"
	"github.com/zeitnot/zeitnot/drivers/eboard/simdgt"
	"github.com/zeitnot/zeitnot/engine/fen"
	"github.com/zeitnot/zeitnot/internal/wait"
	"github.com/zeitnot/zeitnot/protocol"
)

// simBoard is a simulated DGT board on a pseudo-terminal that can be
// unplugged and plugged in again: the relay opens whichever is plugged.
// Unplugging closes the driver's device, as the kernel does when a USB
// tty goes (a pseudo-terminal's master cannot be closed under the
// simulated board's blocked read).
type simBoard struct {
	t      *testing.T
	mu     sync.Mutex
	pty    *simdgt.PTY
	board  *simdgt.Board
	opened []*dgt.Dev
	old    []*simdgt.PTY
	read   fen.Placement // the position in the last event the relay read
}

// readBoard is a board whose events the test sees as the relay reads them.
type readBoard struct {
	eboard.Board
	s *simBoard
}

func (r readBoard) Next() (eboard.Event, error) {
	ev, err := r.Board.Next()
	if err == nil {
		r.s.mu.Lock()
		r.s.read = ev.Position
		r.s.mu.Unlock()
	}
	return ev, err
}

// waitRead waits until the relay has read the board's present position: a
// press after that is answered with it, once it has stood still for the
// Settler's Stable.
func (s *simBoard) waitRead() {
	s.t.Helper()
	wait.Until(s.t, 10*time.Second, func() string {
		s.mu.Lock()
		defer s.mu.Unlock()
		if want := s.board.Position(); s.read != want {
			return fmt.Sprintf("the relay read %v, the board shows %v", s.read, want)
		}
		return ""
	})
}

func (s *simBoard) plug(pos fen.Placement) {
	pty, err := simdgt.OpenPTY()
	if err != nil {
		s.t.Fatal(err)
	}
	b := simdgt.New(pos, nil)
	go b.Serve(pty.Master)
	s.mu.Lock()
	s.pty, s.board = pty, b
	s.mu.Unlock()
}

func (s *simBoard) unplug() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range s.opened {
		d.Close()
	}
	s.opened = nil
	if s.pty != nil {
		s.old = append(s.old, s.pty)
		s.pty = nil
	}
}

func (s *simBoard) close() {
	s.unplug()
	for _, p := range s.old {
		p.Close()
	}
}

func (s *simBoard) open(string) (eboard.Board, error) {
	s.mu.Lock()
	pty := s.pty
	s.mu.Unlock()
	if pty == nil {
		return nil, os.ErrNotExist
	}
	d, err := dgt.Open(pty.Name, &dgt.Opts{Timeout: time.Second})
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.opened = append(s.opened, d)
	s.mu.Unlock()
	return readBoard{d, s}, nil
}

func (s *simBoard) move(uci string) {
	s.t.Helper()
	from, _ := fen.ParseSquare(uci[:2])
	to, _ := fen.ParseSquare(uci[2:4])
	s.mu.Lock()
	b := s.board
	s.mu.Unlock()
	p := b.Position()[from]
	if err := b.Lift(from); err != nil {
		s.t.Fatal(err)
	}
	if err := b.Place(to, p); err != nil {
		s.t.Fatal(err)
	}
}

// TestEBoardEndToEnd: the daemon, the e-board process and a simulated DGT
// board on a pseudo-terminal: the board's moves reach the journal with
// their presses, an illegal move is ILLEGAL? until the arbiter puts the
// position back, an unplugged board is lost and found again, and `zeitnot
// replay --pgn` prints the moves from the journal.
func TestEBoardEndToEnd(t *testing.T) {
	dir := t.TempDir()
	p := startDaemon(t, dir)
	sb := &simBoard{t: t}
	sb.plug(fen.Start)
	t.Cleanup(sb.close)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	var logMu sync.Mutex
	var logs []string
	go func() {
		defer close(done)
		relay.Run(ctx, settings.EBoard{Enabled: true, Port: "/dev/sim"}, relay.Opts{
			Socket: p.sock, Open: sb.open, Retry: 100 * time.Millisecond,
			Settle: &eboard.SettleOpts{Stable: 100 * time.Millisecond, MaxWait: 2 * time.Second, Keep: 2 * time.Second},
			Log:    func(s string) { logMu.Lock(); logs = append(logs, s); logMu.Unlock() },
		})
	}()
	t.Cleanup(func() { cancel(); <-done })
	board := func(cond func(b *protocol.BoardStatus) bool, what string) *protocol.BoardStatus {
		t.Helper()
		var b *protocol.BoardStatus
		seen := false
		defer func() {
			if !seen { // the wait failed: what the process said
				logMu.Lock()
				defer logMu.Unlock()
				t.Logf("the process said:\n%s", strings.Join(logs, "\n"))
			}
		}()
		wait.Until(t, 10*time.Second, func() string {
			if b = p.status().Board; b != nil && cond(b) {
				return ""
			}
			return fmt.Sprintf("board %+v, want %s", b, what)
		})
		seen = true
		return b
	}
	board(func(b *protocol.BoardStatus) bool { return b.State == "ok" }, "ok at the start")
	p.press("right") // White's clock starts
	for i, uci := range []string{"e2e4", "e7e5"} {
		sb.move(uci)
		sb.waitRead()
		p.pressMove([]string{"left", "right"}[i%2])
		n := i + 1
		board(func(b *protocol.BoardStatus) bool { return b.Ply == n }, "the move of press "+uci)
	}
	b := p.status().Board
	if b.State != "ok" || b.SAN != "e5" || b.UCI != "e7e5" || b.FEN != "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2" && b.FEN != "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2" {
		t.Errorf("board after 1. e4 e5: %+v", b)
	}
	// The rook through its pawn: ILLEGAL?, then the arbiter puts it back.
	sb.move("a1a3")
	sb.waitRead()
	p.pressMove("left")
	board(func(b *protocol.BoardStatus) bool { return b.State == "illegal" }, "ILLEGAL?")
	if b := p.status().Board; b.MissingFrom != 3 || b.Ply != 2 {
		t.Errorf("board at ILLEGAL? %+v", b)
	}
	sb.move("a3a1")
	board(func(b *protocol.BoardStatus) bool { return b.State == "ok" }, "ok once the position is put back")
	// Unplugged and plugged in again.
	pos := sb.board.Position()
	sb.unplug()
	board(func(b *protocol.BoardStatus) bool { return b.State == "lost" }, "lost when unplugged")
	sb.plug(pos)
	board(func(b *protocol.BoardStatus) bool { return b.State == "ok" }, "ok when plugged in again")

	code, out, errOut := prog.Run("replay", "--pgn", filepath.Join(dir, "state", "game.log"))
	if code != 0 || !strings.Contains(out, "1. e4 {[%clk") || !strings.Contains(out, "1... e5 {[%clk") {
		t.Errorf("replay --pgn: exit %d: %s\n%s", code, errOut, out)
	}
}
