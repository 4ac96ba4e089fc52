package moves

import (
	"errors"
	"fmt"
	"strings"

	"github.com/corentings/chess/v2"

	"github.com/zeitnot/zeitnot/drivers/eboard"
	"github.com/zeitnot/zeitnot/engine/fen"
)

// Move is a move found between two presses.
type Move struct {
	UCI string // "e2e4", "e7e8n"
	SAN string // "e4", "exd8=N+", "O-O"
	FEN string // the position after it
	Ply int    // 1 for White's first move of the game
}

// ErrNoMove is returned by Press when the board shows the position of the
// previous press: a press without a move.
var ErrNoMove = errors.New("moves: the board shows no move")

// IllegalError is returned by Press when no legal move explains the board:
// the clock shows ILLEGAL? for the arbiter (as under FIDE 7.5).
type IllegalError struct {
	FEN     string        // the position at the previous press
	Board   fen.Placement // what the board shows
	Changed []fen.Square  // squares where it differs from FEN
	Matches int           // legal moves that lead to Board: 0, or 2 and more when ambiguous
}

func (e *IllegalError) Error() string {
	sq := make([]string, len(e.Changed))
	for i, s := range e.Changed {
		sq[i] = s.String()
	}
	what := "no legal move"
	if e.Matches > 1 {
		what = fmt.Sprintf("%d legal moves (ambiguous)", e.Matches)
	}
	return fmt.Sprintf("moves: ILLEGAL? %s from %s leads to the board %s (changed: %s)",
		what, e.FEN, e.Board.String(), strings.Join(sq, " "))
}

// MismatchError is returned by Check when the board does not show the
// expected position.
type MismatchError struct {
	Want    string        // the expected placement
	Board   fen.Placement // what the board shows
	Changed []fen.Square
}

func (e *MismatchError) Error() string {
	sq := make([]string, len(e.Changed))
	for i, s := range e.Changed {
		sq[i] = s.String()
	}
	return fmt.Sprintf("moves: the board shows %s, not %s (differs on %s)", e.Board.String(), e.Want, strings.Join(sq, " "))
}

// Tracker follows a game from press to press. It is not safe for
// concurrent use.
type Tracker struct {
	pos *chess.Position
	ply int
}

// New returns a tracker at the position start, a FEN ("" for the initial
// position), for a game started or resumed there.
func New(start string) (*Tracker, error) {
	if start == "" {
		start = fen.StartFEN
	}
	pos, err := parseFEN(start)
	if err != nil {
		return nil, err
	}
	t := &Tracker{pos: pos}
	t.ply = plyOf(pos)
	return t, nil
}

// plyOf is the number of half-moves played before pos by its move number.
func plyOf(pos *chess.Position) int {
	p, err := fen.Parse(pos.String())
	if err != nil {
		return 0
	}
	n := 2 * (p.FullMove - 1)
	if p.BlackToMove {
		n++
	}
	return n
}

func parseFEN(s string) (*chess.Position, error) {
	var p chess.Position
	if err := p.UnmarshalText([]byte(s)); err != nil {
		return nil, fmt.Errorf("moves: FEN %q: %w", s, err)
	}
	var kings [2]int
	b := p.Board()
	for sq := chess.A1; sq <= chess.H8; sq++ {
		switch b.Piece(sq) {
		case chess.WhiteKing:
			kings[0]++
		case chess.BlackKing:
			kings[1]++
		}
	}
	if kings != [2]int{1, 1} {
		return nil, fmt.Errorf("moves: FEN %q: %d white and %d black kings, want one each", s, kings[0], kings[1])
	}
	if msg := illegal(&p); msg != "" {
		return nil, fmt.Errorf("moves: FEN %q: %s", s, msg)
	}
	return &p, nil
}

// illegal says why no game could reach pos, or "": a pawn on the first
// or last rank, more pawns than 8, or more queens, rooks, bishops and
// knights than the 1, 2, 2, 2 a side starts with and the pawns it is
// missing could have promoted to.
func illegal(pos *chess.Position) string {
	b := pos.Board()
	var n [2][7]int // by colour (white 0), by piece type
	for sq := chess.A1; sq <= chess.H8; sq++ {
		pc := b.Piece(sq)
		if pc == chess.NoPiece {
			continue
		}
		if pc.Type() == chess.Pawn && (sq.Rank() == chess.Rank1 || sq.Rank() == chess.Rank8) {
			return fmt.Sprintf("a pawn on %s", sq)
		}
		c := 0
		if pc.Color() == chess.Black {
			c = 1
		}
		n[c][pc.Type()]++
	}
	for c, side := range [2]string{"white", "black"} {
		pawns := n[c][chess.Pawn]
		if pawns > 8 {
			return fmt.Sprintf("%d %s pawns", pawns, side)
		}
		extra := max(n[c][chess.Queen]-1, 0) + max(n[c][chess.Rook]-2, 0) + max(n[c][chess.Bishop]-2, 0) + max(n[c][chess.Knight]-2, 0)
		if extra > 8-pawns {
			return fmt.Sprintf("%s has %d promoted pieces and %d pawns: more than 8 pawns could give", side, extra, pawns)
		}
	}
	for _, m := range pos.ValidMoves() {
		if b.Piece(m.S2()).Type() == chess.King {
			return "the side not to move is in check"
		}
	}
	return ""
}

// FEN returns the position at the last press.
func (t *Tracker) FEN() string { return t.pos.String() }

// Placement returns the position at the last press as a board would show
// it.
func (t *Tracker) Placement() fen.Placement {
	p, _ := fen.ParsePlacement(t.pos.Board().String())
	return p
}

// Check returns nil if board shows the position at the last press (at the
// start: the initial position, or the one a game resumes from), or a
// *MismatchError naming the squares that differ.
func (t *Tracker) Check(board *fen.Placement) error {
	want := t.Placement()
	if d := eboard.Diff(&want, board); len(d) > 0 {
		return &MismatchError{Want: want.String(), Board: *board, Changed: d}
	}
	return nil
}

// Press takes the board's position at a press. If exactly one legal move
// leads from the position at the previous press to board, the tracker plays
// it and returns it. If board is that previous position, it returns
// ErrNoMove. Otherwise it returns an *IllegalError and stays where it was,
// so that once the arbiter has put the position back (or the player has
// made a legal move), the next press goes on.
func (t *Tracker) Press(board *fen.Placement) (Move, error) {
	// The board is written as a FEN placement once, and compared with
	// the library's placement of each legal move's position.
	want := board.String()
	if t.pos.Board().String() == want {
		return Move{}, ErrNoMove
	}
	var found []chess.Move
	for _, m := range t.pos.ValidMoves() {
		if t.pos.Update(&m).Board().String() == want {
			found = append(found, m)
		}
	}
	if len(found) != 1 {
		cur := t.Placement()
		return Move{}, &IllegalError{FEN: t.pos.String(), Board: *board, Changed: eboard.Diff(&cur, board), Matches: len(found)}
	}
	return t.play(found[0])
}

// play plays m, a legal move of the tracker's position.
func (t *Tracker) play(m chess.Move) (Move, error) {
	uci := chess.UCINotation{}.Encode(t.pos, &m)
	next, err := parseFEN(t.pos.Update(&m).String())
	if err != nil {
		return Move{}, fmt.Errorf("moves: after %s: %w", uci, err)
	}
	san := strings.TrimRight(chess.AlgebraicNotation{}.Encode(t.pos, &m), "+#")
	if inCheck(next) {
		if len(next.ValidMoves()) == 0 {
			san += "#"
		} else {
			san += "+"
		}
	}
	t.pos = next
	t.ply++
	return Move{UCI: uci, SAN: san, FEN: t.pos.String(), Ply: t.ply}, nil
}

// Explains reports whether exactly one legal move leads from the
// position at the last press to board, without playing it: a move made
// while the clock stood still, which the next press completes.
func (t *Tracker) Explains(board *fen.Placement) bool {
	want, n := board.String(), 0
	for _, m := range t.pos.ValidMoves() {
		if t.pos.Update(&m).Board().String() == want {
			n++
		}
	}
	return n == 1
}

// Play plays the move uci (a move the journal has, as "eboard-game" gives
// them: a game resumed or recovered) and returns it, or fails if it is no
// legal move of the position; the tracker then stays where it was.
func (t *Tracker) Play(uci string) (Move, error) {
	// The UCI is read once and looked up among the legal moves (not
	// every legal move written as UCI to compare).
	if d, err := (chess.UCINotation{}).Decode(nil, uci); err == nil {
		for _, m := range t.pos.ValidMoves() {
			if m.S1() == d.S1() && m.S2() == d.S2() && m.Promo() == d.Promo() {
				return t.play(m)
			}
		}
	}
	return Move{}, fmt.Errorf("moves: %q is no legal move of %s", uci, t.pos.String())
}

// inCheck reports whether the side to move in pos is in check.
//
// corentings/chess v2.3.2 tags the four promotions of one pawn move with
// the tags of all those before it, so once a queen promotion gives check,
// the rook, bishop and knight promotions on that square are tagged as
// giving check too, and Position.Update carries the tag into the next
// position (where it forbids castling). So the position after every move is
// read again from its FEN, which computes check afresh, and the check in
// the SAN is found here: the side that just moved, were it to move again,
// could take the king.
func inCheck(pos *chess.Position) bool {
	f, err := fen.Parse(pos.String())
	if err != nil {
		return false
	}
	f.BlackToMove, f.EnPassant = !f.BlackToMove, "-"
	var other chess.Position
	if other.UnmarshalText([]byte(f.String())) != nil {
		return false
	}
	b := other.Board()
	for _, m := range other.ValidMoves() {
		if b.Piece(m.S2()).Type() == chess.King {
			return true
		}
	}
	return false
}

// ErrUnsettled is returned by PressSettled when the board showed no stable
// position for the press.
var ErrUnsettled = errors.New("moves: the board never stood still after the press")

// PressSettled is Press with the answer of an eboard.Settler: it takes the
// stable position; if that explains no move and the board held another
// position at the very instant of the press (a blitz player pressed at once
// and the opponent's hand came before the position had stood for Stable),
// it takes that one. Both are positions the board really showed; of the two
// it never takes the second when the first is a move.
func (t *Tracker) PressSettled(s eboard.Settled) (Move, error) {
	if !s.OK {
		return Move{}, ErrUnsettled
	}
	m, err := t.Press(&s.Position)
	var ill *IllegalError
	if s.HasHeld && (errors.As(err, &ill) || errors.Is(err, ErrNoMove)) {
		if hm, herr := t.Press(&s.Held); herr == nil {
			return hm, nil
		}
	}
	return m, err
}

// FromBoard returns the FEN of a position an arbiter set up on the board to
// resume a game: board's pieces, whiteToMove, the castling rights the king
// and rook on their first squares still allow (the arbiter corrects them if
// the game says otherwise), no en passant square, and the given move number
// (1 or more). It fails if the board holds an unknown piece or not one king
// of each colour; it does not judge whether the position could arise.
func FromBoard(board *fen.Placement, whiteToMove bool, moveNumber int) (string, error) {
	if moveNumber < 1 {
		moveNumber = 1
	}
	for _, p := range board {
		if p == fen.Unknown {
			return "", fmt.Errorf("moves: the board %s holds a piece it cannot name", board.String())
		}
	}
	turn := "w"
	if !whiteToMove {
		turn = "b"
	}
	rights := ""
	at := func(sq string, p fen.Piece) bool {
		s, _ := fen.ParseSquare(sq)
		return board[s] == p
	}
	if at("e1", fen.WhiteKing) {
		if at("h1", fen.WhiteRook) {
			rights += "K"
		}
		if at("a1", fen.WhiteRook) {
			rights += "Q"
		}
	}
	if at("e8", fen.BlackKing) {
		if at("h8", fen.BlackRook) {
			rights += "k"
		}
		if at("a8", fen.BlackRook) {
			rights += "q"
		}
	}
	if rights == "" {
		rights = "-"
	}
	s := fmt.Sprintf("%s %s %s - 0 %d", board.String(), turn, rights, moveNumber)
	if _, err := parseFEN(s); err != nil {
		return "", err
	}
	return s, nil
}
