package moves_test

import (
	"errors"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/eboard/moves"
	"github.com/zeitnot/zeitnot/drivers/eboard"
	"github.com/zeitnot/zeitnot/drivers/eboard/dgt"
	"github.com/zeitnot/zeitnot/drivers/eboard/simdgt"
	"github.com/zeitnot/zeitnot/engine/fen"
)

// rig is the whole chain a game goes through: a simulated DGT board
// speaking the protocol on a pipe, the DGT driver reading it with an
// injected clock, the Settler, and the Tracker. Steps are played in order:
// each change is made on the board and read back from the driver before
// the next, so every instant is the step's own.
type rig struct {
	t       *testing.T
	sim     *simdgt.Board
	dev     *dgt.Dev
	clock   atomic.Int64
	settler *eboard.Settler
	tracker *moves.Tracker
	played  []moves.Move
	errs    []error // one per press that gave no move, in order
	presses int
	due     time.Duration   // when the Settler asked to be asked again
	delays  []time.Duration // from each press to its answer
}

func newRig(t *testing.T, board fen.Placement, fen string) *rig {
	t.Helper()
	a, b := net.Pipe()
	r := &rig{t: t, sim: simdgt.New(board, nil), settler: eboard.NewSettler(nil)}
	go r.sim.Serve(b)
	dev, err := dgt.New(a, "pipe", &dgt.Opts{Now: r.now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dev.Close(); b.Close() })
	return r.start(dev, fen)
}

// newPTYRig is newRig with the board on a pseudo-terminal, opened by its
// path through the serial port library as /dev/ttyACM0 would be.
func newPTYRig(t *testing.T, board fen.Placement, fen string) *rig {
	t.Helper()
	p, err := simdgt.OpenPTY()
	if err != nil {
		t.Skip("no pseudo-terminal:", err)
	}
	r := &rig{t: t, sim: simdgt.New(board, nil), settler: eboard.NewSettler(nil)}
	go r.sim.Serve(p.Master)
	dev, err := dgt.Open(p.Name, &dgt.Opts{Now: r.now})
	if err != nil {
		p.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() { dev.Close(); p.Close() })
	return r.start(dev, fen)
}

func (r *rig) now() time.Duration { return time.Duration(r.clock.Load()) }

func (r *rig) start(dev *dgt.Dev, fen string) *rig {
	t := r.t
	t.Helper()
	r.dev = dev
	e, err := dev.Next()
	if err != nil {
		t.Fatal(err)
	}
	r.settler.Observe(e.At, e.Position)
	if r.tracker, err = moves.New(fen); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestGameOnPTY: a game, byte for byte over a pseudo-terminal.
func TestGameOnPTY(t *testing.T) {
	g := loadGames(t)[0]
	r := newPTYRig(t, fen.Start, "")
	h := simdgt.NewHand(fen.Start, 0)
	if err := h.Game(g.uci, simdgt.Slide); err != nil {
		t.Fatal(err)
	}
	r.play(h)
	if len(r.errs) > 0 || len(r.played) != len(g.uci) {
		t.Fatalf("played %d of %d, errors %v", len(r.played), len(g.uci), r.errs)
	}
	for i, m := range r.played {
		if m.SAN != g.san[i] {
			t.Errorf("ply %d: %s, want %s", i+1, m.SAN, g.san[i])
		}
	}
}

// advance answers the presses due by instant now, asking the Settler at
// each instant it named, so that the delay of every answer is exact.
func (r *rig) advance(now time.Duration) {
	for {
		at := now
		if r.due > 0 && r.due <= now && r.due != now {
			at = r.due
		}
		got, next := r.settler.Advance(at)
		r.due = next
		for _, s := range got {
			r.delays = append(r.delays, at-s.Press)
			m, err := r.tracker.PressSettled(s)
			if err != nil {
				r.errs = append(r.errs, err)
				continue
			}
			r.played = append(r.played, m)
		}
		if at == now {
			return
		}
	}
}

// play runs the hand's steps through the chain, then lets the board stand.
func (r *rig) play(h *simdgt.Hand) {
	r.t.Helper()
	for _, s := range h.Steps {
		r.advance(s.At)
		r.clock.Store(int64(s.At))
		if s.Press {
			r.settler.Press(s.At)
			r.presses++
			if r.due == 0 || r.due > s.At {
				r.due = s.At // ask at once: the position may stand already
			}
			continue
		}
		if err := r.sim.Apply(s); err != nil {
			r.t.Fatal(err)
		}
		e, err := r.dev.Next()
		if err != nil {
			r.t.Fatal(err)
		}
		if e.At != s.At || e.Square != s.Square || e.Piece != s.Piece {
			r.t.Fatalf("step %+v read back as %+v", s, e)
		}
		r.settler.Observe(e.At, e.Position)
	}
	h.At += 10 * time.Second // the board stands; the next steps come later
	r.advance(h.At)
	h.Steps = nil
}

// TestGamesThroughSimulatedBoard plays every test PGN through the
// simulated board, eight times, each move made with each gesture once
// (plain, slide, capture lifted either way, castling king or rook first, a
// knocked piece, a move put down on the wrong square and corrected), and
// reads back the source moves, in UCI and SAN, move for move.
func TestGamesThroughSimulatedBoard(t *testing.T) {
	for _, g := range loadGames(t) {
		for first := range simdgt.NumGestures {
			t.Run(g.name+"/"+first.String(), func(t *testing.T) {
				r := newRig(t, fen.Start, "")
				h := simdgt.NewHand(fen.Start, 0)
				if err := h.Game(g.uci, first); err != nil {
					t.Fatal(err)
				}
				r.play(h)
				if len(r.errs) > 0 {
					t.Fatalf("presses without a move: %v", r.errs)
				}
				if len(r.played) != len(g.uci) {
					t.Fatalf("%d moves read back, want %d", len(r.played), len(g.uci))
				}
				worst := time.Duration(0)
				for _, d := range r.delays {
					worst = max(worst, d)
				}
				t.Logf("%d plies; longest wait from a press to its position: %v", len(r.played), worst)
				for i, m := range r.played {
					if m.UCI != g.uci[i] || m.SAN != g.san[i] || m.Ply != i+1 {
						t.Errorf("ply %d: read %s %s (ply %d), want %s %s", i+1, m.UCI, m.SAN, m.Ply, g.uci[i], g.san[i])
					}
				}
			})
		}
	}
}

// TestSpecialMoves: each special move, by each way a hand makes it.
func TestSpecialMoves(t *testing.T) {
	for _, tc := range []struct {
		name    string
		fen     string
		uci     string
		gesture simdgt.Gesture
		san     string
	}{
		{"white O-O king first", "r3k2r/pppq1ppp/2n5/3pp3/8/5N2/PPPPBPPP/R3K2R w KQkq - 0 1", "e1g1", simdgt.KingFirst, "O-O"},
		{"white O-O rook first", "r3k2r/pppq1ppp/2n5/3pp3/8/5N2/PPPPBPPP/R3K2R w KQkq - 0 1", "e1g1", simdgt.RookFirst, "O-O"},
		{"white O-O-O rook first", "r3k2r/pppq1ppp/2n5/3pp3/8/5N2/PPPPBPPP/R3K2R w KQkq - 0 1", "e1c1", simdgt.RookFirst, "O-O-O"},
		{"black O-O-O king first", "r3k2r/pppq1ppp/2n5/3pp3/8/5N2/PPPPBPPP/R3K2R b KQkq - 0 1", "e8c8", simdgt.KingFirst, "O-O-O"},
		{"black O-O rook first", "r3k2r/pppq1ppp/2n5/3pp3/8/5N2/PPPPBPPP/R3K2R b KQkq - 0 1", "e8g8", simdgt.RookFirst, "O-O"},
		{"en passant, captured pawn last", "4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 2", "d5e6", simdgt.MoverFirst, "dxe6"},
		{"en passant, captured pawn first", "4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 2", "d5e6", simdgt.TargetFirst, "dxe6"},
		{"black en passant", "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 2", "d4e3", simdgt.TargetFirst, "dxe3"},
		{"promotion to a queen", "8/P6k/8/8/8/8/6K1/8 w - - 0 1", "a7a8q", simdgt.Plain, "a8=Q"},
		{"underpromotion to a rook", "8/P6k/8/8/8/8/6K1/8 w - - 0 1", "a7a8r", simdgt.Plain, "a8=R"},
		{"underpromotion to a bishop", "8/P6k/8/8/8/8/6K1/8 w - - 0 1", "a7a8b", simdgt.Plain, "a8=B"},
		{"underpromotion to a knight, check", "8/P1k5/8/8/8/8/6K1/8 w - - 0 1", "a7a8n", simdgt.Plain, "a8=N+"},
		{"promotion by capture, captured first", "1r5k/P7/8/8/8/8/6K1/8 w - - 0 1", "a7b8q", simdgt.TargetFirst, "axb8=Q+"},
		{"promotion by capture, pawn first", "1r5k/P7/8/8/8/8/6K1/8 w - - 0 1", "a7b8n", simdgt.MoverFirst, "axb8=N"},
		{"black underpromotion", "8/8/8/8/8/7k/p7/6K1 b - - 0 1", "a2a1r", simdgt.Plain, "a1=R+"},
		{"capture, captured first", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", simdgt.TargetFirst, "exd5"},
		{"a slide across the board", "4k3/8/8/8/8/8/8/Q3K3 w - - 0 1", "a1h8", simdgt.Slide, "Qh8+"},
		{"a knocked piece put back", "4k3/8/8/8/8/8/1N6/R3K3 w - - 0 1", "a1a3", simdgt.Knock, "Ra3"},
		{"a move corrected before the press", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a7", simdgt.Correct, "Ra7"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			board := placement(t, tc.fen)
			r := newRig(t, board, tc.fen)
			if err := r.tracker.Check(&board); err != nil {
				t.Fatal(err)
			}
			h := simdgt.NewHand(board, 0)
			if err := h.Move(tc.uci, tc.gesture); err != nil {
				t.Fatal(err)
			}
			r.play(h)
			if len(r.errs) > 0 || len(r.played) != 1 {
				t.Fatalf("played %+v, errors %v", r.played, r.errs)
			}
			if m := r.played[0]; m.UCI != tc.uci || m.SAN != tc.san {
				t.Errorf("read %s %s, want %s %s", m.UCI, m.SAN, tc.uci, tc.san)
			}
		})
	}
}

func placement(t *testing.T, s string) fen.Placement {
	t.Helper()
	p, err := fen.ParsePlacement(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestIllegalThenRestored: an illegal move gives ILLEGAL? and no move; once
// the arbiter puts the position back and the player makes a legal move,
// the game goes on.
func TestIllegalThenRestored(t *testing.T) {
	r := newRig(t, fen.Start, "")
	h := simdgt.NewHand(fen.Start, 0)
	h.Move("e2e4", simdgt.Plain)
	h.Move("e7e4", simdgt.Plain) // a pawn three squares ahead, onto a pawn
	r.play(h)
	if len(r.played) != 1 || r.played[0].SAN != "e4" {
		t.Fatalf("played %+v", r.played)
	}
	var ill *moves.IllegalError
	if len(r.errs) != 1 || !errors.As(r.errs[0], &ill) || !strings.Contains(ill.Error(), "ILLEGAL?") {
		t.Fatalf("errors %v, want one ILLEGAL?", r.errs)
	}
	if got := squares(ill.Changed); got != "e4 e7" {
		t.Errorf("changed squares %q, want e4 e7", got)
	}
	r.errs = nil
	h.Restore(r.tracker.Placement()) // the arbiter
	h.Move("e7e5", simdgt.Slide)
	h.Move("g1f3", simdgt.Plain)
	r.play(h)
	if len(r.errs) > 0 || len(r.played) != 3 || r.played[1].SAN != "e5" || r.played[2].SAN != "Nf3" {
		t.Fatalf("after the restore: played %+v, errors %v", r.played, r.errs)
	}
}

// TestTakenBack: a move made, taken back and another made before the press
// is the other move.
func TestTakenBack(t *testing.T) {
	r := newRig(t, fen.Start, "")
	h := simdgt.NewHand(fen.Start, 0)
	h.Make("e2e4", simdgt.Plain)
	h.Make("e4e2", simdgt.Plain)
	h.Make("d2d4", simdgt.Slide)
	h.Press()
	r.play(h)
	if len(r.errs) > 0 || len(r.played) != 1 || r.played[0].UCI != "d2d4" {
		t.Fatalf("played %+v, errors %v", r.played, r.errs)
	}
}

// TestPressWithoutMove: a press with the board as it was is no move.
func TestPressWithoutMove(t *testing.T) {
	r := newRig(t, fen.Start, "")
	h := simdgt.NewHand(fen.Start, 0)
	h.Press()
	r.play(h)
	if len(r.errs) != 1 || !errors.Is(r.errs[0], moves.ErrNoMove) {
		t.Fatalf("errors %v, want ErrNoMove", r.errs)
	}
}

func squares(s []fen.Square) string {
	out := make([]string, len(s))
	for i, q := range s {
		out[i] = q.String()
	}
	return strings.Join(out, " ")
}

func TestCheck(t *testing.T) {
	tr, err := moves.New("")
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Check(&fen.Start); err != nil {
		t.Fatal(err)
	}
	b := fen.Start
	b[fen.NewSquare(3, 0)] = fen.Empty      // no white queen
	b[fen.NewSquare(4, 3)] = fen.WhiteQueen // she stands on e4
	var mm *moves.MismatchError
	if err := tr.Check(&b); !errors.As(err, &mm) || squares(mm.Changed) != "d1 e4" {
		t.Fatalf("Check of a wrong board: %v", err)
	}
}

// TestPressTable: positions given directly, without the board.
func TestPressTable(t *testing.T) {
	for _, tc := range []struct {
		name, fen, board, want string // want is the SAN, or "" for ILLEGAL?
	}{
		{"e4", "", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR", "e4"},
		{"two moves at once", "", "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR", ""},
		{"a piece gone", "", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1", ""},
		{"black moves for white", "", "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR", ""},
		{"castling through check", "4k3/8/8/8/8/8/5r2/4K2R w K - 0 1", "4k3/8/8/8/8/8/5r2/5RK1", ""},
		{"castling without the right", "4k3/8/8/8/8/8/8/4K2R w - - 0 1", "4k3/8/8/8/8/8/8/5RK1", ""},
		{"en passant too late", "4k3/8/8/3Pp3/8/8/8/4K3 w - - 0 3", "4k3/8/4P3/8/8/8/8/4K3", ""},
		{"pawn on the last rank, not promoted", "8/P6k/8/8/8/8/6K1/8 w - - 0 1", "P7/7k/8/8/8/8/6K1/8", ""},
		{"promoted to a king", "8/P6k/8/8/8/8/6K1/8 w - - 0 1", "K7/7k/8/8/8/8/6K1/8", ""},
		{"mate", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "R5k1/5ppp/8/8/8/8/8/6K1", "Ra8#"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := moves.New(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			before := tr.FEN()
			b := placement(t, tc.board)
			m, err := tr.Press(&b)
			if tc.want == "" {
				var ill *moves.IllegalError
				if !errors.As(err, &ill) || tr.FEN() != before {
					t.Fatalf("Press = %+v, %v; want ILLEGAL? and the position kept", m, err)
				}
				return
			}
			if err != nil || m.SAN != tc.want {
				t.Fatalf("Press = %+v, %v; want %s", m, err, tc.want)
			}
		})
	}
}

func TestNewErrors(t *testing.T) {
	for _, fen := range []string{"nonsense", "8/8/8/8/8/8/8/8 w - - 0 1", "4k3/8/8/8/8/8/8/4K2K w - - 0 1"} {
		if _, err := moves.New(fen); err == nil {
			t.Errorf("New(%q) succeeded", fen)
		}
	}
}

// TestFromBoard: a position set up by the arbiter, read from the board,
// resumes the game.
func TestFromBoard(t *testing.T) {
	b := placement(t, "r3k2r/8/8/8/8/8/8/R3K1R1")
	fen, err := moves.FromBoard(&b, false, 31)
	if err != nil {
		t.Fatal(err)
	}
	if fen != "r3k2r/8/8/8/8/8/8/R3K1R1 b Qkq - 0 31" {
		t.Fatalf("FromBoard = %q", fen)
	}
	tr, err := moves.New(fen)
	if err != nil {
		t.Fatal(err)
	}
	after := placement(t, "2kr3r/8/8/8/8/8/8/R3K1R1")
	if m, err := tr.Press(&after); err != nil || m.SAN != "O-O-O" || m.Ply != 62 {
		t.Fatalf("Press = %+v, %v", m, err)
	}
	bad := placement(t, "8/8/8/8/8/8/8/R3K1R1")
	if _, err := moves.FromBoard(&bad, true, 1); err == nil {
		t.Fatal("FromBoard of a board without a black king succeeded")
	}
}

// TestUnderpromotionThenCastle: after b8=N, which gives no check (the
// library tags it as check, as b8=Q would be), Black may castle.
func TestUnderpromotionThenCastle(t *testing.T) {
	tr, err := moves.New("4k2r/1P6/8/8/8/8/8/4K3 w k - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	b := placement(t, "1N2k2r/8/8/8/8/8/8/4K3")
	if m, err := tr.Press(&b); err != nil || m.SAN != "b8=N" {
		t.Fatalf("Press = %+v, %v; want b8=N", m, err)
	}
	b = placement(t, "1N3rk1/8/8/8/8/8/8/4K3")
	if m, err := tr.Press(&b); err != nil || m.SAN != "O-O" {
		t.Fatalf("Press = %+v, %v; want O-O", m, err)
	}
}

// TestBlitz: a player presses 50 ms after putting the piece down and the
// opponent lifts a piece 100 ms after the press, before the position has
// stood 250 ms: the move is still read, and so is the reply.
func TestBlitz(t *testing.T) {
	r := newRig(t, fen.Start, "")
	h := simdgt.NewHand(fen.Start, 0)
	h.Timing = simdgt.Timing{Touch: 80 * time.Millisecond, Pass: 30 * time.Millisecond, Press: 50 * time.Millisecond, Think: 100 * time.Millisecond}
	uci := []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5c6", "d7c6", "e1g1", "f7f6"}
	if err := h.Game(uci, simdgt.Plain); err != nil {
		t.Fatal(err)
	}
	r.play(h)
	if len(r.errs) > 0 || len(r.played) != len(uci) {
		t.Fatalf("played %d of %d, errors %v", len(r.played), len(uci), r.errs)
	}
	t.Logf("waits from a press to its position: %v", r.delays)
	for i, m := range r.played {
		if m.UCI != uci[i] {
			t.Errorf("ply %d: %s, want %s", i+1, m.UCI, uci[i])
		}
	}
}

// BenchmarkPress: the work of one press, a middlegame position with many
// legal moves, the rules library generating and playing every one.
func BenchmarkPress(b *testing.B) {
	const before = "r1bq1rk1/pp2bppp/2n1pn2/2pp4/2PP4/2N1PN2/PP2BPPP/R1BQ1RK1 w - - 0 8"
	after, err := fen.ParsePlacement("r1bq1rk1/pp2bppp/2n1pn2/2pP4/3P4/2N1PN2/PP2BPPP/R1BQ1RK1")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		tr, _ := moves.New(before)
		if _, err := tr.Press(&after); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPlay: the daemon's check of a move the board helper sent, a
// middlegame position, the UCI looked up among the legal moves.
func BenchmarkPlay(b *testing.B) {
	const before = "r1bq1rk1/pp2bppp/2n1pn2/2pp4/2PP4/2N1PN2/PP2BPPP/R1BQ1RK1 w - - 0 8"
	b.ReportAllocs()
	for b.Loop() {
		tr, _ := moves.New(before)
		if _, err := tr.Play("c4d5"); err != nil {
			b.Fatal(err)
		}
	}
}

// TestWaitAfterQuickPress: a press 100 ms after the piece is put down is
// answered when the position has stood 250 ms, 150 ms after the press; a
// press 300 ms after it, at once.
func TestWaitAfterQuickPress(t *testing.T) {
	for _, tc := range []struct{ press, want time.Duration }{
		{100 * time.Millisecond, 150 * time.Millisecond},
		{300 * time.Millisecond, 0},
	} {
		r := newRig(t, fen.Start, "")
		h := simdgt.NewHand(fen.Start, 0)
		h.Timing.Press = tc.press
		if err := h.Game([]string{"e2e4", "c7c5", "g1f3"}, simdgt.Plain); err != nil {
			t.Fatal(err)
		}
		r.play(h)
		if len(r.played) != 3 {
			t.Fatalf("played %+v, errors %v", r.played, r.errs)
		}
		for i, d := range r.delays {
			if d != tc.want {
				t.Errorf("press %v after the piece: wait %d is %v, want %v", tc.press, i+1, d, tc.want)
			}
		}
	}
}

// TestPlay: the journal's UCI moves replay a game, special moves too; a
// move that is not legal is refused and changes nothing.
func TestPlay(t *testing.T) {
	tr, err := moves.New("")
	if err != nil {
		t.Fatal(err)
	}
	for _, uci := range []string{"e2e4", "d7d5", "e4d5", "c7c5", "d5c6", "g8f6", "c6b7", "e7e6", "b7a8n", "f8e7", "g1f3", "e8g8"} {
		if _, err := tr.Play(uci); err != nil {
			t.Fatalf("%s: %v", uci, err)
		}
	}
	want := "Nnbq1rk1/p3bppp/4pn2/8/8/5N2/PPPP1PPP/RNBQKB1R w KQ - 3 7"
	if tr.FEN() != want {
		t.Errorf("FEN %s, want %s", tr.FEN(), want)
	}
	if _, err := tr.Play("e1g2"); err == nil || tr.FEN() != want {
		t.Errorf("an illegal move: %v, FEN %s", err, tr.FEN())
	}
}

// TestExplains: a board one legal move on is explained, and nothing is
// played; the position itself, or two moves on, is not.
func TestExplains(t *testing.T) {
	tr, _ := moves.New("")
	start := tr.Placement()
	after, _ := moves.New("")
	after.Play("e2e4")
	one := after.Placement()
	after.Play("e7e5")
	two := after.Placement()
	if !tr.Explains(&one) || tr.Explains(&start) || tr.Explains(&two) {
		t.Errorf("explains one %v, none %v, two %v", tr.Explains(&one), tr.Explains(&start), tr.Explains(&two))
	}
	if tr.FEN() != fen.StartFEN {
		t.Errorf("Explains played: %s", tr.FEN())
	}
}

// TestIllegalPositions: a position no game could reach is refused by New
// and FromBoard: too many pieces for promotion, pawns on the first or
// last rank.
func TestIllegalPositions(t *testing.T) {
	for _, placement := range []string{
		"4k3/8/8/8/QQQQQQQQ/QQQQQQQQ/8/4K3",
		"4k3/8/8/8/8/8/8/P3K3",
		"p3k3/8/8/8/8/8/8/4K3",
		"4k3/pppppppp/p7/8/8/8/8/4K3",
		"4k3/8/8/8/8/8/PPPPPPPP/QQ2K3",
		"4k3/8/8/8/8/8/4Q3/4K3", // White to move, Black in check
	} {
		b := fen.MustParsePlacement(placement)
		if fen, err := moves.FromBoard(&b, true, 1); err == nil {
			t.Errorf("%s taken as %s", placement, fen)
		}
	}
	ok := fen.MustParsePlacement("4k3/8/8/8/8/8/PPPPPPP1/QQ2K3")
	if _, err := moves.FromBoard(&ok, true, 1); err != nil {
		t.Errorf("one promoted queen: %v", err)
	}
}
