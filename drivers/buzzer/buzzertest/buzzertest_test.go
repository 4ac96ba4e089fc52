package buzzertest

import (
	"slices"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/drivers/buzzer"
)

func TestRecorder(t *testing.T) {
	var now time.Duration
	var seen []Played
	r := &Recorder{Clock: func() time.Duration { return now }, OnPlay: func(p Played) { seen = append(seen, p) }}
	now = time.Second
	r.Play(buzzer.Beep)
	r.SetMuted(true)
	now = 2 * time.Second
	if err := r.Play(buzzer.Alarm); err != nil {
		t.Fatal(err)
	}
	if !r.Muted() {
		t.Fatal("not muted")
	}
	r.SetMuted(false)
	now = 3 * time.Second
	r.Play(buzzer.DoubleBeep)
	want := []Played{{Pattern: buzzer.Beep, At: time.Second}, {Pattern: buzzer.DoubleBeep, At: 3 * time.Second}}
	if !slices.Equal(r.Played(), want) || !slices.Equal(seen, want) {
		t.Fatalf("got %v, OnPlay saw %v", r.Played(), seen)
	}
	if !slices.Equal(r.Patterns(), []buzzer.Pattern{buzzer.Beep, buzzer.DoubleBeep}) {
		t.Fatalf("got %v", r.Patterns())
	}
	if err := r.Play(buzzer.Pattern(0)); err == nil {
		t.Fatal("unknown pattern accepted")
	}
	r.Reset()
	if len(r.Played()) != 0 {
		t.Fatal("not reset")
	}
	r.Close()
	if err := r.Play(buzzer.Beep); err == nil || err.Error() != "buzzer: buzzertest.Recorder: closed" {
		t.Fatalf("after Close: %v", err)
	}
}
