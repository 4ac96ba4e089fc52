// Package clock is the chess clock state machine.
//
// A Clock is a value driven by timestamped inputs: every method takes the
// instant at which it happens, in integer milliseconds of a monotonic time
// base chosen by the caller. The clock never reads the wall clock and never
// ticks: remaining time is derived from the instants of events, so it cannot
// drift, and the same inputs always give the same result.
//
// Exact semantics, following FIDE Laws of Chess, Article 6:
//
//   - Start starts White's clock (or the side an arbiter chose before the
//     start). Presses before the start, by the side not on move, while paused
//     or after the clock stopped are ignored.
//   - A press by the side on move completes one of its moves and starts the
//     other side's clock. Fischer increments of the period the move was
//     completed in are added at the press (one that starts at move N, as
//     in FIDE Armageddon, from the side's N-th move on, and given before
//     the game only when N is 1); Bronstein gives back the time used
//     in the turn, at most the delay; under simple delay the first D ms of
//     every turn do not count, and pausing does not restart the delay.
//   - A side's time runs out at the exact instant its main time reaches zero:
//     a press at that instant is too late. Whatever runs out at an instant is
//     settled before any event at that instant.
//   - Periods advance on the flag or on the moves (Options.PeriodTrigger);
//     after a flag the clock freezes or lets play continue
//     (Options.AfterFlag). The first flag to fall is always kept. A side
//     that flagged and plays on loses no more time, but the time its moves
//     take is still counted (Move.Used).
//   - Pause and resume stop and restart the running side; paused time counts
//     for nobody. While paused or before the start an arbiter may set or add
//     time, set move counts and periods, choose the side to move, and give
//     a side an increment from then on, or take it back to the control's
//     own periods (SetIncrement: FIDE Guidelines III.4, which applies
//     where WithoutIncrement says; Played is the control as played).
//
// Instants earlier than the latest one applied are taken as the latest one:
// time never runs backwards. Instants past MaxInstant (30 days) are taken as
// MaxInstant. Settling any instant takes a few steps, however far it is: a
// repeating period that runs out many times over is settled in one, and
// gives what settling each expiry on its own gives: every period that runs
// out adds its time and its period and marks an overstep if the side is
// short of that period's quota.
//
// Looking at the clock is not an input. State, NextChange and Advance at
// any instants between inputs change nothing that follows: the state at
// every instant is a function of the inputs before it alone. The package's
// property test (clocklogtest.Check, on generated games of every mode and
// option, and as a fuzz target) holds it to that.
package clock
