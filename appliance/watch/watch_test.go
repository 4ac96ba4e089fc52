package watch_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/control"
	"github.com/zeitnot/zeitnot/appliance/watch"
)

// daemon is a fake daemon's control socket: the i-th watch connection
// gets conns[i]'s lines, and then the connection is closed; after the
// last one, connections are refused (the socket is closed).
type daemon struct {
	path string
	l    net.Listener
}

func newDaemon(t *testing.T, conns ...[]string) *daemon {
	t.Helper()
	path := filepath.Join(t.TempDir(), "control.sock")
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	d := &daemon{path: path, l: l}
	go func() {
		for _, lines := range conns {
			c, err := l.Accept()
			if err != nil {
				return
			}
			req, _ := bufio.NewReader(c).ReadString('\n')
			if req != "watch\n" {
				fmt.Fprintf(c, "error: want watch, got %q\n", req)
			} else {
				for _, line := range lines {
					fmt.Fprintln(c, line)
				}
			}
			c.Close()
		}
		l.Close()
	}()
	t.Cleanup(func() { l.Close() })
	return d
}

// recorder keeps what Follow said, and cancels it at the n-th Down.
type recorder struct {
	mu     sync.Mutex
	lines  []string
	bad    []string
	downs  []error
	waits  []time.Duration
	cancel context.CancelFunc
	stopAt int
}

func (r *recorder) opts(socket string) watch.Opts {
	return watch.Opts{
		Client: control.Client{Socket: socket, Timeout: time.Second},
		Retry:  time.Second,
		Down: func(err error) {
			r.mu.Lock()
			defer r.mu.Unlock()
			r.downs = append(r.downs, err)
			if len(r.downs) == r.stopAt {
				r.cancel()
			}
		},
		Bad: func(line string) { r.bad = append(r.bad, line) },
		Sleep: func(ctx context.Context, d time.Duration) bool {
			r.waits = append(r.waits, d) // virtual: the waits are counted, not slept
			return ctx.Err() == nil
		},
	}
}

func (r *recorder) take(l watch.Line) error {
	s := l.Event.Event
	if l.State != nil {
		s = "state " + string(l.State)
	}
	if l.First {
		s = "first " + s
	}
	if l.NewGame() {
		s += " (new game)"
	}
	r.lines = append(r.lines, s)
	return nil
}

// TestFollow: every line of every connection is given once, in order, the
// first one of each marked; a line that is not JSON is skipped and said;
// each end of the stream is said, and the daemon is reached again after a
// wait that starts afresh once a watch was followed.
func TestFollow(t *testing.T) {
	d := newDaemon(t,
		[]string{`{"state":{"n":1}}`, `{"event":"pressed","line":"1000 press white"}`, `not json`, `{"event":"new-game"}`, `{"state":{"n":2}}`},
		[]string{`{"state":{"n":3}}`, `{"event":"recovered"}`},
	)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := &recorder{cancel: cancel, stopAt: 3} // the two connections, then the refused one
	watch.Follow(ctx, r.opts(d.path), r.take)

	want := []string{`first state {"n":1}`, "pressed", "new-game (new game)", `state {"n":2}`, `first state {"n":3}`, "recovered (new game)"}
	if strings.Join(r.lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("lines:\n%s\nwant:\n%s", strings.Join(r.lines, "\n"), strings.Join(want, "\n"))
	}
	if len(r.bad) != 1 || r.bad[0] != "not json" {
		t.Errorf("bad lines %q, want the one that is not JSON", r.bad)
	}
	if len(r.downs) != 3 || !errors.Is(r.downs[0], control.ErrWatchEnded) || !errors.Is(r.downs[1], control.ErrWatchEnded) {
		t.Errorf("downs %v, want the two ends of the stream, then the refusal", r.downs)
	}
	// Each followed watch starts the wait afresh; the refused connection
	// after them doubles it (the cancel at its Down ends Follow there).
	if fmt.Sprint(r.waits) != "[1s 1s 2s]" {
		t.Errorf("waits %v, want [1s 1s 2s]", r.waits)
	}
}

// TestFollowBackOff: while the daemon cannot be reached, the wait doubles
// up to MaxWait, and every failure is said.
func TestFollowBackOff(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := &recorder{cancel: cancel, stopAt: 6}
	watch.Follow(ctx, r.opts(filepath.Join(t.TempDir(), "none.sock")), r.take)
	if fmt.Sprint(r.waits) != "[1s 2s 4s 5s 5s 5s]" {
		t.Errorf("waits %v, want [1s 2s 4s 5s 5s 5s]", r.waits)
	}
	for _, err := range r.downs {
		if !strings.Contains(err.Error(), "cannot reach the clock") {
			t.Errorf("down: %v, want that the clock cannot be reached", err)
		}
	}
	if len(r.lines) != 0 {
		t.Errorf("lines from no daemon: %q", r.lines)
	}
}

// TestFollowHandlerFails: the handler's error ends the watch, is said as
// its end, and a watch whose first line failed was not followed: the wait
// goes on growing.
func TestFollowHandlerFails(t *testing.T) {
	state := []string{`{"state":{}}`, `{"event":"pressed"}`}
	d := newDaemon(t, state, state)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := &recorder{cancel: cancel, stopAt: 2}
	refused := errors.New("eboard-game: refused")
	var got int
	watch.Follow(ctx, r.opts(d.path), func(l watch.Line) error {
		got++
		return refused
	})
	if got != 2 {
		t.Errorf("handler called %d times, want once a connection", got)
	}
	if len(r.downs) != 2 || r.downs[0] != refused || r.downs[1] != refused {
		t.Errorf("downs %v, want the handler's error twice", r.downs)
	}
	if fmt.Sprint(r.waits) != "[1s 2s]" {
		t.Errorf("waits %v, want [1s 2s]", r.waits)
	}
}

// TestFollowDaemonRefuses: an "error: ..." line ends the watch with the
// daemon's *control.Error.
func TestFollowDaemonRefuses(t *testing.T) {
	d := newDaemon(t, []string{"error: daemon stopping"})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := &recorder{cancel: cancel, stopAt: 1}
	watch.Follow(ctx, r.opts(d.path), r.take)
	var ce *control.Error
	if len(r.downs) != 1 || !errors.As(r.downs[0], &ce) || ce.Msg != "daemon stopping" {
		t.Errorf("downs %v, want the daemon's error", r.downs)
	}
}
