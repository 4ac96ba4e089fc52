package limit

import (
	"fmt"
	"sync"
	"time"

	"github.com/zeitnot/zeitnot/internal/wallclock"
)

// LogLines bounds a log line that strangers can cause (a refused API token,
// say): in each Interval at most Burst lines get through; the rest are
// counted, and the first line after the interval says how many were left
// out before it. It has no goroutine and no timer: lines left out at the end
// of a burst are told with the next line that comes.
type LogLines struct {
	burst    int
	interval time.Duration
	now      func() time.Time
	logf     func(format string, a ...any)

	mu      sync.Mutex
	start   time.Time // of the current interval
	n       int       // lines logged in it
	dropped int       // lines left out since the last logged line
}

// NewLogLines returns a LogLines that logs through logf at most burst lines
// an interval, on clock (nil: wallclock.Real). burst < 1 is 1; interval
// <= 0 is a minute.
func NewLogLines(burst int, interval time.Duration, clock wallclock.Clock, logf func(format string, a ...any)) *LogLines {
	if interval <= 0 {
		interval = time.Minute
	}
	return &LogLines{burst: max(burst, 1), interval: interval, now: wallclock.Or(clock).Now, logf: logf}
}

// Logf logs the line format, a... if the interval has room for it, and
// counts it otherwise.
func (l *LogLines) Logf(format string, a ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if l.start.IsZero() || now.Sub(l.start) >= l.interval || now.Before(l.start) {
		l.start, l.n = now, 0
	}
	if l.n >= l.burst {
		l.dropped++
		return
	}
	l.n++
	if l.dropped > 0 {
		format += fmt.Sprintf(" (and %d more like it left out of the log before, at most %d a %v)", l.dropped, l.burst, l.interval)
		l.dropped = 0
	}
	l.logf(format, a...)
}
