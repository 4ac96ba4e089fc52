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

// TestRepeatOverstepEveryExpiry is FIDE 6.3.1 for a repeating period: a
// player who reaches the end of a period short of its cumulative quota has
// overstepped, and that holds for each period a single wait crosses. The
// k-th of k expiries settled at once ends the period whose quota is
// quota+(k-1)*moves, so the mark falls as soon as any of them finds the
// player short, not only the first. Each case is checked with one jump to
// the instant and with a look at every millisecond boundary in between.
func TestRepeatOverstepEveryExpiry(t *testing.T) {
	for _, c := range []struct {
		name  string
		spec  string
		moves int   // White's moves, made at once, 1 ms each, from the start
		at    int64 // instant looked at, White never pressing after its moves
		// want, for White at that instant
		period   int
		ms       int64
		overstep bool
	}{
		// 2 moves in 4 s, then 2 in 3 s repeating; quotas 2, 4, 6, 8.
		// 5 moves: period 1 ends (quota 2) at 4 s + 5 ms, period 2
		// (quota 4) 3 s later, period 3 (quota 6) 3 s later: short.
		{"third period short", "2/4:2/3", 5, 4005 + 3000 + 3000 + 500, 4, 2500, true},
		{"second period still covered", "2/4:2/3", 5, 4005 + 3000 + 1500, 3, 1500, false},
		{"just before the third runs out", "2/4:2/3", 5, 4005 + 3000 + 3000 - 1, 3, 1, false},
		{"at the instant the third runs out", "2/4:2/3", 5, 4005 + 3000 + 3000, 4, 3000, true},
		// Quota 40 a period of 60 s: 79 moves cover period 1 and fall
		// short of period 2 (80), 60 s after it.
		{"1 short after two", "40/60", 79, 60079 + 60000, 3, 60000, true},
		{"covered by one", "40/60", 79, 60079 + 59999, 2, 1, false},
		// Exactly on quota for three periods, short in the fourth.
		{"fourth short", "1/1", 3, 1003 + 3000, 5, 1000, true},
		{"third covered", "1/1", 3, 1003 + 2000, 4, 1000, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			jump := mustClock(t, c.spec, DefaultOptions)
			step := mustClock(t, c.spec, DefaultOptions)
			for _, k := range []*Clock{jump, step} {
				k.Start(0)
				for i := 0; i < c.moves; i++ {
					k.Press(int64(2*i+1), White) // White 1 ms a move,
					k.Press(int64(2*i+2), Black) // Black 1 ms a move
				}
			}
			for s := int64(2 * c.moves); s < c.at; s++ {
				step.Advance(s)
			}
			for name, k := range map[string]*Clock{"one jump": jump, "every ms": step} {
				w := k.State(c.at).Player[White]
				if w.Period != c.period || w.Ms != c.ms || w.Overstep != c.overstep {
					t.Errorf("%s at %d, %s: period %d, %d ms, overstep %v; want period %d, %d ms, overstep %v",
						c.spec, c.at, name, w.Period, w.Ms, w.Overstep, c.period, c.ms, c.overstep)
				}
			}
		})
	}
}
