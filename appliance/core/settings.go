package core

import (
	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/preset"
)

// Settings is everything the menu can change on the device.
type Settings struct {
	Control     string        // last used control: a preset key or a notation
	Options     clock.Options // its options (a preset's own, or as set)
	TenthsBelow int64         // ms; show tenths below this
	Brightness  int           // percent, 0 to 100
	ShowMoves   bool
	WhiteLeft   bool // the left lever plays White
	Sound       bool // master switch
	PressBeep   bool
	LowTimeMs   int64 // warn once when a side goes below this; 0: off
	FlagAlarm   bool
	Locked      bool     // the settings lock: no menu, no corrections
	LockCombo   []string // buttons held together to lock and unlock
}

// DefaultSettings are what a clock fresh from the image uses.
var DefaultSettings = Settings{
	Control:     "fide-classical",
	Options:     clock.DefaultOptions,
	TenthsBelow: 20000,
	Brightness:  80,
	ShowMoves:   true,
	WhiteLeft:   true,
	Sound:       true,
	PressBeep:   false,
	LowTimeMs:   10000,
	FlagAlarm:   true,
	LockCombo:   []string{Plus, Minus},
}

// Store keeps settings and saved presets across restarts. The daemon's
// implementation writes files atomically; tests use a memory store.
type Store interface {
	SaveSettings(Settings) error
	SavePresets([]preset.Preset) error
}

// MemStore is a Store in memory.
type MemStore struct {
	Settings Settings
	Presets  []preset.Preset
	Saves    int
}

// SaveSettings records s.
func (m *MemStore) SaveSettings(s Settings) error { m.Settings = s; m.Saves++; return nil }

// SavePresets records p.
func (m *MemStore) SavePresets(p []preset.Preset) error {
	m.Presets = append([]preset.Preset(nil), p...)
	m.Saves++
	return nil
}
