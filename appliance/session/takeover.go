package session

import (
	"fmt"
	"time"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
)

// Takeover is another clock's game for this one to carry on (FIDE 6.10: a
// defective clock is replaced and the arbiter decides the times; the
// clock comes up paused so the arbiter confirms or corrects them).
type Takeover struct {
	Controls timecontrol.Pair
	Options  clock.Options
	Name     string // what the displays call the control; "" names it with Opts.Name
	ToMove   clock.Side
	// Side is each side's time, moves, period (from 1) and overstep
	// mark, by clock.White, clock.Black; a flag is the clock's own to
	// set, and ignored.
	Side [2]clocklog.SideClock
	// Note says in the journal where the game comes from.
	Note string
}

// overstepNote is the journal comment of an overstep mark a takeover
// carried over: "takeover overstep black". The clock log has no event
// that sets an overstep mark (it is the engine's to set, when a period
// runs out short of its quota), so the session keeps it beside the clock,
// reads it back at recovery, and a clear-overstep event of that side ends
// it as it ends the clock's own.
const overstepNote = "takeover overstep "

// corrections are the events that set a fresh clock to t: the periods
// first (which change no time), then times, moves and the side to move.
func (t *Takeover) corrections() []clocklog.Event {
	var evs []clocklog.Event
	for _, side := range []clock.Side{clock.White, clock.Black} {
		if p := t.Side[side].Period; p != 1 {
			evs = append(evs, clocklog.Event{Verb: clocklog.SetPeriod, Side: side, Value: int64(p)})
		}
	}
	for _, side := range []clock.Side{clock.White, clock.Black} {
		evs = append(evs, clocklog.Event{Verb: clocklog.SetTime, Side: side, Value: t.Side[side].Ms})
		if m := t.Side[side].Moves; m != 0 {
			evs = append(evs, clocklog.Event{Verb: clocklog.SetMoves, Side: side, Value: int64(m)})
		}
	}
	if t.ToMove != clock.White {
		evs = append(evs, clocklog.Event{Verb: clocklog.SetTurn, Side: t.ToMove})
	}
	return evs
}

// check tries t on a scratch clock, so that a takeover the engine refuses
// leaves the current game as it was.
func (t *Takeover) check() error {
	if t.ToMove != clock.White && t.ToMove != clock.Black {
		return fmt.Errorf("side to move %v: want white or black", t.ToMove)
	}
	c, err := clock.New(t.Controls, t.Options)
	if err != nil {
		return err
	}
	for _, e := range t.corrections() {
		if _, err := clocklog.Apply(c, e); err != nil {
			return fmt.Errorf("%s: %v", e, err)
		}
	}
	return nil
}

// TakeOver ends the current game (archiving it if it started) and sets up
// t's game at monotonic instant now: a new journal on its control and
// options, its times, moves, periods and side to move as corrections
// before the start, then the start and a pause at the same instant. The
// game shows as taken over (TakenOver) until it is resumed. A takeover the
// clock would refuse changes nothing.
func (s *Session) TakeOver(now time.Duration, t Takeover) error {
	if err := t.check(); err != nil {
		return err
	}
	if err := s.NewGame(now, t.Controls, t.Options, t.Name); err != nil {
		return err
	}
	if t.Note != "" {
		s.Note(t.Note)
	}
	for _, e := range t.corrections() {
		if err := s.Correct(now, e); err != nil {
			// check applied the same events to the same clock.
			return fmt.Errorf("takeover: %s: %v", e, err)
		}
	}
	for _, side := range []clock.Side{clock.White, clock.Black} {
		if t.Side[side].Overstep {
			s.carried[side] = true
			s.Note(overstepNote + side.String())
		}
	}
	s.Start(now)
	s.Pause(now)
	s.takenOver = true
	return nil
}

// TakenOver reports whether the game was taken over from another clock
// and has not been resumed since.
func (s *Session) TakenOver() bool { return s.takenOver }
