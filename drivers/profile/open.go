package profile

import (
	"errors"
	"fmt"
	"strings"
	"syscall"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/i2c/i2creg"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/conn/v3/spi/spireg"
	"periph.io/x/host/v3"

	"github.com/zeitnot/zeitnot/drivers/button"
	"github.com/zeitnot/zeitnot/drivers/button/simbutton"
	"github.com/zeitnot/zeitnot/drivers/buzzer"
	"github.com/zeitnot/zeitnot/drivers/buzzer/simbuzzer"
	"github.com/zeitnot/zeitnot/drivers/display"
	"github.com/zeitnot/zeitnot/drivers/power"
)

// Devices is what Open opened. Devices that failed to open are missing
// (nil); Results says why.
type Devices struct {
	Displays []OpenDisplay // those that opened, in the order of the profile
	Buttons  button.Source // nil if the buttons did not open
	Buzzer   buzzer.Buzzer // nil if the profile has none or it did not open
	Results  []Result      // one per device: displays, buttons, buzzer, LEDs, battery, power-loss input, real-time clock

	LEDs      []OpenLED       // those that opened, in the order of the profile
	Battery   power.Gauge     // nil if the profile has none or it did not open
	PowerLoss power.LossInput // nil if the profile has none or it did not open

	closers []func() error // buses and ports, closed last
}

// OpenDisplay is an open display: Pixel or Text is set, as its Family says.
type OpenDisplay struct {
	Display
	Pixel display.Pixel
	Text  display.Text
}

// Display returns the open display with role (left, right or both), if any.
func (d *Devices) Display(role string) (OpenDisplay, bool) {
	for _, od := range d.Displays {
		if od.Role == role {
			return od, true
		}
	}
	return OpenDisplay{}, false
}

// Result is the outcome of opening one device.
type Result struct {
	Kind   string // "display", "buttons", "buzzer", "led", "battery", "power-loss" or "rtc"
	Name   string // the display's or LED's name; empty for the others
	Device string // what was found, e.g. "ssd1306 128x64 on I2C1@0x3c"
	Err    error  // why it could not be opened; nil if it was
}

// OK reports whether the device was found.
func (r Result) OK() bool { return r.Err == nil }

// String is one line for `zeitnot hardware check`: what was found, or the
// error, which names the device.
func (r Result) String() string {
	if r.Err != nil {
		return r.Err.Error()
	}
	if r.Kind == "display" || r.Kind == "led" {
		return fmt.Sprintf("%s %q: ok: %s", r.Kind, r.Name, r.Device)
	}
	return fmt.Sprintf("%s: ok: %s", r.Kind, r.Device)
}

// Open opens every device of p. It returns the devices that opened, and an
// error joining the errors of those that did not (nil when all did), so the
// clock can run with what it has. Devices is never nil; Close it.
func Open(p *Profile) (*Devices, error) {
	o := &opener{devs: &Devices{}, i2c: map[string]i2c.BusCloser{}}
	for i := range p.Displays {
		o.display(&p.Displays[i])
	}
	o.buttons(p)
	o.buzzer(p)
	o.leds(p)
	o.battery(p)
	o.powerLoss(p)
	o.rtc(p)
	var errs []error
	for _, r := range o.devs.Results {
		if r.Err != nil {
			errs = append(errs, r.Err)
		}
	}
	return o.devs, errors.Join(errs...)
}

// Check opens every device of p, reports for each whether it was found,
// and closes them again.
func Check(p *Profile) []Result {
	devs, _ := Open(p)
	devs.Close()
	return devs.Results
}

// Close releases everything Open opened. It leaves the displays showing
// what they show; Halt them first to blank them.
func (d *Devices) Close() error {
	var errs []error
	if d.Buttons != nil {
		errs = append(errs, d.Buttons.Close())
	}
	if d.Buzzer != nil {
		errs = append(errs, d.Buzzer.Close())
	}
	for _, l := range d.LEDs {
		errs = append(errs, l.Dev.Close())
	}
	d.LEDs = nil
	if d.PowerLoss != nil {
		errs = append(errs, d.PowerLoss.Close())
		d.PowerLoss = nil
	}
	for i := len(d.closers) - 1; i >= 0; i-- {
		errs = append(errs, d.closers[i]())
	}
	d.closers = nil
	return errors.Join(errs...)
}

// Ways to reach the hardware, replaced by tests.
var (
	hostInit  = func() error { _, err := host.Init(); return err }
	openI2C   = func(name string) (i2c.BusCloser, error) { return i2creg.Open(name) }
	openSPI   = func(name string) (spi.PortCloser, error) { return spireg.Open(name) }
	pinByName = func(name string) gpio.PinIO {
		if p := gpioreg.ByName(name); p != nil {
			return p
		}
		return nil
	}
)

type opener struct {
	devs    *Devices
	hostErr error
	hostOK  bool
	i2c     map[string]i2c.BusCloser
}

func (o *opener) host() error {
	if !o.hostOK && o.hostErr == nil {
		o.hostErr = hostInit()
		o.hostOK = o.hostErr == nil
	}
	return o.hostErr
}

// display opens d with the open function of its type's row in the
// registry (displayTypes).
func (o *opener) display(d *Display) {
	r := Result{Kind: "display", Name: d.Name}
	od := OpenDisplay{Display: *d}
	var err error
	if d.Bus != "" || len(d.Pins) > 0 {
		if err = o.host(); err != nil {
			err = fmt.Errorf("initializing periph: %w", err)
		}
	}
	if err == nil {
		t, ok := displayTypes[d.Type]
		switch {
		case !ok:
			err = fmt.Errorf("%s is not supported by this build", d.Type)
		case t.pixel != nil:
			od.Pixel, err = t.pixel(o, d)
		default:
			od.Text, err = t.text(o, d)
		}
	}
	if err != nil {
		r.Err = fmt.Errorf("display %q: %w", d.Name, err)
	} else {
		if od.Pixel != nil {
			r.Device = od.Pixel.String()
		} else {
			r.Device = od.Text.String()
		}
		o.devs.Displays = append(o.devs.Displays, od)
	}
	o.devs.Results = append(o.devs.Results, r)
}

// onI2C reports whether d is on an I²C bus (its Bus is normalised by Parse).
func (d *Display) onI2C() bool { return strings.HasPrefix(d.Bus, "/dev/i2c-") }

// pin returns the GPIO line of d's pin function fn.
func (o *opener) pin(d *Display, fn string) (gpio.PinIO, error) {
	name := d.Pins[fn]
	p := pinByName(name)
	if p == nil {
		return nil, fmt.Errorf("no GPIO line named %s on this machine (pin %s)", name, fn)
	}
	return p, nil
}

// spiPort opens d's SPI port; Close closes it.
func (o *opener) spiPort(d *Display) (spi.Port, error) {
	port, err := openSPI(d.Bus)
	if err != nil {
		if unregistered(err) {
			return nil, fmt.Errorf("no SPI port %s on this machine (enable it with dtparam=spi=on)", d.Bus)
		}
		return nil, fmt.Errorf("SPI port %s: %w", d.Bus, err)
	}
	o.devs.closers = append(o.devs.closers, port.Close)
	return port, nil
}

// i2cErr explains a failure to open the I²C display d.
func i2cErr(d *Display, err error) error {
	if noAnswer(err) {
		return fmt.Errorf("no I2C device answers at 0x%02X on %s", d.Address, d.Bus)
	}
	if timedOut(err) {
		// Some controllers (and QEMU's BCM2835) time out rather than
		// report a missing acknowledge.
		return fmt.Errorf("no I2C device answers at 0x%02X on %s (the transfer timed out)", d.Address, d.Bus)
	}
	return err
}

// timedOut reports whether err is the kernel's ETIMEDOUT, wrapped or, as
// periph's sysfs I²C writes it, in the text.
func timedOut(err error) bool {
	return errors.Is(err, syscall.ETIMEDOUT) || strings.Contains(err.Error(), syscall.ETIMEDOUT.Error())
}

// i2cBus opens an I²C bus once and shares it between the displays on it.
func (o *opener) i2cBus(name string) (i2c.Bus, error) {
	if b, ok := o.i2c[name]; ok {
		return b, nil
	}
	b, err := openI2C(name)
	if err != nil {
		if unregistered(err) {
			return nil, fmt.Errorf("no I2C bus %s on this machine (enable it with dtparam=i2c_arm=on)", name)
		}
		return nil, fmt.Errorf("I2C bus %s: %w", name, err)
	}
	o.i2c[name] = b
	o.devs.closers = append(o.devs.closers, b.Close)
	return b, nil
}

// noAnswer reports whether err says no device acknowledged its address:
// the kernel's EREMOTEIO or ENXIO. periph's sysfs I²C formats the errno
// into the text rather than wrapping it, so the text is checked too.
func noAnswer(err error) bool {
	if errors.Is(err, syscall.EREMOTEIO) || errors.Is(err, syscall.ENXIO) {
		return true
	}
	s := err.Error()
	return strings.Contains(s, syscall.EREMOTEIO.Error()) || strings.Contains(s, syscall.ENXIO.Error())
}

func (o *opener) buttons(p *Profile) {
	r := Result{Kind: "buttons"}
	sim := 0
	names := make([]string, len(p.Buttons))
	for i, b := range p.Buttons {
		if strings.HasPrefix(b.Line, "sim:") {
			sim++
		}
		names[i] = b.Name + " " + b.Line
	}
	switch {
	case len(p.Buttons) == 0:
		return
	case sim == len(p.Buttons):
		o.devs.Buttons = simbutton.New()
		r.Device = "simulated: " + strings.Join(names, ", ")
	case sim > 0:
		r.Err = errors.New("button: simulated (sim:) and GPIO buttons cannot be mixed")
	default:
		opts := p.ButtonOptions
		src, err := button.Open(p.Buttons, &opts)
		if err != nil {
			r.Err = err
		} else {
			o.devs.Buttons = src
			r.Device = strings.Join(names, ", ")
		}
	}
	o.devs.Results = append(o.devs.Results, r)
}

func (o *opener) buzzer(p *Profile) {
	b := p.Buzzer
	r := Result{Kind: "buzzer"}
	var bz buzzer.Buzzer
	var err error
	switch b.Type {
	case "", "none":
		return
	case "sim":
		bz = &simbuzzer.Buzzer{}
	case "active":
		opts := buzzer.DefaultOpts
		opts.ActiveLow = b.ActiveLow
		bz, err = buzzer.OpenActive(b.Pin, &opts)
	case "pwm":
		opts := buzzer.DefaultOpts
		if b.Frequency > 0 {
			opts.Frequency = physic.Frequency(b.Frequency) * physic.Hertz
		}
		bz, err = buzzer.OpenPWM(b.Chip, b.Channel, &opts)
	default:
		err = fmt.Errorf("buzzer: unknown type %q", b.Type)
	}
	if err != nil {
		r.Err = err
	} else {
		o.devs.Buzzer = bz
		r.Device = bz.String()
	}
	o.devs.Results = append(o.devs.Results, r)
}

// unregistered reports whether periph's registry does not know the bus at
// all (its messages then suggest calling Init, which was done).
func unregistered(err error) bool {
	s := err.Error()
	return strings.Contains(s, "no bus found") || strings.Contains(s, "no port found") || strings.Contains(s, "unknown bus") || strings.Contains(s, "unknown port")
}
