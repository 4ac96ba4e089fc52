package wiring

import (
	"fmt"
	"slices"
	"strings"

	"github.com/zeitnot/zeitnot/drivers/button"
	"github.com/zeitnot/zeitnot/drivers/profile"
)

// Signal is what a wire carries; it picks the wire's colour.
type Signal int

const (
	Supply3V3 Signal = iota // 3.3 V
	Supply5V                // 5 V
	Ground                  // GND
	I2CData                 // I²C SDA
	I2CClock                // I²C SCL
	SPIBus                  // SPI MOSI, SCLK and chip select
	Control                 // a display's own GPIO lines (DC, RES, CLK, DIO, ...)
	Input                   // a button or the power-loss line, read by the clock
	Output                  // the buzzer and LEDs, driven by the clock
)

var signalNames = [...]string{"3.3 V", "5 V", "GND", "I²C SDA", "I²C SCL", "SPI", "display control", "button / input", "buzzer / LED"}

func (s Signal) String() string {
	if int(s) < len(signalNames) {
		return signalNames[s]
	}
	return fmt.Sprintf("Signal(%d)", int(s))
}

// Side is where a device stands in the diagram: beside the header's odd
// pins (left), beside its even pins (right), or below it when it takes pins
// of both rows.
type Side int

const (
	Left Side = iota
	Right
	Below
)

// Device is one part wired to the header: a display, a button, the buzzer
// with its transistor, an LED, a gauge, a real-time clock.
type Device struct {
	ID    string // unique and stable: "display-left", "button-ok", "buzzer"
	Title string // what it is for: "left display", "pause button"
	Part  string // what to buy, briefly: "0.96\" SSD1306 OLED, I²C 0x3C"
	Pins  []Pin  // in the order of the part's own pins
	Side  Side
}

// Pin is one pin of a device and the header pin it is wired to.
type Pin struct {
	Name   string // as printed on the part: "SDA", "NO", "VCC"
	Header int    // physical header pin, 1 to 40
	Signal Signal
}

// Wiring is how a profile's parts are wired to the 40-pin header: one wire
// per device pin.
type Wiring struct {
	Profile *profile.Profile
	Devices []Device
}

// New works out the wiring of p: the GPIO lines and buses come from the
// profile, each device's supply and ground from the header pins nearest
// its signal pins. A profile with simulated devices has no wiring, and a
// line that is not on the 40-pin header is an error.
func New(p *profile.Profile) (*Wiring, error) {
	if err := simulated(p); err != nil {
		return nil, err
	}
	b := &builder{p: p}
	for i := range p.Displays {
		b.display(&p.Displays[i])
	}
	for _, l := range p.Buttons {
		b.button(l.Name, l.Line)
	}
	b.buzzer()
	for _, l := range p.LEDs {
		b.led(l)
	}
	b.power()
	if b.err != nil {
		return nil, b.err
	}
	for i := range b.devs {
		place(&b.devs[i])
	}
	return &Wiring{Profile: p, Devices: b.devs}, nil
}

// Real reports whether p is a build of real parts (no simulated display,
// button, buzzer or LED), the only kind New wires.
func Real(p *profile.Profile) bool { return simulated(p) == nil }

// simulated returns an error naming the first simulated part of p, if any.
func simulated(p *profile.Profile) error {
	sim := func(what string) error {
		return fmt.Errorf("wiring: profile %s is simulated (%s): it has no wiring", p.Name, what)
	}
	for _, d := range p.Displays {
		if d.Simulated() {
			return sim(fmt.Sprintf("display %q is %s", d.Name, d.Type))
		}
	}
	for _, l := range p.Buttons {
		if strings.HasPrefix(l.Line, "sim:") {
			return sim(fmt.Sprintf("button %q is on %s", l.Name, l.Line))
		}
	}
	if p.Buzzer.Type == "sim" {
		return sim("the buzzer")
	}
	for _, l := range p.LEDs {
		if l.Simulated() {
			return sim(fmt.Sprintf("led %q", l.Name))
		}
	}
	return nil
}

type builder struct {
	p    *profile.Profile
	devs []Device
	err  error
}

func (b *builder) fail(who, format string, args ...any) {
	if b.err == nil {
		b.err = fmt.Errorf("wiring: %s: %s: %s", b.p.Source, who, fmt.Sprintf(format, args...))
	}
}

// gpio returns the header pin of a line, or 0 after recording the error.
func (b *builder) gpio(who, line string) int {
	n, err := PinOf(line)
	if err != nil {
		b.fail(who, "%v", err)
	}
	return n
}

// Supply and ground pins get their header pin from place, once the
// device's side is known; until then their Header is unplaced.
const unplaced = 0

func (b *builder) display(d *profile.Display) {
	who := fmt.Sprintf("display %q", d.Name)
	m, ok := modules[d.Type]
	if !ok {
		b.fail(who, "no wiring known for display type %s", d.Type)
		return
	}
	dev := Device{ID: "display-" + d.Name, Title: displayTitle(d), Part: m.short(d)}
	var conn []modPin
	var bus map[string]string
	switch {
	case strings.HasPrefix(d.Bus, "/dev/i2c-"):
		conn = m.i2c
	case strings.HasPrefix(d.Bus, "/dev/spidev"):
		conn = m.spi
	default:
		conn = m.gpio
	}
	if d.Bus != "" {
		if bus = busLines(d.Bus); bus == nil {
			b.fail(who, "bus %s is not on the 40-pin header", d.Bus)
			return
		}
	}
	for _, mp := range conn {
		pin := Pin{Name: mp.name, Signal: mp.signal}
		switch {
		case mp.fn == "3V3" || mp.fn == "5V" || mp.fn == "GND":
			// Placed by power.
		case strings.HasPrefix(mp.fn, "pin:"):
			line, ok := d.Pins[strings.TrimPrefix(mp.fn, "pin:")]
			if !ok {
				if mp.unset == "" {
					continue
				}
				pin.Signal = supplySignal(mp.unset)
				break
			}
			pin.Header = b.gpio(who, line)
		default:
			pin.Header = b.gpio(who, bus[mp.fn])
		}
		dev.Pins = append(dev.Pins, pin)
	}
	b.devs = append(b.devs, dev)
}

func displayTitle(d *profile.Display) string {
	switch d.Role {
	case "both":
		return "display (both clocks)"
	case "left", "right":
		return d.Role + " display"
	}
	return fmt.Sprintf("display %q", d.Name)
}

// Lever reports whether the button called name is a lever: the clock's
// left and right buttons are; the others are menu buttons.
func Lever(name string) bool { return name == "left" || name == "right" }

// lit reports whether p has a GPIO LED lit for role and driven high, the
// reference builds' LED in the lever, switched by a transistor. An LED lit
// low is taken for a plain LED beside the lever.
func lit(p *profile.Profile, role string) bool {
	for _, l := range p.LEDs {
		if l.Role == role && l.Type == "gpio" && !l.ActiveLow {
			return true
		}
	}
	return false
}

func (b *builder) button(name, line string) {
	who := fmt.Sprintf("button %q", name)
	common := "GND"
	if !b.p.ButtonOptions.ActiveLow {
		common = "3V3" // pressed is high: the switch closes to 3.3 V
	}
	dev := Device{ID: "button-" + name}
	if Lever(name) {
		dev.Title = name + " lever"
		dev.Part = "arcade button"
		if lit(b.p, name) {
			dev.Part = "arcade button with LED"
		}
		dev.Pins = []Pin{{Name: "NO", Header: b.gpio(who, line), Signal: Input}, {Name: "COM", Signal: supplySignal(common)}}
	} else {
		dev.Title = name + " button"
		dev.Part = "tact switch"
		dev.Pins = []Pin{{Name: "leg 1", Header: b.gpio(who, line), Signal: Input}, {Name: "leg 2", Signal: supplySignal(common)}}
	}
	b.devs = append(b.devs, dev)
}

// pwmLines are the lines the kernel's pwm-2chan overlay puts its channels
// on by default, for a PWM buzzer whose profile names no pin.
var pwmLines = []string{"GPIO18", "GPIO19"}

func (b *builder) buzzer() {
	bz := b.p.Buzzer
	line := bz.Pin
	switch bz.Type {
	case "active":
	case "pwm":
		if line == "" {
			if bz.Channel >= len(pwmLines) {
				b.fail("buzzer", "PWM channel %d has no default line: give its pin", bz.Channel)
				return
			}
			line = pwmLines[bz.Channel]
		}
	default:
		return
	}
	n := b.gpio("buzzer", line)
	dev := Device{ID: "buzzer", Title: "buzzer"}
	if bz.ActiveLow {
		dev.Part = "active buzzer module, low-level trigger"
		dev.Pins = []Pin{{Name: "I/O", Header: n, Signal: Output}, {Name: "VCC", Signal: Supply3V3}, {Name: "GND", Signal: Ground}}
	} else {
		dev.Part = "active buzzer and NPN transistor"
		if bz.Type == "pwm" {
			dev.Part = "passive buzzer and NPN transistor"
		}
		dev.Pins = npnPins(n, "buzzer +")
	}
	b.devs = append(b.devs, dev)
}

// npnPins are the three wires of a load switched by an NPN transistor on
// its low side: the GPIO line to the base through 1 kΩ, the load's plus to
// 5 V, the emitter to ground.
func npnPins(gpio int, plus string) []Pin {
	return []Pin{
		{Name: "base via 1 kΩ", Header: gpio, Signal: Output},
		{Name: plus, Signal: Supply5V},
		{Name: "emitter", Signal: Ground},
	}
}

func (b *builder) led(l profile.LED) {
	who := fmt.Sprintf("led %q", l.Name)
	n := b.gpio(who, l.Pin)
	dev := Device{ID: "led-" + l.Name, Title: l.Role + " LED"}
	if lit(b.p, l.Role) && slices.ContainsFunc(b.p.Buttons, func(bl button.Line) bool { return bl.Name == l.Role }) {
		dev.Title = l.Role + " lever LED"
	}
	if l.ActiveLow {
		dev.Part = "LED, lit when the line is low"
		dev.Pins = []Pin{{Name: "cathode", Header: n, Signal: Output}, {Name: "anode via 330 Ω", Signal: Supply3V3}}
	} else {
		dev.Part = "NPN transistor for the LED"
		dev.Pins = npnPins(n, "LED +")
	}
	b.devs = append(b.devs, dev)
}

// power adds the battery gauge, the real-time clock and the power-loss
// line, if the profile has them.
func (b *builder) power() {
	if bt := b.p.Battery; bt.Type != "none" && bt.Type != "" {
		b.i2cChip("battery", "battery gauge", fmt.Sprintf("%s, I²C 0x%02X", strings.ToUpper(bt.Type), bt.Address), bt.Bus)
	}
	if r := b.p.RTC; r.Type != "none" && r.Type != "" {
		b.i2cChip("rtc", "real-time clock", fmt.Sprintf("%s, I²C 0x%02X", strings.ToUpper(r.Type), r.Address), r.Bus)
	}
	if pl := b.p.PowerLoss; pl.Pin != "" {
		dev := Device{ID: "power-loss", Title: "power-loss line", Part: "UPS board's power-fail output"}
		dev.Pins = []Pin{{Name: "power-fail", Header: b.gpio("power_loss", pl.Pin), Signal: Input}, {Name: "GND", Signal: Ground}}
		b.devs = append(b.devs, dev)
	}
}

func (b *builder) i2cChip(id, title, part, busName string) {
	bus := busLines(busName)
	if bus == nil {
		b.fail(id, "bus %s is not on the 40-pin header", busName)
		return
	}
	b.devs = append(b.devs, Device{ID: id, Title: title, Part: part, Pins: []Pin{
		{Name: "GND", Signal: Ground},
		{Name: "VCC", Signal: Supply3V3},
		{Name: "SCL", Header: b.gpio(id, bus["SCL"]), Signal: I2CClock},
		{Name: "SDA", Header: b.gpio(id, bus["SDA"]), Signal: I2CData},
	}})
}

func supplySignal(name string) Signal {
	switch name {
	case "3V3":
		return Supply3V3
	case "5V":
		return Supply5V
	}
	return Ground
}

func supplyName(s Signal) string {
	switch s {
	case Supply3V3:
		return "3V3"
	case Supply5V:
		return "5V"
	case Ground:
		return "GND"
	}
	return ""
}

// sideOf is the side of the header a pin is on: odd pins left, even right.
func sideOf(pin int) Side {
	if pin%2 == 1 {
		return Left
	}
	return Right
}

// row is the row of the header a pin is on, 0 at pins 1 and 2.
func row(pin int) int { return (pin - 1) / 2 }

// place picks d's side and then its supply and ground pins: on its side,
// nearest the rows of its signal pins. A device whose signal pins are all
// on one side, and whose supplies are on that side too, stands on that
// side; any other stands below the header.
func place(d *Device) {
	var sides [2]int
	var rows, n int
	for _, p := range d.Pins {
		if p.Header != unplaced {
			sides[sideOf(p.Header)]++
			rows += row(p.Header)
			n++
		}
	}
	d.Side = Below
	for _, s := range []Side{Left, Right} {
		if sides[s] == n && n > 0 && suppliesOn(d, s) {
			d.Side = s
		}
	}
	mean := 0.0
	if n > 0 {
		mean = float64(rows) / float64(n)
	}
	for i := range d.Pins {
		p := &d.Pins[i]
		if p.Header != unplaced {
			continue
		}
		best, bestDist := 0, 0.0
		for _, c := range pinsNamed(supplyName(p.Signal)) {
			if d.Side != Below && sideOf(c) != d.Side {
				continue
			}
			dist := abs(float64(row(c)) - mean)
			if best == 0 || dist < bestDist || dist == bestDist && c > best {
				best, bestDist = c, dist
			}
		}
		p.Header = best
	}
}

// suppliesOn reports whether every supply d needs has a pin on side s:
// ground has pins on both rows, 3.3 V only on the odd one, 5 V only on the
// even one.
func suppliesOn(d *Device, s Side) bool {
	for _, p := range d.Pins {
		if p.Header != unplaced {
			continue
		}
		if !slices.ContainsFunc(pinsNamed(supplyName(p.Signal)), func(c int) bool { return sideOf(c) == s }) {
			return false
		}
	}
	return true
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// Builds returns the names of the built-in profiles of real parts, the
// reference builds: those New wires.
func Builds() []string {
	var names []string
	for _, name := range profile.Names() {
		if p, err := profile.Builtin(name); err == nil && Real(p) {
			names = append(names, name)
		}
	}
	return names
}
