package monotonic

import (
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestFromKernel: a CLOCK_MONOTONIC reading, as the kernel stamps GPIO
// events with, lands between the Now before and the Now after it.
func TestFromKernel(t *testing.T) {
	before := Now()
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts); err != nil {
		t.Fatal(err)
	}
	after := Now()
	if k := FromKernel(uint64(ts.Nano())); k < before || k > after {
		t.Fatalf("FromKernel = %v, not between %v and %v", k, before, after)
	}
	if FromKernel(uint64(origin)) != 0 {
		t.Fatal("the origin is not instant 0")
	}
}

func BenchmarkNow(b *testing.B) {
	for b.Loop() {
		Now()
	}
}

// TestToKernel: ToKernel is FromKernel's inverse.
func TestToKernel(t *testing.T) {
	for _, d := range []time.Duration{0, Now(), -time.Second, 36 * time.Hour} {
		if got := FromKernel(uint64(ToKernel(d))); got != d {
			t.Errorf("FromKernel(ToKernel(%v)) = %v", d, got)
		}
	}
}
