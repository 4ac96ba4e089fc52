package dgt

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/zeitnot/zeitnot/drivers/eboard"
	"github.com/zeitnot/zeitnot/drivers/monotonic"
	"github.com/zeitnot/zeitnot/engine/fen"
)

// Opts configures a DGT board.
type Opts struct {
	// Now stamps events; nil means monotonic.Now.
	Now func() time.Duration
	// Nice asks for updates with DGT_SEND_UPDATE_NICE (0x4b: field
	// updates, and clock times when a DGT clock sits on the board and its
	// times change; they are skipped) rather than DGT_SEND_UPDATE_BRD
	// (0x44: field updates only).
	Nice bool
	// Timeout bounds how long New waits for the board's first dump, and
	// how long a line may carry nothing but garbage (bytes that frame no
	// message a DGT board sends) before Next fails: a bad cable or a
	// device that is no DGT board. Zero means DefaultOpts.Timeout.
	Timeout time.Duration
	// Queue is how many events wait for Next before they are coalesced
	// into one dump of the board as it stands. Zero means
	// DefaultOpts.Queue.
	Queue int
}

// DefaultOpts: field updates only, 3 s for the board to answer, 1024
// events queued.
var DefaultOpts = Opts{Timeout: 3 * time.Second, Queue: 1024}

// Dev is a DGT board. It implements eboard.Board.
type Dev struct {
	name    string
	rw      io.ReadWriteCloser
	now     func() time.Duration
	max     int
	timeout time.Duration

	wmu    sync.Mutex  // serialises writes
	asking atomic.Bool // a request for a dump is being written

	mu       sync.Mutex
	info     eboard.Info
	dec      Decoder
	nread    int           // bytes read
	bad      bool          // bytes dropped since the last message
	badSince time.Duration // when the first of them came
	pos      fen.Placement
	havePos  bool
	queue    []eboard.Event
	err      error // set when the reader stopped
	closed   bool
	ready    chan struct{} // signalled when queue or err changes
	lastAsk  time.Duration
	asked    bool
	firstPos chan struct{} // closed at the first dump
	done     chan struct{} // closed when the reader stops
	once     sync.Once
}

var _ eboard.Board = (*Dev)(nil)

// New returns the DGT board on rw, a serial port already set to 9600 8N1 (or
// a pipe to a simulated board), named name in errors ("/dev/ttyACM0"). It
// puts the board in update mode, asks for its serial number, version,
// battery and a dump, and returns once the dump has come; it fails, naming
// the device, if none comes within Opts.Timeout. Dev owns rw and closes it.
// opts nil means DefaultOpts.
func New(rw io.ReadWriteCloser, name string, opts *Opts) (*Dev, error) {
	o := DefaultOpts
	if opts != nil {
		o = *opts
	}
	if o.Now == nil {
		o.Now = monotonic.Now
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultOpts.Timeout
	}
	if o.Queue <= 0 {
		o.Queue = DefaultOpts.Queue
	}
	d := &Dev{
		name: "dgt board on " + name, rw: rw, now: o.Now, max: o.Queue, timeout: o.Timeout,
		info:     eboard.Info{Family: "DGT"},
		ready:    make(chan struct{}, 1),
		firstPos: make(chan struct{}),
		done:     make(chan struct{}),
	}
	update := byte(CmdUpdateBoard)
	if o.Nice {
		update = CmdUpdateNice
	}
	// Reset first, so that a board left in update mode by a previous
	// program starts clean; update mode before the dump, so that no change
	// falls between the dump and the first update.
	go d.read()
	// A device that takes no command (a stuck tty) must not hold New past
	// its timeout: the commands go from a goroutine, which closing the
	// device ends.
	wrote := make(chan error, 1)
	go func() {
		wrote <- d.write(CmdReset, CmdLongSerial, CmdSerial, CmdVersion, CmdBattery, update, CmdSendBoard)
	}()
	t := time.NewTimer(o.Timeout)
	defer t.Stop()
	for {
		select {
		case err := <-wrote:
			if err != nil {
				d.Close()
				return nil, err
			}
		case <-d.firstPos:
			return d, nil
		case <-t.C:
			d.Close()
			return nil, fmt.Errorf("%s: no board dump within %v%s: is it a DGT board, and switched on?", d.name, o.Timeout, d.heard())
		case <-d.done:
			err := d.Err()
			d.Close()
			return nil, err
		}
	}
}

// heard says what came from the device, for an error.
func (d *Dev) heard() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	st := d.dec.Stats()
	if d.nread == 0 {
		return " (it sent nothing)"
	}
	s := fmt.Sprintf(" (it sent %d bytes: %d messages, %d skipped, %d bytes dropped", d.nread, st.Messages, st.Skipped, st.Dropped)
	if st.Last != "" {
		s += ", the last " + st.Last
	}
	return s + ")"
}

// Stats returns what the decoder made of the bytes read so far: how many
// messages, and how many bytes it dropped and why.
func (d *Dev) Stats() Stats {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.dec.Stats()
}

// Err returns why the reader stopped, or nil while it runs.
func (d *Dev) Err() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.err
}

func (d *Dev) write(cmds ...byte) error {
	d.wmu.Lock()
	defer d.wmu.Unlock()
	if _, err := d.rw.Write(cmds); err != nil {
		return fmt.Errorf("%s: writing command % x: %w", d.name, cmds, err)
	}
	return nil
}

func (d *Dev) signal() {
	select {
	case d.ready <- struct{}{}:
	default:
	}
}

// read is the one reader of the device.
func (d *Dev) read() {
	defer close(d.done)
	buf := make([]byte, 512)
	for {
		n, err := d.rw.Read(buf)
		if n > 0 {
			at := d.now()
			d.mu.Lock()
			d.nread += n
			before := d.dec.stats
			d.dec.Feed(buf[:n], func(m Message) { d.handle(at, m) })
			resynced := d.dec.Resynced()
			ask := resynced && (!d.asked || at-d.lastAsk >= 250*time.Millisecond)
			if ask {
				d.asked, d.lastAsk = true, at
			}
			// A line of nothing but garbage for the timeout is a bad
			// cable or no DGT board: say so rather than ask for dumps
			// for ever.
			switch after := d.dec.stats; {
			case after.Messages != before.Messages || after.Skipped != before.Skipped:
				d.bad = false
			case resynced && !d.bad:
				d.bad, d.badSince = true, at
			}
			if d.bad && at-d.badSince >= d.timeout && !d.closed {
				st := d.dec.Stats()
				d.err = fmt.Errorf("%s: %v of garbage and no message from a DGT board (%d bytes dropped, the last %s): a bad cable, or not a DGT board", d.name, at-d.badSince, st.Dropped, st.Last)
				d.mu.Unlock()
				d.signal()
				return
			}
			d.mu.Unlock()
			if ask && d.asking.CompareAndSwap(false, true) {
				// A field update may have been lost in the garbage: ask for
				// the whole board, from a goroutine (one at a time), so that
				// a device that takes nothing does not stop the reading. A
				// failed write shows as a failed read.
				go func() {
					_ = d.write(CmdSendBoard)
					d.asking.Store(false)
				}()
			}
			d.signal()
		}
		if err != nil || n == 0 && err == nil {
			d.mu.Lock()
			switch {
			case d.closed:
				d.err = fmt.Errorf("%s: %w", d.name, eboard.ErrClosed)
			case err == nil || errors.Is(err, io.EOF):
				d.err = fmt.Errorf("%s: the device closed (unplugged?)", d.name)
			default:
				d.err = fmt.Errorf("%s: reading: %w", d.name, err)
			}
			d.mu.Unlock()
			d.signal()
			return
		}
	}
}

// handle applies a message; d.mu is held.
func (d *Dev) handle(at time.Duration, m Message) {
	switch m.Kind {
	case KindBoard:
		d.pos, d.havePos = m.Position, true
		d.push(eboard.Event{At: at, Square: fen.NoSquare, Position: d.pos})
		d.once.Do(func() { close(d.firstPos) })
	case KindField:
		if !d.havePos {
			return // no base to apply it to; the dump asked for will come
		}
		d.pos[m.Square] = m.Piece
		d.push(eboard.Event{At: at, Square: m.Square, Piece: m.Piece, Position: d.pos})
	case KindSerial:
		if d.info.Serial == "" {
			d.info.Serial = m.Text
		}
	case KindLongSerial:
		d.info.Serial = m.Text
	case KindVersion:
		d.info.Version = m.Text
	case KindBattery:
		d.info.Battery = m.Battery
	}
}

// push queues e; d.mu is held. A full queue keeps its first event, marked
// as followed by a gap, and the rest is replaced by one dump of the board
// as it stands, so a consumer that falls behind loses transient positions,
// never the current one, and knows it lost them.
func (d *Dev) push(e eboard.Event) {
	if len(d.queue) >= d.max {
		d.queue[0].Gap = true
		d.queue = d.queue[:1]
		e = eboard.Event{At: e.At, Square: fen.NoSquare, Position: d.pos}
	}
	d.queue = append(d.queue, e)
}

// String implements eboard.Board.
func (d *Dev) String() string { return d.name }

// Info implements eboard.Board.
func (d *Dev) Info() eboard.Info {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.info
}

// Next implements eboard.Board.
func (d *Dev) Next() (eboard.Event, error) {
	for {
		d.mu.Lock()
		if len(d.queue) > 0 {
			e := d.queue[0]
			d.queue = d.queue[1:]
			if len(d.queue) == 0 {
				d.queue = nil
			}
			d.mu.Unlock()
			return e, nil
		}
		if d.closed {
			d.mu.Unlock()
			return eboard.Event{}, fmt.Errorf("%s: %w", d.name, eboard.ErrClosed)
		}
		if d.err != nil {
			err := d.err
			d.mu.Unlock()
			return eboard.Event{}, err
		}
		d.mu.Unlock()
		select {
		case <-d.ready:
		case <-d.done:
		}
	}
}

// AskBattery asks the board for its battery; the answer shows in Info.
// Only Bluetooth boards answer.
func (d *Dev) AskBattery() error { return d.write(CmdBattery) }

// Close implements eboard.Board: it puts the board back in idle mode (if it
// is still there and takes the command within 100 ms) and closes the
// device. It never blocks longer than that.
func (d *Dev) Close() error {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return nil
	}
	d.closed = true
	d.mu.Unlock()
	sent := make(chan struct{})
	go func() {
		_ = d.write(CmdReset)
		close(sent)
	}()
	t := time.NewTimer(100 * time.Millisecond)
	select {
	case <-sent:
	case <-t.C: // a device that takes nothing: closing it ends the write
	}
	t.Stop()
	err := d.rw.Close()
	d.signal()
	if err != nil {
		return fmt.Errorf("%s: closing: %w", d.name, err)
	}
	return nil
}
