package button

import (
	"math"
	"time"
)

// Never is the deadline Debouncer.Advance returns when nothing is pending.
const Never = time.Duration(math.MaxInt64)

// Debouncer turns raw edges of several buttons into debounced events.
//
// It is a pure state machine: it starts no goroutine and never reads a clock.
// The caller feeds it edges with the instant they were seen (Edge) and asks
// for the events that are due at a given instant (Advance), which also says
// when it next needs to be asked.
//
// The rule, per button: the first edge that takes the line away from its
// debounced state opens a window of Opts.Debounce. Edges inside the window
// are contact chatter and only update the raw level. When the window closes,
// if the raw level differs from the debounced state the change is accepted
// and reported with At set to the window's first edge; if the line is back at
// its debounced state the whole window was a spike and nothing is reported.
// So a pulse that ends before Debounce has passed is ignored, chatter of up
// to Debounce gives exactly one event, and a button reports at most one
// change per Debounce.
//
// A press that is still down Opts.HoldAfter after its first edge also gives
// one Hold, with At = press + HoldAfter. A release whose window opens at or
// after that instant comes after the hold; one that opens before it cancels
// it.
//
// Events are emitted in order of At across all buttons; events with the same
// At come in the order of the buttons' indices. To keep that promise an event
// is held back while another button has a window open that could still
// produce an earlier event, which delays it by at most Debounce.
//
// A Debouncer is not safe for concurrent use.
type Debouncer struct {
	names    []string
	debounce time.Duration
	hold     time.Duration
	b        []debState
	now      time.Duration
	pending  []pendingEvent
}

type debState struct {
	stable   bool          // debounced state: true when pressed
	level    bool          // raw level last seen: true when pressed
	settling bool          // a window is open
	start    time.Duration // first edge of the open window
	pressAt  time.Duration // At of the current press
	holdDue  bool          // a hold is still to come for the current press
}

type pendingEvent struct {
	idx int
	ev  Event
}

// NewDebouncer returns a Debouncer for the named buttons, all released. The
// index of a name in names is the button's index in Edge and its rank when
// two events have the same instant. Only opts.Debounce and opts.HoldAfter are
// used; nil means DefaultOpts. A negative Debounce counts as 0 (no
// debouncing); HoldAfter <= 0 disables holds.
func NewDebouncer(names []string, opts *Opts) *Debouncer {
	if opts == nil {
		opts = &DefaultOpts
	}
	d := &Debouncer{
		names:    append([]string(nil), names...),
		debounce: max(opts.Debounce, 0),
		hold:     opts.HoldAfter,
		b:        make([]debState, len(names)),
		pending:  make([]pendingEvent, 0, 4*len(names)+4),
	}
	return d
}

// Init sets the state of button i as if it had been pressed (or released)
// for a long time, without reporting anything: a lever already down when the
// clock starts gives no press and no hold. It is meant to be called before
// the first Edge. An index out of range is ignored.
func (d *Debouncer) Init(i int, pressed bool) {
	if i < 0 || i >= len(d.b) {
		return
	}
	d.b[i] = debState{stable: pressed, level: pressed}
}

// Edge records that the raw line of button i reads pressed (or released) as
// of instant at. Feeding the level the line already has is harmless, so the
// caller may also feed samples read from the line. Instants must not go
// backwards; an earlier one is taken as the latest instant seen. An index out
// of range is ignored.
//
// Edge only records; events become available from Advance. Windows and holds
// due strictly before at are settled first, so the outcome does not depend on
// how often Advance is called.
func (d *Debouncer) Edge(i int, pressed bool, at time.Duration) {
	if i < 0 || i >= len(d.b) {
		return
	}
	if at < d.now {
		at = d.now
	}
	d.settle(at, false)
	d.now = at
	s := &d.b[i]
	if s.level == pressed {
		return
	}
	s.level = pressed
	if !s.settling {
		// Outside a window the raw level equals the stable state, so this
		// edge leaves it and opens a window. A hold due at or before this
		// instant was queued by settle above and comes first.
		s.settling = true
		s.start = at
	}
}

// Overrun queues an Overrun event for button i (-1 for none in particular)
// that lost lost edges before instant at, in order with the other events.
// Like Edge it settles what is due strictly before at, and at must not go
// backwards. The button's state is left as it is: the caller feeds the
// levels it learns next. An index out of range is ignored.
func (d *Debouncer) Overrun(i, lost int, at time.Duration) {
	if i < -1 || i >= len(d.b) {
		return
	}
	if at < d.now {
		at = d.now
	}
	d.settle(at, false)
	d.now = at
	d.pushEvent(i, Event{Kind: Overrun, At: at, Lost: lost})
}

// Advance settles everything due at or before now, appends the events that
// are ready to dst in order and returns it, with the next instant at which
// Advance must be called again (Never if no window or hold is pending). Edges
// at exactly a window's closing instant count as inside the window. now must
// not go backwards; an earlier value is taken as the latest instant seen.
//
// With a dst of sufficient capacity Advance does not allocate.
func (d *Debouncer) Advance(now time.Duration, dst []Event) ([]Event, time.Duration) {
	if now < d.now {
		now = d.now
	}
	d.settle(now, true)
	d.now = now
	// Emit, in order, the pending events no open window can precede.
	n := 0
	for ; n < len(d.pending); n++ {
		if d.blocked(d.pending[n]) {
			break
		}
		dst = append(dst, d.pending[n].ev)
	}
	if n > 0 {
		m := copy(d.pending, d.pending[n:])
		d.pending = d.pending[:m]
	}
	return dst, d.next()
}

// Pressed reports the debounced state of button i.
func (d *Debouncer) Pressed(i int) bool {
	if i < 0 || i >= len(d.b) {
		return false
	}
	return d.b[i].stable
}

// blocked reports whether an open window could still produce an event that
// must come before p.
func (d *Debouncer) blocked(p pendingEvent) bool {
	for j := range d.b {
		s := &d.b[j]
		if !s.settling {
			continue
		}
		if s.start < p.ev.At || (s.start == p.ev.At && j < p.idx) {
			return true
		}
	}
	return false
}

// settle closes the windows ending before t (or at t when inclusive) and
// queues the holds due at or before t.
func (d *Debouncer) settle(t time.Duration, inclusive bool) {
	for i := range d.b {
		s := &d.b[i]
		if s.settling {
			end := s.start + d.debounce
			if end > t || (end == t && !inclusive) {
				continue
			}
			s.settling = false
			if s.level != s.stable {
				s.stable = s.level
				if s.stable {
					d.push(i, Press, s.start)
					s.pressAt = s.start
					s.holdDue = d.hold > 0
				} else {
					if s.holdDue && s.pressAt+d.hold <= s.start {
						d.push(i, Hold, s.pressAt+d.hold)
					}
					s.holdDue = false
					d.push(i, Release, s.start)
				}
			}
		}
		if s.stable && s.holdDue && s.pressAt+d.hold <= t {
			d.push(i, Hold, s.pressAt+d.hold)
			s.holdDue = false
		}
	}
}

// next returns the earliest instant at which settle has work to do.
func (d *Debouncer) next() time.Duration {
	next := Never
	for i := range d.b {
		s := &d.b[i]
		if s.settling {
			next = min(next, s.start+d.debounce)
		} else if s.stable && s.holdDue {
			next = min(next, s.pressAt+d.hold)
		}
	}
	return next
}

// push queues an event of button i.
func (d *Debouncer) push(i int, k Kind, at time.Duration) {
	d.pushEvent(i, Event{Kind: k, At: at})
}

// pushEvent queues ev for button i (-1: none), keeping the queue sorted by
// (At, button index, arrival).
func (d *Debouncer) pushEvent(i int, ev Event) {
	if i >= 0 {
		ev.Button = d.names[i]
	}
	at := ev.At
	p := pendingEvent{idx: i, ev: ev}
	d.pending = append(d.pending, p)
	j := len(d.pending) - 1
	for j > 0 {
		q := d.pending[j-1]
		if q.ev.At < at || (q.ev.At == at && q.idx <= i) {
			break
		}
		d.pending[j] = q
		j--
	}
	d.pending[j] = p
}
