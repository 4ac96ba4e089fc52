package daemon

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/drivers/button"
	"github.com/zeitnot/zeitnot/drivers/profile"
	"github.com/zeitnot/zeitnot/internal/wait"
	"github.com/zeitnot/zeitnot/internal/wallclock/wallclocktest"
)

// syncBuffer is a log written by Run's goroutine and read by the test's.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// notified reads what Run tells systemd until a message that begins with
// want, and fails t if none comes within 10 s of real time.
func notified(t *testing.T, c *net.UnixConn, want string) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	buf := make([]byte, 1024)
	var seen []string
	for {
		n, err := c.Read(buf)
		if err != nil {
			t.Fatalf("no %q from the daemon (%v); it said %q", want, err, seen)
		}
		m := string(buf[:n])
		if strings.HasPrefix(m, want) {
			return
		}
		seen = append(seen, m)
	}
}

// TestRunOnAFakeClock runs the daemon's loop in this process on one fake
// clock, its waits on the Clock and its instants on the Clock's Mono: the
// watchdog is fed every interval the fake clock passes (an hour, which no
// real ticker would pass during the test), the loop's timer until its next
// instant is armed on the fake clock, and a flag falls when the fake clock
// has passed the player's time, with no real time waited.
func TestRunOnAFakeClock(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "zeitnot.toml")
	if err := os.WriteFile(cfg, []byte("profile = \"sim\"\n[game]\ncontrol = \"300+2\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "notify")
	c, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: sock, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	t.Setenv("NOTIFY_SOCKET", sock)
	t.Setenv("WATCHDOG_USEC", "7200000000") // fed every hour
	t.Setenv("WATCHDOG_PID", "")

	clk := wallclocktest.New(time.Date(2026, 3, 7, 18, 0, 0, 0, time.UTC))
	logs := &syncBuffer{}
	pushers := make(chan Pusher, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Opts{
			ConfigPath: cfg, StateDir: filepath.Join(dir, "state"), FallbackProfile: "sim", Log: logs,
			Clock: clk, Now: clk.Mono,
			OnStart: func(m *Machine, devs *profile.Devices) {
				p, _ := devs.Buttons.(Pusher)
				pushers <- p
			},
		})
	}()
	notified(t, c, "READY=1")
	notified(t, c, "WATCHDOG=1")
	for range 2 {
		clk.Advance(time.Hour)
		notified(t, c, "WATCHDOG=1")
	}
	// Black's lever starts White's clock, at the fake instant.
	p := <-pushers
	if p == nil {
		t.Fatal("the simulated profile's buttons take no pushes")
	}
	at := clk.Mono()
	p.Push(button.Event{Button: "right", Kind: button.Press, At: at})
	p.Push(button.Event{Button: "right", Kind: button.Release, At: at})
	notified(t, c, "STATUS=white running")
	// The display's next change is within a second: the loop's timer for
	// it is on the fake clock, beside the watchdog's hour.
	wait.For(t, 10*time.Second, "the loop's timer armed on the fake clock", func() bool {
		d, ok := clk.Next()
		return ok && d <= time.Second
	})
	// White's 300 s and the increment: the loop's timer is on the fake
	// clock, so passing them there makes the flag fall.
	clk.Advance(303 * time.Second)
	notified(t, c, "STATUS=flag white")
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
	if log := logs.String(); !strings.Contains(log, "zeitnot stopping: flag white") {
		t.Errorf("the log does not end with the flag:\n%s", log)
	}
}
