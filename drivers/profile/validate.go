package profile

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"periph.io/x/conn/v3/physic"

	"github.com/zeitnot/zeitnot/drivers/button"
	"github.com/zeitnot/zeitnot/internal/tomldoc"
)

// checker collects the problems of one profile.
type checker struct {
	file string
	doc  *tomldoc.Doc // for the lines of keys
	errs Errors
	// owner of each GPIO line, and the line of the file where it was taken.
	gpio map[string]use
}

type use struct {
	who  string // `display "left" (clk)`, `button "left"`, `I²C bus /dev/i2c-1`
	bus  string // the bus the use is part of, if any: uses by one bus do not clash
	line int
}

func (c *checker) errAt(line int, format string, args ...any) {
	c.errs = append(c.errs, &Error{File: c.file, Line: line, Msg: fmt.Sprintf(format, args...)})
}

// line returns the line of the key path, or of its closest parent found.
func (c *checker) line(path ...string) int {
	for n := len(path); n > 0; n-- {
		if l := c.doc.Line(path[:n]...); l > 0 {
			return l
		}
	}
	return 0
}

// take records that who uses GPIO line pin, reporting a clash with an
// earlier user.
func (c *checker) take(pin, who, bus string, line int) {
	if prev, ok := c.gpio[pin]; ok {
		if bus != "" && prev.bus == bus {
			return
		}
		c.errAt(line, "%s is used by %s and by %s", pin, prev.who, who)
		return
	}
	c.gpio[pin] = use{who: who, bus: bus, line: line}
}

// busPins returns the GPIO lines a Raspberry Pi bus takes, by its device
// name.
func busPins(bus string) []string {
	switch bus {
	case "/dev/i2c-0":
		return []string{"GPIO0", "GPIO1"}
	case "/dev/i2c-1":
		return []string{"GPIO2", "GPIO3"}
	case "/dev/spidev0.0":
		return []string{"GPIO8", "GPIO9", "GPIO10", "GPIO11"}
	case "/dev/spidev0.1":
		return []string{"GPIO7", "GPIO9", "GPIO10", "GPIO11"}
	case "/dev/spidev1.0":
		return []string{"GPIO18", "GPIO19", "GPIO20", "GPIO21"}
	case "/dev/spidev1.1":
		return []string{"GPIO17", "GPIO19", "GPIO20", "GPIO21"}
	case "/dev/spidev1.2":
		return []string{"GPIO16", "GPIO19", "GPIO20", "GPIO21"}
	}
	return nil
}

// normalBus turns the periph aliases I2C1 and SPI0.0 into device names, and
// reports which kind of bus it is.
func normalBus(s string) (string, conn) {
	switch {
	case strings.HasPrefix(s, "/dev/i2c-"):
		return s, connI2C
	case strings.HasPrefix(s, "/dev/spidev"):
		return s, connSPI
	case strings.HasPrefix(s, "I2C"):
		if _, err := strconv.Atoi(s[3:]); err == nil {
			return "/dev/i2c-" + s[3:], connI2C
		}
	case strings.HasPrefix(s, "SPI"):
		return "/dev/spidev" + s[3:], connSPI
	}
	return s, 0
}

func (c *checker) build(p *Profile, f *file, md *tomldoc.Doc) {
	c.gpio = map[string]use{}
	// File order of displays and buttons.
	var displays, buttons []string
	for _, k := range md.Keys() {
		if len(k) == 2 && k[0] == "display" {
			displays = append(displays, k[1])
		}
		if len(k) == 2 && k[0] == "buttons" {
			buttons = append(buttons, k[1])
		}
	}
	c.displays(p, f, md, displays)
	c.buttons(p, f, buttons)
	c.buzzer(p, f, md)
	c.power(p, f)
	c.supply(p, f)
}

func (c *checker) displays(p *Profile, f *file, md *tomldoc.Doc, order []string) {
	if len(f.Display) == 0 {
		c.errAt(0, "no display: add a [display.left] and a [display.right], or a [display.both]")
		return
	}
	type busAddr struct {
		bus  string
		addr uint16
	}
	busUsers := map[busAddr]string{}
	for _, name := range order {
		fd := f.Display[name]
		line := c.line("display", name)
		at := func(key string) int { return c.line("display", name, key) }
		d := Display{Name: name, Type: fd.Type, Role: fd.Role, Line: line, Pins: map[string]string{}}
		who := fmt.Sprintf("display %q", name)
		if d.Role == "" && (name == "left" || name == "right" || name == "both") {
			d.Role = name
		}
		d.RoleLine = at("role")
		t, ok := displayTypes[fd.Type]
		if fd.Type == "" {
			c.errAt(line, "%s: missing required field type (one of %s)", who, strings.Join(Types(), ", "))
			continue
		}
		if !ok {
			c.errAt(at("type"), "%s: unknown type %q (known: %s)", who, fd.Type, strings.Join(Types(), ", "))
			continue
		}
		// Size.
		d.Size = t.size
		if md.IsDefined("display", name, "size") {
			d.Size = fd.Size
			if d.Size.W > t.maxW || d.Size.H > t.maxH || (t.isPixel() && d.Size.H%8 != 0) {
				limit := fmt.Sprintf("at most %dx%d", t.maxW, t.maxH)
				if t.isPixel() {
					limit += ", height a multiple of 8"
				}
				c.errAt(at("size"), "%s: size %s out of range for %s (%s)", who, d.Size, fd.Type, limit)
			} else if t.checkSize != nil {
				if err := t.checkSize(d.Size.W, d.Size.H); err != nil {
					c.errAt(at("size"), "%s: %v", who, err)
				}
			}
		}
		// Bus and address.
		var kind conn
		if fd.Bus != "" {
			d.Bus, kind = normalBus(fd.Bus)
			if kind == 0 || t.conns&kind == 0 {
				c.errAt(at("bus"), "%s: %s cannot be on bus %q (%s)", who, fd.Type, fd.Bus, connHelp(t.conns))
				continue
			}
		} else if t.conns&(connGPIO|connSim) == 0 {
			c.errAt(line, "%s: missing required field bus (%s)", who, connHelp(t.conns))
			continue
		} else if md.IsDefined("display", name, "address") {
			c.errAt(at("address"), "%s: address given but no I²C bus", who)
		}
		if kind == connI2C {
			d.Address = t.defAddr
			if md.IsDefined("display", name, "address") {
				if !inRanges(fd.Address, t.addrs) {
					c.errAt(at("address"), "%s: address %#x out of range for %s (%s)", who, fd.Address, fd.Type, rangesHelp(t.addrs))
					continue
				}
				d.Address = uint16(fd.Address)
			}
			k := busAddr{d.Bus, d.Address}
			if other, ok := busUsers[k]; ok {
				c.errAt(at("address"), "%s: address %#x on %s is already used by display %q", who, d.Address, d.Bus, other)
			}
			busUsers[k] = name
		} else if md.IsDefined("display", name, "address") && kind == connSPI {
			c.errAt(at("address"), "%s: address given for an SPI display", who)
		}
		if kind == connSPI {
			k := busAddr{d.Bus, 0}
			if other, ok := busUsers[k]; ok {
				c.errAt(at("bus"), "%s: SPI port %s is already used by display %q (each SPI device needs its own chip select)", who, d.Bus, other)
			}
			busUsers[k] = name
		}
		if fd.SpeedHz != nil {
			c.speed(&d, t, kind, *fd.SpeedHz, who, at("speed_hz"))
		}
		for _, pin := range busPins(d.Bus) {
			c.take(pin, "bus "+d.Bus, d.Bus, at("bus"))
		}
		// Pins.
		required := slices.Clone(t.pins)
		if kind == connSPI {
			required = append(required, t.spiPins...)
		}
		allowed := append(slices.Clone(required), t.optPins...)
		if kind == connI2C {
			allowed = nil
		}
		for _, fn := range slices.Sorted(maps.Keys(fd.Pins)) {
			pin := fd.Pins[fn]
			if !slices.Contains(allowed, fn) {
				if len(allowed) == 0 {
					c.errAt(at("pins"), "%s: %s on %s takes no pins, got %s", who, fd.Type, connName(kind), fn)
				} else {
					c.errAt(at("pins"), "%s: unknown pin %s for %s (%s)", who, fn, fd.Type, strings.Join(allowed, ", "))
				}
				continue
			}
			if pin == "" {
				c.errAt(at("pins"), "%s: pin %s is empty", who, fn)
				continue
			}
			if other := pinFunc(d.Pins, pin); other != "" {
				c.errAt(c.line("display", name, "pins", fn), "%s: duplicate pin %s: both %s and %s", who, pin, other, fn)
				continue
			}
			d.Pins[fn] = pin
			c.take(pin, fmt.Sprintf("%s (%s)", who, fn), "", c.line("display", name, "pins", fn))
		}
		for _, fn := range required {
			if _, ok := fd.Pins[fn]; !ok {
				c.errAt(line, "%s: missing required field pins.%s", who, fn)
			}
		}
		p.Displays = append(p.Displays, d)
	}
}

// minSpeedHz is the slowest SPI clock a profile may ask for.
const minSpeedHz = 100_000

// speed checks a display's speed_hz: SPI only, from minSpeedHz to the
// type's fastest.
func (c *checker) speed(d *Display, t displayType, kind conn, hz int64, who string, line int) {
	maxHz := int64(t.maxSpeed / physic.Hertz)
	switch {
	case kind != connSPI || maxHz == 0:
		c.errAt(line, "%s: speed_hz is for SPI displays", who)
	case hz < minSpeedHz || hz > maxHz:
		c.errAt(line, "%s: speed_hz %d out of range for %s (%d to %d)", who, hz, d.Type, minSpeedHz, maxHz)
	default:
		d.SpeedHz = hz
	}
}

// pinFunc returns the function already given pin, if any.
func pinFunc(pins map[string]string, pin string) string {
	for fn, p := range pins {
		if p == pin {
			return fn
		}
	}
	return ""
}

func (c *checker) buttons(p *Profile, f *file, order []string) {
	for _, name := range order {
		line := c.line("buttons", name)
		pin := f.Buttons[name]
		if pin == "" {
			c.errAt(line, "button %q: no GPIO line", name)
			continue
		}
		c.take(pin, fmt.Sprintf("button %q", name), "", line)
		p.Buttons = append(p.Buttons, button.Line{Name: name, Line: pin})
	}
	p.ButtonsLine = c.line("buttons")
	o := button.DefaultOpts
	bo := f.ButtonOptions
	if bo.ActiveLow != nil {
		o.ActiveLow = *bo.ActiveLow
	}
	if bo.Pull != "" {
		if v, ok := pull(bo.Pull); ok {
			o.Pull = v
		} else {
			c.errAt(c.line("button_options", "pull"), "button_options: pull %q is not up, down, none or keep", bo.Pull)
		}
	}
	if bo.Debounce != 0 {
		o.Debounce = timeDuration(bo.Debounce)
	}
	if bo.HoldAfter != 0 {
		o.HoldAfter = timeDuration(bo.HoldAfter)
	}
	p.ButtonOptions = o
}

func (c *checker) buzzer(p *Profile, f *file, md *tomldoc.Doc) {
	b := f.Buzzer
	line := c.line("buzzer")
	p.Buzzer = Buzzer{Type: b.Type, Pin: b.Pin, ActiveLow: b.ActiveLow, Chip: b.Chip, Channel: b.Channel, Frequency: b.Frequency, Line: line}
	if !md.IsDefined("buzzer") {
		p.Buzzer.Type = "none"
		return
	}
	switch b.Type {
	case "active":
		if b.Pin == "" {
			c.errAt(line, "buzzer: missing required field pin")
			return
		}
	case "pwm":
		if b.Chip < 0 || b.Channel < 0 {
			c.errAt(line, "buzzer: chip and channel must not be negative")
		}
		if b.Frequency < 0 || b.Frequency > 100000 {
			c.errAt(c.line("buzzer", "frequency"), "buzzer: frequency %d Hz out of range (1 to 100000)", b.Frequency)
		}
	case "sim", "none":
	case "":
		c.errAt(line, "buzzer: missing required field type (active, pwm, sim or none)")
		return
	default:
		c.errAt(c.line("buzzer", "type"), "buzzer: unknown type %q (active, pwm, sim or none)", b.Type)
		return
	}
	if b.Pin != "" {
		c.take(b.Pin, "the buzzer", "", c.line("buzzer", "pin"))
	}
}

func inRanges(a int64, r [][2]uint16) bool {
	for _, x := range r {
		if a >= int64(x[0]) && a <= int64(x[1]) {
			return true
		}
	}
	return false
}

func rangesHelp(r [][2]uint16) string {
	var s []string
	for _, x := range r {
		if x[0] == x[1]-1 {
			s = append(s, fmt.Sprintf("%#x or %#x", x[0], x[1]))
		} else {
			s = append(s, fmt.Sprintf("%#x to %#x", x[0], x[1]))
		}
	}
	return strings.Join(s, ", ")
}

func connName(k conn) string {
	switch k {
	case connI2C:
		return "I²C"
	case connSPI:
		return "SPI"
	}
	return "GPIO"
}

func connHelp(k conn) string {
	var s []string
	if k&connI2C != 0 {
		s = append(s, `an I²C bus such as "/dev/i2c-1"`)
	}
	if k&connSPI != 0 {
		s = append(s, `an SPI port such as "/dev/spidev0.0"`)
	}
	if k&connGPIO != 0 {
		s = append(s, "GPIO pins, no bus")
	}
	if k&connSim != 0 {
		s = append(s, "simulated, no bus")
	}
	return strings.Join(s, " or ")
}
