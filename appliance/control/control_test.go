package control

import (
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/internal/wait"
)

func TestRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "control.sock")
	s, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	go func() {
		for r := range s.Requests {
			switch r.Cmd {
			case "status":
				r.Reply(`{"running":"white"}`)
			case "press":
				if r.Arg == "left" {
					r.Reply("ok")
				} else {
					r.Reply("error: no button " + r.Arg)
				}
			}
		}
	}()
	if got, err := Call(path, "status"); err != nil || got != `{"running":"white"}` {
		t.Errorf("status: %q %v", got, err)
	}
	if got, err := Call(path, "press", "left"); err != nil || got != "ok" {
		t.Errorf("press: %q %v", got, err)
	}
	if _, err := Call(path, "press", "nose"); err == nil || err.Error() != "no button nose" {
		t.Errorf("bad press: %v", err)
	}
	// A stale socket file is replaced.
	s.Close()
	s2, err := Listen(path)
	if err != nil {
		t.Fatalf("relisten over stale socket: %v", err)
	}
	s2.Close()
}

func TestNoDaemon(t *testing.T) {
	_, err := Call(filepath.Join(t.TempDir(), "none.sock"), "status")
	if err == nil || !strings.Contains(err.Error(), "is zeitnot running?") {
		t.Errorf("got %v", err)
	}
}

// TestWatch: the first line is the loop's reply, then every line the loop
// sends, in order; a client that goes away makes Send report false.
func TestWatch(t *testing.T) {
	path := filepath.Join(t.TempDir(), "control.sock")
	s, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	watches := make(chan *Watch, 1)
	go func() {
		for r := range s.Requests {
			if r.Cmd == "watch" {
				r.Reply(`{"state":0}`)
				watches <- r.Watch
			}
		}
	}()
	var got []string
	stop := errors.New("enough")
	done := make(chan error, 1)
	go func() {
		done <- WatchLines(path, func(line string) error {
			got = append(got, line)
			if len(got) == 4 {
				return stop
			}
			return nil
		})
	}()
	w := <-watches
	for _, l := range []string{`{"event":"pressed"}`, `{"state":1}`, `{"event":"paused"}`} {
		if !w.Send(l) {
			t.Fatalf("Send(%s) to a reading client failed", l)
		}
	}
	if err := <-done; err != stop {
		t.Fatalf("WatchLines: %v", err)
	}
	want := `{"state":0} {"event":"pressed"} {"state":1} {"event":"paused"}`
	if strings.Join(got, " ") != want {
		t.Errorf("stream %q, want %q", got, want)
	}
	// The client is gone: the loop learns it from Send.
	wait.For(t, 5*time.Second, "Send to fail once the client left", func() bool { return !w.Send("more") })
}

// TestWatchSlowClient: the loop never waits for a client; one that falls
// WatchBuffer lines behind is dropped and told why.
func TestWatchSlowClient(t *testing.T) {
	path := filepath.Join(t.TempDir(), "control.sock")
	s, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	watches := make(chan *Watch, 1)
	go func() {
		for r := range s.Requests {
			r.Reply(`{"state":0}`)
			watches <- r.Watch
		}
	}()
	conn, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintln(conn, "watch")
	w := <-watches
	// The client reads nothing while the loop sends far more than fits
	// in the socket's buffers and the watch's.
	line := strings.Repeat("x", 1000)
	sent := 0
	for w.Send(line) {
		sent++
		if sent > 1_000_000 {
			t.Fatal("Send never reports a client that does not read")
		}
	}
	all, _ := io.ReadAll(conn)
	lines := strings.Split(strings.TrimSpace(string(all)), "\n")
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "error: watcher fell") {
		t.Errorf("last line %q, want the reason", last)
	}
	if n := len(lines) - 2; n != sent {
		t.Errorf("client got %d lines of %d sent before the drop", n, sent)
	}
}

// TestClient: the one client of the socket says who refused what, tells
// an older daemon's "unknown command", and ends a watch the daemon ended
// with ErrWatchEnded.
func TestClient(t *testing.T) {
	path := filepath.Join(t.TempDir(), "control.sock")
	s, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	go func() {
		for r := range s.Requests {
			switch r.Cmd {
			case "log":
				r.Reply(`error: unknown command "log"`)
			case "pause":
				r.Reply("error: a game is in progress")
			case "watch":
				r.Reply(`{"state":{}}`)
				r.Watch.Send(`{"event":"pressed"}`)
				r.Watch.close() // the daemon stops
			}
		}
	}()
	c := Client{Socket: path, Timeout: time.Second}
	_, err = c.Call(t.Context(), "pause")
	var ce *Error
	if !errors.As(err, &ce) || ce.Msg != "a game is in progress" || err.Error() != "the clock refused pause: a game is in progress" || UnknownCommand(err) {
		t.Errorf("pause: %v", err)
	}
	if _, err := c.Call(t.Context(), "log"); !UnknownCommand(err) {
		t.Errorf("log: %v", err)
	}
	var lines []string
	err = c.Watch(t.Context(), func(l string) error { lines = append(lines, l); return nil })
	if !errors.Is(err, ErrWatchEnded) || len(lines) != 2 {
		t.Errorf("watch: %q, %v", lines, err)
	}
	if err := WatchLines(path, func(string) error { return nil }); err != nil {
		t.Errorf("WatchLines of a watch the daemon ended: %v", err)
	}
}
