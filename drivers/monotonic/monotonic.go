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
