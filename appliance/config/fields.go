package config

import (
	"errors"
	"fmt"
	"github.com/zeitnot/zeitnot/appliance/speech"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/internal/tomldoc"
)

// field is one key of the schema: a key of a table of tomldoc's Schema,
// and how Format writes it back.
type field struct {
	table string // "" at the top level
	tomldoc.Field[reading]
	// get returns the TOML text of s's value; nil for a key read, never
	// written (pin: pin_hash is).
	get func(s Settings) string
}

// reading is what the schema reads a file into: the settings, and the
// saved presets a control may name.
type reading struct {
	Settings
	saved Presets
}

func (f field) key() string {
	if f.table == "" {
		return f.Key
	}
	return f.table + "." + f.Key
}

// tables are the schema's tables, in file order, with what each is for.
var tables = []struct{ name, doc string }{
	{"game", "the control offered at power-up"},
	{"display", ""},
	{"sound", ""},
	{"speech", "the spoken clock (FIDE Appendix D.2.6.1): each player's announce button speaks their time and moves into their earphone"},
	{"lock", "the settings lock: keeps players out of the menus, the corrections, a new game (after a flag too) and a USB stick's config"},
}

// otherTables are tables of zeitnot.toml that other programs read and the
// daemon leaves alone: [hall] is zeitnot link's (appliance/link), [network]
// zeitnot network's (appliance/network), [eboard] zeitnot eboard's
// (appliance/eboard/settings); each checks its own.
var otherTables = []string{"hall", "network", "eboard"}

func boolKey(table, name string, p func(s *Settings) *bool, doc, def string) field {
	return field{table, tomldoc.BoolField(name, func(r *reading, b bool) { *p(&r.Settings) = b }).Documented(doc, def),
		func(s Settings) string { return strconv.FormatBool(*p(&s)) }}
}

// langKey is a side's language of the spoken clock.
func langKey(side string, p func(s *Settings) *speech.Lang) field {
	var words []string
	for _, l := range append(speech.Langs, speech.Off) {
		words = append(words, string(l))
	}
	return field{"speech", tomldoc.WordField(side, words, func(r *reading, w string) { *p(&r.Settings) = speech.Lang(w) }).Documented(
		"the language the "+side+" player's earphone speaks: `\"en\"`, `\"de\"`, `\"es\"`, `\"fr\"`, or `\"off\"`", "`\"en\"`"),
		func(s Settings) string { return quote(string(*p(&s))) }}
}

// fields is the schema, in file order: top-level keys first. Parse applies
// a file's keys in this order, so a control comes before its options. The
// documentation of each is the README's row for it (TestDocs).
var fields = []field{
	{"", tomldoc.CustomField("profile", profileWant, setProfile).Documented(
		"hardware profile: a built-in profile name (letters, digits, `-`, `_`, `.`), or the absolute path of a profile TOML file (contains a `/` or ends in `.toml`; a relative or unclean path, a missing file, a named pipe, a device or a file that is not a profile is refused at check, import and start)",
		"`\"sim\"` for the simulator; the daemon passes its own to `Defaults`"),
		func(s Settings) string { return quote(s.Profile) }},

	{"game", tomldoc.CustomField("control", controlWant, setControl).Documented(
		"a control key: a preset key (table below), the key of a saved preset (`presets.toml`, below), or a time control notation (`engine/timecontrol`): `\"40/5400+30:1800+30\"`, `\"300+2\"`, `\"5400d5\"`, `\"*60\"`, or `\"WHITE\\|BLACK\"` such as `\"300\\|240\"`. Never a preset's name",
		"`\"fide-classical\"`"),
		func(s Settings) string { return quote(s.Control) }},
	boolKey("game", "first_increment", func(s *Settings) *bool { return &s.Options.FirstIncrement },
		"`true`: the first period's increment is added before move 1, as FIDE arbiters set clocks", "the control's own (`true`)"),
	// The option enums are written as clock.Options names their values
	// (Options.Get, and Set through setOption): here and in setOption, the
	// one place that turns them into text and back (presets.toml too).
	{"game", optionField("period_trigger", clock.OptPeriodTrigger, func(r *reading) *clock.Options { return &r.Options }).Documented(
		"`\"flag\"`: the next period's time is added when a period's time runs out; `\"moves\"`: when the move quota is completed", "the control's own (`\"flag\"`)"),
		func(s Settings) string { return quote(s.Options.Get(clock.OptPeriodTrigger)) }},
	{"game", optionField("after_flag", clock.OptAfterFlag, func(r *reading) *clock.Options { return &r.Options }).Documented(
		"`\"freeze\"`: both clocks stop at a flag; `\"continue\"`: play goes on", "the control's own (`\"freeze\"`; `\"continue\"` for blitz and online presets)"),
		func(s Settings) string { return quote(s.Options.Get(clock.OptAfterFlag)) }},

	{"display", durationField("tenths_below", "20s", false, func(s *Settings) *int64 { return &s.TenthsBelow }).Documented(
		"tenths of a second are shown below this time; a duration `\"0s\"` (never) to `\"10m\"`", "`\"20s\"`"),
		func(s Settings) string { return quote(msDuration(s.TenthsBelow).String()) }},
	{"display", tomldoc.IntField("brightness", 0, 100, func(r *reading, n int64) { r.Brightness = int(n) }).Documented(
		"whole number, percent, 0 (the display's dimmest, not off) to 100", "`80`"),
		func(s Settings) string { return strconv.Itoa(s.Brightness) }},
	boolKey("display", "show_moves", func(s *Settings) *bool { return &s.ShowMoves }, "`true` shows each side's move count", "`true`"),
	{"display", tomldoc.WordField("white", []string{"left", "right"}, func(r *reading, w string) { r.WhiteLeft = w == "left" }).Documented(
		"the lever that plays White, `\"left\"` or `\"right\"` (FIDE 6.4: the arbiter decides where the clock stands)", "`\"left\"`"),
		func(s Settings) string {
			if s.WhiteLeft {
				return quote("left")
			}
			return quote("right")
		}},

	boolKey("sound", "enabled", func(s *Settings) *bool { return &s.Sound }, "`false` silences every sound", "`true`"),
	boolKey("sound", "press_beep", func(s *Settings) *bool { return &s.PressBeep }, "a short beep on every lever press", "`false`"),
	{"sound", durationField("low_time_warning", "10s", true, func(s *Settings) *int64 { return &s.LowTimeMs }).Documented(
		"one beep when a side's time falls below this; a duration up to `\"10m\"`, or `\"off\"` (or `false`)", "`\"10s\"`"),
		func(s Settings) string {
			if s.LowTimeMs == 0 {
				return quote("off")
			}
			return quote(msDuration(s.LowTimeMs).String())
		}},
	boolKey("sound", "flag_alarm", func(s *Settings) *bool { return &s.FlagAlarm }, "a sound when a flag falls", "`true`"),

	langKey("left", func(s *Settings) *speech.Lang { return &s.SpeechLeft }),
	langKey("right", func(s *Settings) *speech.Lang { return &s.SpeechRight }),
	boolKey("speech", "spoken_menu", func(s *Settings) *bool { return &s.SpokenMenu },
		"`true` speaks every menu page into the left player's earphone (hold an announce button to switch it for that side)", "`false`"),
	{"speech", tomldoc.IntField("words_per_minute", 80, 500, func(r *reading, n int64) { r.SpeechWPM = int(n) }).Documented(
		"how fast the clock speaks, 80 to 500 words a minute", "`340`"),
		func(s Settings) string { return strconv.Itoa(s.SpeechWPM) }},

	boolKey("lock", "locked", func(s *Settings) *bool { return &s.Locked },
		"the lock is on; it needs a PIN (`pin` or `pin_hash`, here or in the club config). It survives restarts: the clock keeps it, with its PIN's hash, in `settings.toml`", "`false`"),
	// The PIN comes in clear (pin) or hashed (pin_hash); it is written
	// back hashed only (pin.go). Neither is ever shown.
	{"lock", tomldoc.CustomField("pin", "the PIN", func(r *reading, v *tomldoc.Value) error {
		str, ok := v.V.(string)
		if !ok || CheckPIN(str) != nil {
			return fmt.Errorf("want %d digits in quotes, like \"0000\" (the value is not shown)", PINLen)
		}
		r.PINHash = HashPIN(str)
		return nil
	}).Documented("the arbiter's PIN: 4 digits in quotes (`\"4711\"`). On the clock, hold ok and enter it to open the menu of a locked clock; set it there in Settings › Set PIN. It is never shown: the clock keeps and writes only its hash (`pin_hash`), and an error about it does not repeat it", "none"),
		nil},
	{"lock", tomldoc.CustomField("pin_hash", "the PIN's hash", func(r *reading, v *tomldoc.Value) error {
		str, ok := v.V.(string)
		if !ok || !validPINHash(str) {
			return errors.New(`want "sha256:" and 64 hex digits, as the clock writes it, or "" for no PIN (the value is not shown)`)
		}
		r.PINHash = str
		return nil
	}).Documented("the PIN as the clock writes it: `\"sha256:\"` and 64 lower-case hex digits (`config.HashPIN`), to keep the PIN itself out of a shared file; `\"\"` for no PIN", "none"),
		func(s Settings) string { return quote(s.PINHash) }},
	// The public unlock (hold + and - together) before the PIN.
	{"lock", tomldoc.RetiredField[reading]("combination", "no longer used: the lock is lifted with the arbiter's PIN ([lock] pin); remove this key"), nil},
}

// schema is the schema of zeitnot.toml and settings.toml, made of fields.
var schema = func() *tomldoc.Schema[reading] {
	root := &tomldoc.Schema[reading]{Others: otherTables}
	for _, f := range fields {
		if f.table == "" {
			root.Fields = append(root.Fields, f.Field)
		}
	}
	for _, t := range tables {
		sub := &tomldoc.Schema[reading]{}
		for _, f := range fields {
			if f.table == t.name {
				sub.Fields = append(sub.Fields, f.Field)
			}
		}
		root.Fields = append(root.Fields, tomldoc.TableField(t.name, sub, func(r *reading) *reading { return r }).Documented(t.doc, ""))
	}
	return root
}()

func msDuration(ms int64) time.Duration { return time.Duration(ms) * time.Millisecond }

// maxDuration bounds the duration settings.
const maxDuration = 10 * time.Minute

// setOption sets the option of clock.Options named name (OptPeriodTrigger,
// OptAfterFlag) to the word v. The words listed are those Options.Set
// takes, for the message when v is none of them. When clock.Trigger and
// clock.AfterFlag marshal themselves as text, setOption and the get
// functions of the two keys in fields are the one place to use that.
func setOption(o *clock.Options, name string, v *tomldoc.Value) error {
	words := optionWords[name]
	s, ok := v.V.(string)
	if !ok || !slices.Contains(words, s) {
		return tomldoc.Want(strconv.Quote(words[0]) + " or " + strconv.Quote(words[1]))
	}
	return o.Set(name, s)
}

// optionWords are the words of each option, as Options.Set takes them.
var optionWords = map[string][]string{clock.OptPeriodTrigger: {"flag", "moves"}, clock.OptAfterFlag: {"freeze", "continue"}}

// optionField is the key of the option name (clock.OptPeriodTrigger,
// clock.OptAfterFlag), of the options opts returns.
func optionField[T any](key, name string, opts func(*T) *clock.Options) tomldoc.Field[T] {
	return tomldoc.CustomField(key, "", func(t *T, v *tomldoc.Value) error { return setOption(opts(t), name, v) })
}

// durationField is a duration key of Settings, in ms (see wantDuration).
func durationField(name, example string, off bool, p func(s *Settings) *int64) tomldoc.Field[reading] {
	return tomldoc.CustomField(name, "a duration", func(r *reading, v *tomldoc.Value) error {
		d, err := wantDuration(v, example, off)
		if err == nil {
			*p(&r.Settings) = d.Milliseconds()
		}
		return err
	})
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
			return 0, tomldoc.Want(what)
		}
		if d < 0 || d > maxDuration {
			return 0, tomldoc.Want(fmt.Sprintf("a duration from %q to %q", "0s", "10m"))
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
	return 0, tomldoc.Want(what)
}

const profileWant = `a built-in profile name like "sim" or the path of a profile file`

func setProfile(r *reading, v *tomldoc.Value) error {
	str, ok := v.V.(string)
	if !ok || !validProfile(str) {
		return tomldoc.Want(profileWant)
	}
	r.Profile = str
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

const controlWant = `a preset key like "fide-rapid-15" or a notation like "40/5400+30:1800+30"`

func setControl(r *reading, v *tomldoc.Value) error {
	str, ok := v.V.(string)
	if !ok {
		return tomldoc.Want(controlWant)
	}
	ctl, err := r.saved.Resolve(str)
	if err != nil {
		return &tomldoc.WantError{Want: controlWant, More: " (" + err.Error() + ")"}
	}
	r.Control, r.Options = str, ctl.Options
	return nil
}
