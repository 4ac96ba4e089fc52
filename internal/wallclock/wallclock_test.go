package wallclock_test

import (
	"context"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/internal/wallclock"
)

// TestReal checks that Real is the system's clock and its waits end; the
// waits are a millisecond, real time passing being what is tested.
func TestReal(t *testing.T) {
	before := time.Now()
	if now := wallclock.Real.Now(); now.Before(before) || now.Sub(before) > time.Minute {
		t.Fatalf("Real.Now = %v, time.Now = %v", now, before)
	}
	tm := wallclock.Real.NewTimer(time.Millisecond)
	<-tm.C()
	tk := wallclock.Real.NewTicker(time.Millisecond)
	<-tk.C()
	tk.Stop()
	done := make(chan struct{})
	wallclock.Real.AfterFunc(time.Millisecond, func() { close(done) })
	<-done
	if !wallclock.Sleep(context.Background(), wallclock.Real, time.Millisecond) {
		t.Error("Sleep on a live context: false")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if wallclock.Sleep(ctx, wallclock.Real, time.Hour) || wallclock.Sleep(ctx, wallclock.Real, 0) {
		t.Error("Sleep on an ended context: true")
	}
}

// TestNowFunc: the time of day is the function's, and a wait, which such a
// clock does not have, panics rather than never firing.
func TestNowFunc(t *testing.T) {
	at := time.Date(2026, 3, 7, 18, 0, 0, 0, time.UTC)
	c := wallclock.NowFunc(func() time.Time { return at })
	if got := c.Now(); !got.Equal(at) {
		t.Fatalf("Now = %v, want %v", got, at)
	}
	at = at.Add(time.Minute)
	if got := wallclock.Since(c, at.Add(-time.Minute)); got != time.Minute {
		t.Errorf("Since after the function moved = %v", got)
	}
	for name, f := range map[string]func(){
		"NewTimer":  func() { c.NewTimer(time.Second) },
		"NewTicker": func() { c.NewTicker(time.Second) },
		"AfterFunc": func() { c.AfterFunc(time.Second, func() {}) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s did not panic", name)
				}
			}()
			f()
		}()
	}
}
