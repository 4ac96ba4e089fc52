package config

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/internal/tomldoc"
)

// field is one key of the schema.
type field struct {
	table string // "" at the top level
	name  string
	// set stores v in s, or returns what was wanted and found without
	// touching s. saved are the saved presets, for control keys.
	set func(s *Settings, v *tomldoc.Value, saved Presets) error
	// get returns the TOML text of s's value.
	get func(s Settings) string
}

func (f field) key() string {
	if f.table == "" {
		return f.name
	}
	return f.table + "." + f.name
}

// tables are the schema's tables, in file order.
var tables = []string{"game", "display", "sound", "lock"}

// otherTables are tables of zeitnot.toml that other programs read and the
// daemon leaves alone: [hall] is zeitnot link's (appliance/link), [network]
// zeitnot network's (appliance/network), [eboard] zeitnot eboard's
// (appliance/eboard/settings); each checks its own.
var otherTables = []string{"hall", "network", "eboard"}

// fields is the schema, in file order: top-level keys first. Parse applies
// a file's keys in this order, so a control comes before its options.
var fields = []field{
	{"", "profile", setProfile, func(s Settings) string { return quote(s.Profile) }},

	{"game", "control", setControl, func(s Settings) string { return quote(s.Control) }},
	{"game", "first_increment",
		func(s *Settings, v *tomldoc.Value, _ Presets) error {
			b, err := wantBool(v)
			if err == nil {
				s.Options.FirstIncrement = b
			}
			return err
		},
		func(s Settings) string { return strconv.FormatBool(s.Options.FirstIncrement) }},
	// The option enums are written as clock.Options names their values
	// (Options.Get, and Set through setOption): here and in setOption, the
	// one place that turns them into text and back (presets.toml too).
	{"game", "period_trigger",
		func(s *Settings, v *tomldoc.Value, _ Presets) error {
			return setOption(&s.Options, clock.OptPeriodTrigger, v)
		},
		func(s Settings) string { return quote(s.Options.Get(clock.OptPeriodTrigger)) }},
	{"game", "after_flag",
		func(s *Settings, v *tomldoc.Value, _ Presets) error {
			return setOption(&s.Options, clock.OptAfterFlag, v)
		},
		func(s Settings) string { return quote(s.Options.Get(clock.OptAfterFlag)) }},

	{"display", "tenths_below",
		func(s *Settings, v *tomldoc.Value, _ Presets) error {
			d, err := wantDuration(v, "20s", false)
			if err == nil {
				s.TenthsBelow = d.Milliseconds()
			}
			return err
		},
		func(s Settings) string { return quote(msDuration(s.TenthsBelow).String()) }},
	{"display", "brightness",
		func(s *Settings, v *tomldoc.Value, _ Presets) error {
			n, ok := v.V.(int64)
			if !ok || n < 0 || n > 100 {
				return want("a whole number from 0 to 100", v)
			}
			s.Brightness = int(n)
			return nil
		},
		func(s Settings) string { return strconv.Itoa(s.Brightness) }},
	{"display", "show_moves", boolField(func(s *Settings) *bool { return &s.ShowMoves }),
		func(s Settings) string { return strconv.FormatBool(s.ShowMoves) }},
	{"display", "white",
		func(s *Settings, v *tomldoc.Value, _ Presets) error {
			w, err := wantWord(v, "left", "right")
			if err == nil {
				s.WhiteLeft = w == "left"
			}
			return err
		},
		func(s Settings) string {
			if s.WhiteLeft {
				return quote("left")
			}
			return quote("right")
		}},

	{"sound", "enabled", boolField(func(s *Settings) *bool { return &s.Sound }),
		func(s Settings) string { return strconv.FormatBool(s.Sound) }},
	{"sound", "press_beep", boolField(func(s *Settings) *bool { return &s.PressBeep }),
		func(s Settings) string { return strconv.FormatBool(s.PressBeep) }},
	{"sound", "low_time_warning",
		func(s *Settings, v *tomldoc.Value, _ Presets) error {
			d, err := wantDuration(v, "10s", true)
			if err == nil {
				s.LowTimeMs = d.Milliseconds()
			}
			return err
		},
		func(s Settings) string {
			if s.LowTimeMs == 0 {
				return quote("off")
			}
			return quote(msDuration(s.LowTimeMs).String())
		}},
	{"sound", "flag_alarm", boolField(func(s *Settings) *bool { return &s.FlagAlarm }),
		func(s Settings) string { return strconv.FormatBool(s.FlagAlarm) }},

	{"lock", "locked", boolField(func(s *Settings) *bool { return &s.Locked }),
		func(s Settings) string { return strconv.FormatBool(s.Locked) }},
	// The PIN comes in clear (pin) or hashed (pin_hash); it is written
	// back hashed only (pin.go). Neither is ever shown.
	{"lock", "pin",
		func(s *Settings, v *tomldoc.Value, _ Presets) error {
			str, ok := v.V.(string)
			if !ok || CheckPIN(str) != nil {
				return &wantError{fmt.Sprintf("want %d digits in quotes, like \"0000\" (the value is not shown)", PINLen)}
			}
			s.PINHash = HashPIN(str)
			return nil
		},
		nil},
	{"lock", "pin_hash",
		func(s *Settings, v *tomldoc.Value, _ Presets) error {
			str, ok := v.V.(string)
			if !ok || !validPINHash(str) {
				return &wantError{`want "sha256:" and 64 hex digits, as the clock writes it, or "" for no PIN (the value is not shown)`}
			}
			s.PINHash = str
			return nil
		},
		func(s Settings) string { return quote(s.PINHash) }},
}

func msDuration(ms int64) time.Duration { return time.Duration(ms) * time.Millisecond }

// maxDuration bounds the duration settings.
const maxDuration = 10 * time.Minute

// wantError is what a key wanted and what it got.
type wantError struct{ msg string }

func (e *wantError) Error() string { return e.msg }

func want(what string, got *tomldoc.Value) error {
	return &wantError{"want " + what + ", got " + describe(got)}
}

// describe names a value for an error message: as written, for scalars.
func describe(v *tomldoc.Value) string {
	if v.Err != nil {
		return v.Raw
	}
	switch v.Kind {
	case tomldoc.String:
		r := []rune(v.V.(string))
		if len(r) > 40 {
			return strconv.Quote(string(r[:40])) + "..."
		}
		return strconv.Quote(string(r))
	case tomldoc.Integer, tomldoc.Float, tomldoc.Bool:
		return v.Raw
	case tomldoc.Table:
		return "a table"
	case tomldoc.Array:
		return "an array"
	case tomldoc.Datetime:
		return "a date or time"
	}
	return "a value"
}

func boolField(p func(s *Settings) *bool) func(s *Settings, v *tomldoc.Value, _ Presets) error {
	return func(s *Settings, v *tomldoc.Value, _ Presets) error {
		b, err := wantBool(v)
		if err == nil {
			*p(s) = b
		}
		return err
	}
}

func wantBool(v *tomldoc.Value) (bool, error) {
	if b, ok := v.V.(bool); ok {
		return b, nil
	}
	return false, want("true or false", v)
}

// setOption sets the option of clock.Options named name (OptPeriodTrigger,
// OptAfterFlag) to the word v. The words listed are those Options.Set
// takes, for the message when v is none of them. When clock.Trigger and
// clock.AfterFlag marshal themselves as text, setOption and the get
// functions of the two keys in fields are the one place to use that.
func setOption(o *clock.Options, name string, v *tomldoc.Value) error {
	words := map[string][]string{clock.OptPeriodTrigger: {"flag", "moves"}, clock.OptAfterFlag: {"freeze", "continue"}}[name]
	w, err := wantWord(v, words...)
	if err == nil {
		err = o.Set(name, w)
	}
	return err
}

// wantWord wants one of the words, as a string.
func wantWord(v *tomldoc.Value, words ...string) (string, error) {
	if s, ok := v.V.(string); ok {
		for _, w := range words {
			if s == w {
				return s, nil
			}
		}
	}
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = strconv.Quote(w)
	}
	return "", want(strings.Join(q[:len(q)-1], ", ")+" or "+q[len(q)-1], v)
}

// wantDuration wants a duration string from 0 to maxDuration; with off,
// "off" and false are 0 too.
func wantDuration(v *tomldoc.Value, example string, off bool) (time.Duration, error) {
	what := fmt.Sprintf("a duration like %q", example)
	if off {
		what += ` or "off"`
	}
	switch s := v.V.(type) {
	case string:
		if off && s == "off" {
			return 0, nil
		}
		d, err := time.ParseDuration(s)
		if err != nil {
			return 0, want(what, v)
		}
		if d < 0 || d > maxDuration {
			return 0, want(fmt.Sprintf("a duration from %q to %q", "0s", "10m"), v)
		}
		return d, nil
	case bool:
		if off && !s {
			return 0, nil
		}
	}
	if v.Kind == tomldoc.Integer || v.Kind == tomldoc.Float {
		what += " (in quotes)"
	}
	return 0, want(what, v)
}

func setProfile(s *Settings, v *tomldoc.Value, _ Presets) error {
	str, ok := v.V.(string)
	if !ok || !validProfile(str) {
		return want(`a built-in profile name like "sim" or the path of a profile file`, v)
	}
	s.Profile = str
	return nil
}

// isProfilePath reports whether a valid profile names a file rather than
// a built-in profile.
func isProfilePath(s string) bool { return strings.Contains(s, "/") || strings.HasSuffix(s, ".toml") }

// validProfile: a name of letters, digits, '-', '_' and '.', or a path
// (with a '/' or ending in ".toml") without control characters.
func validProfile(s string) bool {
	if s == "" || len(s) > 4096 {
		return false
	}
	if isProfilePath(s) {
		for _, r := range s {
			if r < 0x20 || r == 0x7f {
				return false
			}
		}
		return true
	}
	if len(s) > 64 {
		return false
	}
	return bare(strings.ReplaceAll(s, ".", "_"))
}

// bare reports whether s is a bare TOML key: letters, digits, '-' and '_'.
func bare(s string) bool { return tomldoc.IsBare(s) }

func setControl(s *Settings, v *tomldoc.Value, saved Presets) error {
	const what = `a preset key like "fide-rapid-15" or a notation like "40/5400+30:1800+30"`
	str, ok := v.V.(string)
	if !ok {
		return want(what, v)
	}
	ctl, err := saved.Resolve(str)
	if err != nil {
		return &wantError{want(what, v).Error() + " (" + err.Error() + ")"}
	}
	s.Control, s.Options = str, ctl.Options
	return nil
}
