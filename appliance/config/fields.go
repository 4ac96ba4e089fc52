package config

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/preset"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
)

// field is one key of the schema.
type field struct {
	table string // "" at the top level
	name  string
	// set stores v in c, or returns what was wanted and found without
	// touching c.
	set func(c *Config, v any) error
	// get returns the TOML text of c's value, and false when c leaves the
	// key unset.
	get func(c Config) (string, bool)
}

func (f field) key() string {
	if f.table == "" {
		return f.name
	}
	return f.table + "." + f.name
}

// tables are the schema's tables, in file order.
var tables = []string{"game", "display", "sound", "lock"}

// fields is the schema, in file order: top-level keys first.
var fields = []field{
	{"", "profile", setProfile, func(c Config) (string, bool) { return quote(c.Profile), true }},

	{"game", "control", setControl, func(c Config) (string, bool) { return quote(c.Game.Control), true }},
	{"game", "first_increment",
		func(c *Config, v any) error {
			b, err := wantBool(v)
			if err == nil {
				c.Game.FirstIncrement = Some(b)
			}
			return err
		},
		func(c Config) (string, bool) {
			return strconv.FormatBool(c.Game.FirstIncrement.Value), c.Game.FirstIncrement.Set
		}},
	{"game", "period_trigger",
		func(c *Config, v any) error {
			s, err := wantWord(v, "flag", "moves")
			if err == nil {
				c.Game.PeriodTrigger = Some(map[string]clock.Trigger{"flag": clock.OnFlag, "moves": clock.OnMoves}[s])
			}
			return err
		},
		func(c Config) (string, bool) {
			return quote(clock.Options{PeriodTrigger: c.Game.PeriodTrigger.Value}.Get(clock.OptPeriodTrigger)), c.Game.PeriodTrigger.Set
		}},
	{"game", "after_flag",
		func(c *Config, v any) error {
			s, err := wantWord(v, "freeze", "continue")
			if err == nil {
				c.Game.AfterFlag = Some(map[string]clock.AfterFlag{"freeze": clock.Freeze, "continue": clock.Continue}[s])
			}
			return err
		},
		func(c Config) (string, bool) {
			return quote(clock.Options{AfterFlag: c.Game.AfterFlag.Value}.Get(clock.OptAfterFlag)), c.Game.AfterFlag.Set
		}},

	{"display", "tenths_below",
		func(c *Config, v any) error {
			d, err := wantDuration(v, "20s", false)
			if err == nil {
				c.Display.TenthsBelow = d
			}
			return err
		},
		func(c Config) (string, bool) { return quote(c.Display.TenthsBelow.String()), true }},
	{"display", "brightness",
		func(c *Config, v any) error {
			n, ok := v.(int64)
			if !ok || n < 0 || n > 100 {
				return want("a whole number from 0 to 100", v)
			}
			c.Display.Brightness = int(n)
			return nil
		},
		func(c Config) (string, bool) { return strconv.Itoa(c.Display.Brightness), true }},
	{"display", "show_moves", boolField(func(c *Config) *bool { return &c.Display.ShowMoves }),
		func(c Config) (string, bool) { return strconv.FormatBool(c.Display.ShowMoves), true }},
	{"display", "white",
		func(c *Config, v any) error {
			s, err := wantWord(v, "left", "right")
			if err == nil {
				c.Display.White = map[string]Lever{"left": Left, "right": Right}[s]
			}
			return err
		},
		func(c Config) (string, bool) { return quote(c.Display.White.String()), true }},

	{"sound", "enabled", boolField(func(c *Config) *bool { return &c.Sound.Enabled }),
		func(c Config) (string, bool) { return strconv.FormatBool(c.Sound.Enabled), true }},
	{"sound", "press_beep", boolField(func(c *Config) *bool { return &c.Sound.PressBeep }),
		func(c Config) (string, bool) { return strconv.FormatBool(c.Sound.PressBeep), true }},
	{"sound", "low_time_warning",
		func(c *Config, v any) error {
			d, err := wantDuration(v, "10s", true)
			if err == nil {
				c.Sound.LowTimeWarning = d
			}
			return err
		},
		func(c Config) (string, bool) {
			if c.Sound.LowTimeWarning == 0 {
				return quote("off"), true
			}
			return quote(c.Sound.LowTimeWarning.String()), true
		}},
	{"sound", "flag_alarm", boolField(func(c *Config) *bool { return &c.Sound.FlagAlarm }),
		func(c Config) (string, bool) { return strconv.FormatBool(c.Sound.FlagAlarm), true }},

	{"lock", "locked", boolField(func(c *Config) *bool { return &c.Lock.Locked }),
		func(c Config) (string, bool) { return strconv.FormatBool(c.Lock.Locked), true }},
	{"lock", "combination",
		func(c *Config, v any) error {
			s, ok := v.(string)
			combo, err := ParseCombination(s)
			if !ok || err != nil {
				return want(`two or more of pause, plus, minus, ok joined by '+', like "plus+minus"`, v)
			}
			c.Lock.Combination = combo
			return nil
		},
		func(c Config) (string, bool) { return quote(c.Lock.Combination), true }},
}

// maxDuration bounds the duration settings.
const maxDuration = 10 * time.Minute

// wantError is what a key wanted and what it got.
type wantError struct{ msg string }

func (e *wantError) Error() string { return e.msg }

func want(what string, got any) error {
	return &wantError{"want " + what + ", got " + describe(got)}
}

// describe names a decoded TOML value for an error message.
func describe(v any) string {
	switch v := v.(type) {
	case string:
		r := []rune(v)
		if len(r) > 40 {
			return strconv.Quote(string(r[:40])) + "..."
		}
		return strconv.Quote(v)
	case bool, int64, float64:
		return fmt.Sprint(v)
	case map[string]any:
		return "a table"
	case []map[string]any, []any:
		return "an array"
	case time.Time:
		return "a date"
	}
	return fmt.Sprintf("a value of type %T", v)
}

func boolField(p func(c *Config) *bool) func(c *Config, v any) error {
	return func(c *Config, v any) error {
		b, err := wantBool(v)
		if err == nil {
			*p(c) = b
		}
		return err
	}
}

func wantBool(v any) (bool, error) {
	if b, ok := v.(bool); ok {
		return b, nil
	}
	return false, want("true or false", v)
}

// wantWord wants one of the words, as a string.
func wantWord(v any, words ...string) (string, error) {
	if s, ok := v.(string); ok {
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
func wantDuration(v any, example string, off bool) (time.Duration, error) {
	what := fmt.Sprintf("a duration like %q", example)
	if off {
		what += ` or "off"`
	}
	switch s := v.(type) {
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
	case int64, float64:
		what += " (in quotes)"
	}
	return 0, want(what, v)
}

func setProfile(c *Config, v any) error {
	s, ok := v.(string)
	if !ok || !validProfile(s) {
		return want(`a built-in profile name like "sim" or the path of a profile file`, v)
	}
	c.Profile = s
	return nil
}

// validProfile: a name of letters, digits, '-', '_' and '.', or a path
// (with a '/' or ending in ".toml") without control characters.
func validProfile(s string) bool {
	if s == "" || len(s) > 4096 {
		return false
	}
	if strings.Contains(s, "/") || strings.HasSuffix(s, ".toml") {
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
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isBare(c) && c != '.' {
			return false
		}
	}
	return true
}

func setControl(c *Config, v any) error {
	const what = `a preset key like "fide-rapid-15" or a notation like "40/5400+30:1800+30"`
	s, ok := v.(string)
	if !ok {
		return want(what, v)
	}
	if err := CheckControl(s); err != nil {
		return &wantError{want(what, v).Error() + " (" + err.Error() + ")"}
	}
	c.Game.Control = s
	return nil
}

// CheckControl reports whether s is a preset key or a valid notation, and if
// not, why not in a few words.
func CheckControl(s string) error {
	if _, ok := preset.ByKey(s); ok {
		return nil
	}
	_, err := timecontrol.ParsePair(s)
	if err == nil {
		return nil
	}
	if looksLikeKey(s) {
		if k := nearest(s, presetKeys()); k != "" {
			return fmt.Errorf("did you mean %q?", k)
		}
		return errors.New("no such preset")
	}
	return notationError(err)
}

// notationError shortens a notation error to its column and message.
func notationError(err error) error {
	var se *timecontrol.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("column %d: %s", se.Column, se.Msg)
	}
	return err
}

// looksLikeKey: a word starting with a letter, as preset keys do and
// notations do not.
func looksLikeKey(s string) bool {
	if s == "" || !(s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z') {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isBare(c) {
			return false
		}
	}
	return true
}

func presetKeys() []string {
	keys := make([]string, len(preset.All))
	for i, p := range preset.All {
		keys[i] = p.Key
	}
	return keys
}

// ParseCombination reads a lock combination: two or more distinct menu
// buttons joined by '+', in any order and case, with optional spaces. It
// returns the canonical form.
func ParseCombination(s string) (string, error) {
	held := map[string]bool{}
	parts := strings.Split(s, "+")
	for _, p := range parts {
		p = strings.ToLower(strings.TrimSpace(p))
		known := false
		for _, b := range Buttons {
			known = known || p == b
		}
		if !known || held[p] {
			return "", fmt.Errorf("lock combination %q: want two or more of %s joined by '+'", s, strings.Join(Buttons, ", "))
		}
		held[p] = true
	}
	if len(held) < 2 {
		return "", fmt.Errorf("lock combination %q: want two or more buttons", s)
	}
	var out []string
	for _, b := range Buttons {
		if held[b] {
			out = append(out, b)
		}
	}
	return strings.Join(out, "+"), nil
}

// nearest returns the candidate closest to s, if it is close enough to be
// a likely typing slip.
func nearest(s string, candidates []string) string {
	best, bestD := "", 3
	if len(s) <= 4 {
		bestD = 2
	}
	for _, c := range candidates {
		if d := distance(s, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// distance is the Levenshtein distance between a and b, in bytes.
func distance(a, b string) int {
	if len(a) > 200 || len(b) > 200 {
		return 1 << 30
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
