package dgt_test

import (
	"errors"
	"io"
	"net"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/drivers/eboard"
	"github.com/zeitnot/zeitnot/drivers/eboard/dgt"
	"github.com/zeitnot/zeitnot/drivers/eboard/simdgt"
	"github.com/zeitnot/zeitnot/engine/fen"
)

var (
	e2 = fen.NewSquare(4, 1)
	e4 = fen.NewSquare(4, 3)
)

// clock is an injected clock.
type clock struct{ ns atomic.Int64 }

func (c *clock) now() time.Duration  { return time.Duration(c.ns.Load()) }
func (c *clock) set(d time.Duration) { c.ns.Store(int64(d)) }

// pipeBoard serves a simulated board on one end of a pipe and returns the
// other end and the board.
func pipeBoard(t *testing.T, pos fen.Placement, opts *simdgt.Opts) (net.Conn, *simdgt.Board) {
	t.Helper()
	a, b := net.Pipe()
	sim := simdgt.New(pos, opts)
	go sim.Serve(b)
	t.Cleanup(func() { a.Close(); b.Close() })
	return a, sim
}

func next(t *testing.T, d eboard.Board) eboard.Event {
	t.Helper()
	e, err := d.Next()
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestDevOverPipe(t *testing.T) {
	conn, sim := pipeBoard(t, fen.Start, &simdgt.Opts{Serial: "01025", Version: [2]byte{1, 2}, Battery: 80})
	var c clock
	c.set(7 * time.Second)
	d, err := dgt.New(conn, "pipe", &dgt.Opts{Now: c.now})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if e := next(t, d); e.Square != fen.NoSquare || e.Position != fen.Start || e.At != 7*time.Second {
		t.Fatalf("first event %+v, want the dump of the initial position at 7s", e)
	}
	c.set(8 * time.Second)
	if err := sim.Lift(e2); err != nil {
		t.Fatal(err)
	}
	e := next(t, d)
	if e.Square != e2 || e.Piece != fen.Empty || e.At != 8*time.Second || e.Position[e2] != fen.Empty {
		t.Fatalf("event %+v, want e2 emptied at 8s", e)
	}
	sim.Place(e4, fen.WhitePawn)
	e = next(t, d)
	want := fen.MustParsePlacement("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR")
	if e.Square != e4 || e.Piece != fen.WhitePawn || e.Position != want {
		t.Fatalf("event %+v, want a white pawn on e4", e)
	}
	info := d.Info()
	if info.Family != "DGT" || info.Serial != "01025" || info.Version != "1.2" || !info.Battery.Known || info.Battery.Percent != 80 {
		t.Errorf("Info = %+v", info)
	}
	if d.String() != "dgt board on pipe" {
		t.Errorf("String = %q", d.String())
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Next(); !errors.Is(err, eboard.ErrClosed) {
		t.Fatalf("Next after Close: %v", err)
	}
	if err := d.Close(); err != nil {
		t.Fatal("second Close:", err)
	}
}

// TestDevGarbage: garbage and broken frames between updates lose nothing:
// the driver asks for a dump and the position is right.
func TestDevGarbage(t *testing.T) {
	conn, sim := pipeBoard(t, fen.Start, nil)
	d, err := dgt.New(conn, "pipe", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	next(t, d)
	sim.Raw([]byte{0x00, 0x55, 0x86, 0x00, 0x43, 1, 2, 3, 0xff, 0x7f})
	sim.Lift(e2)
	var e eboard.Event
	dump := false
	for !dump || e.Position[e2] != fen.Empty {
		e = next(t, d)
		dump = dump || e.Square == fen.NoSquare
	}
	if !dump {
		t.Fatal("no dump asked for after garbage")
	}
}

// TestDevUnplugged: the device going away ends Next with an error that
// names it.
func TestDevUnplugged(t *testing.T) {
	conn, _ := pipeBoard(t, fen.Start, nil)
	d, err := dgt.New(conn, "/dev/ttyACM7", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	next(t, d)
	conn.Close() // as the kernel does when the cable is pulled
	_, err = d.Next()
	if err == nil || !strings.Contains(err.Error(), "/dev/ttyACM7") {
		t.Fatalf("Next after unplugging: %v", err)
	}
}

// TestDevReplugMidMove: a board unplugged with a piece in the hand and
// plugged back once the move is made shows the move in its first dump.
func TestDevReplugMidMove(t *testing.T) {
	conn, sim := pipeBoard(t, fen.Start, nil)
	d, err := dgt.New(conn, "pipe", nil)
	if err != nil {
		t.Fatal(err)
	}
	next(t, d)
	sim.Lift(e2)
	next(t, d)
	conn.Close()
	if _, err := d.Next(); err == nil {
		t.Fatal("no error after unplugging")
	}
	d.Close()
	after := sim.Position()
	after[e4] = fen.WhitePawn // placed while unplugged
	conn2, _ := pipeBoard(t, after, nil)
	d2, err := dgt.New(conn2, "pipe", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d2.Close()
	if e := next(t, d2); e.Position != after {
		t.Fatalf("after the replug the board shows %s, want %s", e.Position.String(), after.String())
	}
}

func TestDevNoAnswer(t *testing.T) {
	a, b := net.Pipe()
	defer b.Close()
	go io.Copy(io.Discard, b)
	_, err := dgt.New(a, "/dev/ttyUSB3", &dgt.Opts{Timeout: 50 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "/dev/ttyUSB3") || !strings.Contains(err.Error(), "no board dump") {
		t.Fatalf("New on a silent device: %v", err)
	}
}

// TestDevFlood: 10,000 updates sent while nobody reads are coalesced: the
// queue stays bounded and the last event shows the board as it stands.
func TestDevFlood(t *testing.T) {
	conn, sim := pipeBoard(t, fen.Start, nil)
	d, err := dgt.New(conn, "pipe", &dgt.Opts{Queue: 64})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	next(t, d)
	for i := range 10000 {
		if i%2 == 0 {
			sim.Lift(e2)
		} else {
			sim.Place(e2, fen.WhitePawn)
		}
	}
	sim.Lift(e2) // the last change: e2 empty
	final := sim.Position()
	// Every write above has been read by the driver (the pipe is
	// synchronous, one update a read), so at most the last one is still
	// being decoded: the queue gives at most 64+1 events, the last of
	// which is the board as it stands.
	n := 0
	var e eboard.Event
	for e.Position != final || n == 0 {
		e = next(t, d)
		n++
		if n > 65 {
			t.Fatalf("%d events queued, want at most 65", n)
		}
	}
}

func TestFindPort(t *testing.T) {
	dir := t.TempDir()
	if _, err := dgt.FindPort(dir + "/none"); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("missing dir: %v", err)
	}
	if _, err := dgt.FindPort(dir); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("empty dir: %v", err)
	}
	touch := func(n string) {
		if err := os.WriteFile(dir+"/"+n, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	touch("usb-Arduino_Uno_1234-if00")
	if _, err := dgt.FindPort(dir); err == nil || !strings.Contains(err.Error(), "Arduino") {
		t.Errorf("no DGT: %v", err)
	}
	touch("usb-DGT_DGT_Board_P0001-if00")
	if p, err := dgt.FindPort(dir); err != nil || p != dir+"/usb-DGT_DGT_Board_P0001-if00" {
		t.Errorf("one DGT: %q, %v", p, err)
	}
	touch("usb-Digital_Game_Technology_dgt_board_2-if00")
	if _, err := dgt.FindPort(dir); err == nil || !strings.Contains(err.Error(), "2 DGT boards") {
		t.Errorf("two DGT: %v", err)
	}
}

// TestOpenPTY: the driver opens a simulated board on a pseudo-terminal by
// its path, through the serial port library, as it opens /dev/ttyACM0.
func TestOpenPTY(t *testing.T) {
	p, err := simdgt.OpenPTY()
	if err != nil {
		t.Skip("no pseudo-terminal:", err)
	}
	defer p.Close()
	sim := simdgt.New(fen.Start, nil)
	go sim.Serve(p.Master)
	d, err := dgt.Open(p.Name, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if e := next(t, d); e.Position != fen.Start {
		t.Fatalf("first event %+v", e)
	}
	sim.Lift(e2)
	sim.Place(e4, fen.WhitePawn)
	next(t, d)
	if e := next(t, d); e.Square != e4 || e.Piece != fen.WhitePawn {
		t.Fatalf("event %+v, want a white pawn on e4", e)
	}
	if info := d.Info(); info.Serial != "00137" || info.Version != "1.7" || info.Battery.Known {
		t.Errorf("Info = %+v", info)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Next(); !errors.Is(err, eboard.ErrClosed) {
		t.Fatalf("Next after Close: %v", err)
	}
}

func TestOpenMissing(t *testing.T) {
	_, err := dgt.Open("/dev/ttyACM-none", nil)
	if err == nil || !strings.Contains(err.Error(), "/dev/ttyACM-none") {
		t.Fatalf("Open of a missing device: %v", err)
	}
}

// TestStuckDevice: New and Close return though the device takes no
// command (a pipe nobody reads), and the error names the device.
func TestStuckDevice(t *testing.T) {
	stuck, other := net.Pipe()
	defer other.Close()
	_, err := dgt.New(stuck, "/dev/ttyACM9", &dgt.Opts{Timeout: 20 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "/dev/ttyACM9") {
		t.Fatalf("New on a device that takes nothing: %v", err)
	}
}
