package ui

import (
	"strings"
	"testing"
	"time"

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
