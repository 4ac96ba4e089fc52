// Package ratelimit is a token bucket that reads no clock: every call says
// what time it is, so tests give it instants and nothing depends on how
// fast the machine runs.
package ratelimit

import "time"

// Bucket holds up to Burst tokens and gains Rate tokens a second; each
// thing it allows takes one. The zero Bucket allows nothing; make one with
// New.
type Bucket struct {
	rate   float64 // tokens a second
	burst  float64
	tokens float64
	last   time.Time
	used   bool
}

// New returns a full bucket: burst at once, then rate a second.
func New(rate float64, burst int) *Bucket {
	return &Bucket{rate: rate, burst: float64(burst), tokens: float64(burst)}
}

// Take takes a token at now, if there is one. If not, wait is how long
// after now the next one comes. An instant before the last one counts as
// the last one: a clock that steps back refills nothing.
func (b *Bucket) Take(now time.Time) (ok bool, wait time.Duration) {
	b.refill(now)
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	if b.rate <= 0 {
		return false, time.Duration(1<<63 - 1)
	}
	return false, time.Duration((1 - b.tokens) / b.rate * float64(time.Second))
}

// Give puts back a token taken at now and not used, up to the burst.
func (b *Bucket) Give(now time.Time) {
	b.refill(now)
	b.tokens = min(b.burst, b.tokens+1)
}

// refill brings the bucket to now: the tokens gained since the last call.
// An instant before the last one counts as the last one.
func (b *Bucket) refill(now time.Time) {
	if b.used && now.After(b.last) {
		b.tokens = min(b.burst, b.tokens+now.Sub(b.last).Seconds()*b.rate)
	}
	if !b.used || now.After(b.last) {
		b.last, b.used = now, true
	}
}
