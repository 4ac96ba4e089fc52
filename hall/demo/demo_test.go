package demo

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/control"
	"github.com/zeitnot/zeitnot/internal/wait"
	"github.com/zeitnot/zeitnot/protocol"
)

// buildClock builds the clock's program, zeitnot, for the demo to run.
func buildClock(t *testing.T) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	exe, err := Build(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// startDemo runs the demo's boards with no hall (their links find no
// broker: the clocks play all the same) until the test ends.
func startDemo(t *testing.T, boards int, think time.Duration) string {
	t.Helper()
	exe := buildClock(t)
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Opts{Exe: exe, Dir: dir, Broker: "mqtt://127.0.0.1:9", Hall: "test", Boards: boards, Think: think, Logf: t.Logf})
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	return dir
}

// status waits for board n's daemon to answer and returns its status
// once ok says it is the one wanted.
func status(t *testing.T, sock, what string, within time.Duration, ok func(protocol.Status) bool) protocol.Status {
	t.Helper()
	var s protocol.Status
	wait.Until(t, within, func() string {
		a, err := control.Call(sock, "status")
		if err != nil {
			return fmt.Sprintf("%s: %v", what, err)
		}
		if s, err = protocol.ParseStatus([]byte(a)); err == nil && ok(s) {
			return ""
		}
		return fmt.Sprintf("%s: the status is %s", what, a)
	})
	return s
}

// A demo clock trusts the laptop's clock ("host"), so it takes a
// scheduled start (on a laptop without timesyncd every demo clock
// refused it, trusting no time of day).
func TestDemoClockTakesAScheduledStart(t *testing.T) {
	if testing.Short() {
		t.Skip("starts daemon and link processes")
	}
	// Players who think an hour a step: none presses during the test.
	dir := startDemo(t, 1, 12*time.Hour)
	sock := filepath.Join(dir, "board-1", "control.sock")
	s := status(t, sock, "the daemon answering", 20*time.Second, func(protocol.Status) bool { return true })
	if s.TimeSource != "host" {
		t.Errorf("the demo clock's time source is %q, want host", s.TimeSource)
	}
	start := time.Now().Add(time.Hour).UnixMilli()
	a, err := control.Call(sock, "round", fmt.Sprintf(`{"start_ms":%d,"default_ms":0}`, start))
	if err != nil || a != "ok" {
		t.Fatalf("round: %q, %v; want ok", a, err)
	}
	s = status(t, sock, "the countdown", 5*time.Second, func(s protocol.Status) bool { return s.Round != nil && s.Round.StartsIn != nil })
	if in := *s.Round.StartsIn; in < 59*60000 || in > 60*60000 {
		t.Errorf("the round starts in %d ms, want about an hour", in)
	}
}

// The demo's players obey the round: they wait for its start, and White's
// clock starts at the scheduled start, not at a player's press.
func TestDemoPlayersWaitForTheStart(t *testing.T) {
	if testing.Short() {
		t.Skip("starts daemon and link processes")
	}
	// Players who sit down within 2 s and start the game within 5 s,
	// were it not for the round.
	dir := startDemo(t, 1, 6*time.Second)
	sock := filepath.Join(dir, "board-1", "control.sock")
	status(t, sock, "the daemon answering", 20*time.Second, func(protocol.Status) bool { return true })
	start := time.Now().Add(8 * time.Second).UnixMilli()
	if a, err := control.Call(sock, "round", fmt.Sprintf(`{"start_ms":%d,"default_ms":0}`, start)); err != nil || a != "ok" {
		t.Fatalf("round: %q, %v; want ok", a, err)
	}
	s := status(t, sock, "White's clock started", 20*time.Second, func(s protocol.Status) bool { return s.Started })
	if s.Round == nil || s.Round.Game != s.Game {
		t.Fatalf("the game %s started, but not by the round's start: %+v", s.Game, s.Round)
	}
	// The journal's note says so (notes stay in the clock's journal, on
	// disk; the log the hall gets has no comments).
	var journal []string
	filepath.WalkDir(filepath.Join(dir, "board-1", "state"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if b, err := os.ReadFile(p); err == nil && strings.Contains(string(b), "# round: White's clock started at the scheduled start") {
				journal = append(journal, p)
			}
		}
		return nil
	})
	if len(journal) != 1 {
		t.Errorf("%d journals say White's clock started at the scheduled start, want 1", len(journal))
	}
}
