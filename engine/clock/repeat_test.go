package clock

import (
	"math/rand/v2"
	"testing"
)

// TestRepeatSettlesLikeSteps checks that settling many expiries of a
// repeating period at once gives exactly what settling them one by one
// does: a clock advanced in steps shorter than any period, so that each
// step settles at most one expiry, against a clock that jumps.
func TestRepeatSettlesLikeSteps(t *testing.T) {
	specs := []string{"40/60", "1/1", "40/7200:20/3600", "2/10+1:5+1", "3/5d2", "2/10:3/4b1", "3/10|5/7", "2/5:1/3+2", "2/10+1@2:5+1@3"}
	for _, spec := range specs {
		for _, af := range []AfterFlag{Freeze, Continue} {
			for _, fi := range []bool{true, false} {
				opt := Options{FirstIncrement: fi, PeriodTrigger: OnFlag, AfterFlag: af}
				rng := rand.New(rand.NewPCG(uint64(len(spec)), uint64(af)))
				jump := mustClock(t, spec, opt)
				step := mustClock(t, spec, opt)
				now := int64(0)
				jump.Start(0)
				step.Start(0)
				for i := 0; i < 60; i++ {
					// Long waits, so that many periods run out in one.
					wait := rng.Int64N(200000)
					for s := now + 500; s < now+wait; s += 500 {
						step.Advance(s)
					}
					now += wait
					var a, b bool
					switch rng.IntN(6) {
					case 0:
						a, b = jump.Pause(now), step.Pause(now)
					case 1:
						a, b = jump.Resume(now), step.Resume(now)
					default:
						side := Side(rng.IntN(2))
						a, b = jump.Press(now, side), step.Press(now, side)
					}
					if a != b {
						t.Fatalf("%s %+v step %d: jump did %v, steps did %v", spec, opt, i, a, b)
					}
					if js, ss := jump.State(now), step.State(now); js != ss {
						t.Fatalf("%s %+v at %d:\njump  %+v\nsteps %+v", spec, opt, now, js, ss)
					}
				}
			}
		}
	}
}

// TestFarInstant settles thirty days of a repeating period nobody presses.
func TestFarInstant(t *testing.T) {
	c := mustClock(t, "40/60", DefaultOptions)
	c.Start(0)
	st := c.State(MaxInstant)
	w := st.Player[White]
	// The first period runs out at 60 s, and every 60 s after it another.
	periods := 1 + int(MaxInstant/60000)
	if w.Period != periods || w.Ms != 60000 || !w.Overstep || w.Flag || w.QuotaLeft != 40*periods {
		t.Errorf("after 30 days: %+v, want period %d, 60000 ms, overstep, quota left %d", w, periods, 40*periods)
	}
	// Past the bound is the bound.
	if got := c.State(MaxInstant + 12345); got != st {
		t.Errorf("past MaxInstant: %+v, want %+v", got, st)
	}
}

// BenchmarkSettleFar settles a repeating one-second period (the shortest a
// control can have) thirty days after the start: one step, not 2,592,000.
func BenchmarkSettleFar(b *testing.B) {
	for _, spec := range []string{"1/1", "40/7200:20/3600"} {
		b.Run(spec, func(b *testing.B) {
			c := mustClock(b, spec, DefaultOptions)
			c.Start(0)
			b.ReportAllocs()
			var sink int
			for b.Loop() {
				sink += c.State(MaxInstant).Player[White].Period
			}
			_ = sink
		})
	}
}
