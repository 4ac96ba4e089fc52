// Package monotonic is the one time base shared by the drivers and the
// daemon: a duration since the process started, read from the monotonic
// clock, so it never jumps when the wall clock is set.
package monotonic

import "time"

var origin = time.Now()

// Now returns the monotonic time since the process started.
func Now() time.Duration { return time.Since(origin) }
