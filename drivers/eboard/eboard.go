package eboard

import (
	"errors"
	"time"

	"github.com/zeitnot/zeitnot/engine/fen"
)

// Diff returns the squares where a and b differ, in Square order.
func Diff(a, b *fen.Placement) []fen.Square {
	var d []fen.Square
	for i := range a {
		if a[i] != b[i] {
			d = append(d, fen.Square(i))
		}
	}
	return d
}

// Event is what a board reports.
//
// Every event carries the whole position as the board stands after it.
// A dump (Square is fen.NoSquare) replaces the position; a field update names
// the one square that changed and the piece now on it (fen.Empty when a piece
// was lifted). A board reports nothing until it has sent its first dump.
type Event struct {
	At       time.Duration // when the driver read it, on the caller's clock
	Square   fen.Square    // the square that changed, or fen.NoSquare for a dump
	Piece    fen.Piece     // the piece now on Square; fen.Empty for a dump
	Position fen.Placement // the board after the event
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
