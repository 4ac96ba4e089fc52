package clocklogtest

import (
	"bytes"
	"fmt"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
)

// Step is the reference's step: shorter than any period, byo-yomi period or
// Canadian block can be (one second), so that a clock advanced by it
// settles every expiry on its own and never many in one.
const Step = 997

// item is one line of a log the check builds: an event of the game, or a
// show; q numbers the shows whose states are compared (-1: a show only
// inserted, or an event).
type item struct {
	e clocklog.Event
	q int
}

// run is what replaying a list of items gives: the state at every compared
// show, the moves, and what each event of the game did.
type run struct {
	states []clock.State
	moves  []clock.Move
	did    []string // per event of the game: changed, or the error
}

func replay(h clocklog.Header, items []item, nq int) (run, error) {
	l := clocklog.Log{Header: h}
	c, err := l.NewClock()
	if err != nil {
		return run{}, err
	}
	r := run{states: make([]clock.State, nq)}
	for _, it := range items {
		changed, err := clocklog.Apply(c, it.e)
		switch {
		case it.e.Verb == clocklog.Show:
			if it.q >= 0 {
				r.states[it.q] = c.State(it.e.At)
			}
			continue
		case err != nil:
			r.did = append(r.did, "refused: "+err.Error())
		default:
			r.did = append(r.did, fmt.Sprint(changed))
		}
		if it.e.Verb == clocklog.Press && changed {
			r.moves = append(r.moves, c.LastMove())
		}
	}
	return r, nil
}

// gap is where shows go: before the game's event i (i == len(events): after
// the last), at instants from the one before it to its own.
type show struct {
	gap int
	at  int64
}

// shows draws up to n show instants over the game's gaps, in order.
func shows(s *Source, events []clocklog.Event, n int) []show {
	var out []show
	if len(events) == 0 {
		return out
	}
	for i := 0; i <= len(events); i++ {
		lo := int64(0)
		if i > 0 {
			lo = events[i-1].At
		}
		hi := lo + 3*60*1000
		if i < len(events) {
			hi = events[i].At
		}
		for k := s.N(3); k > 0 && len(out) < n; k-- {
			out = append(out, show{gap: i, at: s.Range(lo, hi)})
		}
	}
	return out
}

// merge makes the log's lines: the game's events, a compared show right
// after each of them (at its instant), the compared shows cmp (numbered
// after those) and the shows extra, each in its gap in order of instants.
func merge(events []clocklog.Event, cmp, extra []show) []item {
	type gapShow struct {
		at int64
		q  int
	}
	gaps := make([][]gapShow, len(events)+1)
	for i, sh := range cmp {
		gaps[sh.gap] = append(gaps[sh.gap], gapShow{sh.at, len(events) + i})
	}
	for _, sh := range extra {
		gaps[sh.gap] = append(gaps[sh.gap], gapShow{sh.at, -1})
	}
	var out []item
	for i := 0; i <= len(events); i++ {
		g := gaps[i]
		// Insertion sort by instant: gaps hold few shows.
		for a := 1; a < len(g); a++ {
			for b := a; b > 0 && g[b].at < g[b-1].at; b-- {
				g[b], g[b-1] = g[b-1], g[b]
			}
		}
		for _, sh := range g {
			out = append(out, item{e: clocklog.Event{At: sh.at, Verb: clocklog.Show, Side: clock.NoSide}, q: sh.q})
		}
		if i < len(events) {
			out = append(out, item{e: events[i], q: -1})
			out = append(out, item{e: clocklog.Event{At: events[i].At, Verb: clocklog.Show, Side: clock.NoSide}, q: i})
		}
	}
	return out
}

// steps are shows every Step ms over the whole game and three minutes past
// it, each in its gap.
func steps(events []clocklog.Event) []show {
	var out []show
	if len(events) == 0 {
		return out
	}
	gap := 0
	end := events[len(events)-1].At + 3*60*1000
	for t := events[0].At; t <= end; t += Step {
		for gap < len(events) && events[gap].At < t {
			gap++
		}
		out = append(out, show{gap: gap, at: t})
	}
	return out
}

func differ(a, b run, what string, events []clocklog.Event, cmp []show) error {
	for i := range a.states {
		if a.states[i] != b.states[i] {
			where := ""
			if i < len(events) {
				where = fmt.Sprintf("right after event %d (%s)", i, events[i])
			} else {
				sh := cmp[i-len(events)]
				where = fmt.Sprintf("at a show at %d before event %d", sh.at, sh.gap)
			}
			return fmt.Errorf("%s: the state %s differs:\n without %+v\n with    %+v", what, where, a.states[i], b.states[i])
		}
	}
	if fmt.Sprint(a.did) != fmt.Sprint(b.did) {
		return fmt.Errorf("%s: the events did %v, with them %v", what, a.did, b.did)
	}
	if fmt.Sprint(a.moves) != fmt.Sprint(b.moves) {
		return fmt.Errorf("%s: the moves are %v, with them %v", what, a.moves, b.moves)
	}
	return nil
}

// Check checks the promise on the game l (its events, without shows), with
// the instants looked at drawn from s:
//
//   - Shows: the state after every event and at shows drawn between events
//     is the same whichever other shows the log has: none, more drawn
//     ones, or one every Step ms (the reference, which settles every
//     expiry on its own). The moves and what every event did are the
//     same too, and the same without any show.
//   - The log's text: written and read back, the real Replay gives the
//     same states at the same shows.
//   - The clock's API: State and Advance called at drawn instants between
//     the events change nothing that comes after.
//
// It returns the first difference found, or nil.
func Check(l *clocklog.Log, s *Source) error {
	events := make([]clocklog.Event, 0, len(l.Events))
	for _, e := range l.Events {
		if e.Verb != clocklog.Show {
			events = append(events, e)
		}
	}
	cmp := shows(s, events, 64)
	nq := len(events) + len(cmp)
	plain := merge(events, cmp, nil)
	base, err := replay(l.Header, plain, nq)
	if err != nil {
		return err
	}
	for _, v := range []struct {
		what  string
		extra []show
	}{
		{"more shows", shows(s, events, 200)},
		{"a show every step", steps(events)},
	} {
		r, err := replay(l.Header, merge(events, cmp, v.extra), nq)
		if err != nil {
			return err
		}
		if err := differ(base, r, v.what, events, cmp); err != nil {
			return err
		}
	}
	// No shows at all: the same moves, the same events done.
	bare := make([]item, len(events))
	for i, e := range events {
		bare[i] = item{e: e, q: -1}
	}
	r, err := replay(l.Header, bare, nq)
	if err != nil {
		return err
	}
	r.states = base.states
	if err := differ(base, r, "no shows", events, cmp); err != nil {
		return err
	}
	if err := checkText(l.Header, plain, base); err != nil {
		return err
	}
	return checkAPI(l.Header, events, cmp, base, s)
}

// checkText writes the log of items, reads it back and replays it with
// clocklog.Replay: the shows give the states base has, in order.
func checkText(h clocklog.Header, items []item, base run) error {
	b := clocklog.AppendHeader(nil, h)
	for _, it := range items {
		b = clocklog.AppendEvent(b, it.e)
	}
	l, err := clocklog.Parse("generated.log", bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("the generated log does not read back: %v\n%s", err, b)
	}
	var got []clock.State
	if _, err := clocklog.Replay(l, clocklog.Handlers{Show: func(s clock.State) { got = append(got, s) }}); err != nil {
		return err
	}
	k := 0
	for _, it := range items {
		if it.e.Verb != clocklog.Show {
			continue
		}
		if k >= len(got) {
			return fmt.Errorf("the log's replay shows %d states, want more", len(got))
		}
		if it.q >= 0 && got[k] != base.states[it.q] {
			return fmt.Errorf("the log's replay at the show at %d: %+v, want %+v", it.e.At, got[k], base.states[it.q])
		}
		k++
	}
	return nil
}

// checkAPI plays the events on a clock, calling State and Advance at drawn
// instants in between, and compares the state after every event and at
// every compared show with base.
func checkAPI(h clocklog.Header, events []clocklog.Event, cmp []show, base run, s *Source) error {
	l := clocklog.Log{Header: h}
	c, err := l.NewClock()
	if err != nil {
		return err
	}
	byGap := make([][]int, len(events)+1)
	for i, sh := range cmp {
		byGap[sh.gap] = append(byGap[sh.gap], i)
	}
	look := func(upTo int64) {
		for k := s.N(3); k > 0; k-- {
			if s.N(2) == 0 {
				c.State(s.Range(c.Now(), upTo+20*60*1000)) // anywhere: State changes nothing
			} else {
				c.Advance(s.Range(c.Now(), upTo))
			}
		}
	}
	for i := 0; i <= len(events); i++ {
		qs := byGap[i]
		// In order of instants, as merge puts them.
		for a := 1; a < len(qs); a++ {
			for b := a; b > 0 && cmp[qs[b]].at < cmp[qs[b-1]].at; b-- {
				qs[b], qs[b-1] = qs[b-1], qs[b]
			}
		}
		for _, q := range qs {
			look(cmp[q].at)
			if got, want := c.State(cmp[q].at), base.states[len(events)+q]; got != want {
				return fmt.Errorf("API: State(%d) before event %d after looks in between: %+v, want %+v", cmp[q].at, i, got, want)
			}
		}
		if i == len(events) {
			break
		}
		look(events[i].At)
		clocklog.Apply(c, events[i])
		if got, want := c.State(events[i].At), base.states[i]; got != want {
			return fmt.Errorf("API: after event %d (%s) and looks before it: %+v, want %+v", i, events[i], got, want)
		}
	}
	return nil
}
