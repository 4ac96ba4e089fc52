package dgt_test

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/drivers/eboard"
	"github.com/zeitnot/zeitnot/drivers/eboard/dgt"
	"github.com/zeitnot/zeitnot/drivers/eboard/simdgt"
	"github.com/zeitnot/zeitnot/engine/fen"
)

// The robustness of the driver against what a board can send: a flood, a
// replug in the middle of a move, and boards that lie.

// TestFloodNeverSettlesTransient: a board sends 10,000 field updates a
// second (a pawn lifted and put back every 100 µs, on the injected clock)
// for a second while the clock is pressed ten times, then the pawn goes to
// e4 and stays. The reader keeps up (every update is read, or coalesced
// into a dump of the board as it stands), and the Settler answers every
// press with the one position that stood, e4, never with one of the
// flood's, even when the reader falls behind (the consumer here is slow
// on purpose now and then) and the driver drops changes: it says so
// (Event.Gap), and the Settler is told (Lost).
func TestFloodNeverSettlesTransient(t *testing.T) {
	const updates = 10000
	const every = 100 * time.Microsecond
	conn, sim := pipeBoard(t, fen.Start, nil)
	var c clock
	d, err := dgt.New(conn, "/dev/ttyACM0", &dgt.Opts{Now: c.now, Queue: 256})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	s := eboard.NewSettler(nil)
	e := next(t, d)
	s.Observe(e.At, e.Position)
	final := fen.Start
	final[e2], final[e4] = fen.Empty, fen.WhitePawn
	end := time.Duration(updates+1) * every
	werr := make(chan error, 1)
	var written atomic.Int64
	go func() {
		for i := 1; i <= updates; i++ {
			written.Store(int64(i - 1))
			c.set(time.Duration(i) * every)
			var err error
			if i%2 == 1 {
				err = sim.Lift(e2)
			} else {
				err = sim.Place(e2, fen.WhitePawn)
			}
			if err != nil {
				werr <- err
				return
			}
		}
		// The pawn, back on e2 after the last update, goes to e4.
		c.set(end)
		if err := sim.Lift(e2); err != nil {
			werr <- err
			return
		}
		werr <- sim.Place(e4, fen.WhitePawn)
	}()
	// The presses, one every 1,000 updates, made as the events come.
	var presses []time.Duration
	nextPress := 1000 * every
	events, gaps := 0, 0
	var forgotten []eboard.Settled
	for e.Position != final || e.Gap {
		if events%1000 == 100 {
			// The consumer falls behind: it waits until the board has
			// sent more than the queue holds.
			// Bounded: a writer blocked on the pipe writes no more, and the
			// consumer must then read on rather than spin for ever.
			stuck := time.Now().Add(2 * time.Second)
			for w := written.Load(); written.Load() < min(w+600, updates) && time.Now().Before(stuck); {
				runtime.Gosched()
			}
		}
		e = next(t, d)
		events++
		for nextPress <= e.At && nextPress < end {
			s.Press(nextPress)
			presses = append(presses, nextPress)
			nextPress += 1000 * every
		}
		s.Observe(e.At, e.Position)
		if e.Gap {
			s.Lost(e.At) // the driver dropped what came next
			gaps++
		}
		// No position of the flood settles. A press whose instant the
		// Settler's bounded history has forgotten (more than 2x1024
		// changes since) is answered "not known" at once: that happens
		// only when the consumer keeps up, which a busy machine decides.
		got, _ := s.Advance(e.At)
		for _, a := range got {
			if a.OK {
				t.Fatalf("answered %+v during the flood", a)
			}
		}
		forgotten = append(forgotten, got...)
	}
	if err := <-werr; err != nil {
		t.Fatal(err)
	}
	if events > updates+2 {
		t.Fatalf("%d events from %d changes", events, updates+2)
	}
	if gaps == 0 {
		t.Error("the consumer fell behind, but no gap was reported")
	}
	if len(presses) != 10 {
		t.Fatalf("%d presses made, want 10", len(presses))
	}
	for i, a := range forgotten {
		if a.Press != presses[i] {
			t.Errorf("answer %d during the flood is for the press at %v, want the oldest, %v", i, a.Press, presses[i])
		}
	}
	got, next := s.Advance(end + eboard.DefaultSettleOpts.Stable)
	if len(forgotten)+len(got) != len(presses) || next != eboard.Never {
		t.Fatalf("%d+%d answers to %d presses, next %v", len(forgotten), len(got), len(presses), next)
	}
	for i, a := range got {
		if !a.OK || a.Position != final || a.Since < end {
			t.Errorf("press %d at %v answered with %s since %v (OK %v), want %s since %v", i, a.Press, a.Position.String(), a.Since, a.OK, final.String(), end)
		}
	}
	t.Logf("%d changes read as %d events, %d gaps, %d presses forgotten; decoder %+v", updates+2, events, gaps, len(forgotten), d.Stats())
}

// BenchmarkDevUpdates: one field update through the driver, from the
// simulated board's write on a pipe to the Settler: the decoder, the queue,
// Next. It keeps up with 10,000 updates a second if an update takes less
// than 100 µs.
func BenchmarkDevUpdates(b *testing.B) {
	a, p := net.Pipe()
	sim := simdgt.New(fen.Start, nil)
	go sim.Serve(p)
	defer p.Close()
	var c clock
	d, err := dgt.New(a, "pipe", &dgt.Opts{Now: c.now})
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	s := eboard.NewSettler(nil)
	if _, err := d.Next(); err != nil {
		b.Fatal(err)
	}
	done := make(chan error, 1)
	b.ReportAllocs()
	b.ResetTimer()
	go func() {
		for i := range b.N {
			var err error
			if i%2 == 0 {
				err = sim.Lift(e2)
			} else {
				err = sim.Place(e2, fen.WhitePawn)
			}
			if err != nil {
				done <- err
				return
			}
		}
		done <- sim.Place(e4, fen.WhitePawn) // the end
	}()
	for i := 1; ; i++ {
		e, err := d.Next()
		if err != nil {
			b.Fatal(err)
		}
		at := time.Duration(i) * 100 * time.Microsecond
		s.Observe(at, e.Position)
		s.Advance(at)
		if e.Position[e4] == fen.WhitePawn {
			break
		}
	}
	if err := <-done; err != nil {
		b.Fatal(err)
	}
}

// TestReplugPTYMidMove: a board on a pseudo-terminal, opened by a stable
// path (as /dev/serial/by-id/... is a link udev renames), is unplugged with
// White's pawn in the hand: the driver reports it, naming the device. The
// pawn is put on e4 while the board is away; plugged back on another
// pseudo-terminal behind the same path, the board's first dump shows e4,
// and the Settler, told the board was lost, finds it for the press made in
// between, not the position from before the unplug.
func TestReplugPTYMidMove(t *testing.T) {
	link := filepath.Join(t.TempDir(), "usb-DGT_DGT_Board_00137-if00")
	plug := func(pos fen.Placement) (*simdgt.PTY, *simdgt.Board) {
		t.Helper()
		p, err := simdgt.OpenPTY()
		if err != nil {
			t.Skip("no pseudo-terminal:", err)
		}
		os.Remove(link)
		if err := os.Symlink(p.Name, link); err != nil {
			t.Fatal(err)
		}
		sim := simdgt.New(pos, nil)
		go sim.Serve(p.Master)
		return p, sim
	}
	var c clock
	s := eboard.NewSettler(nil)
	p1, sim := plug(fen.Start)
	d, err := dgt.Open(link, &dgt.Opts{Now: c.now})
	if err != nil {
		p1.Close()
		t.Fatal(err)
	}
	e := next(t, d)
	s.Observe(e.At, e.Position)
	c.set(time.Second)
	sim.Lift(e2)
	e = next(t, d)
	if e.Position[e2] != fen.Empty {
		t.Fatalf("event %+v, want e2 lifted", e)
	}
	s.Observe(e.At, e.Position)
	// Unplugged: the board's end of the line goes away.
	c.set(1200 * time.Millisecond)
	p1.Master.Close()
	e, err = d.Next()
	e.At = c.now()
	if err == nil || errors.Is(err, eboard.ErrClosed) || !strings.Contains(err.Error(), link) {
		t.Fatalf("Next after the unplug: %v, want an error naming %s", err, link)
	}
	s.Lost(e.At) // what the consumer does when Next fails
	d.Close()
	p1.Close()
	// The pawn goes to e4 and the player presses while the board is away.
	after := sim.Position()
	after[e4] = fen.WhitePawn
	s.Press(1500 * time.Millisecond)
	c.set(2 * time.Second)
	p2, _ := plug(after)
	defer p2.Close()
	d2, err := dgt.Open(link, &dgt.Opts{Now: c.now})
	if err != nil {
		t.Fatal(err)
	}
	defer d2.Close()
	e = next(t, d2)
	if e.Position != after || e.Square != fen.NoSquare || e.At != 2*time.Second {
		t.Fatalf("first event after the replug %+v, want the dump %s at 2s", e, after.String())
	}
	s.Observe(e.At, e.Position)
	got, _ := s.Advance(2*time.Second + eboard.DefaultSettleOpts.Stable)
	if len(got) != 1 || !got[0].OK || got[0].Position != after {
		t.Fatalf("the press in between answered %+v, want %s", got, after.String())
	}
}

// TestLyingBoards: a board that claims 200 pieces (a dump of 200 squares),
// sends an oversized message, garbage, or a dump with codes that are no
// pieces, in the middle of a game: no panic, no block, no error; the bytes
// are dropped with the reason in Stats, the driver asks for a dump, and
// the position that comes is the board's.
func TestLyingBoards(t *testing.T) {
	for _, tc := range []struct {
		name string
		raw  []byte
		why  string
	}{
		{"200 pieces", dgt.Encode(dgt.MsgBoardDump, bytes.Repeat([]byte{5}, 200)...), "message 0x86 of 203 bytes, want 67"},
		{"an oversized message", append([]byte{0x8e, 0x7f, 0x7f}, bytes.Repeat([]byte{1}, 1000)...), "message 0x8e of 16383 bytes, want 5"},
		{"an oversized unknown message, cut short", append([]byte{0xf0, 0x7f, 0x7f}, bytes.Repeat([]byte{1}, 1000)...), "message 0xf0 cut short after 1003 bytes by 0x8e"},
		{"garbage", []byte{0x00, 0x13, 0x7f, 0x01, 0x55}, "byte 0x00 outside a message"},
		{"a dump of codes above 15", dgt.Encode(dgt.MsgBoardDump, bytes.Repeat([]byte{0x7f}, 64)...), "message 0x86 holds a value out of range"},
		{"a field update off the board", dgt.Encode(dgt.MsgField, 64, 1), "message 0x8e holds a value out of range"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			conn, sim := pipeBoard(t, fen.Start, nil)
			d, err := dgt.New(conn, "/dev/ttyACM0", nil)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			next(t, d)
			if err := sim.Raw(tc.raw); err != nil {
				t.Fatal(err)
			}
			sim.Lift(e2)
			sim.Place(e4, fen.WhitePawn)
			want := sim.Position()
			for e := next(t, d); e.Position != want; e = next(t, d) {
			}
			st := d.Stats()
			if st.Dropped == 0 || !strings.Contains(st.Last, tc.why) {
				t.Errorf("Stats %+v, want bytes dropped: %s", st, tc.why)
			}
		})
	}
}

// TestGarbageOnly: a device that answers with nothing but garbage fails New
// with an error naming it and what it sent; one that turns to garbage in
// the middle of a game fails Next after Opts.Timeout of it, naming the
// device and the reason, and the driver stops asking.
func TestGarbageOnly(t *testing.T) {
	a, b := net.Pipe()
	defer b.Close()
	go func() {
		buf := make([]byte, 16)
		for {
			if _, err := b.Read(buf); err != nil {
				return
			}
			if _, err := b.Write([]byte{0x86, 0x01, 0x4b}); err != nil {
				return
			}
		}
	}()
	// A second of real time: under the race detector on a loaded machine,
	// the garbage may take longer than 100 ms to arrive.
	_, err := dgt.New(a, "/dev/ttyUSB1", &dgt.Opts{Timeout: time.Second})
	if err == nil || !strings.Contains(err.Error(), "/dev/ttyUSB1") || !strings.Contains(err.Error(), "message 0x86 of 203 bytes, want 67") {
		t.Fatalf("New on a device of garbage: %v", err)
	}

	// A board that sends its dump, then only garbage, and answers no more
	// requests. Each chunk carries the time it arrives at, set on the
	// injected clock as the driver reads it, so that the driver's stamps
	// do not depend on how the goroutines are scheduled.
	var c clock
	line := newStampedLine(&c)
	d, err := dgt.New(line, "/dev/ttyACM0", &dgt.Opts{Now: c.now, Timeout: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	next(t, d)
	// Garbage every 100 ms for 3 s: the last chunk is 3 s after the first.
	// The driver reads one chunk at a time and processes it before it
	// reads the next, so a chunk taken proves the one before it did not
	// fail the driver.
	for i := 0; i <= 30; i++ {
		if !line.send(time.Duration(i)*100*time.Millisecond, []byte{0x86, 0x01, 0x4b}) {
			t.Fatalf("the driver stopped reading after %v of garbage: %v", c.now(), d.Err())
		}
	}
	_, err = d.Next()
	if err == nil || !strings.Contains(err.Error(), "/dev/ttyACM0") || !strings.Contains(err.Error(), "3s of garbage") ||
		!strings.Contains(err.Error(), "message 0x86 of 203 bytes, want 67") || errors.Is(err, eboard.ErrClosed) {
		t.Fatalf("Next after 3 s of garbage: %v", err)
	}
	// It asks for the board again at most every 250 ms of garbage.
	if n := line.asked.Load(); n > 3*4+1 {
		t.Errorf("the driver asked for the board %d times in 3 s of garbage, want at most one each 250 ms", n)
	}
}

// stampedLine is a device line on which the test hands the driver chunks,
// one per Read, each with the time it arrives at. It answers the first
// request for the board with the initial position; later ones it counts.
type stampedLine struct {
	c      *clock
	chunks chan stampedChunk
	closed chan struct{}
	once   sync.Once
	dumped atomic.Bool
	asked  atomic.Int64
}

type stampedChunk struct {
	at time.Duration
	b  []byte
}

func newStampedLine(c *clock) *stampedLine {
	return &stampedLine{c: c, chunks: make(chan stampedChunk), closed: make(chan struct{})}
}

// send hands b to the driver's next Read at time at; false if the driver
// has not taken it within ten seconds of real time (it stopped reading).
// The channel is unbuffered: the driver has taken b when send returns.
func (l *stampedLine) send(at time.Duration, b []byte) bool {
	t := time.NewTimer(10 * time.Second)
	defer t.Stop()
	select {
	case l.chunks <- stampedChunk{at, b}:
		return true
	case <-t.C:
		return false
	}
}

func (l *stampedLine) Read(p []byte) (int, error) {
	select {
	case ch := <-l.chunks:
		l.c.set(ch.at)
		return copy(p, ch.b), nil
	case <-l.closed:
		return 0, io.EOF
	}
}

func (l *stampedLine) Write(p []byte) (int, error) {
	if bytes.IndexByte(p, dgt.CmdSendBoard) >= 0 {
		if l.dumped.CompareAndSwap(false, true) {
			go func() {
				select {
				case l.chunks <- stampedChunk{0, dgt.EncodeBoard(&fen.Start)}:
				case <-l.closed:
				}
			}()
		} else {
			l.asked.Add(1)
		}
	}
	return len(p), nil
}

func (l *stampedLine) Close() error {
	l.once.Do(func() { close(l.closed) })
	return nil
}

// FuzzDev: any bytes from a board, then a dump: the driver neither panics
// nor blocks nor fails, and the last position it reports is the dump's.
func FuzzDev(f *testing.F) {
	f.Add([]byte{0x8e, 0x00, 0x05, 52, 0x00})
	f.Add(append([]byte{0x86, 0x01, 0x4b}, make([]byte, 200)...))
	f.Add([]byte{0xf0, 0x7f, 0x7f, 1, 2, 3})
	f.Add([]byte{0x00, 0x55, 0x86, 0x00, 0x43, 1, 2, 3, 0xff, 0x7f})
	f.Add([]byte{0x8e, 0x00, 0x05, 64, 0x01, 0x93, 0x00, 0x05, 1, 2, 0xa0, 0x00, 0x04, 101})
	sentinel := fen.MustParsePlacement("4k3/8/8/8/8/8/8/4K2R")
	f.Fuzz(func(t *testing.T, in []byte) {
		conn, sim := pipeBoard(t, fen.Start, nil)
		d, err := dgt.New(conn, "fuzz", nil)
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		next(t, d)
		go func() {
			sim.Raw(in)
			sim.Raw(dgt.EncodeBoard(&sentinel))
		}()
		for n := 0; ; n++ {
			e, err := d.Next()
			if err != nil {
				t.Fatal(err)
			}
			if e.Square == fen.NoSquare && e.Position == sentinel {
				break
			}
			if e.Square != fen.NoSquare && (e.Square > 63 || e.Piece > fen.Unknown) {
				t.Fatalf("event %+v", e)
			}
			if n > len(in)+10 {
				t.Fatalf("%d events from %d bytes", n, len(in))
			}
		}
	})
}
