package monotonic

import (
	"testing"
	"time"
)

// TestNowFollowsTheRuntimeClock: Now counts like Go's own monotonic clock,
// which on Linux is CLOCK_MONOTONIC as well.
func TestNowFollowsTheRuntimeClock(t *testing.T) {
	t0, m0 := time.Now(), Now()
	time.Sleep(20 * time.Millisecond) // real time passing is what is measured
	d, m := time.Since(t0), Now()-m0
	if diff := (m - d).Abs(); diff > 2*time.Millisecond || m < 20*time.Millisecond {
		t.Fatalf("Now advanced %v while the runtime clock advanced %v", m, d)
	}
	prev := Now()
	for range 1000 {
		n := Now()
		if n < prev {
			t.Fatalf("Now went back from %v to %v", prev, n)
		}
		prev = n
	}
}
