// Package wallclocktest is a fake wallclock.Clock for tests: its time moves
// only when the test calls Advance, and the timers, tickers and functions
// due on the way fire then, in the order of their instants.
//
// A test that starts a goroutine which arms a timer waits for it with
// WaitArmed before it advances, so that the advance cannot come first:
//
//	clk := wallclocktest.New(start)
//	go thing.Run(ctx, clk)     // arms a 5 s timer
//	clk.WaitArmed(t, 1)
//	clk.Advance(5 * time.Second)
package wallclocktest

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/internal/wait"
	"github.com/zeitnot/zeitnot/internal/wallclock"
)

// WaitTimeout is how long WaitArmed waits for the timers it is asked for.
const WaitTimeout = 10 * time.Second

// Clock is a wallclock.Clock whose time moves only by Advance. The zero
// value is not usable; use New. It is safe for concurrent use.
type Clock struct {
	mu     sync.Mutex
	start  time.Time // New's
	now    time.Time
	seq    uint64
	timers map[*timer]struct{} // the armed ones
}

var _ wallclock.Clock = (*Clock)(nil)

// New returns a fake clock standing at start.
func New(start time.Time) *Clock {
	return &Clock{start: start, now: start, timers: map[*timer]struct{}{}}
}

// Mono returns the time passed since New: a monotonic base that moves
// with the fake time, for a loop that takes its instants from a
// func() time.Duration (monotonic.Now in production) and waits on the
// Clock (wallclock's rule). It is 0 at New.
func (c *Clock) Mono() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now.Sub(c.start)
}

// Now returns the fake time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the time on by d (d < 0 is 0). Every timer and tick due up
// to the new time fires in the order of its instant (those of one instant
// in the order they were armed), and Now reads that instant while it
// fires. A timer's or ticker's value is sent without blocking on its
// one-value channel, as the time package does; an AfterFunc's function is
// called on Advance's goroutine, so it has returned when Advance does. A
// function that arms a timer due before the new time sees it fire in the
// same Advance.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	end := c.now.Add(max(d, 0))
	for {
		t := c.nextLocked(end)
		if t == nil {
			break
		}
		c.now = t.at
		if t.period > 0 {
			c.seq++
			t.at, t.seq = t.at.Add(t.period), c.seq
		} else {
			delete(c.timers, t)
		}
		if t.ch != nil {
			send(t.ch, c.now)
			continue
		}
		c.mu.Unlock()
		t.f()
		c.mu.Lock()
	}
	c.now = end
	c.mu.Unlock()
}

// nextLocked returns the armed timer due first at or before end, nil if none.
func (c *Clock) nextLocked(end time.Time) *timer {
	var first *timer
	for t := range c.timers {
		if t.at.After(end) {
			continue
		}
		if first == nil || t.at.Before(first.at) || t.at.Equal(first.at) && t.seq < first.seq {
			first = t
		}
	}
	return first
}

// Next returns how long until the first armed timer or tick is due, and
// false when none is armed.
func (c *Clock) Next() (time.Duration, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var next time.Duration
	found := false
	for t := range c.timers {
		if d := t.at.Sub(c.now); !found || d < next {
			next, found = d, true
		}
	}
	return next, found
}

// Armed returns how many timers, tickers and AfterFunc functions are armed.
func (c *Clock) Armed() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.timers)
}

// WaitArmed waits (in real time, at most WaitTimeout) until at least n
// timers, tickers or functions are armed, and fails t if they are not.
func (c *Clock) WaitArmed(t testing.TB, n int) {
	t.Helper()
	wait.For(t, WaitTimeout, fmt.Sprintf("%d timers armed on the fake clock", n), func() bool { return c.Armed() >= n })
}

// NewTimer implements wallclock.Clock. A d of zero or less sends at once.
func (c *Clock) NewTimer(d time.Duration) wallclock.Timer {
	t := &timer{c: c, ch: make(chan time.Time, 1)}
	t.Reset(d)
	return t
}

// AfterFunc implements wallclock.Clock. A d of zero or less calls f at once
// on a goroutine of its own, as time.AfterFunc does.
func (c *Clock) AfterFunc(d time.Duration, f func()) wallclock.Timer {
	t := &timer{c: c, f: f}
	t.Reset(d)
	return t
}

// NewTicker implements wallclock.Clock; d must be more than zero.
func (c *Clock) NewTicker(d time.Duration) wallclock.Ticker {
	if d <= 0 {
		panic("wallclocktest: NewTicker of a period of zero or less")
	}
	t := &ticker{timer{c: c, ch: make(chan time.Time, 1)}}
	t.Reset(d)
	return t
}

type timer struct {
	c      *Clock
	ch     chan time.Time // nil for AfterFunc
	f      func()
	at     time.Time
	period time.Duration // a ticker's
	seq    uint64
}

func (t *timer) C() <-chan time.Time { return t.ch }

func (t *timer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	return t.stopLocked()
}

// stopLocked disarms t, drops a value not yet received and reports whether
// t was armed.
func (t *timer) stopLocked() bool {
	_, armed := t.c.timers[t]
	delete(t.c.timers, t)
	if t.ch != nil {
		select {
		case <-t.ch:
		default:
		}
	}
	return armed
}

func (t *timer) Reset(d time.Duration) bool {
	c := t.c
	c.mu.Lock()
	armed := t.stopLocked()
	if d <= 0 {
		now := c.now
		c.mu.Unlock()
		if t.ch != nil {
			send(t.ch, now)
		} else {
			go t.f()
		}
		return armed
	}
	c.armLocked(t, d)
	c.mu.Unlock()
	return armed
}

func (c *Clock) armLocked(t *timer, d time.Duration) {
	c.seq++
	t.at, t.seq = c.now.Add(d), c.seq
	c.timers[t] = struct{}{}
}

type ticker struct{ t timer }

func (k *ticker) C() <-chan time.Time { return k.t.ch }

func (k *ticker) Stop() { k.t.Stop() }

func (k *ticker) Reset(d time.Duration) {
	if d <= 0 {
		panic("wallclocktest: Ticker.Reset to a period of zero or less")
	}
	c := k.t.c
	c.mu.Lock()
	defer c.mu.Unlock()
	k.t.stopLocked()
	k.t.period = d
	c.armLocked(&k.t, d)
}

// send puts v on ch unless a value is already waiting there.
func send(ch chan time.Time, v time.Time) {
	select {
	case ch <- v:
	default:
	}
}
