// Package wallclock is the one clock a program reads the time of day from
// and waits on: Now, timers, tickers and functions run after a while, behind
// one interface, so that a program passes one Clock down to every part
// that needs the time and a test passes a fake one it advances
// (wallclocktest) instead of sleeping.
//
// It is the time of day (certificates, sessions, the PGN's date, rate
// limits, the hall's "last seen"), not the clock of a game: engine/ takes
// instants and reads no clock, and the drivers' hardware time is
// drivers/monotonic. A net.Conn's deadline is an instant on the kernel's
// clock, so it is set from time.Now, never from a Clock.
//
// # Waits and instants
//
// A program that keeps both kinds of time holds to one rule:
//
//   - An instant — when a lever was pressed, when a flag falls, when a
//     board's position is stable, what a battery reading or a journal line
//     is stamped with — is on the monotonic base, drivers/monotonic, which
//     the kernel stamps the drivers' events with. A loop takes it from an
//     injected func() time.Duration, monotonic.Now in production, and
//     never from a Clock: the game's time stays one base, exact to the
//     nanosecond and untouched by a time of day that is set.
//   - A wait — a loop's timer until its next instant, a ticker that polls
//     or feeds a watchdog, a retry's pause — is on the program's one Clock.
//     It is a duration: how long until an instant on the monotonic base
//     (next - mono()), or a period. The time package's timers measure it on
//     the runtime's monotonic clock, so a step of the system clock does not
//     move it.
//   - The time of day is the Clock's Now.
//
// In production the two are the kernel's two clocks, and nothing is lost.
// A test passes both from one fake: wallclocktest.Clock for the waits and
// the time of day, and its Mono for the instants, so that an Advance both
// moves the instants and fires the waits due by then.
package wallclock

import (
	"context"
	"time"
)

// Clock is the time of day and the waits on it.
type Clock interface {
	// Now returns the current time of day.
	Now() time.Time
	// NewTimer returns a Timer that sends the time on its channel once,
	// when d has passed (at once for d <= 0), as time.NewTimer does.
	NewTimer(d time.Duration) Timer
	// NewTicker returns a Ticker that sends the time on its channel every
	// d, dropping ticks a slow reader misses, as time.NewTicker does. d
	// must be more than zero.
	NewTicker(d time.Duration) Ticker
	// AfterFunc calls f once d has passed, as time.AfterFunc does; the
	// Timer it returns has no channel.
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is one wait on a Clock, as *time.Timer is.
type Timer interface {
	// C is the channel the time is sent on; nil for AfterFunc's.
	C() <-chan time.Time
	// Stop stops the timer and reports whether it was still armed; a value
	// not yet received is discarded, as from Go 1.23's timers.
	Stop() bool
	// Reset arms the timer again to fire after d and reports whether it
	// was still armed.
	Reset(d time.Duration) bool
}

// Ticker is a repeated wait on a Clock, as *time.Ticker is.
type Ticker interface {
	// C is the channel the ticks are sent on.
	C() <-chan time.Time
	// Stop stops the ticks.
	Stop()
	// Reset stops the ticker and starts it again with period d (> 0).
	Reset(d time.Duration)
}

// Real is the system's clock: time.Now and the time package's timers.
var Real Clock = realClock{}

// Or returns c, or Real when c is nil: what an option left empty means.
func Or(c Clock) Clock {
	if c == nil {
		return Real
	}
	return c
}

// Since returns the time passed on c since t.
func Since(c Clock, t time.Time) time.Duration { return c.Now().Sub(t) }

// Until returns the time on c until t.
func Until(c Clock, t time.Time) time.Duration { return t.Sub(c.Now()) }

// Sleep waits d on c and returns true, or returns false as soon as ctx
// ends. A d of zero or less returns at once, true unless ctx has ended.
func Sleep(ctx context.Context, c Clock, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := c.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C():
		return true
	case <-ctx.Done():
		return false
	}
}

// NowFunc returns a Clock whose time of day is now() and which has no
// waits: its NewTimer, NewTicker and AfterFunc panic. It is for a loop
// that runs in virtual time and does its waits itself, by stepping to
// the instant it is told (the scripted simulator, a test's rig), and
// reads the time of day from that virtual time.
func NowFunc(now func() time.Time) Clock { return nowFunc(now) }

type nowFunc func() time.Time

func (f nowFunc) Now() time.Time { return f() }

func (nowFunc) NewTimer(time.Duration) Timer { panic(errNoWaits) }

func (nowFunc) NewTicker(time.Duration) Ticker { panic(errNoWaits) }

func (nowFunc) AfterFunc(time.Duration, func()) Timer { panic(errNoWaits) }

const errNoWaits = "wallclock: a NowFunc clock has no waits: its loop runs in virtual time and steps to its instants itself"

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) NewTimer(d time.Duration) Timer { return realTimer{time.NewTimer(d)} }

func (realClock) NewTicker(d time.Duration) Ticker { return realTicker{time.NewTicker(d)} }

func (realClock) AfterFunc(d time.Duration, f func()) Timer { return realTimer{time.AfterFunc(d, f)} }

type realTimer struct{ t *time.Timer }

func (r realTimer) C() <-chan time.Time        { return r.t.C }
func (r realTimer) Stop() bool                 { return r.t.Stop() }
func (r realTimer) Reset(d time.Duration) bool { return r.t.Reset(d) }

type realTicker struct{ t *time.Ticker }

func (r realTicker) C() <-chan time.Time   { return r.t.C }
func (r realTicker) Stop()                 { r.t.Stop() }
func (r realTicker) Reset(d time.Duration) { r.t.Reset(d) }
