package profile

import (
	"errors"
	"strings"
	"testing"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"

	"github.com/zeitnot/zeitnot/drivers/led/simled"
	"github.com/zeitnot/zeitnot/drivers/power"
	"github.com/zeitnot/zeitnot/drivers/power/powertest"
	"github.com/zeitnot/zeitnot/internal/tomldoc"
)

const base = `[display.left]
type = "ssd1306"
bus = "/dev/i2c-1"
address = 0x3C

[display.right]
type = "ssd1306"
bus = "/dev/i2c-1"
address = 0x3D

[buttons]
left = "GPIO17"
right = "GPIO27"
`

const withPower = base + `
[led.right]
pin = "GPIO16"
active_low = true

[led.lamp]
role = "left"
pin = "GPIO12"

[battery]
type = "ina219"
bus = "I2C1"
address = 0x42
shunt_ohms = 0.05
max_amps = 4
cells = 2
curve = [[3.0, 0], [3.6, 10], [4.2, 100]]
low_percent = 35

[power_loss]
pin = "GPIO6"
active_low = false
pull = "down"

[rtc]
type = "ds3231"
bus = "/dev/i2c-1"
`

func TestParsePower(t *testing.T) {
	p, err := Parse("ups.toml", []byte(withPower))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.LEDs) != 2 {
		t.Fatalf("LEDs %+v", p.LEDs)
	}
	r, l := p.LEDs[0], p.LEDs[1]
	if r != (LED{Name: "right", Role: "right", Type: "gpio", Pin: "GPIO16", ActiveLow: true, Line: 15}) {
		t.Errorf("right: %+v", r)
	}
	if l != (LED{Name: "lamp", Role: "left", Type: "gpio", Pin: "GPIO12", Line: 19}) {
		t.Errorf("lamp: %+v", l)
	}
	b := p.Battery
	mv := physic.MilliVolt
	if b.Type != "ina219" || b.Bus != "/dev/i2c-1" || b.Address != 0x42 || b.Shunt != 50*physic.MilliOhm ||
		b.MaxCurrent != 4*physic.Ampere || b.Cells != 2 || b.LowPercent != 35 || b.Line != 23 ||
		len(b.Curve) != 3 || b.Curve[1] != (power.CurvePoint{V: 3600 * mv, Percent: 10}) {
		t.Errorf("battery: %+v", b)
	}
	if p.PowerLoss != (PowerLoss{Pin: "GPIO6", ActiveLow: false, Pull: gpio.PullDown, Line: 33}) {
		t.Errorf("power loss: %+v", p.PowerLoss)
	}
	if p.RTC != (RTC{Type: "ds3231", Bus: "/dev/i2c-1", Address: 0x68, Line: 38}) {
		t.Errorf("rtc: %+v", p.RTC)
	}
}

func TestParseNoPower(t *testing.T) {
	p, err := Parse("plain.toml", []byte(base))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.LEDs) != 0 || p.Battery.Type != "none" || p.PowerLoss.Pin != "" || p.RTC.Type != "none" {
		t.Fatalf("%+v %+v %+v %+v", p.LEDs, p.Battery, p.PowerLoss, p.RTC)
	}
	// Defaults of a battery that gives only what it must.
	p, err = Parse("ups.toml", []byte(base+"\n[battery]\ntype = \"ina219\"\nbus = \"/dev/i2c-1\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if b := p.Battery; b.Address != 0x40 || b.Shunt != 100*physic.MilliOhm || b.MaxCurrent != 3200*physic.MilliAmpere || b.Cells != 1 || b.Curve != nil || b.LowPercent != DefaultLowPercent {
		t.Errorf("defaults: %+v", b)
	}
	p, err = Parse("ups.toml", []byte(base+"\n[battery]\ntype = \"max17048\"\nbus = \"/dev/i2c-1\"\n\n[power_loss]\npin = \"GPIO6\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Battery.Address != 0x36 || p.PowerLoss != (PowerLoss{Pin: "GPIO6", ActiveLow: true, Pull: gpio.PullUp, Line: 19}) {
		t.Errorf("max17048 %+v, power loss %+v", p.Battery, p.PowerLoss)
	}
}

func TestParsePowerErrors(t *testing.T) {
	for _, c := range []struct {
		add, want string
	}{
		{"[led.left]\n", "bad.toml:16: led \"left\": missing required field pin"},
		{"[led.left]\npin = \"GPIO17\"\n", "bad.toml:17: GPIO17 is used by button \"left\" and by led \"left\""},
		{"[led.lamp]\npin = \"GPIO12\"\n", "bad.toml:16: led \"lamp\": missing required field role"},
		{"[led.lamp]\nrole = \"both\"\npin = \"GPIO12\"\n", "bad.toml:17: led \"lamp\": role \"both\" is not left or right"},
		{"[led.left]\npin = \"GPIO12\"\n[led.lamp]\nrole = \"left\"\npin = \"GPIO16\"\n", "bad.toml:19: led \"lamp\": role left is already taken by led \"left\""},
		{"[led.left]\ntype = \"pwm\"\npin = \"GPIO12\"\n", "bad.toml:17: led \"left\": unknown type \"pwm\" (gpio or sim)"},
		{"[led.left]\ntype = \"sim\"\npin = \"GPIO12\"\n", "bad.toml:18: led \"left\": a simulated LED takes no pin"},
		{"[led.left]\npin = \"GPIO12\"\ncolour = \"red\"\n", "bad.toml:18: led.left.colour: unknown key; [led.left] has type, pin, active_low, role"},
		{"[led.left]\npin = \"GPIO2\"\n", "bad.toml:17: GPIO2 is used by bus /dev/i2c-1 and by led \"left\""},
		{"[battery]\nbus = \"/dev/i2c-1\"\n", "bad.toml:16: battery: missing required field type (ina219, max17048)"},
		{"[battery]\ntype = \"bq27441\"\nbus = \"/dev/i2c-1\"\n", "bad.toml:17: battery: unknown type \"bq27441\" (ina219, max17048)"},
		{"[battery]\ntype = \"ina219\"\n", "bad.toml:16: battery: missing required field bus"},
		{"[battery]\ntype = \"ina219\"\nbus = \"/dev/spidev0.0\"\n", "bad.toml:18: battery: bus \"/dev/spidev0.0\" is not an I²C bus"},
		{"[battery]\ntype = \"ina219\"\nbus = \"/dev/i2c-1\"\naddress = 0x36\n", "bad.toml:19: battery: address 0x36 out of range (0x40 to 0x4f)"},
		{"[battery]\ntype = \"max17048\"\nbus = \"/dev/i2c-1\"\naddress = 0x37\n", "bad.toml:19: battery: address 0x37 out of range (0x36 only)"},
		{"[battery]\ntype = \"max17048\"\nbus = \"/dev/i2c-1\"\ncells = 2\n", "bad.toml:19: battery: cells is for the ina219, not the max17048"},
		{"[battery]\ntype = \"ina219\"\nbus = \"/dev/i2c-1\"\nshunt_ohms = 0.1\nmax_amps = 5\n", "bad.toml:16: battery: 5A through the 100mΩ shunt is 500 mV, more than the 320 mV"},
		{"[battery]\ntype = \"ina219\"\nbus = \"/dev/i2c-1\"\nshunt_ohms = -1\n", "bad.toml:19: battery: shunt_ohms -1 is not above 0"},
		{"[battery]\ntype = \"ina219\"\nbus = \"/dev/i2c-1\"\ncells = 0\n", "bad.toml:19: battery: cells 0 is not between 1 and 16"},
		{"[battery]\ntype = \"ina219\"\nbus = \"/dev/i2c-1\"\nlow_percent = 120\n", "bad.toml:19: battery: low_percent 120 is not between 0 and 100"},
		{"[battery]\ntype = \"ina219\"\nbus = \"/dev/i2c-1\"\ncurve = [[3.0, 0], [3.7]]\n", "bad.toml:19: battery: curve point 2: want [volts of one cell, percent]"},
		{"[battery]\ntype = \"ina219\"\nbus = \"/dev/i2c-1\"\ncurve = [[4.0, 0], [3.7, 50]]\n", "bad.toml:19: battery: curve: point 2: 3.700V is not above the voltage before it, 4V"},
		{"[battery]\ntype = \"ina219\"\nbus = \"/dev/i2c-1\"\ncurve = \"li-ion\"\n", "bad.toml:19: battery.curve: "},
		{"[rtc]\ntype = \"ds3231\"\nbus = \"/dev/i2c-1\"\naddress = 0x57\n", "bad.toml:19: rtc: address 0x57 out of range (0x68 only)"},
		{"[rtc]\ntype = \"pcf8523\"\nbus = \"/dev/i2c-1\"\n", "bad.toml:17: rtc: unknown type \"pcf8523\" (ds3231)"},
		{"[rtc]\nbus = \"/dev/i2c-1\"\n", "bad.toml:16: rtc: missing required field type (ds3231)"},
		{"[battery]\ntype = \"ina219\"\nbus = \"/dev/i2c-1\"\naddress = 0x40\n[rtc]\ntype = \"ds3231\"\nbus = \"/dev/i2c-1\"\n", ""},
		{"[power_loss]\npull = \"up\"\n", "bad.toml:16: power_loss: missing required field pin"},
		{"[power_loss]\npin = \"GPIO27\"\n", "bad.toml:17: GPIO27 is used by button \"right\" and by the power-loss input"},
		{"[power_loss]\npin = \"GPIO6\"\npull = \"sideways\"\n", "bad.toml:18: power_loss: pull \"sideways\" is not up, down, none or keep"},
	} {
		_, err := Parse("bad.toml", []byte(base+"\n\n"+c.add))
		if c.want == "" {
			if err != nil {
				t.Errorf("%q: %v", c.add, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q:\n got %v\nwant %q", c.add, err, c.want)
		}
	}
}

// TestI2CAddressTaken: a gauge or clock at an address already used on its
// bus is refused. No types of today overlap, so the check is called
// directly.
func TestI2CAddressTaken(t *testing.T) {
	doc, err := tomldoc.Parse([]byte("\n\n[battery]\ntype = \"ina219\"\naddress = 0x42\n"))
	if err != nil {
		t.Fatal(err)
	}
	c := &checker{file: "x.toml", doc: doc, gpio: map[string]use{}}
	users := map[string]string{"/dev/i2c-1@0x42": `display "right"`}
	addr := int64(0x42)
	c.i2cDevice("battery", "battery", "I2C1", &addr, [][2]uint16{{0x40, 0x4F}}, 0x40, users)
	if len(c.errs) != 1 || c.errs[0].Error() != `x.toml:5: battery: address 0x42 on /dev/i2c-1 is already used by display "right"` {
		t.Fatalf("%v", c.errs)
	}
}

// TestBuiltinLEDs: build A has lit levers on GPIO12 and GPIO16, the
// simulator two simulated LEDs; every builtin still parses.
func TestBuiltinLEDs(t *testing.T) {
	for _, name := range Names() {
		if _, err := Builtin(name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	a, _ := Builtin("two-ssd1306-i2c")
	if len(a.LEDs) != 2 || a.LEDs[0].Pin != "GPIO12" || a.LEDs[0].Role != "left" || a.LEDs[1].Pin != "GPIO16" || a.LEDs[1].Role != "right" {
		t.Errorf("build A: %+v", a.LEDs)
	}
	s, _ := Builtin("sim")
	if len(s.LEDs) != 2 || !s.LEDs[0].Simulated() || !s.LEDs[1].Simulated() {
		t.Errorf("sim: %+v", s.LEDs)
	}
}

// powerBus answers as an INA219 at 0x42 and a DS3231 at 0x68 would, and
// NACKs elsewhere.
type powerBus struct {
	nackBus
	osf byte
}

func (b *powerBus) Tx(addr uint16, w, r []byte) error {
	switch {
	case addr == 0x42 && len(r) == 2 && w[0] == 0x00:
		copy(r, []byte{0x3E, 0xEF})
	case addr == 0x42 && len(r) == 2 && w[0] == 0x02:
		copy(r, []byte{0x1F, 0x52}) // 4.008 V
	case addr == 0x42 && len(r) == 2 && w[0] == 0x04:
		copy(r, []byte{0xFB, 0x00}) // -1280 counts
	case addr == 0x42 && r == nil:
	case addr == 0x68 && len(r) == 1:
		r[0] = b.osf
	case addr == 0x68 && len(r) == 0x13:
		copy(r, []byte{0x05, 0x59, 0x23, 0x07, 0x14, 0x03, 0x26})
		r[0x0F], r[0x11] = b.osf, 0x19
	default:
		return b.nackBus.Tx(addr, w, r)
	}
	return nil
}

func TestOpenPower(t *testing.T) {
	fakeHardware(t)
	left, right := &gpiotest.Pin{N: "GPIO12"}, &gpiotest.Pin{N: "GPIO16", L: gpio.Low}
	pinByName = func(name string) gpio.PinIO {
		return map[string]gpio.PinIO{"GPIO12": left, "GPIO16": right}[name]
	}
	bus := &powerBus{osf: 0x80}
	openI2C = func(string) (i2c.BusCloser, error) { return bus, nil }
	loss := powertest.NewLoss()
	var lossOpts power.LossOpts
	openLoss = func(pin string, o *power.LossOpts) (power.LossInput, error) {
		if pin != "GPIO6" {
			t.Fatalf("power loss on %s", pin)
		}
		lossOpts = *o
		return loss, nil
	}
	defer func(f func(string, *power.LossOpts) (power.LossInput, error)) { openLoss = f }(openLoss)
	text := strings.Replace(withPower, "address = 0x42", "address = 0x42\nshunt_ohms = 0.1\nmax_amps = 3.2", 1)
	text = strings.Replace(text, "cells = 2\ncurve = [[3.0, 0], [3.6, 10], [4.2, 100]]\n", "", 1)
	text = strings.Replace(text, "shunt_ohms = 0.05\nmax_amps = 4\n", "", 1)
	p, err := Parse("ups.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	devs, _ := Open(p)
	var got []string
	for _, r := range devs.Results[3:] { // after the displays (no answer) and the buttons (no GPIO here)
		got = append(got, r.String())
	}
	want := []string{
		`led "right": ok: led right on GPIO16`,
		`led "lamp": ok: led lamp on GPIO12`,
		`battery: ok: ina219 on I2C1@0x42: 78% 4.008V -125.009mA (low at 35%)`,
		`power-loss: ok: powertest loss`,
		`rtc: ok: ds3231 on I2C1@0x68: 2026-03-14 23:59:05 UTC, time NOT valid: the oscillator stopped (a flat or missing coin cell?); set the time`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("results:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if right.L != gpio.High {
		t.Error("the active-low right LED is lit after Open")
	}
	l, ok := devs.LED("left")
	if !ok || l.Name != "lamp" {
		t.Fatalf("LED(left): %+v", l)
	}
	l.Dev.Set(true)
	if left.L != gpio.High {
		t.Error("the left LED does not light")
	}
	if devs.Battery == nil || devs.PowerLoss != loss || lossOpts.ActiveLow || lossOpts.Pull != gpio.PullDown {
		t.Errorf("battery %v, power loss %v with %+v", devs.Battery, devs.PowerLoss, lossOpts)
	}
	if err := devs.Close(); err != nil {
		t.Fatal(err)
	}
	if left.L != gpio.Low || !bus.closed {
		t.Error("Close leaves the LED lit or the bus open")
	}
	if _, ok := <-loss.Events(); ok {
		t.Error("power-loss input not closed")
	}
	// A valid time, and nothing at the gauge's address.
	bus = &powerBus{}
	openI2C = func(string) (i2c.BusCloser, error) { return bus, nil }
	p.Battery.Address = 0x41
	p.LEDs, p.PowerLoss = nil, PowerLoss{}
	res := Check(p)
	if got := res[3].String(); got != "battery: no I2C device answers at 0x41 on /dev/i2c-1" {
		t.Errorf("no gauge: %s", got)
	}
	if got := res[4].String(); got != "rtc: ok: ds3231 on I2C1@0x68: 2026-03-14 23:59:05 UTC, time valid, 25°C" {
		t.Errorf("rtc: %s", got)
	}
}

func TestOpenLEDErrors(t *testing.T) {
	fakeHardware(t)
	p, err := Parse("x.toml", []byte(base+"\n[led.left]\npin = \"GPIO12\"\n[led.right]\ntype = \"sim\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	devs, err := Open(p)
	if err == nil || !strings.Contains(err.Error(), `led "left": no GPIO line named GPIO12 on this machine`) {
		t.Fatalf("%v", err)
	}
	if len(devs.LEDs) != 1 || devs.LEDs[0].Role != "right" {
		t.Fatalf("%+v", devs.LEDs)
	}
	if _, ok := devs.LEDs[0].Dev.(*simled.LED); !ok {
		t.Fatalf("%T", devs.LEDs[0].Dev)
	}
	hostInit = func() error { return errors.New("no host") }
	devs, _ = Open(p)
	if r := devs.Results[2]; r.String() != `display "left": initializing periph: no host` && !strings.Contains(devs.Results[len(devs.Results)-2].String(), `led "left": initializing periph: no host`) {
		t.Errorf("%v", devs.Results)
	}
}
