// Package config reads and writes the clock's configuration files: the
// club's zeitnot.toml, the device's own settings.toml (both with the schema of
// Config) and the saved presets in presets.toml.
//
// The effective configuration is Defaults, then the club file, then the
// settings file: a key present in a later file overrides the earlier value.
// If the state directory holds a zeitnot.toml (imported from the boot
// partition), it is used instead of /etc/zeitnot/zeitnot.toml.
//
// A bad file never stops the clock: reading never fails as a whole. Each bad
// value is reported as an *Error naming the file, the line and the key, and
// that key keeps the value it had before the file was read; a syntax error
// makes the whole file count as absent.
//
// Settings and presets are written with WriteFileAtomic, so a power cut
// leaves the old file or the new one, never a broken one.
package config

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/preset"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
)

// Default locations and file names.
const (
	DefaultConfigPath = "/etc/zeitnot/zeitnot.toml"
	DefaultStateDir   = "/var/lib/zeitnot"

	// In the state directory:
	ImportedFile     = "zeitnot.toml"      // club config imported from the boot partition
	ImportErrorsFile = "import-errors.txt" // why the last import was refused
	SettingsFile     = "settings.toml"     // what was changed on the device
	PresetsFile      = "presets.toml"      // saved custom controls

	// SimProfile is the hardware profile of the simulator.
	SimProfile = "sim"
)

// Config is the whole configuration. Values of Config are comparable with ==.
type Config struct {
	// Profile is the hardware profile: a built-in profile name, or the path
	// of a profile TOML file (it contains a '/' or ends in ".toml").
	Profile string
	Game    Game
	Display Display
	Sound   Sound
	Lock    Lock
}

// Game is the control the clock offers at power-up.
type Game struct {
	// Control is a preset key (engine/preset) or a time control notation
	// (engine/timecontrol), "WHITE|BLACK" when the players differ.
	Control string
	// The options, when set, override the control's own: a preset's
	// options, or clock.DefaultOptions for a notation.
	FirstIncrement Maybe[bool]
	PeriodTrigger  Maybe[clock.Trigger]
	AfterFlag      Maybe[clock.AfterFlag]
}

// Maybe is a value a file may leave unset.
type Maybe[T comparable] struct {
	Value T
	Set   bool
}

// Some returns a set Maybe.
func Some[T comparable](v T) Maybe[T] { return Maybe[T]{Value: v, Set: true} }

// Display settings, for every display of the profile.
type Display struct {
	// TenthsBelow: tenths of a second are shown when a side has less time
	// than this; 0 never shows them. At most 10 minutes.
	TenthsBelow time.Duration
	// Brightness in percent, 0 (the display's dimmest) to 100.
	Brightness int
	// ShowMoves shows each side's move count.
	ShowMoves bool
	// White is the lever that plays White (FIDE 6.4: the arbiter decides).
	White Lever
}

// Lever is one of the two player buttons, as seen by the arbiter.
type Lever uint8

const (
	Left Lever = iota
	Right
)

func (l Lever) String() string {
	if l == Right {
		return "right"
	}
	return "left"
}

// Sound settings.
type Sound struct {
	// Enabled switches every sound; when false the others are ignored.
	Enabled bool
	// PressBeep beeps on every lever press.
	PressBeep bool
	// LowTimeWarning beeps once when a side's time falls below it; 0 is off.
	LowTimeWarning time.Duration
	// FlagAlarm sounds when a flag falls.
	FlagAlarm bool
}

// Lock is the settings lock, which stops players changing the control.
type Lock struct {
	Locked bool
	// Combination is the menu buttons held together to toggle the lock,
	// joined by '+' in the order pause, plus, minus, ok: e.g. "pause+ok".
	Combination string
}

// Buttons are the menu buttons a lock combination may use, in canonical
// order.
var Buttons = []string{"pause", "plus", "minus", "ok"}

// Defaults returns the built-in configuration with the given hardware
// profile.
func Defaults(profile string) Config {
	return Config{
		Profile: profile,
		Game:    Game{Control: "fide-classical"},
		Display: Display{
			TenthsBelow: 20 * time.Second,
			Brightness:  80,
			ShowMoves:   true,
			White:       Left,
		},
		Sound: Sound{
			Enabled:        true,
			PressBeep:      false,
			LowTimeWarning: 10 * time.Second,
			FlagAlarm:      true,
		},
		Lock: Lock{Combination: "plus+minus"},
	}
}

// Resolve returns the controls and options of g: the preset's or the
// notation's, with the options g sets applied.
func (g Game) Resolve() (timecontrol.Pair, clock.Options, error) {
	opt := clock.DefaultOptions
	var pair timecontrol.Pair
	var err error
	if p, ok := preset.ByKey(g.Control); ok {
		opt = p.Options
		pair, err = p.Controls()
	} else {
		pair, err = timecontrol.ParsePair(g.Control)
	}
	if err != nil {
		return pair, opt, err
	}
	if g.FirstIncrement.Set {
		opt.FirstIncrement = g.FirstIncrement.Value
	}
	if g.PeriodTrigger.Set {
		opt.PeriodTrigger = g.PeriodTrigger.Value
	}
	if g.AfterFlag.Set {
		opt.AfterFlag = g.AfterFlag.Value
	}
	return pair, opt, nil
}

// ClubPath returns the club config file in use: stateDir's imported
// zeitnot.toml if it exists, else configPath.
func ClubPath(configPath, stateDir string) string {
	if stateDir != "" {
		p := filepath.Join(stateDir, ImportedFile)
		if fileExists(p) {
			return p
		}
	}
	return configPath
}

// Layers is the configuration as read from its files.
type Layers struct {
	ClubFile     string // the club config that was read (see ClubPath)
	SettingsFile string // the device's settings file; "" without a state directory
	Club         Config // the defaults, then the club file
	Effective    Config // then the settings file: what the clock uses
}

// LoadLayers reads the club config and the device settings over defaults;
// an empty stateDir means no imported config and no settings.
// Missing files are not errors. It never fails as a whole: the errors are for
// the log and the display.
func LoadLayers(configPath, stateDir string, defaults Config) (Layers, []error) {
	l := Layers{ClubFile: ClubPath(configPath, stateDir)}
	var errs, e []error
	l.Club, errs = Load(l.ClubFile, defaults)
	l.Effective = l.Club
	if stateDir != "" {
		l.SettingsFile = filepath.Join(stateDir, SettingsFile)
		l.Effective, e = Load(l.SettingsFile, l.Club)
	}
	return l, append(errs, e...)
}

// SaveSettings writes the device's settings c to path, atomically. Only the
// keys whose values differ from club are written, so that a later change of
// the club config still takes effect for every key the device leaves as the
// club has it. A game option c leaves unset while club sets it cannot be
// written (the file has no way to unset a key) and keeps the club's value.
func SaveSettings(path string, club, c Config) error {
	data := append([]byte(settingsHeader), FormatDiff(club, c)...)
	return WriteFileAtomic(path, data, 0o644)
}

const settingsHeader = "# Settings changed on this clock. Every key not here comes from the club\n# config (zeitnot.toml), or is the default.\n\n"

// String formats c as TOML.
func (c Config) String() string { return string(Format(c)) }

var _ fmt.Stringer = Config{}
