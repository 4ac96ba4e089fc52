package eboard

import (
	"math"
	"time"

	"github.com/zeitnot/zeitnot/engine/fen"
)

// Never is the deadline Settler.Advance returns when nothing is pending.
const Never = time.Duration(math.MaxInt64)

// Settled is the position a Settler found for a press.
type Settled struct {
	Press    time.Duration // the instant of the press
	Since    time.Duration // when the board took this position
	Position fen.Placement
	// OK is false when the board showed no stable position within
	// SettleOpts.MaxWait of the press (or showed nothing at all); Position
	// is then zero and the press has no position.
	OK bool
	// Held is the position the board showed at the very instant of the
	// press when that one stood for less than Stable, and so is not
	// Position; HasHeld says there is one. In blitz a player may press
	// 100 ms after putting the piece down and the opponent lift a piece
	// 100 ms after that: then Position shows the opponent's piece lifted
	// and Held the move. A reader of moves tries Position first and Held if
	// Position explains nothing.
	Held    fen.Placement
	HasHeld bool
}

// SettleOpts configures a Settler.
type SettleOpts struct {
	// Stable is how long a position must stand unchanged to be believed.
	Stable time.Duration
	// MaxWait bounds how long after a press the Settler waits for a stable
	// position before it gives up on that press.
	MaxWait time.Duration
	// Keep is how far back the Settler remembers positions, so that a press
	// reported late (it crossed a socket) still finds the position that
	// stood at its instant. At most 2048 changes are kept, whatever Keep.
	Keep time.Duration
}

// DefaultSettleOpts is for a board on USB. DGT's header says a board
// reports a change "with an average maximum time delay of 200 mS", one scan
// of its 64 squares; a position must outlast that scan with some margin to
// be one the hand left rather than one it passed through. PicoChess waits
// 0.25 s on USB and 0.5 s on Bluetooth, where the board scans at half speed;
// BluetoothSettleOpts is for that.
var DefaultSettleOpts = SettleOpts{Stable: 250 * time.Millisecond, MaxWait: 5 * time.Second, Keep: 2 * time.Second}

// BluetoothSettleOpts is DefaultSettleOpts for a board on Bluetooth.
var BluetoothSettleOpts = SettleOpts{Stable: 500 * time.Millisecond, MaxWait: 5 * time.Second, Keep: 2 * time.Second}

const maxHistory = 1024

// Settler finds the stable position at the instant of a press.
//
// The caller feeds it every position the board reports (Observe) and every
// press (Press), each with its instant, and asks at a given instant for the
// presses it can now answer (Advance), which also says when it next needs to
// be asked. It is a pure state machine: no clock, no goroutine. It is not
// safe for concurrent use.
//
// The rule: the positions the board reports split time into intervals, each
// position standing from its report to the next. A press at instant t is
// answered with the position of the interval holding t, if that interval
// lasts at least Stable in all (before or after t: a piece placed a moment
// before the press and left there counts once it has stood for Stable). If
// the interval holding t is shorter than Stable (the press came while a hand
// was still moving a piece, or the opponent's hand came quickly), the answer
// is the first later interval that lasts Stable, with the position held at
// the press beside it (Settled.Held). Only the position at the press counts: what the hands did
// between two presses (a capture lifted in either order, castling king or
// rook first, a piece knocked over and put back, a move taken back and made
// again) does not matter. A press before the first position observed (the
// board was opened after it) has no position: it is answered at once, with
// OK false, never with a position the board took later. The answer to a
// press comes at most Stable after the press once the board is still, and
// never later than MaxWait after it (then with OK false).
type Settler struct {
	opts    SettleOpts
	hist    []span // closed intervals, oldest first
	cur     span   // the open interval; valid if have
	have    bool
	pending []time.Duration
	now     time.Duration
}

type span struct {
	start, end time.Duration // end is the next interval's start; open: unused
	pos        fen.Placement
	lost       bool // the board was away: no position is known
}

// NewSettler returns a Settler; opts nil means DefaultSettleOpts. A
// Stable or MaxWait of zero or less takes the default's.
func NewSettler(opts *SettleOpts) *Settler {
	o := DefaultSettleOpts
	if opts != nil {
		o = *opts
	}
	if o.Stable <= 0 {
		o.Stable = DefaultSettleOpts.Stable
	}
	if o.MaxWait <= 0 {
		o.MaxWait = DefaultSettleOpts.MaxWait
	}
	if o.Keep < o.Stable {
		o.Keep = o.Stable
	}
	return &Settler{opts: o}
}

// Observe records that the board showed pos from instant at. A position
// equal to the current one changes nothing; an instant before the last one
// seen is taken as the last one (instants never go back).
func (s *Settler) Observe(at time.Duration, pos fen.Placement) {
	if at < s.now {
		at = s.now
	}
	if s.have {
		if at < s.cur.start {
			at = s.cur.start
		}
		if pos == s.cur.pos && !s.cur.lost {
			return
		}
		s.cur.end = at
		s.hist = append(s.hist, s.cur)
	}
	s.cur = span{start: at, pos: pos}
	s.have = true
	s.prune(at)
}

// Lost records that from instant at the board's position is unknown (it
// was unplugged, or its driver failed) until the next Observe. A press in
// that time is answered with the first position that stands for Stable
// after the board is back, never with the one from before it went away.
func (s *Settler) Lost(at time.Duration) {
	if !s.have || s.cur.lost {
		return
	}
	at = max(at, s.now, s.cur.start)
	s.cur.end = at
	s.hist = append(s.hist, s.cur)
	s.cur = span{start: at, lost: true}
	s.prune(at)
}

// Press records a press at instant at. At most 16 presses wait for an
// answer; a 17th answers the oldest with OK false.
func (s *Settler) Press(at time.Duration) {
	s.pending = append(s.pending, at)
}

// Current returns the board's position and whether it has stood for Stable
// at instant now (for checking the position before a game starts).
func (s *Settler) Current(now time.Duration) (fen.Placement, bool) {
	if !s.have || s.cur.lost {
		return fen.Placement{}, false
	}
	return s.cur.pos, now-s.cur.start >= s.opts.Stable
}

// Advance returns the answers due at instant now, in the order of the
// presses, and the instant at which Advance should next be called (Never
// when no press is waiting). Every position shown up to now must have been
// observed before.
func (s *Settler) Advance(now time.Duration) ([]Settled, time.Duration) {
	if now < s.now {
		now = s.now
	}
	s.now = now
	var out []Settled
	for len(s.pending) > 16 {
		out = append(out, Settled{Press: s.pending[0]})
		s.pending = s.pending[1:]
	}
	next := Never
	for len(s.pending) > 0 {
		t := s.pending[0]
		r, due, ok := s.answer(t, now)
		if !ok {
			if now-t >= s.opts.MaxWait {
				r, ok = Settled{Press: t}, true
			} else {
				next = min(due, t+s.opts.MaxWait)
				break
			}
		}
		out = append(out, r)
		s.pending = s.pending[1:]
	}
	s.prune(now)
	return out, next
}

// answer looks for the answer to a press at t; if there is none yet, due is
// when there may be one.
func (s *Settler) answer(t, now time.Duration) (r Settled, due time.Duration, ok bool) {
	due = Never
	if !s.have {
		return r, due, false
	}
	// The board was not known yet at the press (it was opened after it,
	// or what was known then is forgotten): the position at the press is
	// unknown, and a later one is not it.
	first := s.cur.start
	if len(s.hist) > 0 {
		first = s.hist[0].start
	}
	if first > t {
		return Settled{Press: t}, due, true
	}
	found := false // an interval holding t has been passed
	var held fen.Placement
	hasHeld := false
	check := func(sp span, open bool) bool {
		end := sp.end
		if open {
			end = now
		}
		holds := sp.start <= t && (open || t < sp.end)
		if !found && !holds && sp.start <= t {
			return false // entirely before the press
		}
		found = true
		if sp.lost {
			return false
		}
		if end-sp.start >= s.opts.Stable {
			r = Settled{Press: t, Since: sp.start, Position: sp.pos, OK: true}
			if hasHeld && held != sp.pos {
				r.Held, r.HasHeld = held, true
			}
			return true
		}
		if holds {
			held, hasHeld = sp.pos, true
		}
		if open {
			due = sp.start + s.opts.Stable
		}
		return false
	}
	for _, sp := range s.hist {
		if check(sp, false) {
			return r, due, true
		}
	}
	if check(s.cur, true) {
		return r, due, true
	}
	return r, due, false
}

// prune forgets intervals that no waiting press can need. It compacts in
// batches, so that a board that changes without end costs a constant time a
// change.
func (s *Settler) prune(now time.Duration) {
	keepFrom := now - s.opts.Keep
	for _, t := range s.pending {
		keepFrom = min(keepFrom, t)
	}
	i := 0
	for i < len(s.hist) && s.hist[i].end < keepFrom {
		i++
	}
	if len(s.hist) > 2*maxHistory {
		i = max(i, len(s.hist)-maxHistory)
	}
	if i > 0 && (i >= 64 || i == len(s.hist)) {
		s.hist = append(s.hist[:0], s.hist[i:]...)
	}
}
