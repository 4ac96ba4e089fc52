package fen

import (
	"fmt"
	"strconv"
	"strings"
)

// Piece is what stands on one square.
type Piece uint8

// The pieces, in one order for every board family; a family's driver maps
// its own codes to these.
const (
	Empty Piece = iota
	WhitePawn
	WhiteKnight
	WhiteBishop
	WhiteRook
	WhiteQueen
	WhiteKing
	BlackPawn
	BlackKnight
	BlackBishop
	BlackRook
	BlackQueen
	BlackKing
	// Unknown is something on a square that is no chess piece (a DGT
	// board's codes 13 to 15, reserved for a pointing device). A
	// placement holding one matches no chess position, and its String
	// is no FEN.
	Unknown
)

const pieceLetters = ".PNBRQKpnbrqk?"

// String returns the FEN letter of p ("P", "k"), "." for Empty and "?" for
// Unknown or a value out of range.
func (p Piece) String() string {
	if int(p) < len(pieceLetters) {
		return pieceLetters[p : p+1]
	}
	return "?"
}

// White reports whether p is a white piece.
func (p Piece) White() bool { return p >= WhitePawn && p <= WhiteKing }

// PieceFromLetter returns the piece of a FEN letter ("KQRBNPkqrbnp"), or
// false.
func PieceFromLetter(c byte) (Piece, bool) {
	i := strings.IndexByte(pieceLetters[1:len(pieceLetters)-1], c)
	if i < 0 {
		return Empty, false
	}
	return Piece(i + 1), true
}

// Square is a square of the board: a1 is 0, b1 1, h1 7, a2 8, h8 63, as
// seen from White. A board family that numbers squares otherwise (DGT
// counts from a8) converts.
type Square uint8

// NoSquare is the Square of no square (an event that concerns the whole
// board).
const NoSquare Square = 0xff

// NewSquare returns the square on file (0 is a) and rank (0 is 1).
func NewSquare(file, rank int) Square { return Square(rank*8 + file) }

// File is 0 for the a-file, 7 for h.
func (s Square) File() int { return int(s) % 8 }

// Rank is 0 for the first rank, 7 for the eighth.
func (s Square) Rank() int { return int(s) / 8 }

// String returns "e4", or "-" for NoSquare and other values out of range.
func (s Square) String() string {
	if s > 63 {
		return "-"
	}
	return string([]byte{byte('a' + s.File()), byte('1' + s.Rank())})
}

// ParseSquare reads "e4".
func ParseSquare(s string) (Square, error) {
	if len(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' {
		return NoSquare, fmt.Errorf("fen: %q is not a square", clip(s))
	}
	return NewSquare(int(s[0]-'a'), int(s[1]-'1')), nil
}

// Placement is the piece on every square, indexed by Square: a FEN's first
// field.
type Placement [64]Piece

// StartFEN is the initial position of a game of chess as a whole FEN.
const StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// Start is the initial position's placement.
var Start = MustParsePlacement(StartFEN)

// String returns the placement as a FEN's first field,
// "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR" for Start. An Unknown
// piece is written "?", which no FEN reader accepts.
func (p *Placement) String() string {
	var b strings.Builder
	b.Grow(71)
	for rank := 7; rank >= 0; rank-- {
		empty := 0
		for file := 0; file < 8; file++ {
			pc := p[NewSquare(file, rank)]
			if pc == Empty {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			b.WriteString(pc.String())
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if rank > 0 {
			b.WriteByte('/')
		}
	}
	return b.String()
}

// ParsePlacement reads a FEN's first field, the piece placement: 8 ranks
// from the eighth down, separated by '/', each of 8 squares, a letter of
// "KQRBNPkqrbnp" a piece and a digit 1 to 8 that many empty squares. The
// text from the first space on (the rest of a whole FEN) is ignored.
func ParsePlacement(s string) (Placement, error) {
	var p Placement
	s, _, _ = strings.Cut(s, " ")
	ranks := strings.Split(s, "/")
	if len(ranks) != 8 {
		return p, fmt.Errorf("FEN placement %q: want 8 ranks, got %d", clip(s), len(ranks))
	}
	for i, r := range ranks {
		rank, n := 7-i, 0
		for j := 0; j < len(r); j++ {
			c := r[j]
			if c >= '1' && c <= '8' {
				n += int(c - '0')
				continue
			}
			pc, ok := PieceFromLetter(c)
			if !ok {
				return p, fmt.Errorf("FEN rank %d: %q is no piece", rank+1, string(c))
			}
			if n < 8 {
				p[NewSquare(n, rank)] = pc
			}
			n++
		}
		if n != 8 {
			return p, fmt.Errorf("FEN rank %d: %d squares, want 8", rank+1, n)
		}
	}
	return p, nil
}

// MustParsePlacement is ParsePlacement for constants: it panics on an
// error, so never give it text from outside.
func MustParsePlacement(s string) Placement {
	p, err := ParsePlacement(s)
	if err != nil {
		panic(err)
	}
	return p
}

// Check checks the form of a whole FEN: its 6 fields separated by single
// spaces, a placement (ParsePlacement), the side to move, castling rights,
// the en passant square, and two counters. It returns what is wrong, or
// nil; whether the position is legal is the rules' matter, not the
// notation's.
func Check(s string) error {
	_, err := Parse(s)
	return err
}

// Position is a whole FEN, read.
type Position struct {
	Placement Placement
	// BlackToMove is true for "b" in the second field.
	BlackToMove bool
	// Castling and EnPassant are the third and fourth fields as written
	// ("-" for none).
	Castling, EnPassant string
	// HalfMoves is the halfmove clock, FullMove the move number (from 1).
	HalfMoves, FullMove int
}

// String writes p as a whole FEN, its 6 fields: what Parse read, written
// back the same but for runs of empty squares, which it writes as one
// digit. An empty Castling or EnPassant is written "-".
func (p *Position) String() string {
	side, castling, ep := "w", p.Castling, p.EnPassant
	if p.BlackToMove {
		side = "b"
	}
	if castling == "" {
		castling = "-"
	}
	if ep == "" {
		ep = "-"
	}
	return p.Placement.String() + " " + side + " " + castling + " " + ep + " " + strconv.Itoa(p.HalfMoves) + " " + strconv.Itoa(p.FullMove)
}

// Parse reads a whole FEN, checking its form as Check does.
func Parse(s string) (Position, error) {
	var pos Position
	f := strings.Split(s, " ")
	if len(f) != 6 {
		return pos, fmt.Errorf("FEN %q: want 6 fields, got %d", clip(s), len(f))
	}
	var err error
	if pos.Placement, err = ParsePlacement(f[0]); err != nil {
		return pos, err
	}
	if f[1] != "w" && f[1] != "b" {
		return pos, fmt.Errorf("FEN side to move %q: want w or b", clip(f[1]))
	}
	pos.BlackToMove = f[1] == "b"
	if f[2] != "-" {
		bad := f[2] == "" || len(f[2]) > 4
		for j := 0; j < len(f[2]) && !bad; j++ {
			bad = strings.IndexByte("KQkq", f[2][j]) < 0 || strings.IndexByte(f[2][:j], f[2][j]) >= 0
		}
		if bad {
			return pos, fmt.Errorf("FEN castling %q: want - or some of KQkq", clip(f[2]))
		}
	}
	if f[3] != "-" && (len(f[3]) != 2 || f[3][0] < 'a' || f[3][0] > 'h' || f[3][1] != '3' && f[3][1] != '6') {
		return pos, fmt.Errorf("FEN en passant %q: want - or a square on rank 3 or 6", clip(f[3]))
	}
	pos.Castling, pos.EnPassant = f[2], f[3]
	for i, c := range f[4:] {
		v, err := strconv.Atoi(c)
		if err != nil || v < 0 || v > 99999 || c[0] == '+' || i == 1 && v < 1 {
			return pos, fmt.Errorf("FEN %s %q: want a whole number", [2]string{"halfmove clock", "move number"}[i], clip(c))
		}
		if i == 0 {
			pos.HalfMoves = v
		} else {
			pos.FullMove = v
		}
	}
	return pos, nil
}

// clip cuts outside text for an error message.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
