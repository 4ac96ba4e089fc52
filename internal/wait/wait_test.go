package wait_test

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/internal/wait"
)

// recorder is a testing.TB whose Fatalf records the failure and ends the
// goroutine, as testing.T's does.
type recorder struct {
	testing.TB
	failed string
}

func (r *recorder) Helper() {}

func (r *recorder) Fatalf(format string, args ...any) {
	r.failed = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// run calls f with a recorder on its own goroutine (Fatalf ends it) and
// returns the failure, "" if none.
func run(t *testing.T, f func(tb testing.TB)) string {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	return r.failed
}

func TestFor(t *testing.T) {
	// A condition that comes true after a few polls: no failure.
	var n atomic.Int32
	if got := run(t, func(tb testing.TB) {
		wait.For(tb, 10*time.Second, "three polls", func() bool { return n.Add(1) >= 3 })
	}); got != "" {
		t.Errorf("For on a condition that comes true: failed %q", got)
	}
	if n.Load() != 3 {
		t.Errorf("For polled %d times, want 3 (it stops when the condition holds)", n.Load())
	}

	// A condition already true with no time at all: no failure.
	if got := run(t, func(tb testing.TB) {
		wait.For(tb, 0, "nothing", func() bool { return true })
	}); got != "" {
		t.Errorf("For on a true condition, timeout 0: failed %q", got)
	}

	// Never true: the failure names what was waited for and how long.
	start := time.Now()
	got := run(t, func(tb testing.TB) {
		wait.For(tb, 30*time.Millisecond, "the board to come online", func() bool { return false })
	})
	if want := "waited 30ms for the board to come online"; got != want {
		t.Errorf("For on a false condition: failed %q, want %q", got, want)
	}
	if d := time.Since(start); d < 30*time.Millisecond {
		t.Errorf("For gave up after %v, before its timeout of 30ms", d)
	}
}

func TestWithin(t *testing.T) {
	var n atomic.Int32
	if !wait.Within(10*time.Second, func() bool { return n.Add(1) >= 3 }) || n.Load() != 3 {
		t.Errorf("Within on a condition true at the third poll: polled %d times, or said false", n.Load())
	}
	if !wait.Within(0, func() bool { return true }) {
		t.Error("Within on a true condition, timeout 0: false")
	}
	start := time.Now()
	if wait.Within(30*time.Millisecond, func() bool { return false }) {
		t.Error("Within on a false condition: true")
	}
	if d := time.Since(start); d < 30*time.Millisecond {
		t.Errorf("Within gave up after %v, before its timeout of 30ms", d)
	}
}

func TestUntil(t *testing.T) {
	var n atomic.Int32
	if got := run(t, func(tb testing.TB) {
		wait.Until(tb, 10*time.Second, func() string {
			if n.Add(1) < 3 {
				return "not yet"
			}
			return ""
		})
	}); got != "" {
		t.Errorf("Until on a condition that comes true: failed %q", got)
	}

	// Never right: the failure is the last word of wrong.
	n.Store(0)
	got := run(t, func(tb testing.TB) {
		wait.Until(tb, 30*time.Millisecond, func() string {
			return fmt.Sprintf("poll %d", n.Add(1))
		})
	})
	if want := fmt.Sprintf("after 30ms: poll %d", n.Load()); got != want {
		t.Errorf("Until on a wrong state: failed %q, want %q (the last word of wrong)", got, want)
	}
}

func TestReturns(t *testing.T) {
	ran := false
	if got := run(t, func(tb testing.TB) {
		wait.Returns(tb, 10*time.Second, "a call that returns", func() { ran = true })
	}); got != "" || !ran {
		t.Errorf("Returns on a call that returns: failed %q, ran %v", got, ran)
	}
	// A call that blocks: the failure names it, and the test goes on.
	block := make(chan struct{})
	defer close(block)
	got := run(t, func(tb testing.TB) {
		wait.Returns(tb, 30*time.Millisecond, "Load of a named pipe", func() { <-block })
	})
	if want := "Load of a named pipe: still blocked after 30ms"; got != want {
		t.Errorf("Returns on a blocked call: failed %q, want %q", got, want)
	}
}
