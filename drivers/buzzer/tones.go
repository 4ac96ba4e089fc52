package buzzer

import "time"

// tones is the one table of what each pattern sounds like.
var tones = [...][]Tone{
	Beep: {{On: 60 * time.Millisecond}},
	DoubleBeep: {
		{On: 80 * time.Millisecond, Off: 80 * time.Millisecond},
		{On: 80 * time.Millisecond},
	},
	Alarm: {
		{On: 300 * time.Millisecond, Off: 150 * time.Millisecond},
		{On: 300 * time.Millisecond, Off: 150 * time.Millisecond},
		{On: 300 * time.Millisecond, Off: 150 * time.Millisecond},
		{On: 900 * time.Millisecond},
	},
}

// Tones returns the steps of p, or nil if p is not a known pattern. The
// slice is a copy.
func (p Pattern) Tones() []Tone {
	if int(p) >= len(tones) {
		return nil
	}
	return append([]Tone(nil), tones[p]...)
}

// Duration is how long p sounds, from the first tone on to the last off.
func (p Pattern) Duration() time.Duration {
	var d time.Duration
	if int(p) < len(tones) {
		for _, t := range tones[p] {
			d += t.On + t.Off
		}
	}
	return d
}
