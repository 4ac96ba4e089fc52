// Package simdgt is a simulated DGT board: it speaks the DGT serial
// protocol byte for byte (drivers/eboard/dgt describes it) on a
// pseudo-terminal or any byte stream, so the real driver reads it as it
// reads a board on /dev/ttyACM0. The simulator and tests use it.
//
// Its pieces are moved by calls (Lift, Place) or by a script a Hand writes
// from a list of moves in UCI: the hand lifts and places pieces as a person
// does (slides a piece across squares, lifts a capture in either order,
// castles king first or rook first, knocks a piece over and puts it back,
// puts a piece down on the wrong square and corrects it), with an instant
// for every change and for the press of the clock that follows each move.
// Like a real board it knows no chess: it moves what it is told to move,
// an illegal move as readily as a legal one.
package simdgt

import (
	"fmt"
	"io"
	"os"
	"sync"
	"syscall"

	"github.com/creack/pty"
	"golang.org/x/term"

	"github.com/zeitnot/zeitnot/drivers/eboard/dgt"
	"github.com/zeitnot/zeitnot/engine/fen"
)

// Opts configures a simulated board.
type Opts struct {
	Serial  string // 5 digits; "" means "00137"
	Version [2]byte
	// Battery is the percent a Bluetooth board reports; -1 means the board
	// answers no battery request, as USB boards do not.
	Battery int
}

// DefaultOpts is a USB board, serial 00137, version 1.7.
var DefaultOpts = Opts{Serial: "00137", Version: [2]byte{1, 7}, Battery: -1}

// Board is a simulated DGT board. It is safe for concurrent use.
type Board struct {
	opts Opts

	mu     sync.Mutex
	pos    fen.Placement
	update bool      // in update mode: changes are sent
	w      io.Writer // where messages go, once Serve runs
}

// New returns a board with pos on it. opts nil means DefaultOpts.
func New(pos fen.Placement, opts *Opts) *Board {
	o := DefaultOpts
	if opts != nil {
		o = *opts
	}
	if o.Serial == "" {
		o.Serial = DefaultOpts.Serial
	}
	return &Board{opts: o, pos: pos}
}

// Serve answers the commands read from rw and sends the board's changes to
// it, until reading fails (io.EOF when the other end closes); it returns
// that error. Call it once.
func (b *Board) Serve(rw io.ReadWriter) error {
	b.mu.Lock()
	b.w = rw
	b.mu.Unlock()
	buf := make([]byte, 64)
	for {
		n, err := rw.Read(buf)
		for _, c := range buf[:n] {
			if werr := b.command(c); werr != nil {
				return werr
			}
		}
		if err != nil {
			return err
		}
	}
}

func (b *Board) command(c byte) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch c {
	case dgt.CmdReset:
		b.update = false
	case dgt.CmdUpdateBoard, dgt.CmdUpdateNice:
		b.update = true
	case dgt.CmdSendBoard:
		return b.send(dgt.EncodeBoard(&b.pos))
	case dgt.CmdSerial:
		return b.send(dgt.Encode(dgt.MsgSerial, []byte(b.opts.Serial)...))
	case dgt.CmdVersion:
		return b.send(dgt.Encode(dgt.MsgVersion, b.opts.Version[0]&0x7f, b.opts.Version[1]&0x7f))
	case dgt.CmdBattery:
		if b.opts.Battery >= 0 {
			return b.send(dgt.Encode(dgt.MsgBattery, byte(b.opts.Battery), 0x7f, 0x7f, 0, 0, 0, 0, 0, 0))
		}
	}
	return nil // other commands (the long serial, bus mode) are not answered
}

// send writes msg; b.mu is held. Nothing is nothing: a write of no bytes
// on a pipe would read as a hang-up.
func (b *Board) send(msg []byte) error {
	if b.w == nil || len(msg) == 0 {
		return nil
	}
	if _, err := b.w.Write(msg); err != nil {
		return fmt.Errorf("simdgt: writing: %w", err)
	}
	return nil
}

// Position returns the pieces on the board.
func (b *Board) Position() fen.Placement {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.pos
}

// Set puts p on s and, in update mode, sends the field update. Setting a
// square to what it holds sends nothing, as a board sends nothing.
func (b *Board) Set(s fen.Square, p fen.Piece) error {
	if s > 63 {
		return fmt.Errorf("simdgt: square %d is off the board", s)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.pos[s] == p {
		return nil
	}
	b.pos[s] = p
	if !b.update {
		return nil
	}
	return b.send(dgt.EncodeField(s, p))
}

// Lift empties s.
func (b *Board) Lift(s fen.Square) error { return b.Set(s, fen.Empty) }

// Place puts p on s.
func (b *Board) Place(s fen.Square, p fen.Piece) error { return b.Set(s, p) }

// Raw writes bytes as they are, as a broken board or a bad cable would.
func (b *Board) Raw(p []byte) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.send(p)
}

// Apply makes the change of a script step; a press changes nothing on the
// board.
func (b *Board) Apply(s Step) error {
	if s.Press {
		return nil
	}
	return b.Set(s.Square, s.Piece)
}

// PTY is a pseudo-terminal for a simulated board: the board serves on
// Master, and a driver opens Name as it opens /dev/ttyACM0.
type PTY struct {
	Master *os.File
	Name   string
	tty    *os.File
}

// OpenPTY opens a pseudo-terminal in raw mode.
func OpenPTY() (*PTY, error) {
	m, t, err := pty.Open()
	if err != nil {
		return nil, fmt.Errorf("simdgt: opening a pseudo-terminal: %w", err)
	}
	if _, err := term.MakeRaw(int(t.Fd())); err != nil {
		m.Close()
		t.Close()
		return nil, fmt.Errorf("simdgt: %s: raw mode: %w", t.Name(), err)
	}
	// The master as a file of the runtime's poller, so that closing it
	// ends a read in progress (Serve's) and the line hangs up at once, as
	// when a board is unplugged; a blocking file would stay open until
	// that read returned, that is for ever.
	pm, err := pollable(m)
	if err != nil {
		m.Close()
		t.Close()
		return nil, fmt.Errorf("simdgt: %s: %w", t.Name(), err)
	}
	return &PTY{Master: pm, Name: t.Name(), tty: t}, nil
}

// pollable returns f as a non-blocking file the runtime polls, and closes
// f.
func pollable(f *os.File) (*os.File, error) {
	defer f.Close()
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	var fd int
	var derr error
	if err := rc.Control(func(u uintptr) { fd, derr = syscall.Dup(int(u)) }); err != nil {
		return nil, err
	}
	if derr != nil {
		return nil, fmt.Errorf("dup of the master: %w", derr)
	}
	if err := syscall.SetNonblock(fd, true); err != nil {
		syscall.Close(fd)
		return nil, fmt.Errorf("non-blocking master: %w", err)
	}
	return os.NewFile(uintptr(fd), f.Name()), nil
}

// Close closes both ends.
func (p *PTY) Close() error {
	err := p.Master.Close()
	if terr := p.tty.Close(); err == nil {
		err = terr
	}
	return err
}
