// Package config reads and writes the clock's configuration files: the
// club's zeitnot.toml, the device's own settings.toml (both hold Settings)
// and the saved presets in presets.toml; and it resolves control keys
// (Presets.Resolve).
//
// The effective configuration is Defaults, then the club file, then the
// settings file: a key present in a later file overrides the earlier value.
// If the state directory holds a zeitnot.toml (imported from the boot
// partition), it is used instead of /etc/zeitnot/zeitnot.toml.
//
// A bad file never stops the clock: reading never fails as a whole. Each bad
// value is reported as an *Error naming the file, the line and the key, and
// that key keeps the value it had before the file was read; a file that is
// not TOML (a syntax error, a key or table defined twice) counts as absent.
// Files are read with internal/regfile: regular files only, bounded, never
// blocking.
//
// Settings and presets are written with atomicfile.WriteFile, so a power cut
// leaves the old file or the new one, never a broken one.
package config

import (
	"errors"
	"fmt"
	"github.com/zeitnot/zeitnot/appliance/speech"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/internal/atomicfile"
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

// Settings is the whole configuration of a clock: what the config files
// say, what the menu changes and saves, what the daemon and `zeitnot config
// show` use. The file keys are in the README; Defaults gives the built-in
// values. Values of Settings are comparable with ==.
type Settings struct {
	// Profile is the hardware profile: a built-in profile name, or the path
	// of a profile TOML file (it contains a '/' or ends in ".toml").
	Profile string

	// Control is the control the clock offers at power-up: a control key,
	// which Presets.Resolve knows (a preset's key or a notation).
	Control string
	// Options are the control's options: its own (a preset's, or
	// clock.DefaultOptions for a notation), then those the files set.
	Options clock.Options

	// TenthsBelow, in ms: tenths of a second are shown when a side has less
	// time than this; 0 never shows them. At most 10 minutes.
	TenthsBelow int64
	// Brightness in percent, 0 (the display's dimmest) to 100.
	Brightness int
	// ShowMoves shows each side's move count.
	ShowMoves bool
	// WhiteLeft: the left lever plays White (FIDE 6.4: the arbiter decides).
	WhiteLeft bool

	// Sound switches every sound; when false the others are silent.
	Sound bool
	// PressBeep beeps on every lever press.
	PressBeep bool
	// LowTimeMs: one beep when a side's time falls below this many ms; 0 is
	// off. At most 10 minutes.
	LowTimeMs int64
	// FlagAlarm sounds when a flag falls.
	FlagAlarm bool

	// SpeechLeft and SpeechRight are the languages the left and the
	// right player's earphones speak (speech.Off: none), the spoken clock
	// of FIDE Appendix D.2.6.1; a build speaks on a side only if it has
	// that side's announce button.
	SpeechLeft, SpeechRight speech.Lang
	// SpokenMenu speaks every menu page, on the side that switched it on
	// (holding an announce button switches it, too, for that side).
	SpokenMenu bool
	// SpeechWPM is how fast speech is, in words a minute.
	SpeechWPM int

	// Locked is the settings lock: no menu, no corrections, no new game,
	// no import from a stick, without the arbiter's PIN. It needs PINHash.
	Locked bool
	// PINHash is the arbiter's PIN as HashPIN gives it ("" for none): the
	// PIN itself is never kept, shown or written (pin.go).
	PINHash string
}

// Defaults returns the built-in settings with the given hardware profile.
func Defaults(profile string) Settings {
	return Settings{
		Profile:     profile,
		Control:     "fide-classical",
		Options:     clock.DefaultOptions, // fide-classical's own
		TenthsBelow: 20000,
		Brightness:  80,
		ShowMoves:   true,
		WhiteLeft:   true,
		Sound:       true,
		PressBeep:   false,
		LowTimeMs:   10000,
		FlagAlarm:   true,
		SpeechLeft:  speech.English,
		SpeechRight: speech.English,
		SpeechWPM:   340,
		Locked:      false,
	}
}

// ClubPath returns the club config file in use: stateDir's imported
// zeitnot.toml unless it does not exist, else configPath. A state directory
// that cannot be looked into (no permission, not a directory) gives the
// imported file's path, so that reading it reports why, instead of the
// club's older config being used without a word.
func ClubPath(configPath, stateDir string) string {
	if stateDir != "" {
		p := filepath.Join(stateDir, ImportedFile)
		if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
			return p
		}
	}
	return configPath
}

// Layers is the configuration as read from its files.
type Layers struct {
	ClubFile     string   // the club config that was read (see ClubPath)
	SettingsFile string   // the device's settings file; "" without a state directory
	PresetsFile  string   // the device's saved presets; "" without a state directory
	Presets      Presets  // the saved presets
	Club         Settings // the defaults, then the club file
	Effective    Settings // then the settings file: what the clock uses
}

// LoadLayers reads the saved presets, the club config and the device
// settings over defaults; an empty stateDir means no imported config, no
// settings and no saved presets. Missing files are not errors. It never
// fails as a whole: the errors are for the log and the display.
func LoadLayers(configPath, stateDir string, defaults Settings) (Layers, []error) {
	l := Layers{ClubFile: ClubPath(configPath, stateDir)}
	var errs, perrs, serrs []error
	if stateDir != "" {
		l.PresetsFile = filepath.Join(stateDir, PresetsFile)
		l.Presets, perrs = LoadPresets(l.PresetsFile)
	}
	owned := stateDir != "" && l.ClubFile == filepath.Join(stateDir, ImportedFile)
	l.Club, errs = load(l.ClubFile, defaults, l.Presets, owned)
	l.Effective = l.Club
	if stateDir != "" {
		l.SettingsFile = filepath.Join(stateDir, SettingsFile)
		l.Effective, serrs = load(l.SettingsFile, l.Club, l.Presets, true)
	}
	return l, slices.Concat(errs, serrs, perrs)
}

// SaveSettings writes the device's settings s to path, atomically. Only
// the keys whose values differ from club are written (see FormatDiff), so
// that a later change of the club config still takes effect for every key
// the device leaves as the club has it.
func SaveSettings(path string, club, s Settings) error {
	data := append([]byte(settingsHeader), FormatDiff(club, s)...)
	return atomicfile.WriteFile(path, data, 0o644)
}

const settingsHeader = "# Settings changed on this clock. Every key not here comes from the club\n# config (zeitnot.toml), or is the default.\n\n"

// String formats s as TOML.
func (s Settings) String() string { return string(Format(s)) }

var _ fmt.Stringer = Settings{}
