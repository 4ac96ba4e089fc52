package store

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/internal/wait"
	"github.com/zeitnot/zeitnot/internal/wallclock/wallclocktest"
	"github.com/zeitnot/zeitnot/protocol"
)

// TestFlushEverySecond: a board that changed is written to disk at the
// next tick of the store's clock, not before.
func TestFlushEverySecond(t *testing.T) {
	clk := wallclocktest.New(time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC))
	s, err := OpenWith(t.TempDir(), Opts{Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	clk.WaitArmed(t, 1)
	s.PutOnline(3, protocol.OnlineMsg{Online: true}, clk.Now())
	p := filepath.Join(s.Dir(), "boards", "3.json")
	clk.Advance(999 * time.Millisecond)
	if _, err := os.Stat(p); err == nil {
		t.Fatal("board 3 written before the second was up")
	}
	clk.Advance(time.Millisecond)
	wait.For(t, 10*time.Second, "board 3 on disk", func() bool { _, err := os.Stat(p); return err == nil })
}
