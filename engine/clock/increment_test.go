package clock

import (
	"errors"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/engine/timecontrol"
)

// TestArmageddonIncrementFrom61 plays FIDE Armageddon as FIDE events run
// it: White 5 min, Black 4 min, 2 s per move from move 61. Move 60 gets no
// increment, move 61 and every later one does, and neither side holds an
// increment before the game, whatever first-increment says.
func TestArmageddonIncrementFrom61(t *testing.T) {
	for _, inc := range []int64{2000, 3000} {
		spec := map[int64]string{2000: "300+2@61|240+2@61", 3000: "300+3@61|240+3@61"}[inc]
		c := mustClock(t, spec, DefaultOptions)
		st := c.State(0)
		if st.Player[White].Ms != 300000 || st.Player[Black].Ms != 240000 {
			t.Fatalf("%s: start %d v %d, want 300000 v 240000 (no increment before move 61)", spec, st.Player[White].Ms, st.Player[Black].Ms)
		}
		c.Start(0)
		now := int64(0)
		left := [2]int64{300000, 240000}
		const turn = 1500 // each move takes 1.5 s
		for n := 1; n <= 70; n++ {
			for _, side := range []Side{White, Black} {
				now += turn
				if !c.Press(now, side) {
					t.Fatalf("%s: %s's move %d refused", spec, side, n)
				}
				left[side] -= turn
				if n >= 61 {
					left[side] += inc
				}
				m := c.LastMove()
				if m.Number != n || m.After != left[side] || m.Used != turn {
					t.Fatalf("%s: %s's move %d: %+v, want %d ms left after it", spec, side, n, m, left[side])
				}
			}
		}
		// Spelled out at the boundary: the 60th move cost its 1.5 s, the
		// 61st cost 1.5 s less the increment.
		if want := 300000 - 70*turn + 10*inc; left[White] != want {
			t.Errorf("%s: white %d after 70 moves, want %d", spec, left[White], want)
		}
	}
}

// TestIncrementFromLaterPeriod: the increment's first move counts the
// side's moves over the whole game, whatever period it is in.
func TestIncrementFromInQuotaPeriod(t *testing.T) {
	c := mustClock(t, "2/60+5@2:60+5", Options{FirstIncrement: true, PeriodTrigger: OnMoves})
	if ms := c.State(0).Player[White].Ms; ms != 60000 {
		t.Fatalf("start %d, want 60000: the increment starts at move 2", ms)
	}
	c.Start(0)
	c.Press(1000, White) // move 1: none
	c.Press(2000, Black)
	c.Press(3000, White) // move 2: +5 s, and the quota brings period 2
	c.Press(4000, Black)
	c.Press(5000, White) // move 3, period 2: +5 s
	w := c.State(5000).Player[White]
	if want := int64(60000 - 3000 + 5000 + 60000 + 5000); w.Ms != want || w.Period != 2 {
		t.Errorf("white %d ms in period %d, want %d in period 2", w.Ms, w.Period, want)
	}
}

// TestSetIncrementIII4 follows FIDE Guidelines III.4: in a game without
// increment, a player with under two minutes asks for an extra five seconds
// per move for both players; the arbiter pauses and sets it, and from then
// on every move of both sides gets 5 s.
func TestSetIncrementIII4(t *testing.T) {
	c := mustClock(t, "300", DefaultOptions)
	c.Start(0)
	c.Press(100000, White) // white: 200 s left
	c.Press(190000, Black) // black: 210 s left
	c.Press(290000, White) // white: 100 s left, under two minutes
	c.Press(300000, Black) // black: 200 s left
	c.Pause(310000)        // white to move, 90 s left
	if err := c.SetIncrement(310000, NoSide, 5000); err == nil {
		t.Error("SetIncrement for no side accepted")
	}
	for _, s := range []Side{White, Black} {
		if err := c.SetIncrement(320000, s, 5000); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	st := c.State(320000)
	if st.Player[White].Ms != 90000 || st.Player[White].Mode.String() != "fischer" || st.Player[Black].Mode.String() != "fischer" {
		t.Fatalf("after the correction: %+v", st)
	}
	if got := c.Controls().String(); got != "300" {
		t.Errorf("Controls() = %s, want the game's 300", got)
	}
	c.Resume(330000)
	c.Press(332000, White)
	if m := c.LastMove(); m.After != 90000-2000+5000 || m.Used != 12000 {
		t.Errorf("white's move after the correction: %+v, want 93000 left", m)
	}
	c.Press(333000, Black)
	if m := c.LastMove(); m.After != 200000-1000+5000 {
		t.Errorf("black's move after the correction: %+v, want 204000 left", m)
	}
	// Taken away again.
	c.Pause(334000)
	if err := c.SetIncrement(334000, White, 0); err != nil {
		t.Fatal(err)
	}
	c.Resume(334000)
	c.Press(335000, White)
	if m := c.LastMove(); m.After != 93000-2000 {
		t.Errorf("white's move with the increment taken away: %+v", m)
	}
}

// TestSetIncrementPeriods: the increment holds in every period from the
// current one, as they come, replacing an increment that was to start at a
// later move.
func TestSetIncrementPeriods(t *testing.T) {
	c := mustClock(t, "2/60:3/60+2@4:60", Options{PeriodTrigger: OnMoves})
	if err := c.SetIncrement(0, White, 5000); err != nil {
		t.Fatal(err)
	}
	c.Start(0)
	now := int64(0)
	want := int64(60000)
	for n := 1; n <= 7; n++ {
		now += 1000
		c.Press(now, White)
		want += 5000 - 1000
		switch n {
		case 2, 5:
			want += 60000 // the quota brings the next period
		}
		now += 1000
		c.Press(now, Black)
		w := c.State(now).Player[White]
		if w.Ms != want {
			t.Fatalf("white's move %d (period %d): %d ms, want %d", n, w.Period, w.Ms, want)
		}
	}
	// Black was not given it: its second period's increment starts at move 4.
	if b := c.State(now).Player[Black]; b.Ms != 60000-7000+120000+2*2000 {
		t.Errorf("black %d ms", b.Ms)
	}
}

func TestSetIncrementRefused(t *testing.T) {
	c := mustClock(t, "300", DefaultOptions)
	c.Start(0)
	if err := c.SetIncrement(1000, White, 5000); !errors.Is(err, ErrNotPaused) {
		t.Errorf("while running: %v, want ErrNotPaused", err)
	}
	c.Pause(2000)
	for _, ms := range []int64{-1, 3600001} {
		if err := c.SetIncrement(2000, White, ms); err == nil || !strings.Contains(err.Error(), "out of range 0 to 3600000") {
			t.Errorf("%d ms: %v", ms, err)
		}
	}
	for spec, want := range map[string]string{
		"300d5":             "white's period 1 is delay",
		"300b5":             "white's period 1 is bronstein",
		"300~5x30":          "white's period 1 is byo-yomi",
		"*300":              "white's period 1 is hourglass",
		"^":                 "white's period 1 is count-up",
		"40/7200:1800d5":    "white's period 2 is delay",
		"40/7200d5:20/3600": "white's period 1 is delay",
	} {
		c := mustClock(t, spec, DefaultOptions)
		if err := c.SetIncrement(0, White, 5000); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", spec, err, want)
		}
	}
	// Past a period with a delay, the periods from the current one count.
	c = mustClock(t, "1/60d5:60", Options{PeriodTrigger: OnMoves})
	c.Start(0)
	c.Press(1000, White)
	c.Pause(2000)
	if err := c.SetIncrement(2000, White, 5000); err != nil {
		t.Errorf("in period 2 of 1/60d5:60: %v", err)
	}
}

// TestSetIncrementRepeatsLikeSteps: a repeating period with the arbiter's
// increment still settles a long wait in one step, as step by step.
func TestSetIncrementRepeatsLikeSteps(t *testing.T) {
	for _, spec := range []string{"40/60", "2/10:3/20"} {
		jump := mustClock(t, spec, DefaultOptions)
		step := mustClock(t, spec, DefaultOptions)
		for _, c := range []*Clock{jump, step} {
			c.Start(0)
			c.Press(1000, White)
			c.Pause(2000)
			if err := c.SetIncrement(2000, Black, 3000); err != nil {
				t.Fatal(err)
			}
			c.Resume(2000)
		}
		for s := int64(2500); s < 1000000; s += 500 {
			step.Advance(s)
		}
		if js, ss := jump.State(1000000), step.State(1000000); js != ss {
			t.Fatalf("%s:\njump  %+v\nsteps %+v", spec, js, ss)
		}
		c := mustClock(t, spec, DefaultOptions)
		c.Start(0)
		c.Press(1000, White)
		c.Pause(2000)
		c.SetIncrement(2000, Black, 3000)
		c.Resume(2000)
		if st := c.State(MaxInstant); st.Player[Black].Period < 1000 {
			t.Errorf("%s: black in period %d after 30 days", spec, st.Player[Black].Period)
		}
	}
}

// TestTurnTimeAfterFlag: with after-flag continue, a side whose flag fell
// keeps playing, and the time its moves take is still counted: a turn of
// 3.4 s whose flag fell at 3 s took 3.4 s, and the next turn its own time.
func TestTurnTimeAfterFlag(t *testing.T) {
	c := mustClock(t, "3|60", Options{AfterFlag: Continue})
	c.Start(0)
	c.Press(3400, White)
	if m := c.LastMove(); m.Used != 3400 || m.After != 0 {
		t.Errorf("white's move across its flag: %+v, want 3400 ms used", m)
	}
	c.Press(5000, Black)
	c.Pause(6000)
	c.Resume(9000) // paused time counts for nobody
	c.Press(11000, White)
	if m := c.LastMove(); m.Used != 3000 || m.After != 0 {
		t.Errorf("white's move after its flag: %+v, want 3000 ms used", m)
	}
	if st := c.State(11000); st.Player[White].Ms != 0 || !st.Player[White].Flag || st.Player[Black].Ms != 58400 {
		t.Errorf("state %+v", st)
	}
}

// TestSetIncrementTakenBack: 0 takes the arbiter's increment back, and the
// side plays its control's own periods again, their increments included;
// Played shows the control as played, and WithoutIncrement where
// Guidelines III.4 applies.
func TestSetIncrementTakenBack(t *testing.T) {
	c := mustClock(t, "2/60:60+2", Options{PeriodTrigger: OnMoves})
	if c.WithoutIncrement(White) {
		t.Error("2/60:60+2 is without increment, but its period 2 has one")
	}
	c = mustClock(t, "2/60:60", Options{PeriodTrigger: OnMoves})
	if !c.WithoutIncrement(White) || c.WithoutIncrement(NoSide) {
		t.Error("2/60:60 is a game without increment")
	}
	c = mustClock(t, "2/60:60+2", Options{PeriodTrigger: OnMoves})
	c.Start(0)
	c.Press(1000, White) // move 1, period 1: no increment
	c.Press(2000, Black)
	c.Pause(2000)
	for _, s := range []Side{White, Black} {
		if err := c.SetIncrement(2000, s, 5000); err != nil {
			t.Fatal(err)
		}
	}
	st := c.State(2000)
	if st.Player[White].Increment != 5000 || st.Player[Black].Increment != 5000 || c.WithoutIncrement(White) {
		t.Errorf("after +5 s: %+v", st)
	}
	if got := c.Played().String(); got != "2/60+5@2:60+5@2" {
		t.Errorf("Played() = %s, want 2/60+5@2:60+5@2", got)
	}
	if got := c.Controls().String(); got != "2/60:60+2" {
		t.Errorf("Controls() = %s", got)
	}
	c.Resume(2000)
	c.Press(3000, White) // move 2: +5 s, and the quota brings period 2
	if m := c.LastMove(); m.After != 60000-2000+5000+60000 {
		t.Errorf("white's move 2: %+v", m)
	}
	c.Pause(3000)
	if err := c.SetIncrement(3000, White, 0); err != nil {
		t.Fatal(err)
	}
	if got := c.Played().White.String(); got != "2/60:60+2" {
		t.Errorf("taken back, Played() = %s, want the control's own", got)
	}
	if w := c.State(3000).Player[White]; w.Increment != 0 || w.Mode != timecontrol.Fischer {
		t.Errorf("taken back: %+v", w)
	}
	c.Resume(3000)
	c.Press(4000, Black)
	c.Press(5000, White) // move 3 in period 2: the control's own +2 s
	if m := c.LastMove(); m.After != 123000-1000+2000 {
		t.Errorf("white's move 3 with the increment taken back: %+v, want its period's +2 s", m)
	}
	if got := c.Played().String(); got != "2/60:60+2|2/60+5@2:60+5@2" {
		t.Errorf("Played() = %s", got)
	}
}

// TestRepeatStopsAtTheArbitersIncrement: a side given the arbiter's
// increment in period 5, then set back to period 3 (SetPeriod), repeats its
// own period (+1 s) in periods 3 and 4 and plays with +5 s from period 5. A
// wait that runs through periods 3, 4 and into 5 at once ends in period
// 5's mode, as waits of half a second each do.
func TestRepeatStopsAtTheArbitersIncrement(t *testing.T) {
	var got [2]State
	for i, stepped := range []bool{false, true} {
		c := mustClock(t, "3/7+1", Options{PeriodTrigger: OnFlag})
		c.Start(0)
		c.Press(1000, White) // Black's 7 s run out at 8 s, 15 s, 22 s, 29 s
		c.Pause(29000)
		if p := c.State(29000).Player[Black].Period; p != 5 {
			t.Fatalf("black in period %d, want 5", p)
		}
		if err := c.SetIncrement(29000, Black, 5000); err != nil {
			t.Fatal(err)
		}
		if err := c.SetPeriod(29000, Black, 3); err != nil {
			t.Fatal(err)
		}
		c.Resume(29000) // Black's 7 s run out at 36 s (period 4) and 43 s (period 5)
		if stepped {
			for s := int64(29000); s < 45000; s += 500 {
				c.Advance(s)
			}
		}
		c.Press(45000, Black) // in period 5: +5 s
		got[i] = c.State(45000)
	}
	if got[0] != got[1] {
		t.Errorf("one jump %+v\nsteps    %+v", got[0].Player[Black], got[1].Player[Black])
	}
	if b := got[0].Player[Black]; b.Period != 5 || b.Ms != 7000-2000+5000 {
		t.Errorf("black %+v, want period 5 and 10000 ms (5 s left, +5 s)", b)
	}
}
