package sim

import (
	"slices"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/drivers/button"
)

// BenchmarkPressToFrame measures, on the default simulated profile (two
// 128x64 OLEDs), the time from a lever press reaching the core to both
// displays holding the new frame: the press, the journal line with its
// fsync, the views, the drawing and the (fake) bus writes. It reports the
// 99th percentile.
func BenchmarkPressToFrame(b *testing.B) {
	v, err := Start(ScriptOpts{StateDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer v.Close()
	v.Button("right", button.Press)
	levers := []string{"left", "right"}
	var took []time.Duration
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		v.Advance(v.Now() + 1500*time.Millisecond)
		t0 := time.Now()
		v.Button(levers[i%2], button.Press)
		took = append(took, time.Since(t0))
		i++
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)*99/100].Microseconds()), "p99-µs")
	b.ReportMetric(float64(took[len(took)/2].Microseconds()), "p50-µs")
}
