// Package monotonic is the one time base shared by the drivers and the
// daemon: a duration since the process started, read from the monotonic
// clock, so it never jumps when the wall clock is set.
//
// On Linux that clock is CLOCK_MONOTONIC, read directly: the clock the
// kernel stamps GPIO line events with. FromKernel turns such a stamp into
// this time base exactly, so a button press stamped by the kernel and the
// daemon's own instants are on one clock, with no offset between two clocks
// measured and no error from measuring it.
package monotonic

import "time"

// Now returns the monotonic time since the process started.
func Now() time.Duration { return time.Duration(clock() - origin) }

// ToKernel returns instant d of this time base as CLOCK_MONOTONIC
// nanoseconds (on Linux; elsewhere the runtime's monotonic clock since the
// process started), for another process on the same machine: the daemon
// gives a press's instant so to the e-board process, which takes it back
// with FromKernel.
func ToKernel(d time.Duration) int64 { return int64(d) + origin }
