package wiring

import (
	"slices"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/drivers/profile"
)

func build(t *testing.T, name string) *Wiring {
	t.Helper()
	p, err := profile.Builtin(name)
	if err != nil {
		t.Fatal(err)
	}
	w, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func parse(t *testing.T, text string) *profile.Profile {
	t.Helper()
	p, err := profile.Parse("test.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// profileLines is every GPIO line a profile names, by who uses it: the
// buttons, the displays' pins and buses, the buzzer, the LEDs, the
// power-loss line and the I²C buses of the gauge and the clock.
func profileLines(p *profile.Profile) map[string][]string {
	lines := map[string][]string{}
	use := func(line, who string) { lines[line] = append(lines[line], who) }
	for _, b := range p.Buttons {
		use(b.Line, "button-"+b.Name)
	}
	for _, d := range p.Displays {
		for _, l := range d.Pins {
			use(l, "display-"+d.Name)
		}
		for _, l := range busLines(d.Bus) {
			use(l, "display-"+d.Name)
		}
	}
	if p.Buzzer.Pin != "" {
		use(p.Buzzer.Pin, "buzzer")
	} else if p.Buzzer.Type == "pwm" {
		use(pwmLines[p.Buzzer.Channel], "buzzer")
	}
	for _, l := range p.LEDs {
		use(l.Pin, "led-"+l.Name)
	}
	if p.PowerLoss.Pin != "" {
		use(p.PowerLoss.Pin, "power-loss")
	}
	if p.Battery.Type != "none" {
		for _, l := range busLines(p.Battery.Bus) {
			use(l, "battery")
		}
	}
	if p.RTC.Type != "none" {
		for _, l := range busLines(p.RTC.Bus) {
			use(l, "rtc")
		}
	}
	return lines
}

// checkWiring holds w to its profile: every line the profile names is
// wired from its header pin to the device that uses it, every supply pin
// to a pin of its supply, nothing else to a GPIO line, and each device
// beside the header takes pins of that side only.
func checkWiring(t *testing.T, w *Wiring) {
	t.Helper()
	want := profileLines(w.Profile)
	got := map[string]bool{}
	for _, d := range w.Devices {
		for _, p := range d.Pins {
			if p.Header < 1 || p.Header > 40 {
				t.Errorf("%s %s: header pin %d", d.ID, p.Name, p.Header)
				continue
			}
			h := Header[p.Header-1]
			if name := supplyName(p.Signal); name != "" {
				if h.Name != name {
					t.Errorf("%s %s: %s wired to pin %d (%s)", d.ID, p.Name, p.Signal, p.Header, h.Name)
				}
				continue
			}
			if !slices.Contains(want[h.Name], d.ID) {
				t.Errorf("%s %s: pin %d (%s), which the profile gives to %q", d.ID, p.Name, p.Header, h.Name, want[h.Name])
			}
			if bcmPin[h.Name] != p.Header {
				t.Errorf("%s %s: %s on pin %d", d.ID, p.Name, h.Name, p.Header)
			}
			got[h.Name] = true
		}
		if d.Side != Below {
			for _, p := range d.Pins {
				if sideOf(p.Header) != d.Side {
					t.Errorf("%s stands on side %d but takes pin %d", d.ID, d.Side, p.Header)
				}
			}
		}
	}
	for line, who := range want {
		if !got[line] {
			t.Errorf("%s of %s is not wired", line, who)
		}
	}
}

func TestBuilds(t *testing.T) {
	names := Builds()
	for _, want := range []string{"two-ssd1306-i2c", "two-tm1637", "one-ssd1306-spi"} {
		if !slices.Contains(names, want) {
			t.Errorf("Builds() = %v, no %s", names, want)
		}
	}
	for _, name := range names {
		if strings.HasPrefix(name, "sim") {
			t.Errorf("Builds() has the simulated %s", name)
		}
		t.Run(name, func(t *testing.T) { checkWiring(t, build(t, name)) })
	}
}

func TestSimulatedHasNoWiring(t *testing.T) {
	for _, name := range []string{"sim", "sim-segment"} {
		p, err := profile.Builtin(name)
		if err != nil {
			t.Fatal(err)
		}
		if Real(p) {
			t.Errorf("%s is real", name)
		}
		if _, err := New(p); err == nil || !strings.Contains(err.Error(), "profile "+name+" is simulated") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// pinOf returns the header pin of a device's pin.
func pinOf(t *testing.T, w *Wiring, id, pin string) int {
	t.Helper()
	for _, d := range w.Devices {
		for _, p := range d.Pins {
			if d.ID == id && p.Name == pin {
				return p.Header
			}
		}
	}
	t.Fatalf("no %s %s", id, pin)
	return 0
}

func side(t *testing.T, w *Wiring, id string) Side {
	t.Helper()
	for _, d := range w.Devices {
		if d.ID == id {
			return d.Side
		}
	}
	t.Fatalf("no %s", id)
	return 0
}

// The supplies of build A are those of its table in drivers/profile's
// README: the displays on pin 1, the lever LEDs' emitters on 34 and their
// plus on 5 V; the buttons to the ground pin nearest each.
func TestSuppliesNearest(t *testing.T) {
	w := build(t, "two-ssd1306-i2c")
	for _, tc := range []struct {
		id, pin string
		want    int
	}{
		{"display-left", "VCC", 1}, {"display-right", "VCC", 1},
		{"display-left", "GND", 9}, {"button-left", "COM", 9}, {"button-right", "COM", 9},
		{"button-pause", "leg 2", 9}, {"button-plus", "leg 2", 14}, {"button-minus", "leg 2", 20}, {"button-ok", "leg 2", 20},
		{"buzzer", "buzzer +", 4}, {"buzzer", "emitter", 14},
		{"led-left", "emitter", 34}, {"led-right", "emitter", 34}, {"led-left", "LED +", 4},
		{"led-left", "base via 1 kΩ", 32}, {"led-right", "base via 1 kΩ", 36},
	} {
		if got := pinOf(t, w, tc.id, tc.pin); got != tc.want {
			t.Errorf("%s %s on pin %d, want %d", tc.id, tc.pin, got, tc.want)
		}
	}
	for id, want := range map[string]Side{"display-left": Left, "button-right": Left, "button-ok": Right, "buzzer": Right, "led-right": Right} {
		if got := side(t, w, id); got != want {
			t.Errorf("%s on side %d, want %d", id, got, want)
		}
	}
	// Build C's display takes pins of both rows: it stands below.
	c := build(t, "one-ssd1306-spi")
	if got := side(t, c, "display-both"); got != Below {
		t.Errorf("build C's display on side %d", got)
	}
	if got := pinOf(t, c, "display-both", "CS"); got != 24 {
		t.Errorf("build C's CS on pin %d", got)
	}
}

// custom has every kind of part the wiring knows that the reference
// builds do not: an LCD on GPIO, a PWM buzzer with no pin, an LED lit low,
// switches to 3.3 V, a gauge, a clock and a power-loss line.
const custom = `
[display.left]
type = "hd44780"
pins = { rs = "GPIO5", e = "GPIO6", d4 = "GPIO13", d5 = "GPIO19", d6 = "GPIO26", d7 = "GPIO21" }

[display.right]
type = "hd44780-pcf8574"
bus = "/dev/i2c-1"

[buttons]
left = "GPIO17"
right = "GPIO27"
ok = "GPIO22"

[button_options]
active_low = false
pull = "down"

[buzzer]
type = "pwm"
chip = 0
channel = 0

[led.left]
pin = "GPIO12"
active_low = true

[battery]
type = "max17048"
bus = "/dev/i2c-1"

[rtc]
type = "ds3231"
bus = "/dev/i2c-1"

[power_loss]
pin = "GPIO16"
`

func TestCustom(t *testing.T) {
	w, err := New(parse(t, custom))
	if err != nil {
		t.Fatal(err)
	}
	checkWiring(t, w)
	for _, tc := range []struct {
		id, pin string
		want    int
	}{
		{"button-left", "COM", 17}, // active high: the switch closes to 3.3 V
		{"buzzer", "base via 1 kΩ", 12},
		{"led-left", "cathode", 32},
		{"battery", "SDA", 3}, {"rtc", "SCL", 5},
		{"power-loss", "power-fail", 36},
		{"display-left", "A", 4},   // no backlight pin: to 5 V
		{"display-left", "RW", 34}, // it stands below: the ground pin nearest its lines, of either row
	} {
		if got := pinOf(t, w, tc.id, tc.pin); got != tc.want {
			t.Errorf("%s %s on pin %d, want %d", tc.id, tc.pin, got, tc.want)
		}
	}
	if got := side(t, w, "display-right"); got != Below {
		t.Errorf("the I²C LCD on 5 V stands on side %d", got)
	}
	items := map[string]int{}
	for _, it := range w.BOM() {
		items[it.Part] = it.Qty
	}
	for part, qty := range map[string]int{
		"DS3231 real-time clock module": 1, "3 mm LED": 1, "330 Ω resistor, 1/4 W": 1,
		"passive piezo buzzer, 12 mm": 1, "NPN transistor, 2N2222 or S8050": 1,
		"30 mm arcade push button": 2, "12 × 12 mm tact switch with round cap": 1,
		"jumper wires with a female Dupont end, 20 cm": w.Wires(), "female spade terminals": 4,
	} {
		if items[part] != qty {
			t.Errorf("BOM: %d × %s, want %d", items[part], part, qty)
		}
	}
	if opt := w.Optional(); len(opt) != 0 {
		t.Errorf("optional parts of a profile that has them all: %v", opt)
	}
}

func TestNotOnHeader(t *testing.T) {
	for _, tc := range []struct{ profile, want string }{
		{"[display.both]\ntype = \"ssd1306\"\nbus = \"/dev/i2c-1\"\n[buttons]\nleft = \"GPIO30\"\n",
			`wiring: test.toml: button "left": "GPIO30" is not a GPIO line on the 40-pin header`},
		{"[display.both]\ntype = \"ssd1306\"\nbus = \"/dev/i2c-3\"\n",
			`wiring: test.toml: display "both": bus /dev/i2c-3 is not on the 40-pin header`},
		{"[display.both]\ntype = \"ssd1306\"\nbus = \"/dev/i2c-1\"\n[buzzer]\ntype = \"pwm\"\nchannel = 2\n",
			`wiring: test.toml: buzzer: PWM channel 2 has no default line: give its pin`},
	} {
		if _, err := New(parse(t, tc.profile)); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: %v\nwant %s", tc.profile, err, tc.want)
		}
	}
}

func TestBOMQuantities(t *testing.T) {
	w := build(t, "two-ssd1306-i2c")
	items := map[string]Item{}
	for _, it := range w.BOM() {
		items[it.Part] = it
	}
	check := func(part string, qty int, uses ...string) {
		t.Helper()
		it := items[part]
		if it.Qty != qty || !slices.Equal(it.For, uses) {
			t.Errorf("%s: %d for %v, want %d for %v", part, it.Qty, it.For, qty, uses)
		}
	}
	check("30 mm arcade push button with LED", 2, "left lever", "right lever")
	check("12 × 12 mm tact switch with round cap", 6, "pause", "plus", "minus", "ok", "announce-left", "announce-right")
	check("NPN transistor, 2N2222 or S8050", 3, "buzzer", "left lever LED", "right lever LED")
	check("1 kΩ resistor, 1/4 W", 3, "buzzer", "left lever LED", "right lever LED")
	check("jumper wires with a female Dupont end, 20 cm", 33)
	check("female spade terminals", 8)
	var oleds int
	for _, it := range w.BOM() {
		if strings.HasPrefix(it.Part, `0.96" SSD1306 OLED module`) {
			oleds += it.Qty
			if !strings.Contains(it.Spec, "I²C address 0x3") {
				t.Errorf("OLED without its address: %q", it.Spec)
			}
		}
	}
	if oleds != 2 {
		t.Errorf("%d OLEDs", oleds)
	}
}

// Every display type a profile may name, but the simulator's, has its
// module here: a new chip in the profile registry needs its row.
func TestEveryDisplayTypeHasAModule(t *testing.T) {
	for _, typ := range profile.Types() {
		if _, ok := modules[typ]; !ok && !strings.HasPrefix(typ, "sim-") {
			t.Errorf("display type %s has no module in parts.go", typ)
		}
	}
}
