package ctxwait_test

import (
	"context"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/internal/ctxwait"
)

func TestSleep(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	if !ctxwait.Sleep(ctx, time.Millisecond) {
		t.Error("Sleep of 1 ms on a live context: false")
	}
	if !ctxwait.Sleep(ctx, 0) {
		t.Error("Sleep of 0 on a live context: false")
	}
	// Ended while waiting: an hour's wait returns false, once the context
	// ends (the test would time out otherwise).
	go cancel()
	if ctxwait.Sleep(ctx, time.Hour) {
		t.Error("Sleep of an hour returned true when its context ended")
	}
	if ctxwait.Sleep(ctx, 0) {
		t.Error("Sleep of 0 on an ended context: true")
	}
}

func ExampleSleep() {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	// A retry loop ends when its context does, not after its back-off.
	for attempt := 0; ctxwait.Sleep(ctx, time.Minute); attempt++ {
	}
	// Output:
}
