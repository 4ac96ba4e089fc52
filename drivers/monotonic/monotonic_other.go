//go:build !linux

package monotonic

import "time"

var start = time.Now()

// origin is 0: clock counts from start.
const origin = 0

// clock is the runtime's monotonic clock, in nanoseconds since start.
func clock() int64 { return int64(time.Since(start)) }
