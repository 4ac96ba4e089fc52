package link

import "time"

// limiter is a token bucket: burst commands at once, then rate a second.
// It reads no clock: every call says what time it is.
type limiter struct {
	rate   float64 // tokens a second
	burst  float64
	tokens float64
	last   time.Time
}

func newLimiter(rate float64, burst int) *limiter {
	return &limiter{rate: rate, burst: float64(burst), tokens: float64(burst)}
}

// allow takes a token at now, if there is one.
func (l *limiter) allow(now time.Time) bool {
	if !l.last.IsZero() {
		l.tokens = min(l.burst, l.tokens+now.Sub(l.last).Seconds()*l.rate)
	}
	l.last = now
	if l.tokens >= 1 {
		l.tokens--
		return true
	}
	return false
}
