package buttontest

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

func TestScript(t *testing.T) {
	evs := append(Tap("right", 30*ms, 100*ms), Tap("left", 10*ms, 5*ms)...)
	evs = append(evs, button.Event{Button: "ok", Kind: button.Press, At: 30 * ms})
	s := NewScript(evs...)
	got := read(t, s, 5)
	want := []button.Event{
		{Button: "left", Kind: button.Press, At: 10 * ms},
		{Button: "left", Kind: button.Release, At: 15 * ms},
		{Button: "right", Kind: button.Press, At: 30 * ms},
		{Button: "ok", Kind: button.Press, At: 30 * ms}, // equal At: given order
		{Button: "right", Kind: button.Release, At: 130 * ms},
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("event %d: got %v want %v", i, got[i], want[i])
		}
	}
	select {
	case <-s.Done():
	case <-time.After(2 * time.Second):
		t.Fatal("Done not closed")
	}
	select {
	case e := <-s.Events():
		t.Fatalf("extra event %v", e)
	default:
	}
	s.Close()
	if _, ok := <-s.Events(); ok {
		t.Fatal("open after Close")
	}
	s.Close()
}

func TestScriptCloseEarly(t *testing.T) {
	s := NewScript(Tap("left", 0, ms)...)
	s.Close()
	for range s.Events() {
	}
}
