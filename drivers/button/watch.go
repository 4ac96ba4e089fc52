package button

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"sync"
	"time"
)

// settleLag is how far behind the clock the watcher works. The kernel
// stamps an edge and numbers it (seqno) in its hard interrupt handler, and
// queues the event from the line's interrupt thread a little later; with
// several lines the threads may queue events out of order. So events are
// held until the clock is settleLag past their stamp, then fed to the
// debouncer in the kernel's order, and windows and holds are settled
// settleLag behind the clock: an event on its way is never overtaken, and
// a number missing by then was dropped. The interrupt threads run at
// real-time priority, ahead of every ordinary process, so on a loaded Pi
// their delay stays far under this. It delays events by as much, never
// their instants; an event queued later still than this counts from the
// instant the watcher had reached.
const settleLag = 2 * time.Millisecond

// edgeSource is where the watcher reads the kernel's edge events: a GPIO
// line request on Linux (fdSource), a pipe or a scripted fake in tests.
type edgeSource interface {
	// wait returns when records can be read, when timeout has passed (a
	// negative timeout waits for ever), or at once once wake was called.
	// A spurious return is harmless.
	wait(timeout time.Duration) error
	// read reads records of struct gpio_v2_line_event into p without
	// blocking: 0, nil when there is nothing to read; io.EOF when there
	// never will be.
	read(p []byte) (int, error)
	// levels returns the lines' current levels, bit i for the i-th line
	// requested (high is 1).
	levels() (uint64, error)
	// wake makes wait return, now and from then on.
	wake()
	// close releases the lines.
	close() error
}

// checkLines validates the button list and fills in defaults.
func checkLines(lines []Line, opts *Opts) (*Opts, error) {
	o := DefaultOpts
	if opts != nil {
		o = *opts
	}
	if o.Clock == nil {
		o.Clock = DefaultOpts.Clock
	}
	if len(lines) == 0 {
		return nil, errors.New("button: no buttons to watch")
	}
	if len(lines) > linesMax {
		return nil, fmt.Errorf("button: %d buttons, at most %d can be watched", len(lines), linesMax)
	}
	names := map[string]bool{}
	used := map[string]string{}
	for _, l := range lines {
		switch {
		case l.Name == "":
			return nil, fmt.Errorf("button on %s: no name", l.Line)
		case l.Line == "":
			return nil, fmt.Errorf("button %q: no GPIO line", l.Name)
		case names[l.Name]:
			return nil, fmt.Errorf("button %q: listed twice", l.Name)
		case used[l.Line] != "":
			return nil, fmt.Errorf("button %q: %s is already used by button %q", l.Name, l.Line, used[l.Line])
		}
		names[l.Name] = true
		used[l.Line] = l.Name
	}
	return &o, nil
}

func lineNames(lines []Line) string {
	s := make([]string, len(lines))
	for i, l := range lines {
		s[i] = l.Line
	}
	return strings.Join(s, ", ")
}

// watcher is the Source returned by Open.
type watcher struct {
	src       edgeSource
	offsets   []uint32 // chip line offset of each button, in the request's order
	activeLow bool
	clock     func() time.Duration          // now, on the time base of stamp
	stamp     func(ns uint64) time.Duration // a kernel timestamp_ns as an instant
	deb       *Debouncer
	raw       []bool      // raw level fed to deb, per button: true when pressed
	held      []lineEvent // events read but not yet fed, in order of seqno
	seqno     uint32      // seqno of the last event fed
	lineSeqno []uint32    // line_seqno of the last event fed, per button
	buf       []byte      // records read, a partial one at the start (pipes only)
	n         int         // bytes of buf in use
	events    chan Event
	stop      chan struct{}
	done      chan struct{}
	err       error // set by run before done is closed
	closeOnce sync.Once
	closeErr  error
}

// start reads the initial levels and starts the watcher goroutine.
// offsets[i] is the chip offset the kernel reports in the events of
// lines[i]; bit i of src.levels is its level. stamp turns the kernel's
// timestamps into instants on the time base of o.Clock.
func start(lines []Line, src edgeSource, offsets []uint32, o *Opts, stamp func(uint64) time.Duration) (*watcher, error) {
	w, err := newWatcher(lines, src, offsets, o, stamp)
	if err != nil {
		return nil, err
	}
	go w.run()
	return w, nil
}

// newWatcher is start without the goroutine.
func newWatcher(lines []Line, src edgeSource, offsets []uint32, o *Opts, stamp func(uint64) time.Duration) (*watcher, error) {
	names := make([]string, len(lines))
	for i, l := range lines {
		names[i] = l.Name
	}
	w := &watcher{
		src:       src,
		offsets:   offsets,
		activeLow: o.ActiveLow,
		clock:     o.Clock,
		stamp:     stamp,
		deb:       NewDebouncer(names, o),
		raw:       make([]bool, len(lines)),
		lineSeqno: make([]uint32, len(lines)),
		buf:       make([]byte, 64*eventSize),
		events:    make(chan Event, 64),
		stop:      make(chan struct{}),
		done:      make(chan struct{}),
	}
	bits, err := src.levels()
	if err != nil {
		return nil, fmt.Errorf("button: reading %s: %w", lineNames(lines), err)
	}
	for i := range lines {
		w.raw[i] = w.pressed(bits&(1<<i) != 0)
		w.deb.Init(i, w.raw[i])
	}
	return w, nil
}

func (w *watcher) pressed(high bool) bool { return high != w.activeLow }

// Events implements Source.
func (w *watcher) Events() <-chan Event { return w.events }

// Close implements Source. It returns the error that stopped the watcher
// early, if any, or the error of releasing the lines.
func (w *watcher) Close() error {
	w.closeOnce.Do(func() {
		close(w.stop)
		w.src.wake()
		<-w.done
		err := w.src.close()
		w.closeErr = w.err
		if w.closeErr == nil && err != nil {
			w.closeErr = fmt.Errorf("button: releasing lines: %w", err)
		}
	})
	return w.closeErr
}

func (w *watcher) run() {
	defer close(w.done)
	defer close(w.events)
	out := make([]Event, 0, 16)
	next := Never // the next instant anything is due, on the debouncer's time
	for {
		select {
		case <-w.stop:
			return
		default:
		}
		timeout := time.Duration(-1) // nothing pending: wait for an edge
		if next != Never {
			timeout = max(next+settleLag-w.clock(), 0)
		}
		if err := w.src.wait(timeout); err != nil {
			w.err = fmt.Errorf("button: waiting for an edge: %w", err)
			return
		}
		// The clock is read before the events: every event queued by now
		// is read below.
		horizon := w.clock() - settleLag
		if err := w.readEvents(); err != nil {
			w.err = err
			return
		}
		if err := w.feed(horizon); err != nil {
			w.err = err
			return
		}
		out, next = w.deb.Advance(horizon, out[:0])
		if len(w.held) > 0 {
			next = min(next, w.stamp(w.held[0].timestampNs))
		}
		for _, ev := range out {
			select {
			case w.events <- ev:
			case <-w.stop:
				return
			}
		}
	}
}

// readEvents reads every event the source has and holds them, in order of
// seqno.
func (w *watcher) readEvents() error {
	for {
		n, err := w.src.read(w.buf[w.n:])
		if errors.Is(err, io.EOF) {
			return errors.New("button: reading edges: the line request was closed")
		}
		if err != nil {
			return fmt.Errorf("button: reading edges: %w", err)
		}
		if n == 0 {
			return nil
		}
		w.n += n
		whole := w.n / eventSize * eventSize
		for off := 0; off < whole; off += eventSize {
			e := decodeEvent(w.buf[off:])
			if w.index(e.offset) < 0 || (e.id != eventRisingEdge && e.id != eventFallingEdge) {
				continue
			}
			// Insert by seqno (it wraps), usually at the end.
			j := len(w.held)
			w.held = append(w.held, e)
			for j > 0 && int32(w.held[j-1].seqno-e.seqno) > 0 {
				w.held[j] = w.held[j-1]
				j--
			}
			w.held[j] = e
		}
		w.n = copy(w.buf, w.buf[whole:w.n])
	}
}

// feed feeds the held events stamped up to horizon to the debouncer, in
// the kernel's order, and reports the events its buffer dropped.
func (w *watcher) feed(horizon time.Duration) error {
	k := 0
	lost := false
	for ; k < len(w.held); k++ {
		e := w.held[k]
		at := w.stamp(e.timestampNs)
		if at > horizon {
			break
		}
		i := w.index(e.offset)
		// Sequence numbers count every event the kernel made: seqno for
		// the request, line_seqno for the line. Fed in order, a number
		// skipped is an event the kernel's buffer dropped (the oldest go).
		gap := e.seqno - w.seqno - 1
		lineGap := e.lineSeqno - w.lineSeqno[i] - 1
		w.seqno, w.lineSeqno[i] = e.seqno, e.lineSeqno
		if gap != 0 && gap != lineGap {
			w.deb.Overrun(-1, count(gap), at)
		}
		if lineGap != 0 {
			w.deb.Overrun(i, count(lineGap), at)
		}
		lost = lost || gap != 0
		// The id is the level the kernel read back after the edge. Equal
		// to the level before, the line came back (or bounced back before
		// the kernel looked): an edge away at the stamp and one back, so
		// the first edge of a bouncing press keeps its instant.
		p := w.pressed(e.id == eventRisingEdge)
		if p == w.raw[i] {
			w.edge(i, !p, at)
		}
		w.edge(i, p, at)
	}
	w.held = w.held[:copy(w.held, w.held[k:])]
	if !lost {
		return nil
	}
	// Lost edges may have left a line at another level than its events
	// say, with no event since to tell. Its level now is the truth, as of
	// horizon (the edges came at an unknown instant before, and an Overrun
	// event says so). Lines with events still held get theirs from them.
	bits, err := w.src.levels()
	if err != nil {
		return fmt.Errorf("button: reading lines: %w", err)
	}
	for i := range w.raw {
		if p := w.pressed(bits&(1<<i) != 0); p != w.raw[i] && !w.holds(i) {
			w.edge(i, p, horizon)
		}
	}
	return nil
}

// holds reports whether an event of button i is held.
func (w *watcher) holds(i int) bool {
	for _, e := range w.held {
		if e.offset == w.offsets[i] {
			return true
		}
	}
	return false
}

func (w *watcher) edge(i int, pressed bool, at time.Duration) {
	w.raw[i] = pressed
	w.deb.Edge(i, pressed, at)
}

func (w *watcher) index(offset uint32) int {
	for i, o := range w.offsets {
		if o == offset {
			return i
		}
	}
	return -1
}

func count(n uint32) int { return int(min(n, math.MaxInt32)) }
