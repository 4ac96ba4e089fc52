package relay

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/control"
	"github.com/zeitnot/zeitnot/appliance/eboard/moves"
	"github.com/zeitnot/zeitnot/drivers/eboard"
	"github.com/zeitnot/zeitnot/drivers/eboard/simdgt"
	"github.com/zeitnot/zeitnot/engine/fen"
	"github.com/zeitnot/zeitnot/protocol"
)

const game = "0001-abcdef"

// rig drives a Follower on virtual time with a simulated hand: board
// steps become board events, presses become the watch stream's pressed
// events, and Advance is called at every instant it asks for, as Run's
// loop does.
type rig struct {
	t       *testing.T
	f       *Follower
	now     time.Duration
	hand    *simdgt.Hand
	pos     fen.Placement // the board as the steps fed so far leave it
	presses int
	side    string // who presses next
	sent    []Request
	last    protocol.EBoardStateArg // the last state sent
}

func newRig(t *testing.T, pos fen.Placement, g protocol.EBoardGame) *rig {
	r := &rig{t: t, f: NewFollower(eboard.DefaultSettleOpts), side: "white"}
	r.hand, r.pos = simdgt.NewHand(pos, 0), pos
	r.f.Board(eboard.Event{At: 0, Square: fen.NoSquare, Position: pos})
	if g.Game == "" {
		g = protocol.EBoardGame{Game: game, ToMove: "white", FullMove: 1, FEN: fen.StartFEN}
	}
	if err := g.Check(); err != nil {
		t.Fatal(err)
	}
	r.presses = g.Presses
	if g.ToMove == "black" {
		r.side = "black"
	}
	r.f.Game(g)
	r.until(time.Second)
	return r
}

// until runs the follower to instant t.
func (r *rig) until(t time.Duration) {
	for {
		out, next := r.f.Advance(r.now)
		r.keep(out)
		if next > t {
			r.now = t
			out, _ := r.f.Advance(r.now)
			r.keep(out)
			return
		}
		r.now = max(next, r.now+time.Millisecond)
	}
}

func (r *rig) keep(out []Request) {
	r.sent = append(r.sent, out...)
	for _, q := range out {
		if q.Cmd == "eboard-state" {
			r.last = protocol.EBoardStateArg{}
			json.Unmarshal([]byte(q.Arg), &r.last)
			if err := r.last.Check(); err != nil {
				r.t.Errorf("state of the wrong form: %v", err)
			}
		}
	}
}

// play feeds the hand's steps since the last call, then runs 2 s on.
func (r *rig) play() {
	for _, s := range r.hand.Steps {
		r.until(s.At)
		if s.Press {
			r.presses++
			r.f.Event(protocol.Event{Event: "pressed", Side: r.side, Press: r.presses}, s.At)
			r.side = map[string]string{"white": "black", "black": "white"}[r.side]
			continue
		}
		r.pos[s.Square] = s.Piece
		r.f.Board(eboard.Event{At: s.At, Square: s.Square, Piece: s.Piece, Position: r.pos})
	}
	r.hand.Steps = r.hand.Steps[:0]
	r.until(r.hand.At + 2*time.Second)
	r.hand.At = r.now
}

// event sends a watch event without a press at now.
func (r *rig) event(name string) {
	r.f.Event(protocol.Event{Event: name}, r.now)
	r.until(r.now + time.Second)
	r.hand.At = r.now
}

// take returns the requests sent since the last call, heartbeats left
// out, as "cmd {json}" lines; states only when they change.
func (r *rig) take() []string {
	var out []string
	last := ""
	for _, q := range r.sent {
		if q.Cmd == "eboard-state" {
			if q.Arg == last {
				continue
			}
			last = q.Arg
		}
		out = append(out, q.String())
	}
	r.sent = nil
	return out
}

func (r *rig) moves() []string {
	var out []string
	for _, l := range r.take() {
		if a, ok := strings.CutPrefix(l, "eboard-move "); ok {
			var m protocol.EBoardMoveArg
			json.Unmarshal([]byte(a), &m)
			if m.Check() != nil || m.Game != game {
				r.t.Errorf("a move of the wrong form: %s", a)
			}
			out = append(out, m.UCI)
		}
	}
	return out
}

func (r *rig) state() protocol.EBoardStateArg { return r.last }

// TestFollowGames: games played with every gesture (a slide, captures
// lifted in either order, castling king or rook first, en passant,
// promotion and underpromotion, a knocked piece, a move corrected before
// the press) come out as their moves, one eboard-move a press.
func TestFollowGames(t *testing.T) {
	game := strings.Fields("e2e4 d7d5 e4d5 c7c5 d5c6 g8f6 c6b7 e7e6 b7a8n f8e7 g1f3 e8g8 f1e2 d8d5 e1g1 b8c6 d2d4 f6e4 a8c7 d5d4 f3d4 c6d4 c7e6 f7e6")
	for g := range simdgt.NumGestures {
		r := newRig(t, fen.Start, protocol.EBoardGame{})
		r.event("started")
		if err := r.hand.Game(game, g); err != nil {
			t.Fatal(err)
		}
		r.play()
		got := r.moves()
		if strings.Join(got, " ") != strings.Join(game, " ") {
			t.Errorf("first gesture %v:\n got %s\nwant %s", g, got, game)
		}
		if s := r.state(); s.State != "ok" || s.Press != len(game) {
			t.Errorf("first gesture %v: state %+v", g, s)
		}
	}
}

// TestFollowIllegal: a press no legal move explains is ILLEGAL? for
// that press, nothing is guessed; once the arbiter puts the position back
// the board is ok, and the next press's move goes on from there.
func TestFollowIllegal(t *testing.T) {
	r := newRig(t, fen.Start, protocol.EBoardGame{})
	r.event("started")
	r.hand.Move("e2e4", simdgt.Plain)
	r.hand.Move("e7e5", simdgt.Plain)
	r.play()
	if got := r.moves(); strings.Join(got, " ") != "e2e4 e7e5" {
		t.Fatalf("moves %q", got)
	}
	back := r.hand.Pos
	r.hand.Move("d1d5", simdgt.Plain) // the queen through a pawn
	r.play()
	s := r.state()
	if s.State != "illegal" || s.Illegal != 3 || s.Press != 2 || !strings.Contains(s.Detail, "changed d1 d5") {
		t.Errorf("state %+v", s)
	}
	if got := r.moves(); len(got) != 0 {
		t.Errorf("a move guessed: %q", got)
	}
	r.hand.Restore(back)
	r.play()
	if s := r.state(); s.State != "ok" || s.Press != 2 {
		t.Errorf("after the position was put back: %+v", s)
	}
	r.hand.Move("g1f3", simdgt.Plain)
	r.play()
	if got := r.moves(); strings.Join(got, " ") != "g1f3" {
		t.Errorf("moves after ILLEGAL? %q", got)
	}
	if s := r.state(); s.Press != 4 || s.State != "ok" {
		t.Errorf("state %+v", s)
	}
}

// TestFollowStart: a board not in the initial position is a mismatch
// before the start, which ends when the pieces are put right. A board set
// up otherwise at the start stays a mismatch, never the game's position,
// unless the arbiter chose the board's set-up (a composed start): then it
// is taken.
func TestFollowStart(t *testing.T) {
	wrong := fen.Start
	wrong[fen.NewSquare(1, 0)], wrong[fen.NewSquare(2, 0)] = wrong[fen.NewSquare(2, 0)], wrong[fen.NewSquare(1, 0)]
	r := newRig(t, wrong, protocol.EBoardGame{})
	if s := r.state(); s.State != "mismatch" || s.Detail != "differs on b1 c1" {
		t.Errorf("state %+v", s)
	}
	r.hand.Restore(fen.Start)
	r.play()
	if s := r.state(); s.State != "ok" {
		t.Errorf("state after the pieces were put right %+v", s)
	}

	endgame := fen.MustParsePlacement("4k3/8/8/8/8/8/4P3/4K3")
	r = newRig(t, endgame, protocol.EBoardGame{})
	r.event("started")
	if got := strings.Join(r.take(), "\n"); strings.Contains(got, "eboard-position") {
		t.Errorf("a set-up the arbiter did not choose taken at the start:\n%s", got)
	}
	if s := r.state(); s.State != "mismatch" || !strings.Contains(s.Detail, "not the game's start") {
		t.Errorf("state at a start from another set-up %+v, want a mismatch", s)
	}
	r.hand.Restore(fen.Start)
	r.play()
	if s := r.state(); s.State != "ok" {
		t.Errorf("state once the board is set up as the game starts %+v", s)
	}

	r = newRig(t, endgame, protocol.EBoardGame{Game: game, ToMove: "white", FullMove: 1, FEN: fen.StartFEN, SetUp: true})
	r.event("started")
	got := r.take()
	want := `eboard-position {"game":"0001-abcdef","press":0,"fen":"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"}`
	found := false
	for _, l := range got {
		found = found || l == want
	}
	if !found {
		t.Errorf("requests %q, want %s", got, want)
	}
	r.hand.Move("e2e4", simdgt.Plain)
	r.play()
	if got := r.moves(); strings.Join(got, " ") != "e2e4" {
		t.Errorf("moves from the set-up position %q", got)
	}
}

// TestFollowResumed: a game the daemon gives with its moves (a restart)
// is followed from where it stands, and a board in that position is ok;
// a move the daemon lost (it restarted before journaling it) is handed
// to it again.
func TestFollowResumed(t *testing.T) {
	tr, _ := moves.New("")
	for _, m := range []string{"e2e4", "e7e5"} {
		tr.Play(m)
	}
	pos := tr.Placement()
	r := newRig(t, pos, protocol.EBoardGame{Game: game, Presses: 2, ToMove: "white", FullMove: 2, FEN: fen.StartFEN, Moves: []string{"e2e4", "e7e5"}})
	if s := r.state(); s.State != "ok" || s.Press != 2 || s.FEN != tr.FEN() {
		t.Errorf("state %+v, want ok at press 2 %s", s, tr.FEN())
	}
	r.take()
	// White moves while the clock is paused, then the clock resumes and
	// White presses: the move is the press's, not a position set up.
	r.hand.Make("g1f3", simdgt.Plain)
	r.play()
	r.event("resumed")
	r.hand.Press()
	r.play()
	if got := r.take(); len(got) == 0 || strings.Contains(strings.Join(got, " "), "eboard-position") || !strings.Contains(strings.Join(got, " "), `"uci":"g1f3"`) {
		t.Errorf("a move made while paused: %q", got)
	}
	// The daemon restarts without press 3's line.
	r.f.Down()
	r.f.Game(protocol.EBoardGame{Game: game, Presses: 3, ToMove: "black", FullMove: 2, FEN: fen.StartFEN, Moves: []string{"e2e4", "e7e5", ""}})
	r.until(r.now + time.Second)
	if got := r.moves(); strings.Join(got, " ") != "g1f3" {
		t.Errorf("the lost move not handed again: %q", got)
	}
	// Another position set up, then the clock resumes: no move was made
	// while it stood, so the board is a mismatch until the game's
	// position is back, and never a position of the game.
	game3 := r.hand.Pos
	r.hand.Restore(fen.MustParsePlacement("4k3/8/8/8/8/8/4P3/4K3"))
	r.play()
	r.event("resumed")
	if got := strings.Join(r.take(), " "); strings.Contains(got, "eboard-position") {
		t.Errorf("a position set up at a resume taken: %s", got)
	}
	if s := r.state(); s.State != "mismatch" || !strings.Contains(s.Detail, "not the game's position") {
		t.Errorf("state after a resume on another set-up %+v", s)
	}
	r.hand.Restore(game3)
	r.play()
	if s := r.state(); s.State != "ok" || s.Press != 3 {
		t.Errorf("state with the game's position back %+v", s)
	}
}

// TestFollowLost: a board unplugged is lost; presses made meanwhile have
// no move, and the first press after it comes back takes the board's
// position, from which the game goes on.
func TestFollowLost(t *testing.T) {
	r := newRig(t, fen.Start, protocol.EBoardGame{})
	r.event("started")
	r.hand.Move("e2e4", simdgt.Plain)
	r.play()
	r.take()
	r.f.Lost(errors.New("dgt board on /dev/ttyACM0: read: EOF"))
	r.until(r.now + time.Second)
	if s := r.state(); s.State != "lost" || !strings.Contains(s.Detail, "EOF") {
		t.Errorf("state %+v", s)
	}
	// Black and White move while the board is gone.
	r.hand.Move("e7e5", simdgt.Plain)
	r.hand.Move("g1f3", simdgt.Plain)
	for _, s := range r.hand.Steps {
		if s.Press {
			r.until(s.At)
			r.presses++
			r.f.Event(protocol.Event{Event: "pressed", Side: r.side, Press: r.presses}, s.At)
			r.side = map[string]string{"white": "black", "black": "white"}[r.side]
		} else {
			r.pos[s.Square] = s.Piece
		}
	}
	r.hand.Steps = r.hand.Steps[:0]
	r.until(r.hand.At + 6*time.Second)
	r.hand.At = r.now
	// Replugged on a set-up no game reaches from the last position the
	// follower knew (White's pawn back on e2): a mismatch, and nothing
	// takes it.
	bad := fen.MustParsePlacement("r1bqkbnr/pppppppp/2n5/8/8/5N2/PPPPPPPP/RNBQKB1R")
	r.f.Board(eboard.Event{At: r.now, Square: fen.NoSquare, Position: bad})
	r.until(r.now + time.Second)
	if s := r.state(); s.State != "mismatch" || !strings.Contains(s.Detail, "does not follow from the game's") {
		t.Errorf("state on an unreachable set-up %+v", s)
	}
	// A resume while it stands takes nothing either.
	r.f.Event(protocol.Event{Event: "resumed"}, r.now)
	r.until(r.now + 2*time.Second)
	if got := strings.Join(r.take(), "\n"); strings.Contains(got, "eboard-position") {
		t.Errorf("an unreachable set-up taken:\n%s", got)
	}
	// The pieces as the game stands: a dump.
	r.f.Board(eboard.Event{At: r.now, Square: fen.NoSquare, Position: r.pos})
	r.until(r.now + time.Second)
	r.hand.At = r.now
	if got := r.moves(); len(got) != 0 {
		t.Errorf("moves made without a board: %q", got)
	}
	r.hand.Move("b8c6", simdgt.Plain)
	r.play()
	got := strings.Join(r.take(), "\n")
	if !strings.Contains(got, `eboard-position {"game":"0001-abcdef","press":4,"fen":"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3"}`) || r.state().State != "ok" {
		t.Errorf("after the replug: %s", got)
	}
	r.hand.Move("f1c4", simdgt.Plain)
	r.play()
	if got := r.moves(); strings.Join(got, " ") != "f1c4" {
		t.Errorf("moves after the replug %q", got)
	}
}

// BenchmarkFollowerFlood is one event of a board that changes without
// end (a square flickering 10,000 times a second, a press every 100 ms
// that the board never answers), fed as Run feeds it: every event
// observed, Advance when it is due.
// TestFollowGap: the driver fell behind and dropped the changes after
// White lifted the pawn (Event.Gap); the press comes before its next
// event, the dump showing the pawn on e4. The press's move is e4, not an
// ILLEGAL? from the lifted pawn taken as standing through the gap.
func TestFollowGap(t *testing.T) {
	r := newRig(t, fen.Start, protocol.EBoardGame{})
	r.take()
	e2, e4 := fen.NewSquare(4, 1), fen.NewSquare(4, 3)
	at := r.now + time.Second
	r.until(at)
	r.pos[e2] = fen.Empty
	r.f.Board(eboard.Event{At: at, Square: e2, Piece: fen.Empty, Position: r.pos, Gap: true})
	r.until(at + time.Second)
	r.presses++
	r.f.Event(protocol.Event{Event: "pressed", Side: "white", Press: r.presses}, r.now)
	r.until(at + 2*time.Second)
	r.pos[e4] = fen.WhitePawn
	r.f.Board(eboard.Event{At: r.now, Square: fen.NoSquare, Position: r.pos})
	r.until(r.now + 2*time.Second)
	if got := r.moves(); len(got) != 1 || got[0] != "e2e4" {
		t.Fatalf("moves %v, want e2e4", got)
	}
}

func BenchmarkFollowerFlood(b *testing.B) {
	f := NewFollower(eboard.DefaultSettleOpts)
	f.Game(protocol.EBoardGame{Game: game, ToMove: "white", FEN: fen.StartFEN})
	pos := fen.Start
	e2 := fen.NewSquare(4, 1)
	var at, next time.Duration
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		at += 100 * time.Microsecond
		pos[e2] = [2]fen.Piece{fen.Empty, fen.WhitePawn}[i%2]
		f.Board(eboard.Event{At: at, Square: e2, Piece: pos[e2], Position: pos})
		if i%1000 == 0 {
			f.Event(protocol.Event{Event: "pressed", Side: "white", Press: i/1000 + 1}, at)
			next = at
		}
		if at >= next || f.StableAt() < next {
			_, next = f.Advance(at)
		}
	}
}

// TestAskGameIgnoresNewFields: the daemon's eboard-game answer is read as
// protocol's readers read, so a field a newer daemon adds does not stop an
// older e-board process from following the game; an answer that is not
// the game's JSON is an error naming the request.
func TestAskGameIgnoresNewFields(t *testing.T) {
	for _, tc := range []struct{ answer, err string }{
		{`{"game":"0001-abcdef","presses":0,"to_move":"white","running":false,"fullmove":1,"from":0,"fen":"` + fen.StartFEN + `","moves":[],"a_field_of_later":true}`, ""},
		{`[1]`, "eboard-game: want a JSON object"},
		{`{"game":"0001-abcdef"} x`, "eboard-game: data after the JSON object"},
	} {
		sock := filepath.Join(t.TempDir(), "control.sock")
		l, err := net.Listen("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			c, err := l.Accept()
			if err != nil {
				return
			}
			defer c.Close()
			bufio.NewReader(c).ReadString('\n')
			io.WriteString(c, tc.answer+"\n")
		}()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		g, err := askGame(ctx, control.Client{Socket: sock})
		cancel()
		l.Close()
		switch {
		case tc.err == "" && (err != nil || g.Game != "0001-abcdef"):
			t.Errorf("answer %s: %+v, %v", tc.answer, g, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("answer %s: %v, want an error with %q", tc.answer, err, tc.err)
		}
	}
}
