package simbuzzer

import (
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/drivers/buzzer"
)

func TestBuzzer(t *testing.T) {
	var now time.Duration
	var seen []Played
	b := &Buzzer{Clock: func() time.Duration { return now }, OnPlay: func(p Played) { seen = append(seen, p) }}
	if b.String() != "simulated buzzer" {
		t.Errorf("String = %q", b)
	}
	if _, ok := b.Last(); ok {
		t.Fatal("a last pattern before any")
	}
	now = time.Second
	b.Play(buzzer.Beep)
	b.SetMuted(true)
	now = 2 * time.Second
	if err := b.Play(buzzer.Alarm); err != nil || !b.Muted() {
		t.Fatalf("muted play: %v, muted %v", err, b.Muted())
	}
	b.SetMuted(false)
	now = 3 * time.Second
	b.Play(buzzer.DoubleBeep)
	want := []Played{{buzzer.Beep, time.Second}, {buzzer.DoubleBeep, 3 * time.Second}}
	if last, ok := b.Last(); !ok || last != want[1] || b.Plays() != 2 || !slices.Equal(seen, want) {
		t.Fatalf("last %v, %d plays, OnPlay saw %v", last, b.Plays(), seen)
	}
	if err := b.Play(buzzer.Pattern(0)); err == nil || err.Error() != "buzzer: simulated buzzer: unknown pattern 0" {
		t.Fatalf("unknown pattern: %v", err)
	}
	b.Close()
	if err := b.Play(buzzer.Beep); err == nil || err.Error() != "buzzer: simulated buzzer: closed" {
		t.Fatalf("after Close: %v", err)
	}
}

func TestConcurrent(t *testing.T) {
	b := &Buzzer{Name: "sim"}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 100 {
				b.Play(buzzer.Beep)
				b.SetMuted(false)
				b.Last()
			}
		})
	}
	wg.Wait()
	if b.Plays() != 400 {
		t.Errorf("Plays = %d", b.Plays())
	}
}
