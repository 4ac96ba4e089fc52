package session

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/journal"
	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/engine/fen"
)

const afterE4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"

// TestBoardLines: the presses are numbered from 1, a move line is
// journaled with its press and emitted, one for a press the game has not
// had (or before a set-up position) is refused and changes nothing.
func TestBoardLines(t *testing.T) {
	s, got := newSession(t, t.TempDir(), "300+2")
	if err := s.RecordMove(0, 1, "e4", "e2e4"); err == nil {
		t.Error("a move before any press was taken")
	}
	s.Start(0)
	s.Press(2000*ms, clock.White)
	s.Press(2500*ms, clock.White) // not White's turn: no press
	if s.Presses() != 1 {
		t.Fatalf("%d presses", s.Presses())
	}
	p := (*got)[len(*got)-1]
	if p.Kind != Pressed || p.Press != 1 || p.Mono != 2000*ms {
		t.Errorf("pressed event %+v", p)
	}
	if err := s.RecordMove(2300*ms, 1, "e4", "e2e4"); err != nil {
		t.Fatal(err)
	}
	m := (*got)[len(*got)-1]
	if m.Kind != BoardMoved || m.Press != 1 || !strings.HasPrefix(m.Line, "2300 move 1 e4 e2e4 *") {
		t.Errorf("move event %+v", m)
	}
	for _, bad := range []struct {
		n        int
		san, uci string
	}{{2, "e5", "e7e5"}, {0, "e4", "e2e4"}, {1, "e4 e5", "e2e4"}, {1, "e4", "e2e9"}} {
		if err := s.RecordMove(3000*ms, bad.n, bad.san, bad.uci); err == nil {
			t.Errorf("move %d %q %q taken", bad.n, bad.san, bad.uci)
		}
	}
	if err := s.RecordPosition(3000*ms, 2, afterE4); err == nil {
		t.Error("a position after a press to come was taken")
	}
	if err := s.RecordPosition(3000*ms, 1, "8/8 w - - 0 1"); err == nil {
		t.Error("a FEN of the wrong form was taken")
	}
	if from, start, moves := s.BoardGame(); from != 0 || start != fen.StartFEN || !slices.Equal(moves, []string{"e2e4"}) {
		t.Errorf("board game %d %q %q", from, start, moves)
	}
	if err := s.RecordPosition(3100*ms, 1, afterE4); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordMove(3200*ms, 1, "e4", "e2e4"); err == nil {
		t.Error("a move before the set-up position was taken")
	}
	if from, fen, moves := s.BoardGame(); from != 1 || fen != afterE4 || len(moves) != 0 {
		t.Errorf("board game after the position %d %q %q", from, fen, moves)
	}
	if k := kinds(*got); k != "new-game started pressed move position" {
		t.Errorf("events %s", k)
	}
}

// TestRecoveredMoves: a game recovered from its journal keeps its moves,
// its presses' count and its set-up position, and goes on numbering the
// presses; the PGN of the journal has the moves.
func TestRecoveredMoves(t *testing.T) {
	dir := t.TempDir()
	s, _ := newSession(t, dir, "300+2")
	s.Start(0)
	play := []struct{ san, uci string }{{"e4", "e2e4"}, {"e5", "e7e5"}, {"Nf3", "g1f3"}}
	side := clock.White
	for i, m := range play {
		at := time.Duration(i+1) * 2 * time.Second
		s.Press(at, side)
		side = 1 - side
		if err := s.RecordMove(at+250*ms, i+1, m.san, m.uci); err != nil {
			t.Fatal(err)
		}
	}
	s.Press(8*time.Second, side) // press 4: the board gave no move
	tick(s, 8*time.Second, 9*time.Second)
	s.Close() // power cut

	r := New(Opts{StateDir: dir})
	if !r.Recover(time.Second) {
		t.Fatal("nothing recovered")
	}
	from, start, moves := r.BoardGame()
	if r.Presses() != 4 || from != 0 || start != fen.StartFEN || !slices.Equal(moves, []string{"e2e4", "e7e5", "g1f3", ""}) {
		t.Fatalf("recovered presses %d, board %d %q %q", r.Presses(), from, start, moves)
	}
	if san, uci, ok := r.BoardMove(3); !ok || san != "Nf3" || uci != "g1f3" {
		t.Errorf("press 3's move %q %q %v", san, uci, ok)
	}
	r.Resume(2 * time.Second)
	r.Press(3*time.Second, clock.White)
	if r.Presses() != 5 {
		t.Errorf("%d presses after the recovery's", r.Presses())
	}
	if err := r.RecordMove(3*time.Second, 5, "Nc6", "b8c6"); err != nil {
		t.Fatal(err)
	}
	r.Close()
	b, err := os.ReadFile(filepath.Join(dir, journal.File))
	if err != nil {
		t.Fatal(err)
	}
	l, err := clocklog.Parse("game.log", bytes.NewReader(bytes.TrimRight(b, "\x00")))
	if err != nil {
		t.Fatal(err)
	}
	var pgn strings.Builder
	if err := clocklog.WritePGN(l, &pgn, clocklog.PGNGame{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(pgn.String(), "1. e4 {") || !strings.Contains(pgn.String(), "2. Nf3 {") || !strings.Contains(pgn.String(), clocklog.RecordPrefix) {
		t.Errorf("PGN of the recovered journal:\n%s", pgn.String())
	}
}
