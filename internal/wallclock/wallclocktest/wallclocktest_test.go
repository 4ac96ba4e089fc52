package wallclocktest_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/internal/wallclock"
	"github.com/zeitnot/zeitnot/internal/wallclock/wallclocktest"
)

var start = time.Date(2026, 3, 7, 18, 0, 0, 0, time.UTC)

// received returns what ch holds now, or the zero time.
func received(ch <-chan time.Time) (time.Time, bool) {
	select {
	case v := <-ch:
		return v, true
	default:
		return time.Time{}, false
	}
}

func TestTimersFireInOrder(t *testing.T) {
	clk := wallclocktest.New(start)
	var order []string
	var at []time.Duration
	note := func(name string) func() {
		return func() { order, at = append(order, name), append(at, clk.Now().Sub(start)) }
	}
	clk.AfterFunc(3*time.Second, note("c"))
	clk.AfterFunc(time.Second, note("a"))
	clk.AfterFunc(2*time.Second, note("b1"))
	clk.AfterFunc(2*time.Second, note("b2"))
	late := clk.AfterFunc(10*time.Second, note("late"))
	// A function that arms another one due within the same advance.
	clk.AfterFunc(1500*time.Millisecond, func() { clk.AfterFunc(time.Second, note("chained")) })

	clk.Advance(3 * time.Second)
	want := []string{"a", "b1", "b2", "chained", "c"}
	if !slices.Equal(order, want) {
		t.Fatalf("fired %v, want %v", order, want)
	}
	wantAt := []time.Duration{time.Second, 2 * time.Second, 2 * time.Second, 2500 * time.Millisecond, 3 * time.Second}
	if !slices.Equal(at, wantAt) {
		t.Errorf("Now while firing %v, want %v", at, wantAt)
	}
	if got := clk.Now().Sub(start); got != 3*time.Second {
		t.Errorf("Now after Advance(3s) is start+%v", got)
	}
	if n := clk.Armed(); n != 1 {
		t.Errorf("Armed = %d after the advance, want 1 (the late one)", n)
	}
	if d, ok := clk.Next(); !ok || d != 7*time.Second {
		t.Errorf("Next = %v, %v; want 7s, true", d, ok)
	}
	if !late.Stop() || late.Stop() {
		t.Error("Stop of an armed timer must say true once, then false")
	}
	clk.Advance(time.Hour)
	if slices.Contains(order, "late") {
		t.Error("a stopped function ran")
	}
}

func TestTimerChannel(t *testing.T) {
	clk := wallclocktest.New(start)
	tm := clk.NewTimer(time.Minute)
	clk.Advance(59 * time.Second)
	if _, ok := received(tm.C()); ok {
		t.Fatal("the timer fired a second early")
	}
	clk.Advance(time.Second)
	if v, ok := received(tm.C()); !ok || !v.Equal(start.Add(time.Minute)) {
		t.Fatalf("after a minute: %v, %v; want the instant a minute on", v, ok)
	}
	if tm.Stop() {
		t.Error("Stop of a fired timer said it was armed")
	}
	// Reset discards a value not yet received.
	tm.Reset(time.Second)
	clk.Advance(time.Second)
	if tm.Reset(time.Second) {
		t.Error("Reset of a fired timer said it was armed")
	}
	if _, ok := received(tm.C()); ok {
		t.Error("a value from before Reset was still there")
	}
	if z := clk.NewTimer(0); true {
		if _, ok := received(z.C()); !ok {
			t.Error("NewTimer(0) did not fire at once")
		}
	}
}

func TestTicker(t *testing.T) {
	clk := wallclocktest.New(start)
	tk := clk.NewTicker(time.Second)
	var got []time.Duration
	for range 3 {
		clk.Advance(time.Second)
		v, ok := received(tk.C())
		if !ok {
			t.Fatal("no tick after a second")
		}
		got = append(got, v.Sub(start))
	}
	if want := []time.Duration{time.Second, 2 * time.Second, 3 * time.Second}; !slices.Equal(got, want) {
		t.Errorf("ticks at %v, want %v", got, want)
	}
	// A slow reader misses ticks: one value waits, the first one missed.
	clk.Advance(5 * time.Second)
	if v, _ := received(tk.C()); v.Sub(start) != 4*time.Second {
		t.Errorf("after five missed ticks the one waiting is at %v, want 4s", v.Sub(start))
	}
	if _, ok := received(tk.C()); ok {
		t.Error("more than one tick waited")
	}
	tk.Reset(time.Minute)
	clk.Advance(59 * time.Second)
	if _, ok := received(tk.C()); ok {
		t.Error("the ticker ticked before its new period")
	}
	tk.Stop()
	clk.Advance(time.Hour)
	if _, ok := received(tk.C()); ok || clk.Armed() != 0 {
		t.Errorf("a stopped ticker ticked, or stayed armed (%d)", clk.Armed())
	}
}

// TestWaitArmed: a goroutine sleeps on the fake clock; the test waits for
// its timer and then advances it, with no real time standing in.
func TestWaitArmed(t *testing.T) {
	clk := wallclocktest.New(start)
	done := make(chan bool)
	go func() { done <- wallclock.Sleep(context.Background(), clk, time.Hour) }()
	clk.WaitArmed(t, 1)
	clk.Advance(time.Hour)
	if !<-done {
		t.Error("Sleep on the fake clock said the context ended")
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { done <- wallclock.Sleep(ctx, clk, time.Hour) }()
	clk.WaitArmed(t, 1)
	cancel()
	if <-done {
		t.Error("Sleep whose context ended said it slept")
	}
	if clk.Armed() != 0 {
		t.Error("Sleep left its timer armed")
	}
}

func TestSinceUntil(t *testing.T) {
	clk := wallclocktest.New(start)
	clk.Advance(90 * time.Second)
	if d := wallclock.Since(clk, start); d != 90*time.Second {
		t.Errorf("Since = %v", d)
	}
	if d := wallclock.Until(clk, start.Add(time.Hour)); d != time.Hour-90*time.Second {
		t.Errorf("Until = %v", d)
	}
	if wallclock.Or(nil) != wallclock.Real || wallclock.Or(clk) != clk {
		t.Error("Or: nil is not Real, or a clock is not itself")
	}
}

// TestMono: Mono is 0 at New and moves with Advance, and a timer armed for
// the time until an instant on it fires when Mono reaches that instant, as
// a loop that waits on the Clock for its next instant expects.
func TestMono(t *testing.T) {
	clk := wallclocktest.New(start)
	if m := clk.Mono(); m != 0 {
		t.Fatalf("Mono at New = %v", m)
	}
	clk.Advance(1500 * time.Millisecond)
	next := clk.Mono() + 2*time.Second
	tm := clk.NewTimer(next - clk.Mono())
	clk.Advance(time.Second)
	if _, ok := received(tm.C()); ok || clk.Mono() != 2500*time.Millisecond {
		t.Fatalf("a second early: fired %v, Mono %v", ok, clk.Mono())
	}
	clk.Advance(time.Second)
	if _, ok := received(tm.C()); !ok || clk.Mono() != next {
		t.Fatalf("at the instant: fired %v, Mono %v, want %v", ok, clk.Mono(), next)
	}
}
