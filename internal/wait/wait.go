// Package wait lets a test wait on a condition instead of sleeping a fixed
// while: it polls the condition until it holds and, if it does not within
// the timeout, fails the test naming what it waited for.
//
// A fixed sleep is either too short on a busy machine (the test flakes) or
// too long on an idle one (the suite crawls); polling is as fast as the
// code under test and as patient as the timeout.
package wait

import (
	"testing"
	"time"
)

// Poll is how often For and Until look at their condition.
const Poll = 5 * time.Millisecond

// For polls cond every Poll until it returns true. If it has not after
// timeout, For fails t with "waited <timeout> for <what>" and stops the
// test (t.Fatalf), so it must be called from the test's goroutine. cond is
// always called at least once, also with a timeout of zero.
func For(t testing.TB, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	if !Within(timeout, cond) {
		t.Fatalf("waited %v for %s", timeout, what)
	}
}

// Within polls cond every Poll until it returns true, and reports whether
// it did within timeout. It fails no test, so a goroutine other than the
// test's may wait with it (and report with t.Error). cond is always
// called at least once, also with a timeout of zero.
func Within(timeout time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(Poll)
	}
	return true
}

// Until polls wrong every Poll until it returns "". wrong says what is not
// yet as wanted; if it still says so after timeout, Until fails t with
// "after <timeout>: <its last word>" and stops the test. Use it when the
// state seen last tells more than the name of the condition.
func Until(t testing.TB, timeout time.Duration, wrong func() string) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		w := wrong()
		if w == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %v: %s", timeout, w)
		}
		time.Sleep(Poll)
	}
}

// Returns calls f on a goroutine of its own and waits for it to return.
// If it has not after timeout, Returns fails t with "<what>: still blocked
// after <timeout>" and stops the test (t.Fatalf, from the test's
// goroutine), so a call that must not block (the read of a named pipe)
// cannot hang the run. f reports with t.Error, not t.Fatal.
func Returns(t testing.TB, timeout time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	tm := time.NewTimer(timeout)
	defer tm.Stop()
	select {
	case <-done:
	case <-tm.C:
		t.Fatalf("%s: still blocked after %v", what, timeout)
	}
}
