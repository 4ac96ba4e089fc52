package clock

import (
	"math/rand/v2"
	"testing"

	"github.com/zeitnot/zeitnot/engine/timecontrol"
)

func mustClock(t testing.TB, spec string, opt Options) *Clock {
	t.Helper()
	pair, err := timecontrol.ParsePair(spec)
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(pair, opt)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestConservation plays random games (random think times, pauses inside
// turns) and checks, at every move, the time each mode must conserve:
//
//	sudden death: left = start - used
//	Fischer:      left = start + first increment + increment x moves - used
//	delay D:      left = start - sum over turns of max(0, turn - D)
//	Bronstein B:  left = start - sum over turns of max(0, turn - B)
//	hourglass:    left = start - own used + opponent's used
//
// where "used" counts running time only, never paused time.
func TestConservation(t *testing.T) {
	specs := []string{"600", "600+5", "600d5", "600b5", "*600"}
	for _, spec := range specs {
		for _, firstInc := range []bool{true, false} {
			rng := rand.New(rand.NewPCG(uint64(len(spec)), 7))
			opt := Options{FirstIncrement: firstInc}
			c := mustClock(t, spec, opt)
			ctl := c.p[White].ctl[0]
			var used, lost, moves [2]int64
			now := int64(1000)
			c.Start(now)
			for move := 0; move < 120; move++ {
				side := Side(move % 2)
				turn := rng.Int64N(9000)
				// An arbiter pause somewhere inside about one turn in five.
				if rng.IntN(5) == 0 {
					part := rng.Int64N(turn + 1)
					c.Pause(now + part)
					pauseLen := rng.Int64N(60000)
					if st := c.State(now + part + pauseLen); st.Running != NoSide || !st.Paused {
						t.Fatalf("%s: not paused during pause: %+v", spec, st)
					}
					c.Resume(now + part + pauseLen)
					now += pauseLen
				}
				now += turn
				if !c.Press(now, side) {
					t.Fatalf("%s move %d: press by %s refused", spec, move, side)
				}
				used[side] += turn
				moves[side]++
				extra := ctl.Extra
				switch ctl.Mode {
				case timecontrol.Delay, timecontrol.Bronstein:
					lost[side] += max(0, turn-extra)
				default:
					lost[side] += turn
				}
				st := c.State(now)
				for s := White; s <= Black; s++ {
					want := ctl.Time
					switch ctl.Mode {
					case timecontrol.Fischer:
						want += ctl.Extra * moves[s]
						if firstInc {
							want += ctl.Extra
						}
						want -= used[s]
					case timecontrol.Hourglass:
						want += used[s.Other()] - used[s]
					default:
						want -= lost[s]
					}
					if got := st.Player[s].Ms; got != want {
						t.Fatalf("%s first-increment=%v after move %d: %s has %d ms, want %d", spec, firstInc, move+1, s, got, want)
					}
					if st.Player[s].Ms < 0 {
						t.Fatalf("negative time")
					}
				}
			}
		}
	}
}

// TestFlagInstant checks that a flag falls exactly when the time reaches zero,
// never a millisecond early or late, in every mode that has a flag.
func TestFlagInstant(t *testing.T) {
	cases := []struct {
		spec string
		// instant White's time runs out when White starts at 0 and never moves
		flagAt int64
	}{
		{"60", 60000},
		{"60+5", 65000},                 // first increment
		{"60d5", 65000},                 // the delay comes before the main time
		{"60b5", 60000},                 // Bronstein gives back only at a press
		{"*60", 60000},                  // hourglass
		{"10~3x5", 25000},               // main time, then three byo-yomi periods
		{"10~2/5", 15000},               // main time, then one Canadian block
		{"1/10:1/5:30", 0},              // flag trigger: periods follow one another
		{"40/5400+30:1800+30", 7230000}, // FIDE classical, never moving: 90:30 + 30:00
	}
	for _, tc := range cases {
		c := mustClock(t, tc.spec, DefaultOptions)
		c.Start(0)
		if tc.flagAt == 0 {
			// 10 + 5 + 30 s on the flag trigger.
			tc.flagAt = 45000
		}
		before := c.State(tc.flagAt - 1)
		at := c.State(tc.flagAt)
		if before.Player[White].Flag || before.Stopped {
			t.Errorf("%s: flag already down at %d: %+v", tc.spec, tc.flagAt-1, before.Player[White])
		}
		if !at.Player[White].Flag || !at.Stopped || at.FirstFlag != White || at.Player[White].Ms != 0 {
			t.Errorf("%s: flag not down at %d: %+v", tc.spec, tc.flagAt, at)
		}
		// A press at the flag instant is too late.
		if c.Press(tc.flagAt, White) {
			t.Errorf("%s: press at the flag instant accepted", tc.spec)
		}
		if c.Press(tc.flagAt-1, White) {
			t.Errorf("%s: press before the latest instant accepted after the flag", tc.spec)
		}
	}
}

// TestRealisticGame plays an 80-move game of about two hours under FIDE
// classical control on both period triggers, and checks the final times
// against a hand computation.
func TestRealisticGame(t *testing.T) {
	for _, trig := range []Trigger{OnFlag, OnMoves} {
		opt := Options{FirstIncrement: true, PeriodTrigger: trig}
		c := mustClock(t, "40/5400+30:1800+30", opt)
		rng := rand.New(rand.NewPCG(1, 2))
		now := int64(0)
		c.Start(now)
		var used [2]int64
		for m := 0; m < 160; m++ {
			side := Side(m % 2)
			// About 90 s a move, faster after the time control.
			turn := 60000 + rng.Int64N(60000)
			if m >= 80 {
				turn = 5000 + rng.Int64N(20000)
			}
			now += turn
			used[side] += turn
			if !c.Press(now, side) {
				t.Fatalf("move %d refused", m)
			}
		}
		st := c.State(now)
		for s := White; s <= Black; s++ {
			p := st.Player[s]
			if p.Moves != 80 {
				t.Fatalf("%s moves = %d", s, p.Moves)
			}
			// 90 min + 30 s first increment + 80 increments + the second
			// period, minus what was used.
			want := int64(5400000+30000+80*30000+1800000) - used[s]
			if trig == OnFlag {
				// On the flag trigger the second period is added only
				// when the first period's time runs out, which it has
				// not in this game.
				want -= 1800000
				if p.Period != 1 {
					t.Errorf("flag trigger: %s in period %d, want 1", s, p.Period)
				}
			} else if p.Period != 2 {
				t.Errorf("moves trigger: %s in period %d, want 2", s, p.Period)
			}
			if p.Ms != want {
				t.Errorf("trigger %d: %s has %d ms, want %d", trig, s, p.Ms, want)
			}
			if p.Overstep || p.Flag {
				t.Errorf("%s: unexpected overstep or flag", s)
			}
		}
		if now < 2*3600*1000-30*60*1000 {
			t.Errorf("game lasted only %d ms", now)
		}
	}
}

// TestNoNegativeTime feeds random inputs of every kind, including ones that
// should be ignored, and checks no state ever shows negative time, that a
// flag is always at zero, and that the first flag never changes once set.
func TestNoNegativeTime(t *testing.T) {
	specs := []string{"60", "10+2", "10d3", "10b3", "*10", "2/10:1/5", "2/10+1:5+1", "5~2x3", "5~2/3", "^", "20|15"}
	for _, spec := range specs {
		for _, af := range []AfterFlag{Freeze, Continue} {
			for _, trig := range []Trigger{OnFlag, OnMoves} {
				rng := rand.New(rand.NewPCG(uint64(af), uint64(trig)))
				c := mustClock(t, spec, Options{FirstIncrement: true, AfterFlag: af, PeriodTrigger: trig})
				now := int64(0)
				first := NoSide
				for i := 0; i < 2000; i++ {
					now += rng.Int64N(3000)
					switch rng.IntN(12) {
					case 0:
						c.Start(now)
					case 1:
						c.Pause(now)
					case 2:
						c.Resume(now)
					case 3:
						c.AddTime(now, Side(rng.IntN(2)), rng.Int64N(20000)-10000)
					case 4:
						c.SetTurn(now, Side(rng.IntN(2)))
					default:
						c.Press(now, Side(rng.IntN(2)))
					}
					st := c.State(now)
					for s := range st.Player {
						p := st.Player[s]
						if p.Ms < 0 {
							t.Fatalf("%s: negative time %+v", spec, p)
						}
						if p.Flag && p.Ms != 0 {
							t.Fatalf("%s: flag with time left %+v", spec, p)
						}
					}
					if first != NoSide && st.FirstFlag != first {
						t.Fatalf("%s: first flag changed from %s to %s", spec, first, st.FirstFlag)
					}
					first = st.FirstFlag
				}
			}
		}
	}
}

func TestCorrectionsRefusedWhileRunning(t *testing.T) {
	c := mustClock(t, "300", DefaultOptions)
	c.Start(0)
	if err := c.SetTime(1000, White, 5); err != ErrNotPaused {
		t.Errorf("SetTime while running: %v, want ErrNotPaused", err)
	}
	if err := c.AddTime(1000, Black, 120000); err != ErrNotPaused {
		t.Errorf("AddTime while running: %v", err)
	}
	c.Pause(2000)
	if err := c.SetPeriod(2000, White, 2); err == nil {
		t.Error("SetPeriod to a period the control lacks: no error")
	}
	if err := c.SetTime(2000, White, -1); err == nil {
		t.Error("SetTime negative: no error")
	}
	if err := c.AddTime(2000, Black, 120000); err != nil {
		t.Fatal(err)
	}
	if got := c.State(2000).Player[Black].Ms; got != 420000 {
		t.Errorf("+2:00: black has %d", got)
	}
}

func TestStateDoesNotChangeClock(t *testing.T) {
	c := mustClock(t, "10", DefaultOptions)
	c.Start(0)
	_ = c.State(20000) // past the flag
	if c.State(5000).Stopped {
		t.Error("State(20000) changed the clock: stopped at 5000")
	}
	if !c.Press(5000, White) {
		t.Error("press at 5000 refused after a look into the future")
	}
}

func TestNextChange(t *testing.T) {
	c := mustClock(t, "60d5", DefaultOptions)
	if _, ok := c.NextChange(0); ok {
		t.Error("a clock not started has no next change")
	}
	c.Start(1000)
	if at, ok := c.NextChange(1000); !ok || at != 66000 {
		t.Errorf("NextChange = %d %v, want 66000", at, ok)
	}
}

func BenchmarkPress(b *testing.B) {
	c := mustClock(b, "40/5400+30:1800+30", DefaultOptions)
	c.Start(0)
	b.ReportAllocs()
	now := int64(0)
	for i := 0; b.Loop(); i++ {
		now += 10
		c.Press(now, Side(i&1))
	}
}

func BenchmarkState(b *testing.B) {
	c := mustClock(b, "40/5400+30:1800+30", DefaultOptions)
	c.Start(0)
	c.Press(1000, White)
	b.ReportAllocs()
	now := int64(1000)
	var sink int64
	for b.Loop() {
		now++
		sink += c.State(now).Player[Black].Ms
	}
	_ = sink
}
