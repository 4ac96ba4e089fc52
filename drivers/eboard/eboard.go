package eboard

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Piece is what a board reports on one square.
type Piece uint8

// The pieces, in one order for every family; a family's driver maps its own
// codes to these.
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
	// Unknown is a code the board sent that is no chess piece (DGT's codes
	// 13 to 15, reserved for a pointing device). A position holding one
	// matches no chess position.
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

// PieceFromLetter returns the piece of a FEN letter, or false.
func PieceFromLetter(c byte) (Piece, bool) {
	i := strings.IndexByte(pieceLetters[1:len(pieceLetters)-1], c)
	if i < 0 {
		return Empty, false
	}
	return Piece(i + 1), true
}

// Square is a square of the board: a1 is 0, b1 1, h1 7, a2 8, h8 63, as
// seen from White. A family that numbers squares otherwise (DGT counts from
// a8) converts.
type Square uint8

// NoSquare is the Square of an event that concerns the whole board.
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
		return NoSquare, fmt.Errorf("eboard: %q is not a square", s)
	}
	return NewSquare(int(s[0]-'a'), int(s[1]-'1')), nil
}

// Position is the piece on every square, indexed by Square.
type Position [64]Piece

// Start is the initial position of a game of chess.
var Start = MustParsePlacement("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR")

// String returns the position as the piece-placement field of a FEN,
// "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR" for Start. An Unknown piece
// is written "?", which no FEN reader accepts.
func (p *Position) String() string {
	var b strings.Builder
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

// ParsePlacement reads the piece-placement field of a FEN (the text before
// its first space; the rest of a whole FEN is ignored).
func ParsePlacement(s string) (Position, error) {
	var p Position
	if i := strings.IndexByte(s, ' '); i >= 0 {
		s = s[:i]
	}
	ranks := strings.Split(s, "/")
	if len(ranks) != 8 {
		return p, fmt.Errorf("eboard: placement %q: %d ranks, want 8", s, len(ranks))
	}
	for i, r := range ranks {
		rank, file := 7-i, 0
		for j := 0; j < len(r); j++ {
			c := r[j]
			if c >= '1' && c <= '8' {
				file += int(c - '0')
				continue
			}
			pc, ok := PieceFromLetter(c)
			if !ok {
				return p, fmt.Errorf("eboard: placement %q: %q is no piece", s, c)
			}
			if file > 7 {
				return p, fmt.Errorf("eboard: placement %q: rank %d has more than 8 squares", s, rank+1)
			}
			p[NewSquare(file, rank)] = pc
			file++
		}
		if file != 8 {
			return p, fmt.Errorf("eboard: placement %q: rank %d has %d squares, want 8", s, rank+1, file)
		}
	}
	return p, nil
}

// MustParsePlacement is ParsePlacement for constants: it panics on an
// error, so never give it text from outside.
func MustParsePlacement(s string) Position {
	p, err := ParsePlacement(s)
	if err != nil {
		panic(err)
	}
	return p
}

// Diff returns the squares where a and b differ, in Square order.
func Diff(a, b *Position) []Square {
	var d []Square
	for i := range a {
		if a[i] != b[i] {
			d = append(d, Square(i))
		}
	}
	return d
}

// Event is what a board reports.
//
// Every event carries the whole position as the board stands after it.
// A dump (Square is NoSquare) replaces the position; a field update names
// the one square that changed and the piece now on it (Empty when a piece
// was lifted). A board reports nothing until it has sent its first dump.
type Event struct {
	At       time.Duration // when the driver read it, on the caller's clock
	Square   Square        // the square that changed, or NoSquare for a dump
	Piece    Piece         // the piece now on Square; Empty for a dump
	Position Position      // the board after the event
	// Gap says the driver dropped the changes that came after this event
	// (its reader fell that far behind a flooding board): the board's
	// position from At until the next event, a dump, is unknown, and a
	// reader of positions must not take this one as standing until then
	// (Settler.Lost).
	Gap bool
}

// Battery is a board's battery, where its family reports one.
type Battery struct {
	Known    bool // the board reported its battery; the rest is zero if not
	Percent  int  // capacity left, 0 to 100
	Charging bool
}

// Info identifies a board.
type Info struct {
	Family  string  // "DGT"
	Serial  string  // as the board reports it, "" if it did not
	Version string  // firmware version, "" if not reported
	Battery Battery // only Bluetooth boards report one
}

// ErrClosed is returned by a Board's Next after Close.
var ErrClosed = errors.New("eboard: board closed")

// Board is one electronic chessboard. Its methods may be called from several
// goroutines; Next is meant to be called from one.
type Board interface {
	// String names the board and its device, e.g.
	// "dgt board on /dev/ttyACM0".
	String() string
	// Next blocks until the board reports an event and returns it. It
	// returns an error naming the device when the device fails (unplugged,
	// a read error) and ErrClosed, wrapped, once Close has been called.
	// After an error other than a transient one the board is done: open it
	// again. Garbage on the line is no error: the driver skips it and asks
	// for a dump, which comes as an event. A line that carries nothing but
	// garbage for long (DGT: Opts.Timeout) is one, naming the device.
	Next() (Event, error)
	// Info returns what the board said about itself when it was opened,
	// with the battery as last reported.
	Info() Info
	// Close releases the device and unblocks Next. Closing twice does
	// nothing.
	Close() error
}
