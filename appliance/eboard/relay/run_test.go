package relay

import (
	"context"
	"errors"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/eboard/settings"
	"github.com/zeitnot/zeitnot/drivers/eboard"
	"github.com/zeitnot/zeitnot/internal/wait"
	"github.com/zeitnot/zeitnot/internal/wallclock/wallclocktest"
)

// TestRunRetriesOnItsClock: a board that cannot be opened is tried again
// after Retry on the injected clock, not on the system's: with an hour's
// Retry the second try comes as soon as the fake clock has passed an
// hour, and Run returns once ctx is done.
func TestRunRetriesOnItsClock(t *testing.T) {
	clk := wallclocktest.New(time.Date(2026, 3, 7, 18, 0, 0, 0, time.UTC))
	var opens atomic.Int32
	o := Opts{
		Socket: filepath.Join(t.TempDir(), "none.sock"), // no daemon: its waits are on clk too
		Open: func(string) (eboard.Board, error) {
			opens.Add(1)
			return nil, errors.New("no board on /dev/sim")
		},
		Clock: clk,
		Now:   clk.Mono,
		Retry: time.Hour,
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- Run(ctx, settings.EBoard{Enabled: true, Port: "/dev/sim"}, o) }()
	wait.For(t, 10*time.Second, "the first try to open the board", func() bool { return opens.Load() >= 1 })
	if n := opens.Load(); n != 1 {
		t.Fatalf("%d tries before any time passed, want 1", n)
	}
	// Each poll passes an hour on the fake clock: the try after it may
	// be armed a little later than the poll that first looks.
	wait.For(t, 10*time.Second, "the second try, an hour later on the fake clock", func() bool {
		clk.Advance(o.Retry)
		return opens.Load() >= 2
	})
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run still running 10 s after ctx was done")
	}
}
