package buzzer

import "time"

// Pattern names a sound.
type Pattern uint8

const (
	Beep       Pattern = iota + 1 // one short beep (a press)
	DoubleBeep                    // two short beeps (low time)
	Alarm                         // a long alarm (a flag)
)

func (p Pattern) String() string {
	switch p {
	case Beep:
		return "beep"
	case DoubleBeep:
		return "double-beep"
	case Alarm:
		return "alarm"
	}
	return "unknown"
}

// Tone is one step of a pattern: sound for On, then silence for Off.
type Tone struct {
	On, Off time.Duration
}

// Buzzer plays patterns.
type Buzzer interface {
	// String names the device, e.g. "active buzzer on GPIO18".
	String() string
	// Play starts p and returns at once. A pattern already playing is cut
	// short. Play on a muted buzzer does nothing.
	Play(p Pattern) error
	// SetMuted switches all sound off or back on.
	SetMuted(muted bool)
	// Close silences the buzzer and releases it.
	Close() error
}
