package simdgt

import (
	"fmt"
	"time"

	"github.com/zeitnot/zeitnot/drivers/eboard"
	"github.com/zeitnot/zeitnot/engine/fen"
)

// Step is one change a hand makes: a square takes a piece (Empty when a
// piece is lifted), or, with Press, the player presses the clock.
type Step struct {
	At     time.Duration
	Square fen.Square
	Piece  fen.Piece
	Press  bool
}

// Gesture is how a hand makes a move.
type Gesture uint8

// The gestures. A gesture that does not fit a move (a slide of a knight, a
// capture order for a quiet move) falls back to Plain.
const (
	Plain       Gesture = iota // lift the piece, put it down
	Slide                      // the piece passes over the squares between
	TargetFirst                // a capture: the captured piece is lifted first
	MoverFirst                 // a capture: the moving piece is lifted first
	KingFirst                  // castling: the king moves, then the rook
	RookFirst                  // castling: the rook moves, then the king
	Knock                      // after the move a neighbour is knocked over and put back
	Correct                    // the piece is put down on another square, then moved on
	// NumGestures is the number of gestures.
	NumGestures
)

var gestureNames = [...]string{"plain", "slide", "target-first", "mover-first", "king-first", "rook-first", "knock", "correct"}

func (g Gesture) String() string {
	if int(g) < len(gestureNames) {
		return gestureNames[g]
	}
	return fmt.Sprintf("gesture(%d)", g)
}

// Timing is how fast a hand moves.
type Timing struct {
	Touch time.Duration // between two changes of one gesture
	Pass  time.Duration // a slide's stay on a square it passes over
	Press time.Duration // from the last change to the press
	Think time.Duration // from a press to the next move's first change
}

// DefaultTiming is a calm player: a third of a second between lifting and
// placing, 60 ms on each square slid over (less than a DGT board's scan),
// the press 300 ms after the piece is down, a second to think.
var DefaultTiming = Timing{Touch: 330 * time.Millisecond, Pass: 60 * time.Millisecond, Press: 300 * time.Millisecond, Think: time.Second}

// Hand writes the steps of moves made on a board. It knows no chess rules:
// it reads a move in UCI as squares and the pieces on them. A king that goes
// two files is castling (the rook beside it moves too); a pawn that goes
// diagonally to an empty square takes en passant; a fifth letter is the
// piece the pawn becomes.
type Hand struct {
	Pos    fen.Placement // the board as the hand leaves it
	At     time.Duration // the instant of the hand's last step
	Timing Timing
	Steps  []Step
}

// NewHand returns a hand at a board showing pos, at instant at.
func NewHand(pos fen.Placement, at time.Duration) *Hand {
	return &Hand{Pos: pos, At: at, Timing: DefaultTiming}
}

func (h *Hand) set(after time.Duration, s fen.Square, p fen.Piece) {
	h.At += after
	h.Pos[s] = p
	h.Steps = append(h.Steps, Step{At: h.At, Square: s, Piece: p})
}

// Press adds the press of the clock, Timing.Press after the last change.
func (h *Hand) Press() {
	h.At += h.Timing.Press
	h.Steps = append(h.Steps, Step{At: h.At, Press: true})
}

// Move adds the steps of the move uci made with gesture g, then the press.
func (h *Hand) Move(uci string, g Gesture) error {
	if err := h.Make(uci, g); err != nil {
		return err
	}
	h.Press()
	return nil
}

// Make adds the steps of the move uci made with gesture g, without the
// press: the player may still take it back and make another.
func (h *Hand) Make(uci string, g Gesture) error {
	if len(uci) != 4 && len(uci) != 5 {
		return fmt.Errorf("simdgt: move %q: not UCI", uci)
	}
	from, err1 := fen.ParseSquare(uci[0:2])
	to, err2 := fen.ParseSquare(uci[2:4])
	if err1 != nil || err2 != nil || from == to {
		return fmt.Errorf("simdgt: move %q: not UCI", uci)
	}
	p := h.Pos[from]
	if p == fen.Empty {
		return fmt.Errorf("simdgt: move %q: no piece on %s", uci, from)
	}
	white := p <= fen.WhiteKing
	placed := p
	if len(uci) == 5 {
		q, ok := fen.PieceFromLetter(uci[4] - 'a' + 'A')
		if !ok || q == fen.WhitePawn || q == fen.WhiteKing {
			return fmt.Errorf("simdgt: move %q: %q is no piece to promote to", uci, uci[4])
		}
		if !white {
			q += fen.BlackPawn - fen.WhitePawn
		}
		placed = q
	}
	t := h.Timing
	h.At += t.Think
	df := to.File() - from.File()
	king := p == fen.WhiteKing || p == fen.BlackKing
	pawn := p == fen.WhitePawn || p == fen.BlackPawn
	switch {
	case king && (df == 2 || df == -2):
		rf, rt := fen.NewSquare(7, from.Rank()), fen.NewSquare(5, from.Rank())
		if df < 0 {
			rf, rt = fen.NewSquare(0, from.Rank()), fen.NewSquare(3, from.Rank())
		}
		rook := h.Pos[rf]
		if g == RookFirst {
			h.set(0, rf, fen.Empty)
			h.set(t.Touch, rt, rook)
			h.set(t.Touch, from, fen.Empty)
			h.set(t.Touch, to, placed)
		} else {
			h.set(0, from, fen.Empty)
			h.set(t.Touch, to, placed)
			h.set(t.Touch, rf, fen.Empty)
			h.set(t.Touch, rt, rook)
		}
		return nil
	case pawn && df != 0 && h.Pos[to] == fen.Empty:
		victim := fen.NewSquare(to.File(), from.Rank())
		if g == TargetFirst {
			h.set(0, victim, fen.Empty)
			h.set(t.Touch, from, fen.Empty)
			h.set(t.Touch, to, placed)
		} else {
			h.set(0, from, fen.Empty)
			h.set(t.Touch, to, placed)
			h.set(t.Touch, victim, fen.Empty)
		}
		return nil
	case h.Pos[to] != fen.Empty:
		if g == TargetFirst {
			h.set(0, to, fen.Empty)
			h.set(t.Touch, from, fen.Empty)
		} else {
			h.set(0, from, fen.Empty)
			h.set(t.Touch, to, fen.Empty)
		}
		h.set(t.Touch, to, placed)
		return nil
	}
	h.set(0, from, fen.Empty)
	switch between := line(from, to); {
	case g == Slide && len(between) > 0:
		for _, s := range between {
			if h.Pos[s] != fen.Empty {
				continue // lifted over it
			}
			h.set(t.Pass, s, p)
			h.set(t.Pass, s, fen.Empty)
		}
	case g == Correct:
		if wrong, ok := h.emptyNear(to); ok {
			h.set(t.Touch, wrong, p)
			h.set(t.Touch+t.Press, wrong, fen.Empty) // stands long enough to be stable
		}
	}
	h.set(t.Touch, to, placed)
	if g == Knock {
		if s, ok := h.occupiedNear(to); ok {
			q := h.Pos[s]
			h.set(t.Pass, s, fen.Empty)
			h.set(t.Touch+t.Press, s, q)
		}
	}
	return nil
}

// line returns the squares strictly between a and b on a rank, file or
// diagonal, or nil.
func line(a, b fen.Square) []fen.Square {
	df, dr := b.File()-a.File(), b.Rank()-a.Rank()
	if df != 0 && dr != 0 && df != dr && df != -dr {
		return nil
	}
	sf, sr := sign(df), sign(dr)
	var out []fen.Square
	for f, r := a.File()+sf, a.Rank()+sr; f != b.File() || r != b.Rank(); f, r = f+sf, r+sr {
		out = append(out, fen.NewSquare(f, r))
	}
	return out
}

func sign(n int) int {
	switch {
	case n > 0:
		return 1
	case n < 0:
		return -1
	}
	return 0
}

func (h *Hand) near(s fen.Square, empty bool) (fen.Square, bool) {
	for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, -1}, {1, -1}, {-1, 1}} {
		f, r := s.File()+d[0], s.Rank()+d[1]
		if f < 0 || f > 7 || r < 0 || r > 7 {
			continue
		}
		n := fen.NewSquare(f, r)
		if (h.Pos[n] == fen.Empty) == empty {
			return n, true
		}
	}
	return 0, false
}

func (h *Hand) emptyNear(s fen.Square) (fen.Square, bool)    { return h.near(s, true) }
func (h *Hand) occupiedNear(s fen.Square) (fen.Square, bool) { return h.near(s, false) }

// Game adds the moves of a game, in UCI, each followed by its press; the
// gestures take turns, starting with first, so that a game of a few dozen
// moves makes every one of them that fits, and eight games from the eight
// first gestures make every gesture with every move.
func (h *Hand) Game(moves []string, first Gesture) error {
	for i, m := range moves {
		if err := h.Move(m, Gesture((i+int(first))%int(NumGestures))); err != nil {
			return fmt.Errorf("simdgt: move %d: %w", i+1, err)
		}
	}
	return nil
}

// Restore adds the steps that make the board show pos, square by square, as
// an arbiter puts a position back (no press).
func (h *Hand) Restore(pos fen.Placement) {
	h.At += h.Timing.Think
	for _, s := range eboard.Diff(&h.Pos, &pos) {
		if pos[s] == fen.Empty {
			h.set(h.Timing.Touch, s, fen.Empty)
		}
	}
	for _, s := range eboard.Diff(&h.Pos, &pos) {
		if h.Pos[s] != fen.Empty {
			h.set(h.Timing.Touch, s, fen.Empty)
		}
		h.set(h.Timing.Touch, s, pos[s])
	}
}
