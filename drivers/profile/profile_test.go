package profile

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"periph.io/x/conn/v3/gpio"

	"github.com/zeitnot/zeitnot/drivers/button"
)

const good = `# a build
[display.left]
type = "ssd1306"
bus = "/dev/i2c-1"
address = 0x3C

[display.right]
type = "sh1106"
bus = "I2C1"
address = 0x3D
size = "128x64"

[buttons]
left = "GPIO17"
right = "GPIO27"
ok = "GPIO25"

[button_options]
active_low = false
pull = "down"
debounce = "5ms"
hold_after = "2s"

[buzzer]
type = "pwm"
chip = 0
channel = 1
frequency = 2000
`

func TestParseGood(t *testing.T) {
	p, err := Parse("good.toml", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "good" || len(p.Displays) != 2 || len(p.Buttons) != 3 {
		t.Fatalf("%+v", p)
	}
	l, r := p.Displays[0], p.Displays[1]
	if l.Name != "left" || l.Role != "left" || l.Address != 0x3C || l.Size != (Size{128, 64}) || l.Line != 2 || !l.Pixel() {
		t.Fatalf("left: %+v", l)
	}
	if r.Bus != "/dev/i2c-1" || r.Address != 0x3D || r.Type != "sh1106" || r.Line != 7 {
		t.Fatalf("right: %+v", r)
	}
	// Buttons in file order.
	if p.Buttons[0].Name != "left" || p.Buttons[1].Name != "right" || p.Buttons[2].Name != "ok" || p.Buttons[2].Line != "GPIO25" {
		t.Fatalf("buttons: %v", p.Buttons)
	}
	o := p.ButtonOptions
	if o.ActiveLow || o.Pull != gpio.PullDown || o.Debounce != 5*time.Millisecond || o.HoldAfter != 2*time.Second || o.Clock == nil {
		t.Fatalf("options: %+v", o)
	}
	if b := p.Buzzer; b.Type != "pwm" || b.Channel != 1 || b.Frequency != 2000 || b.Line != 24 {
		t.Fatalf("buzzer: %+v", b)
	}
}

func TestParseErrors(t *testing.T) {
	base := func(edit func(string) string) string { return edit(good) }
	rep := func(old, new string) func(string) string {
		return func(s string) string {
			if !strings.Contains(s, old) {
				panic("test edit does not apply: " + old)
			}
			return strings.Replace(s, old, new, 1)
		}
	}
	tests := []struct {
		name string
		src  string
		want string // the whole first error
	}{
		{"unknown type", base(rep(`type = "sh1106"`, `type = "ssd1309"`)),
			`x.toml:8: display "right": unknown type "ssd1309" (known: hd44780, hd44780-pcf8574, ht16k33, max7219, sh1106, sim-lcd, sim-oled, sim-segment, ssd1306, tm1637)`},
		{"missing type", base(rep(`type = "sh1106"`, ``)),
			`x.toml:7: display "right": missing required field type (one of hd44780, hd44780-pcf8574, ht16k33, max7219, sh1106, sim-lcd, sim-oled, sim-segment, ssd1306, tm1637)`},
		{"missing bus", base(rep(`bus = "I2C1"`, ``)),
			`x.toml:7: display "right": missing required field bus (an I²C bus such as "/dev/i2c-1" or an SPI port such as "/dev/spidev0.0")`},
		{"address out of range", base(rep(`address = 0x3D`, `address = 0x3E`)),
			`x.toml:10: display "right": address 0x3e out of range for sh1106 (0x3c or 0x3d)`},
		{"address taken", base(rep(`address = 0x3D`, `address = 0x3C`)),
			`x.toml:10: display "right": address 0x3c on /dev/i2c-1 is already used by display "left"`},
		{"same pin for two buttons", base(rep(`ok = "GPIO25"`, `ok = "GPIO17"`)),
			`x.toml:16: GPIO17 is used by button "left" and by button "ok"`},
		{"button on the I2C bus", base(rep(`ok = "GPIO25"`, `ok = "GPIO3"`)),
			`x.toml:16: GPIO3 is used by bus /dev/i2c-1 and by button "ok"`},
		{"button on the buzzer pin", base(rep("type = \"pwm\"\nchip = 0", "type = \"active\"\npin = \"GPIO27\"")),
			`x.toml:26: GPIO27 is used by button "right" and by the buzzer`},
		{"unknown key", base(rep(`size = "128x64"`, `sise = "128x64"`)),
			`x.toml:11: display.right.sise: unknown key (did you mean size?)`},
		{"bad size", base(rep(`size = "128x64"`, `size = "big"`)),
			`x.toml:11: display.right.size: size "big" is not WIDTHxHEIGHT, e.g. "128x64"`},
		{"size too large", base(rep(`size = "128x64"`, `size = "128x96"`)),
			`x.toml:11: display "right": size 128x96 out of range for sh1106 (at most 130x64, height a multiple of 8)`},
		{"bad duration", base(rep(`debounce = "5ms"`, `debounce = "5"`)),
			`x.toml:21: button_options.debounce: duration "5" is not like "20ms" or "1.5s"`},
		{"wrong type", base(rep(`address = 0x3D`, `address = "0x3D"`)),
			`x.toml:10: display.right.address: want a whole number, got "0x3D"`},
		{"syntax", base(rep(`chip = 0`, `chip = `)),
			`x.toml:26:8: unexpected character U+000A at start of value`},
		{"duplicate key", base(rep(`ok = "GPIO25"`, `ok = "GPIO25"`+"\nok = \"GPIO26\"")),
			`x.toml:17:1: key ok is already defined`},
		{"bad pull", base(rep(`pull = "down"`, `pull = "sideways"`)),
			`x.toml:20: button_options: pull "sideways" is not up, down, none or keep`},
		{"unknown buzzer", base(rep(`type = "pwm"`, `type = "piezo"`)),
			`x.toml:25: buzzer: unknown type "piezo" (active, pwm, sim or none)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("x.toml", []byte(tt.src))
			var errs Errors
			if !errors.As(err, &errs) || len(errs) == 0 {
				t.Fatalf("got %v", err)
			}
			if errs[0].Error() != tt.want {
				t.Fatalf("got  %s\nwant %s\n(all: %v)", errs[0], tt.want, err)
			}
		})
	}
}

func TestParseDisplayErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"duplicate pin in a device", `
[display.left]
type = "tm1637"
pins = { clk = "GPIO5", dio = "GPIO5" }
[display.right]
type = "sim-segment"
[buttons]
left = "GPIO17"
right = "GPIO27"
`, `t.toml:4: display "left": duplicate pin GPIO5: both clk and dio`},
		{"pin used by two devices", `
[display.left]
type = "tm1637"
pins = { clk = "GPIO5", dio = "GPIO6" }
[display.right]
type = "tm1637"
pins.clk = "GPIO13"
pins.dio = "GPIO6"
[buttons]
left = "GPIO17"
right = "GPIO27"
`, `t.toml:8: GPIO6 is used by display "left" (dio) and by display "right" (dio)`},
		{"missing pin", `
[display.both]
type = "ssd1306"
bus = "/dev/spidev0.0"
[buttons]
left = "GPIO17"
right = "GPIO27"
`, `t.toml:2: display "both": missing required field pins.dc`},
		{"spi pin clash", `
[display.both]
type = "ssd1306"
bus = "SPI0.0"
pins = { dc = "GPIO25" }
[buttons]
left = "GPIO10"
right = "GPIO27"
`, `t.toml:7: GPIO10 is used by bus /dev/spidev0.0 and by button "left"`},
		{"gpio display on a bus", `
[display.left]
type = "tm1637"
bus = "/dev/i2c-1"
pins = { clk = "GPIO5", dio = "GPIO6" }
[display.right]
type = "sim-segment"
[buttons]
left = "sim:z"
right = "sim:b"
`, `t.toml:4: display "left": tm1637 cannot be on bus "/dev/i2c-1" (GPIO pins, no bus)`},
		{"empty", ``, `t.toml: no display: add a [display.left] and a [display.right], or a [display.both]`},
		{"ht16k33 address", `
[display.left]
type = "ht16k33"
bus = "/dev/i2c-1"
address = 0x3C
[display.right]
type = "ht16k33"
bus = "/dev/i2c-1"
address = 0x71
[buttons]
left = "sim:z"
right = "sim:b"
`, `t.toml:5: display "left": address 0x3c out of range for ht16k33 (0x70 to 0x77)`},
		{"sh1106 spi too fast", `
[display.both]
type = "sh1106"
bus = "/dev/spidev0.0"
pins = { dc = "GPIO25" }
speed_hz = 8000000
[buttons]
left = "sim:a"
right = "sim:b"
`, `t.toml:6: display "both": speed_hz 8000000 out of range for sh1106 (100000 to 4000000)`},
		{"spi too slow", `
[display.both]
type = "ssd1306"
bus = "/dev/spidev0.0"
pins = { dc = "GPIO25" }
speed_hz = 0
[buttons]
left = "sim:a"
right = "sim:b"
`, `t.toml:6: display "both": speed_hz 0 out of range for ssd1306 (100000 to 10000000)`},
		{"speed on i2c", `
[display.both]
type = "ssd1306"
bus = "/dev/i2c-1"
speed_hz = 400000
[buttons]
left = "sim:a"
right = "sim:b"
`, `t.toml:5: display "both": speed_hz is for SPI displays`},
		{"speed on gpio", `
[display.both]
type = "tm1637"
pins = { clk = "GPIO5", dio = "GPIO6" }
speed_hz = 400000
[buttons]
left = "sim:a"
right = "sim:b"
`, `t.toml:5: display "both": speed_hz is for SPI displays`},
		{"ssd1306 size it cannot drive", `
[display.both]
type = "ssd1306"
bus = "/dev/i2c-1"
size = "100x40"
[buttons]
left = "sim:a"
right = "sim:b"
`, `t.toml:5: display "both": ssd1306: no known panel is 100x40 (known: 128x64, 128x32, 96x16, 72x40, 64x48, 64x32)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("t.toml", []byte(tt.src))
			var errs Errors
			if !errors.As(err, &errs) {
				t.Fatalf("got %v", err)
			}
			found := false
			for _, e := range errs {
				found = found || e.Error() == tt.want
			}
			if !found {
				t.Fatalf("want %s\ngot:\n%v", tt.want, err)
			}
		})
	}
}

// TestParseLeavesRolesToTheClock: which roles and buttons a clock needs is
// the clock's rule (appliance/daemon), not the file's; Parse only records
// them, with their lines, for the clock's errors.
func TestParseLeavesRolesToTheClock(t *testing.T) {
	p, err := Parse("t.toml", []byte(`
[display.main]
type = "sim-oled"
role = "centre"

[display.left]
type = "sim-segment"

[display.other]
type = "sim-lcd"

[buttons]
ok = "sim:enter"
`))
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		role           string
		line, roleLine int
	}{{"centre", 2, 4}, {"left", 6, 6}, {"", 9, 9}}
	for i, w := range want {
		d := p.Displays[i]
		if d.Role != w.role || d.Line != w.line || d.RoleLine != w.roleLine {
			t.Errorf("display %q: role %q at lines %d, %d; want %q at %d, %d", d.Name, d.Role, d.Line, d.RoleLine, w.role, w.line, w.roleLine)
		}
	}
	if p.ButtonsLine != 12 || len(p.Buttons) != 1 {
		t.Errorf("buttons at line %d: %v", p.ButtonsLine, p.Buttons)
	}
	if p, err := Parse("nobuttons.toml", []byte("[display.x]\ntype = \"sim-oled\"\n")); err != nil || len(p.Buttons) != 0 || p.ButtonsLine != 0 {
		t.Errorf("a profile with no buttons: %+v, %v", p, err)
	}
}

func TestBuiltins(t *testing.T) {
	names := Names()
	for _, want := range []string{"sim", "sim-segment", "two-ssd1306-i2c", "two-tm1637", "one-ssd1306-spi", "one-sh1106-spi", "qemu-virt"} {
		p, err := Builtin(want)
		if err != nil {
			t.Fatalf("%s: %v", want, err)
		}
		// Six buttons, and the two announce buttons of the spoken clock
		// where the build has the inputs (the boot test's machine has not).
		buttons := 8
		if want == "qemu-virt" {
			buttons = 6
		}
		if p.Name != want || p.Description == "" || len(p.Buttons) != buttons {
			t.Fatalf("%s: %+v", want, p)
		}
	}
	if len(names) != 7 {
		t.Fatalf("names: %v", names)
	}
	// qemu-virt: the right lever on line 3 of QEMU's PL061 (its power
	// button, high while pressed), the rest simulated.
	qv, _ := Builtin("qemu-virt")
	if qv.Buttons[1].Name != "right" || qv.Buttons[1].Line != "PL061_3" || qv.ButtonOptions.ActiveLow || qv.Displays[0].Type != "sim-oled" {
		t.Fatalf("qemu-virt: %+v", qv)
	}
	sim, _ := Builtin("sim")
	if sim.Displays[0].Type != "sim-oled" || sim.Displays[0].Size != (Size{128, 64}) || sim.Buzzer.Type != "sim" {
		t.Fatalf("sim: %+v", sim)
	}
	seg, _ := Builtin("sim-segment")
	if seg.Displays[1].Type != "sim-segment" || seg.Displays[1].Size != (Size{4, 1}) || seg.Displays[1].Pixel() {
		t.Fatalf("sim-segment: %+v", seg)
	}
	spi, _ := Builtin("one-ssd1306-spi")
	if len(spi.Displays) != 1 || spi.Displays[0].Role != "both" || spi.Displays[0].Pins["dc"] != "GPIO25" {
		t.Fatalf("one-ssd1306-spi: %+v", spi)
	}
	sh, _ := Builtin("one-sh1106-spi")
	if d := sh.Displays[0]; d.Type != "sh1106" || d.Role != "both" || d.SpeedHz != 4_000_000 || d.Pins["dc"] != "GPIO25" || d.Pins["reset"] != "GPIO24" {
		t.Fatalf("one-sh1106-spi: %+v", d)
	}
	if !slices.Equal(buttonLines(sh), buttonLines(spi)) || sh.Buzzer.Type != spi.Buzzer.Type || sh.Buzzer.Pin != spi.Buzzer.Pin {
		t.Fatalf("one-sh1106-spi is not wired as one-ssd1306-spi")
	}
	for _, bad := range []string{"nope", "../profile", "sim.toml", ""} {
		if _, err := Builtin(bad); err == nil || !strings.Contains(err.Error(), "no builtin profile") {
			t.Fatalf("Builtin(%q): %v", bad, err)
		}
	}
}

func buttonLines(p *Profile) []string {
	var s []string
	for _, b := range p.Buttons {
		s = append(s, b.Name+"="+b.Line)
	}
	return s
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "club.toml")
	if err := os.WriteFile(path, []byte(strings.Replace(good, "0x3D", "0x3F", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(path)
	if err == nil || !strings.HasPrefix(err.Error(), path+":10: ") {
		t.Fatalf("got %v", err)
	}
	if _, err := Load(filepath.Join(dir, "none.toml")); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Fatalf("got %v", err)
	}
	if p, err := Lookup("sim"); err != nil || p.Name != "sim" {
		t.Fatalf("Lookup(sim): %v", err)
	}
	if _, err := Lookup(path); err == nil {
		t.Fatal("Lookup of a bad file succeeded")
	}
}

// A profile saved by an editor that starts files with a byte order mark.
func TestParseByteOrderMark(t *testing.T) {
	if _, err := Parse("bom.toml", append([]byte("\ufeff"), good...)); err != nil {
		t.Fatal(err)
	}
}

func TestParseKeyCaseAndEndOfInput(t *testing.T) {
	_, err := Parse("p.toml", []byte("[displAY.0000]\n[Buttons]\nleft=\"0\"\nright=\"0\"\n"))
	if err == nil || !strings.Contains(err.Error(), "p.toml:1: displAY: unknown table (did you mean display?)") || !strings.HasSuffix(err.Error(), "p.toml:2: Buttons: unknown table (did you mean buttons?)") {
		t.Errorf("mixed-case keys: %v", err)
	}
	_, err = Parse("p.toml", []byte("\"\\"))
	if err == nil || !strings.Contains(err.Error(), "p.toml:1:") {
		t.Errorf("error at the end of the input: %v", err)
	}
}

// TestSimulated: only the simulator's profiles open no device node; every
// reference build and the QEMU profile do.
func TestSimulated(t *testing.T) {
	for _, name := range Names() {
		p, err := Builtin(name)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := p.Simulated(), name == "sim" || name == "sim-segment"; got != want {
			t.Errorf("%s: Simulated() = %v, want %v", name, got, want)
		}
	}
	p, err := Builtin("sim")
	if err != nil {
		t.Fatal(err)
	}
	for what, change := range map[string]func(p *Profile){
		"a GPIO button":     func(p *Profile) { p.Buttons[0].Line = "GPIO17" },
		"an active buzzer":  func(p *Profile) { p.Buzzer.Type = "active" },
		"an I2C display":    func(p *Profile) { p.Displays[0].Type = "ssd1306" },
		"a GPIO LED":        func(p *Profile) { p.LEDs[0].Type = "gpio" },
		"a battery gauge":   func(p *Profile) { p.Battery.Type = "ina219" },
		"a power-loss line": func(p *Profile) { p.PowerLoss.Pin = "GPIO26" },
		"a DS3231":          func(p *Profile) { p.RTC.Type = "ds3231" },
	} {
		q := *p
		q.Buttons = append([]button.Line(nil), p.Buttons...)
		q.Displays = append([]Display(nil), p.Displays...)
		q.LEDs = append([]LED(nil), p.LEDs...)
		change(&q)
		if q.Simulated() {
			t.Errorf("the sim profile with %s: Simulated() = true", what)
		}
	}
	if !p.Simulated() {
		t.Error("the sim profile changed under the test")
	}
}
