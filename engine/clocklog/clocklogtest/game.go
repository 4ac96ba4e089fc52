// Package clocklogtest generates clock logs of games in every mode and
// option of the clock, for property and fuzz tests, and checks the
// engine's promise on them: a game is a function of its inputs, and a look
// at the clock (a show, State, Advance) is not an input.
//
// A generated game draws its choices from a Source: the bytes of a fuzz
// input, or a seed. The same source gives the same game.
package clocklogtest

import (
	"math/rand/v2"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
)

// Source gives a generator its choices.
type Source struct {
	b    []byte
	rng  *rand.Rand
	left int // choices a seeded source still gives
}

// FromBytes is a source that reads its choices from b (a fuzz input); once
// b is used up every choice is 0 and Done reports true.
func FromBytes(b []byte) *Source { return &Source{b: b} }

// FromSeed is a source of n pseudo-random choices from seed; then Done.
func FromSeed(seed uint64, n int) *Source {
	return &Source{rng: rand.New(rand.NewPCG(seed, 0x5eed)), left: n}
}

// Done reports whether the source has no more choices to give.
func (s *Source) Done() bool {
	if s.rng != nil {
		return s.left <= 0
	}
	return len(s.b) == 0
}

// N returns a choice from 0 to n-1 (0 if n <= 1).
func (s *Source) N(n int) int {
	if n <= 1 {
		return 0
	}
	if s.rng != nil {
		s.left--
		return s.rng.IntN(n)
	}
	v := 0
	for k := n - 1; k > 0; k >>= 8 {
		v <<= 8
		if len(s.b) > 0 {
			v |= int(s.b[0])
			s.b = s.b[1:]
		}
	}
	return v % n
}

// Range returns a choice from lo to hi, both included.
func (s *Source) Range(lo, hi int64) int64 {
	if hi <= lo {
		return lo
	}
	return lo + int64(s.N(int(hi-lo+1)))
}

// Opts bound a generated game.
type Opts struct {
	Events int   // most events
	Span   int64 // most milliseconds from the first event to the last
	// Corrections lets the game have the arbiter's corrections.
	Corrections bool
}

// DefaultOpts make games of up to 80 events in at most three hours, with
// corrections.
var DefaultOpts = Opts{Events: 80, Span: 3 * 3600 * 1000, Corrections: true}

func sec(n int64) int64 { return n * 1000 }

// period draws one period of a multi-period control: a quota, a time and
// an increment or delay of any kind.
func period(s *Source, quota bool) timecontrol.Period {
	p := timecontrol.Period{Time: sec(s.Range(1, 20))}
	if quota {
		p.Moves = int(s.Range(1, 5))
	}
	switch s.N(5) {
	case 1:
		p.Mode, p.Extra = timecontrol.Fischer, sec(s.Range(1, 5))
		if s.N(3) == 0 {
			p.From = int(s.Range(2, 8))
		}
	case 2:
		p.Mode, p.Extra = timecontrol.Delay, sec(s.Range(1, 5))
	case 3:
		p.Mode, p.Extra = timecontrol.Bronstein, sec(s.Range(1, 5))
	}
	return p
}

// Control draws one player's control: sudden death, multi-period quotas
// ending in a repeating period or in sudden death, Fischer (also from a
// later move), delay, Bronstein, byo-yomi, Canadian, hourglass or
// count-up. Times are seconds, so that periods run out within a game.
func Control(s *Source) timecontrol.Control {
	var c timecontrol.Control
	switch s.N(10) {
	case 0:
		c = timecontrol.Control{{Time: sec(s.Range(5, 90))}}
	case 1, 2, 3:
		n := int(s.Range(1, 3))
		for i := 0; i < n; i++ {
			c = append(c, period(s, true))
		}
		if s.N(2) == 0 {
			c = append(c, period(s, false)) // a last period without quota
		}
	case 4:
		c = timecontrol.Control{period(s, false)}
		if c[0].Mode == timecontrol.SuddenDeath {
			c[0].Mode, c[0].Extra = timecontrol.Fischer, sec(s.Range(1, 5))
		}
	case 5:
		c = timecontrol.Control{{Time: sec(s.Range(1, 20)), Mode: timecontrol.ByoYomi, Extra: sec(s.Range(1, 5)), OvertimeCount: int(s.Range(1, 4))}}
	case 6:
		c = timecontrol.Control{{Time: sec(s.Range(1, 20)), Mode: timecontrol.Canadian, Extra: sec(s.Range(2, 10)), OvertimeCount: int(s.Range(1, 4))}}
	case 7:
		c = timecontrol.Control{{Time: sec(s.Range(5, 60)), Mode: timecontrol.Hourglass}}
	case 8:
		c = timecontrol.Control{{Mode: timecontrol.CountUp}}
	case 9:
		c = timecontrol.Control{period(s, true)} // one repeating period
	}
	if c.Validate() != nil {
		return timecontrol.Control{{Time: sec(60)}}
	}
	return c
}

// Header draws both controls (the same, or each its own) and the options.
func Header(s *Source) clocklog.Header {
	w := Control(s)
	b := w
	if s.N(4) == 0 {
		b = Control(s)
	}
	pair := timecontrol.Pair{White: w, Black: b}
	if pair.Validate() != nil {
		pair = timecontrol.Same(w)
	}
	return clocklog.Header{
		Format:   clocklog.Format,
		Controls: pair,
		Options: clock.Options{
			FirstIncrement: s.N(2) == 0,
			PeriodTrigger:  clock.Trigger(s.N(2)),
			AfterFlag:      clock.AfterFlag(s.N(2)),
		},
	}
}

// wait draws the time to the next event: often none or a few seconds,
// sometimes minutes, so that several periods run out in one wait.
func wait(s *Source) int64 {
	switch s.N(10) {
	case 0:
		return 0
	case 1, 2, 3, 4, 5:
		return s.Range(1, 3000)
	case 6, 7, 8:
		return s.Range(3000, 30000)
	}
	return s.Range(30000, 20*60*1000)
}

// correction draws one of the arbiter's corrections at instant at.
func correction(s *Source, at int64) clocklog.Event {
	e := clocklog.Event{At: at, Side: clock.Side(s.N(2))}
	switch s.N(7) {
	case 0:
		e.Verb, e.Value = clocklog.SetTime, s.Range(0, 30000)
	case 1:
		e.Verb, e.Value = clocklog.AddTime, s.Range(-20000, 20000)
	case 2:
		e.Verb, e.Value = clocklog.SetMoves, s.Range(0, 12)
	case 3:
		e.Verb, e.Value = clocklog.SetPeriod, s.Range(1, 5)
	case 4:
		e.Verb = clocklog.SetTurn
	case 5:
		e.Verb = clocklog.SetIncrement
		if s.N(2) == 0 {
			e.Side = clock.NoSide // both
		}
		if s.N(3) != 0 {
			e.Value = sec(s.Range(1, 5))
		}
	case 6:
		e.Verb = clocklog.ClearOverstep
	}
	return e
}

// Game draws a game: a header and its events, in order of their instants,
// without any show. The game follows the clock it makes: presses are
// mostly by the side to move, corrections mostly while paused (with a
// pause before them), and some events are refused or ignored as a real
// clock's would be (a press by the side not on move, a correction while
// running, a resume while running).
func Game(s *Source, o Opts) *clocklog.Log {
	l := &clocklog.Log{Header: Header(s)}
	c, err := l.NewClock()
	if err != nil {
		panic("clocklogtest: a header that does not validate: " + err.Error())
	}
	now := s.Range(0, 3000)
	emit := func(e clocklog.Event) {
		clocklog.Apply(c, e)
		l.Events = append(l.Events, e)
	}
	for len(l.Events) < o.Events && !s.Done() {
		now += wait(s)
		if now > o.Span {
			break
		}
		st := c.State(now)
		switch a := s.N(20); {
		case !st.Started && a < 15:
			emit(clocklog.Event{At: now, Verb: clocklog.Start, Side: clock.NoSide})
		case a < 13:
			side := st.ToMove
			if s.N(10) == 0 {
				side = side.Other()
			}
			emit(clocklog.Event{At: now, Verb: clocklog.Press, Side: side})
		case a == 13:
			emit(clocklog.Event{At: now, Verb: clocklog.Pause, Side: clock.NoSide})
		case a == 14:
			emit(clocklog.Event{At: now, Verb: clocklog.Resume, Side: clock.NoSide})
		case o.Corrections:
			if st.Started && !st.Paused && s.N(5) != 0 {
				emit(clocklog.Event{At: now, Verb: clocklog.Pause, Side: clock.NoSide})
			}
			for n := s.Range(1, 3); n > 0; n-- {
				emit(correction(s, now))
			}
			if s.N(3) != 0 {
				emit(clocklog.Event{At: now + s.Range(0, 5000), Verb: clocklog.Resume, Side: clock.NoSide})
				now = c.Now()
			}
		}
	}
	return l
}
