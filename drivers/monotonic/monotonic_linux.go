package monotonic

import (
	"time"

	"golang.org/x/sys/unix"
)

// origin is CLOCK_MONOTONIC, in nanoseconds, when the process started, and
// start the runtime's reading of the same instant.
var origin, start = read(), time.Now()

// clock reads CLOCK_MONOTONIC in nanoseconds. That cannot fail on Linux
// (the clock has existed since 2.6 and the arguments are valid); if it ever
// did, the runtime's monotonic clock, which is CLOCK_MONOTONIC read through
// the vDSO, stands in.
func clock() int64 {
	ns := read()
	if ns == 0 {
		return origin + int64(time.Since(start))
	}
	return ns
}

// read returns CLOCK_MONOTONIC in nanoseconds, or 0 if it cannot be read.
func read() int64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts); err != nil {
		return 0
	}
	return ts.Nano()
}

// FromKernel returns the instant on the time base of Now of ns, a
// CLOCK_MONOTONIC time in nanoseconds as the kernel stamps events with (the
// timestamp_ns of a GPIO line event). Instants before the process started
// are negative.
func FromKernel(ns uint64) time.Duration { return time.Duration(int64(ns) - origin) }
