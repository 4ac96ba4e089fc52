package profile

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"
	"periph.io/x/conn/v3/gpio"

	"github.com/zeitnot/zeitnot/drivers/button"
	"github.com/zeitnot/zeitnot/internal/tomldoc"
)

// Profile describes one build of the clock: its displays, buttons and
// buzzer, and how each is wired.
type Profile struct {
	Name        string // the builtin's name, or the file's base name without .toml
	Description string
	Source      string // the file it was read from, e.g. "profiles/sim.toml"

	Displays      []Display     // in the order of the file
	Buttons       []button.Line // in the order of the file
	ButtonsLine   int           // line of [buttons] in the file, 0 if absent
	ButtonOptions button.Opts   // DefaultOpts with the file's button_options
	Buzzer        Buzzer

	LEDs      []LED     // indicator LEDs, in the order of the file
	Battery   Battery   // the battery gauge; Type "none" when there is none
	PowerLoss PowerLoss // the power-loss input; Pin "" when there is none
	RTC       RTC       // the real-time clock; Type "none" when there is none
}

// Display is one display of a profile.
type Display struct {
	Name     string            // its key in the file: [display.<name>]
	Type     string            // ssd1306, sh1106, tm1637, ... (see Types)
	Role     string            // what the clock uses it for; the name when it is left, right or both and no role is given
	Bus      string            // /dev/i2c-N or /dev/spidevB.C; empty for GPIO and simulated displays
	Address  uint16            // I²C address; 0 when not on I²C
	Size     Size              // pixels (pixel displays) or cells (text displays)
	Pins     map[string]string // GPIO lines by function: dc, reset, clk, dio, rs, e, d4..d7
	SpeedHz  int64             // SPI clock in Hz (speed_hz); 0 means the chip's default
	Line     int               // line of [display.<name>] in the file
	RoleLine int               // line of its role key, or Line when it has none
}

// Buzzer is the buzzer of a profile.
type Buzzer struct {
	Type      string // active, pwm, sim or none
	Pin       string // active: the GPIO line; pwm: the line the PWM comes out on, if given
	ActiveLow bool   // active: sounds when the line is low
	Chip      int    // pwm: /sys/class/pwm/pwmchip<Chip>
	Channel   int    // pwm: pwm<Channel>
	Frequency int    // pwm: pitch in Hz; 0 means the buzzer package's default
	Line      int    // line of [buzzer] in the file, 0 if absent
}

// Size is a width and height: pixels for pixel displays, character cells
// and lines for text displays. In a file it is written "128x64" or "4x1".
type Size struct{ W, H int }

func (s Size) String() string { return fmt.Sprintf("%dx%d", s.W, s.H) }

// UnmarshalText parses "WxH".
func (s *Size) UnmarshalText(b []byte) error {
	w, h, ok := strings.Cut(string(b), "x")
	if ok {
		var err1, err2 error
		s.W, err1 = strconv.Atoi(w)
		s.H, err2 = strconv.Atoi(h)
		if err1 == nil && err2 == nil && s.W > 0 && s.H > 0 {
			return nil
		}
	}
	return fmt.Errorf("size %q is not WIDTHxHEIGHT, e.g. \"128x64\"", b)
}

// duration is a time.Duration written "20ms" in a file.
type duration time.Duration

func (d *duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil || v < 0 {
		return fmt.Errorf("duration %q is not like \"20ms\" or \"1.5s\"", b)
	}
	*d = duration(v)
	return nil
}

// The shape of a profile file.
type file struct {
	Name          string                 `toml:"name"`
	Description   string                 `toml:"description"`
	Display       map[string]fileDisplay `toml:"display"`
	Buttons       map[string]string      `toml:"buttons"`
	ButtonOptions fileButtonOptions      `toml:"button_options"`
	Buzzer        fileBuzzer             `toml:"buzzer"`
	LED           map[string]fileLED     `toml:"led"`
	Battery       *fileBattery           `toml:"battery"`
	PowerLoss     *filePowerLoss         `toml:"power_loss"`
	RTC           *fileRTC               `toml:"rtc"`
}

type fileDisplay struct {
	Type    string            `toml:"type"`
	Role    string            `toml:"role"`
	Bus     string            `toml:"bus"`
	Address int64             `toml:"address"`
	Size    Size              `toml:"size"`
	Pins    map[string]string `toml:"pins"`
	SpeedHz *int64            `toml:"speed_hz"`
}

type fileButtonOptions struct {
	ActiveLow *bool    `toml:"active_low"`
	Pull      string   `toml:"pull"`
	Debounce  duration `toml:"debounce"`
	HoldAfter duration `toml:"hold_after"`
}

type fileBuzzer struct {
	Type      string `toml:"type"`
	Pin       string `toml:"pin"`
	ActiveLow bool   `toml:"active_low"`
	Chip      int    `toml:"chip"`
	Channel   int    `toml:"channel"`
	Frequency int    `toml:"frequency"`
}

// Error is a problem in a profile, at a line of its file.
type Error struct {
	File string
	Line int // 0 when the problem is not at one line
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("profile: %s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("profile: %s: %s", e.File, e.Msg)
}

// Errors is every problem found in a profile, in order of line.
type Errors []*Error

func (e Errors) Error() string {
	s := make([]string, len(e))
	for i, err := range e {
		s[i] = err.Error()
	}
	return strings.Join(s, "\n")
}

//go:embed profiles/*.toml
var builtins embed.FS

// Names returns the names of the builtin profiles.
func Names() []string {
	entries, _ := builtins.ReadDir("profiles")
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".toml"))
	}
	return names
}

// Builtin returns the builtin profile called name: "sim" (two simulated
// 128x64 OLEDs, six buttons and a buzzer, all simulated), "sim-segment" (two
// simulated 4-digit segment displays) or one of the reference builds (see
// Names).
func Builtin(name string) (*Profile, error) {
	p := "profiles/" + name + ".toml"
	data, err := builtins.ReadFile(p)
	if err != nil || strings.ContainsAny(name, "/.") {
		return nil, fmt.Errorf("profile: no builtin profile %q (there are %s)", name, strings.Join(Names(), ", "))
	}
	return Parse(p, data)
}

// CheckBuiltin reports whether name is a builtin profile's name, saying
// which there are when it is not. The config checks (appliance/config) use
// it, so that they refuse the names the daemon cannot find.
func CheckBuiltin(name string) error {
	if slices.Contains(Names(), name) {
		return nil
	}
	return fmt.Errorf("no built-in profile %q (there are %s)", name, strings.Join(Names(), ", "))
}

// Lookup returns the builtin profile called arg if there is one, and loads
// the file arg otherwise.
func Lookup(arg string) (*Profile, error) {
	if CheckBuiltin(arg) == nil {
		return Builtin(arg)
	}
	p, err := Load(arg)
	if errors.Is(err, fs.ErrNotExist) && !strings.ContainsAny(arg, "/.") {
		// A name, not a path: say which names there are.
		return nil, fmt.Errorf("profile: %v and no file of that name", CheckBuiltin(arg))
	}
	return p, err
}

// Parse reads and checks a profile. name is the file name used in errors.
// A profile with problems is rejected with an Errors listing each with its
// line.
func Parse(name string, data []byte) (*Profile, error) {
	md, err := tomldoc.Parse(data)
	if err != nil {
		var te *tomldoc.Error
		if errors.As(err, &te) {
			return nil, Errors{{File: name, Line: te.Line, Msg: te.Msg}}
		}
		return nil, Errors{{File: name, Msg: err.Error()}}
	}
	if e := textValues(name, md); e != nil {
		return nil, Errors{e}
	}
	var f file
	c := &checker{file: name, lines: foldedLines(md)}
	dec := toml.NewDecoder(bytes.NewReader(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))) // as tomldoc does
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		var missing *toml.StrictMissingError
		if !errors.As(err, &missing) {
			return nil, Errors{decodeError(name, err)}
		}
		for _, e := range missing.Errors {
			line, _ := e.Position()
			c.errAt(line, "unknown key %s", tomldoc.Key(e.Key()))
		}
	}
	// The decoder matches keys to fields whatever their case; a profile's
	// keys are lower case, so "Display" is not taken for "display".
	var badCase []string
	for _, k := range md.Keys() {
		s := k.String()
		if s == strings.ToLower(s) || slices.ContainsFunc(badCase, func(b string) bool { return strings.HasPrefix(s, b+".") }) {
			continue
		}
		badCase = append(badCase, s)
		c.errAt(c.line(k...), "key %s: keys are lower case", s)
	}
	p := &Profile{
		Name:        strings.TrimSuffix(path.Base(name), ".toml"),
		Description: f.Description,
		Source:      name,
	}
	if f.Name != "" {
		p.Name = f.Name
	}
	c.build(p, &f, md)
	if len(c.errs) > 0 {
		// By line; problems of the whole file (line 0) last.
		slices.SortStableFunc(c.errs, func(a, b *Error) int {
			if (a.Line == 0) != (b.Line == 0) {
				return b.Line - a.Line
			}
			return a.Line - b.Line
		})
		return nil, c.errs
	}
	return p, nil
}

// foldedLines maps the keys of md to their lines, under their own names
// and in lower case: the decoder takes "Display" for "display", and the
// checks that follow look keys up by the field's name.
func foldedLines(md *tomldoc.Doc) map[string]int {
	folded := map[string]int{}
	for _, k := range md.Keys() {
		folded[lineKey(k...)] = md.Line(k...)
	}
	for _, k := range md.Keys() {
		if lk := strings.ToLower(lineKey(k...)); folded[lk] == 0 {
			folded[lk] = md.Line(k...)
		}
	}
	return folded
}

// lineKey is the key of a path in checker.lines.
func lineKey(path ...string) string { return strings.Join(path, "\x00") }

// pull parses a pull setting.
func pull(s string) (gpio.Pull, bool) {
	switch s {
	case "up":
		return gpio.PullUp, true
	case "down":
		return gpio.PullDown, true
	case "none":
		return gpio.Float, true
	case "keep":
		return gpio.PullNoChange, true
	}
	return 0, false
}

func timeDuration(d duration) time.Duration { return time.Duration(d) }

// decodeError places an error of the decoder, which stops at the first
// value that does not fit its field.
func decodeError(file string, err error) *Error {
	var de *toml.DecodeError
	if !errors.As(err, &de) {
		return &Error{File: file, Msg: strings.TrimPrefix(err.Error(), "toml: ")}
	}
	line, _ := de.Position()
	msg := strings.TrimPrefix(de.Error(), "toml: ")
	if m := typeMismatch.FindStringSubmatch(msg); m != nil {
		msg = fmt.Sprintf("want %s, got %s", goKind(m[2]), article(m[1]))
	}
	if k := de.Key(); len(k) > 0 {
		msg = tomldoc.Key(k).String() + ": " + msg
	}
	return &Error{File: file, Line: line, Msg: msg}
}

// textValues checks that the values decoded by UnmarshalText (sizes and
// durations) are strings: the decoder hands UnmarshalText the text of any
// value, and what it returns then has no line.
func textValues(file string, md *tomldoc.Doc) *Error {
	var keys []tomldoc.Key
	if d := md.Root.Get("display").Table(); d != nil {
		for _, k := range d.Keys {
			keys = append(keys, tomldoc.Key{"display", k, "size"})
		}
	}
	keys = append(keys, tomldoc.Key{"button_options", "debounce"}, tomldoc.Key{"button_options", "hold_after"})
	for _, k := range keys {
		t := md.Root.Get(k[0]).Table()
		for _, p := range k[1 : len(k)-1] {
			t = t.Get(p).Table()
		}
		if v := t.Get(k[len(k)-1]); v != nil && v.Kind != tomldoc.String {
			return &Error{File: file, Line: v.Line, Msg: fmt.Sprintf("%s: want a string, got %s", k, v.Raw)}
		}
	}
	return nil
}

// typeMismatch matches the decoder's message for a value of the wrong
// kind: "cannot decode TOML string into struct field profile.fileDisplay.Address
// of type int64", "cannot decode TOML integer into string".
var typeMismatch = regexp.MustCompile(`^cannot decode TOML (\w+) into (?:.* of type )?(\S+)$`)

// goKind names the TOML a Go type takes.
func goKind(t string) string {
	switch {
	case strings.Contains(t, "int"):
		return "an integer"
	case t == "bool", t == "*bool":
		return "true or false"
	case strings.HasPrefix(t, "map["), strings.HasPrefix(t, "profile."):
		return "a table"
	}
	return "a string"
}

func article(kind string) string {
	switch kind {
	case "integer", "array", "inline":
		return "an " + kind
	}
	return "a " + kind
}
