package simbutton

import (
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/drivers/button"
)

const ms = time.Millisecond

func read(t *testing.T, src button.Source, n int) []button.Event {
	t.Helper()
	var got []button.Event
	for len(got) < n {
		select {
		case e, ok := <-src.Events():
			if !ok {
				t.Fatalf("closed after %v", got)
			}
			got = append(got, e)
		case <-time.After(2 * time.Second):
			t.Fatalf("timed out after %v", got)
		}
	}
	return got
}

func TestPush(t *testing.T) {
	s := New()
	// Push never blocks, even with no reader.
	for i := range 100 {
		s.Push(button.Event{Button: "left", Kind: button.Press, At: time.Duration(i) * ms})
	}
	s.Push(button.Event{Button: "right", Kind: button.Press, At: 5 * ms}) // raised to 99 ms
	got := read(t, s, 101)
	for i := range 100 {
		if got[i].At != time.Duration(i)*ms {
			t.Fatalf("event %d: %v", i, got[i])
		}
	}
	if got[100].At != 99*ms || got[100].Button != "right" {
		t.Fatalf("got %v", got[100])
	}
	s.Close()
	s.Push(button.Event{Button: "left", Kind: button.Release, At: time.Second})
	if _, ok := <-s.Events(); ok {
		t.Fatal("open after Close")
	}
	s.Close()
}

func TestCloseDropsQueued(t *testing.T) {
	s := New()
	s.Push(button.Event{Button: "ok", Kind: button.Press})
	s.Close()
	for e := range s.Events() {
		if e.Button != "ok" {
			t.Fatalf("got %v", e)
		}
	}
}
