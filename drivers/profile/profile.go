package profile

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

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
	Supply    Supply    // what the build draws; CurrentMA 0 when the file has no [supply]
}

// Simulated reports whether every device of p is simulated, so that
// opening it needs no device node: the simulator's profile.
func (p *Profile) Simulated() bool {
	for i := range p.Displays {
		if !p.Displays[i].Simulated() {
			return false
		}
	}
	for _, b := range p.Buttons {
		if !strings.HasPrefix(b.Line, "sim:") {
			return false
		}
	}
	for i := range p.LEDs {
		if !p.LEDs[i].Simulated() {
			return false
		}
	}
	none := func(t string) bool { return t == "" || t == "none" }
	return (none(p.Buzzer.Type) || p.Buzzer.Type == "sim") && none(p.Battery.Type) && p.PowerLoss.Pin == "" && none(p.RTC.Type)
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

// The shape of a profile file, as its schema (profileSchema) reads it.
type file struct {
	Name          string
	Description   string
	Display       map[string]fileDisplay
	Buttons       map[string]string
	ButtonOptions fileButtonOptions
	Buzzer        fileBuzzer
	LED           map[string]fileLED
	Battery       *fileBattery
	PowerLoss     *filePowerLoss
	RTC           *fileRTC
	Supply        *fileSupply
}

type fileDisplay struct {
	Type    string
	Role    string
	Bus     string
	Address int64
	Size    Size
	Pins    map[string]string
	SpeedHz *int64
}

type fileButtonOptions struct {
	ActiveLow *bool
	Pull      string
	Debounce  duration
	HoldAfter duration
}

type fileBuzzer struct {
	Type      string
	Pin       string
	ActiveLow bool
	Chip      int
	Channel   int
	Frequency int
}

// Error is a problem in a profile, at a line of its file (0 when the
// problem is not at one line): the one error type of the files of the
// clock (internal/tomldoc).
type Error = tomldoc.FileError

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
	d, fe := tomldoc.NewDecoder(name, data)
	if fe != nil {
		return nil, Errors{fe}
	}
	var f file
	profileSchema.Decode(d, &f)
	if !d.OK() {
		var errs Errors
		for _, err := range d.Errors() {
			errs = append(errs, err.(*Error))
		}
		return nil, errs
	}
	p := &Profile{
		Name:        strings.TrimSuffix(path.Base(name), ".toml"),
		Description: f.Description,
		Source:      name,
	}
	if f.Name != "" {
		p.Name = f.Name
	}
	c := &checker{file: name, doc: d.Doc}
	c.build(p, &f, d.Doc)
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
