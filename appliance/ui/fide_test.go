package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/drivers/button"
	"github.com/zeitnot/zeitnot/drivers/buzzer"
	"github.com/zeitnot/zeitnot/drivers/buzzer/buzzertest"
)

// TestEverySoundSwitchesOff: FIDE's 2026 chapter on equipment with
// electronic components, 3.1.5: "every audible alarm can be switched
// off". A one-minute game with presses, the low-time warning and the
// flag, played with every sound on, then with each switched off alone
// (its sound goes, the others stay), then with Sound off (nothing).
func TestEverySoundSwitchesOff(t *testing.T) {
	play := func(set Settings) []buzzer.Pattern {
		rec := &buzzertest.Recorder{}
		set.Control = "60"
		d := newDriver(t, Opts{Settings: set, Sound: rec})
		d.press(Right)
		d.wait(20 * time.Second)
		d.press(Left)
		d.wait(2 * time.Second)
		d.press(Right)
		d.wait(45 * time.Second)
		if st := d.status(); !st.White.Flag {
			t.Fatalf("no flag: %+v", st)
		}
		return rec.Patterns()
	}
	count := func(ps []buzzer.Pattern, p buzzer.Pattern) int {
		n := 0
		for _, q := range ps {
			if q == p {
				n++
			}
		}
		return n
	}
	all := DefaultSettings
	all.Sound, all.PressBeep, all.FlagAlarm, all.LowTimeMs = true, true, true, 10000
	every := play(all)
	if count(every, buzzer.Beep) != 2 || count(every, buzzer.DoubleBeep) != 1 || count(every, buzzer.Alarm) != 1 {
		t.Fatalf("every sound on: %v, want 2 press beeps (the start is no move), the low-time warning and the flag alarm", every)
	}
	cases := []struct {
		name string
		off  func(*Settings)
		gone buzzer.Pattern
	}{
		{"press beep", func(s *Settings) { s.PressBeep = false }, buzzer.Beep},
		{"low-time warning", func(s *Settings) { s.LowTimeMs = 0 }, buzzer.DoubleBeep},
		{"flag alarm", func(s *Settings) { s.FlagAlarm = false }, buzzer.Alarm},
	}
	var off []string
	for _, tc := range cases {
		s := all
		tc.off(&s)
		got := play(s)
		if count(got, tc.gone) != 0 || len(got) != len(every)-count(every, tc.gone) {
			t.Errorf("%s off: %v, want %v without %v", tc.name, got, every, tc.gone)
		}
		off = append(off, tc.name)
	}
	s := all
	s.Sound = false
	if got := play(s); len(got) != 0 {
		t.Errorf("Sound off: %v, want silence", got)
	}
	t.Logf("figure alarms: %d sounds in a one-minute game with every sound on; each of the %s switched off alone silences it; Sound off: %d",
		len(every), strings.Join(off, ", "), len(play(s)))
}

// TestSimpleManipulations: FIDE's standard for electronic clocks, (k):
// "what is displayed cannot be erased or changed by a simple
// manipulation". On a running clock (Black to move), each press or hold
// of a button a player might make, alone or a few together, leaves the
// game, its control, both move counters and White's time as they were;
// Black's time only runs (never more than the manipulation took), and
// after a resume Black's move is a move as before.
func TestSimpleManipulations(t *testing.T) {
	manips := []struct {
		name string
		do   func(d *driver)
	}{
		{"plus", func(d *driver) { d.press(Plus) }},
		{"minus", func(d *driver) { d.press(Minus) }},
		{"ok", func(d *driver) { d.press(OK) }},
		{"ok held", func(d *driver) { d.hold(OK) }},
		{"plus held", func(d *driver) { d.hold(Plus) }},
		{"minus held", func(d *driver) { d.hold(Minus) }},
		{"pause held", func(d *driver) { d.hold(Pause) }},
		{"pause twice", func(d *driver) { d.press(Pause, Pause) }},
		{"pause, ok", func(d *driver) { d.press(Pause, OK) }},
		{"pause, minus, ok, pause", func(d *driver) { d.press(Pause, Minus, OK, Pause) }},
		{"the waiting side's lever", func(d *driver) { d.press(Left) }},
		{"the waiting side's lever held", func(d *driver) { d.hold(Left) }},
		{"every button at once", func(d *driver) {
			for _, b := range []string{Left, Pause, Plus, Minus, OK} {
				d.ev(b, button.Press)
			}
			d.wait(200 * time.Millisecond)
			for _, b := range []string{Left, Pause, Plus, Minus, OK} {
				d.ev(b, button.Release)
			}
			d.wait(200 * time.Millisecond)
		}},
	}
	for _, m := range manips {
		d := newDriver(t, Opts{})
		d.press(Right)
		d.wait(10 * time.Second)
		d.press(Left)
		d.wait(10 * time.Second)
		before, at := d.status(), d.now
		m.do(d)
		after := d.status()
		if after.Game != before.Game || after.Control != before.Control || !after.Started || after.Stopped {
			t.Errorf("%s: the game changed: %+v", m.name, after)
		}
		if after.White != before.White || after.Black.Moves != before.Black.Moves {
			t.Errorf("%s: white %+v -> %+v, black's moves %d -> %d", m.name, before.White, after.White, before.Black.Moves, after.Black.Moves)
		}
		if ran := before.Black.Ms - after.Black.Ms; ran < 0 || time.Duration(ran)*time.Millisecond > d.now-at {
			t.Errorf("%s: black's time went from %d to %d in %v", m.name, before.Black.Ms, after.Black.Ms, d.now-at)
		}
		// Back to play: pause leaves what the manipulation opened, then
		// resumes.
		for i := 0; i < 3 && d.status().Paused; i++ {
			d.press(Pause)
		}
		d.press(Right)
		if st := d.status(); st.Running != "white" || st.Black.Moves != before.Black.Moves+1 {
			t.Errorf("%s: black's move after it: %+v", m.name, st.StateJSON)
		}
	}
	t.Logf("figure manipulations: %d simple manipulations of a running clock tried (a button pressed or held, pause twice, the waiting side's lever, every button at once): none changed the game, a move counter or a time", len(manips))
}
