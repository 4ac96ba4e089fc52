package profile

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"

	"github.com/zeitnot/zeitnot/drivers/display"
	"github.com/zeitnot/zeitnot/drivers/display/hd44780"
	"github.com/zeitnot/zeitnot/drivers/display/ht16k33"
	"github.com/zeitnot/zeitnot/drivers/display/max7219"
	"github.com/zeitnot/zeitnot/drivers/display/sh1106"
	"github.com/zeitnot/zeitnot/drivers/display/simdisplay"
	"github.com/zeitnot/zeitnot/drivers/display/ssd1306"
	"github.com/zeitnot/zeitnot/drivers/display/tm1637"
)

// conn is how a display may be connected, as a set of bits.
type conn uint8

const (
	connI2C  conn = 1 << iota // on an I²C bus
	connSPI                   // on an SPI port
	connGPIO                  // bit-banged on GPIO lines
	connSim                   // simulated
)

// displayType is one row of the display registry: everything the clock
// knows about one display type. Parse checks a profile's display against
// its row, Open opens it with the row's open function, and
// Display.Family tells the clock how to lay a face out on it.
type displayType struct {
	family  display.Family
	conns   conn
	pins    []string    // required GPIO lines, however it is connected
	spiPins []string    // required GPIO lines on SPI only (besides the bus)
	optPins []string    // optional GPIO lines; none on I²C
	addrs   [][2]uint16 // I²C address ranges
	defAddr uint16
	size    Size // default
	maxW    int  // largest width (pixels or cells)
	maxH    int  // largest height (pixels, a multiple of 8; or lines)
	// checkSize, if set, refuses the sizes the chip's driver does not know.
	checkSize func(w, h int) error
	// maxSpeed is the fastest SPI clock a profile's speed_hz may ask for.
	maxSpeed physic.Frequency

	// diagonal is the panel's usual diagonal in inches at a size, for
	// pixel panels whose marks are sized to be seen from afar; nil: not
	// known.
	diagonal func(Size) float64

	// Exactly one opens the display: pixel for family Pixels, text for the
	// others. A test holds every row to it.
	pixel func(o *opener, d *Display) (display.Pixel, error)
	text  func(o *opener, d *Display) (display.Text, error)
}

// displayTypes is the display registry: every display type a profile may
// name. A new chip is one row here, with its open function below.
var displayTypes = map[string]displayType{
	"ssd1306": {family: display.Pixels, conns: connI2C | connSPI, spiPins: []string{"dc"}, optPins: []string{"reset"},
		addrs: [][2]uint16{{0x3C, 0x3D}}, defAddr: 0x3C, size: Size{128, 64}, maxW: 128, maxH: 64,
		checkSize: ssd1306.CheckSize, maxSpeed: ssd1306.MaxSpeed,
		diagonal: ssd1306Diagonal, pixel: openSSD1306},
	"sh1106": {family: display.Pixels, conns: connI2C | connSPI, spiPins: []string{"dc"}, optPins: []string{"reset"},
		addrs: [][2]uint16{{0x3C, 0x3D}}, defAddr: 0x3C, size: Size{128, 64}, maxW: 130, maxH: 64,
		maxSpeed: sh1106.MaxSpeed, diagonal: func(Size) float64 { return 1.3 }, pixel: openSH1106},
	"tm1637": {family: display.Segments, conns: connGPIO, pins: []string{"clk", "dio"},
		size: Size{4, 1}, maxW: 6, maxH: 1,
		text: openTM1637},
	"max7219": {family: display.Segments, conns: connSPI,
		size: Size{8, 1}, maxW: 8, maxH: 1, maxSpeed: max7219.MaxSpeed,
		text: openMAX7219},
	"ht16k33": {family: display.Segments, conns: connI2C, addrs: [][2]uint16{{0x70, 0x77}}, defAddr: 0x70,
		size: Size{4, 1}, maxW: 4, maxH: 1,
		text: openHT16K33},
	"hd44780": {family: display.Characters, conns: connGPIO, pins: []string{"rs", "e", "d4", "d5", "d6", "d7"}, optPins: []string{"backlight"},
		size: Size{16, 2}, maxW: 40, maxH: 4,
		text: openHD44780},
	"hd44780-pcf8574": {family: display.Characters, conns: connI2C, addrs: [][2]uint16{{0x20, 0x27}, {0x38, 0x3F}}, defAddr: 0x27,
		size: Size{16, 2}, maxW: 40, maxH: 4,
		text: openHD44780PCF8574},
	"sim-oled": {family: display.Pixels, conns: connSim,
		size: Size{128, 64}, maxW: 256, maxH: 128,
		diagonal: ssd1306Diagonal, pixel: openSimPixel}, // the simulator plays the reference build's panels
	"sim-segment": {family: display.Segments, conns: connSim,
		size: Size{4, 1}, maxW: 16, maxH: 1,
		text: openSimText},
	"sim-lcd": {family: display.Characters, conns: connSim,
		size: Size{16, 2}, maxW: 40, maxH: 4,
		text: openSimText},
}

// isPixel reports whether the type is a pixel display.
func (t *displayType) isPixel() bool { return t.family == display.Pixels }

// Types returns the display types a profile may name.
func Types() []string { return slices.Sorted(maps.Keys(displayTypes)) }

// Family returns the family of d's type: what it shows, and so how the
// clock lays a face out on it. It is 0 for a type the registry does not
// know.
func (d *Display) Family() display.Family { return displayTypes[d.Type].family }

// Pixel reports whether d is a pixel display (display.Pixel) rather than a
// text one (display.Text).
func (d *Display) Pixel() bool { return d.Family() == display.Pixels }

// Simulated reports whether d is one of the simulator's displays, which
// need no hardware.
func (d *Display) Simulated() bool { return displayTypes[d.Type].conns == connSim }

func openSSD1306(o *opener, d *Display) (display.Pixel, error) {
	opts := ssd1306.DefaultOpts
	opts.W, opts.H = d.Size.W, d.Size.H
	if d.onI2C() {
		bus, err := o.i2cBus(d.Bus)
		if err != nil {
			return nil, err
		}
		opts.Addr = d.Address
		dev, err := ssd1306.NewI2C(bus, &opts)
		if err != nil {
			return nil, i2cErr(d, err)
		}
		return dev, nil
	}
	port, dc, err := o.oledSPI(d)
	if err != nil {
		return nil, err
	}
	opts.Speed = physic.Frequency(d.SpeedHz) * physic.Hertz
	dev, err := ssd1306.NewSPI(port, dc, &opts)
	if err != nil {
		return nil, err
	}
	return dev, nil
}

func openSH1106(o *opener, d *Display) (display.Pixel, error) {
	opts := sh1106.DefaultOpts
	opts.W, opts.H = d.Size.W, d.Size.H
	if d.onI2C() {
		bus, err := o.i2cBus(d.Bus)
		if err != nil {
			return nil, err
		}
		opts.Addr = d.Address
		dev, err := sh1106.NewI2C(bus, &opts)
		if err != nil {
			return nil, i2cErr(d, err)
		}
		return dev, nil
	}
	port, dc, err := o.oledSPI(d)
	if err != nil {
		return nil, err
	}
	opts.Speed = physic.Frequency(d.SpeedHz) * physic.Hertz
	dev, err := sh1106.NewSPI(port, dc, &opts)
	if err != nil {
		return nil, err
	}
	return dev, nil
}

// oledSPI opens the SPI port and D/C line of an OLED, and pulses its reset
// line if it has one.
func (o *opener) oledSPI(d *Display) (spi.Port, gpio.PinOut, error) {
	port, err := o.spiPort(d)
	if err != nil {
		return nil, nil, err
	}
	dc, err := o.pin(d, "dc")
	if err != nil {
		return nil, nil, err
	}
	if name, ok := d.Pins["reset"]; ok {
		rst, err := o.pin(d, "reset")
		if err != nil {
			return nil, nil, err
		}
		// RES# low for at least 3 µs resets the controller.
		if err := rst.Out(gpio.Low); err != nil {
			return nil, nil, fmt.Errorf("pin reset %s: %w", name, err)
		}
		time.Sleep(time.Millisecond)
		if err := rst.Out(gpio.High); err != nil {
			return nil, nil, fmt.Errorf("pin reset %s: %w", name, err)
		}
		time.Sleep(time.Millisecond)
	}
	return port, dc, nil
}

func openTM1637(o *opener, d *Display) (display.Text, error) {
	clk, err := o.pin(d, "clk")
	if err != nil {
		return nil, err
	}
	dio, err := o.pin(d, "dio")
	if err != nil {
		return nil, err
	}
	opts := tm1637.DefaultOpts
	opts.Digits = d.Size.W
	dev, err := tm1637.New(clk, dio, &opts)
	if err != nil {
		return nil, err
	}
	return dev, nil
}

func openMAX7219(o *opener, d *Display) (display.Text, error) {
	port, err := o.spiPort(d)
	if err != nil {
		return nil, err
	}
	opts := max7219.DefaultOpts
	opts.Digits = d.Size.W
	opts.Speed = physic.Frequency(d.SpeedHz) * physic.Hertz
	dev, err := max7219.New(port, &opts)
	if err != nil {
		return nil, err
	}
	return dev, nil
}

func openHT16K33(o *opener, d *Display) (display.Text, error) {
	bus, err := o.i2cBus(d.Bus)
	if err != nil {
		return nil, err
	}
	opts := ht16k33.DefaultOpts
	opts.Addr = d.Address
	dev, err := ht16k33.New(bus, &opts)
	if err != nil {
		return nil, i2cErr(d, err)
	}
	return dev, nil
}

func openHD44780(o *opener, d *Display) (display.Text, error) {
	var p [7]gpio.PinOut
	for i, fn := range []string{"rs", "e", "d4", "d5", "d6", "d7"} {
		pin, err := o.pin(d, fn)
		if err != nil {
			return nil, err
		}
		p[i] = pin
	}
	if _, ok := d.Pins["backlight"]; ok {
		pin, err := o.pin(d, "backlight")
		if err != nil {
			return nil, err
		}
		p[6] = pin
	}
	opts := hd44780.DefaultOpts
	opts.Cols, opts.Lines = d.Size.W, d.Size.H
	dev, err := hd44780.NewGPIO(p[0], p[1], [4]gpio.PinOut{p[2], p[3], p[4], p[5]}, p[6], &opts)
	if err != nil {
		return nil, err
	}
	return dev, nil
}

func openHD44780PCF8574(o *opener, d *Display) (display.Text, error) {
	bus, err := o.i2cBus(d.Bus)
	if err != nil {
		return nil, err
	}
	opts := hd44780.DefaultOpts
	opts.Cols, opts.Lines, opts.Addr = d.Size.W, d.Size.H, d.Address
	dev, err := hd44780.NewPCF8574(bus, &opts)
	if err != nil {
		return nil, i2cErr(d, err)
	}
	return dev, nil
}

func openSimPixel(_ *opener, d *Display) (display.Pixel, error) {
	return simdisplay.NewPixel(fmt.Sprintf("%s %s (%s)", d.Type, d.Size, d.Name), d.Size.W, d.Size.H), nil
}

func openSimText(_ *opener, d *Display) (display.Text, error) {
	return simdisplay.NewText(fmt.Sprintf("%s %s (%s)", d.Type, d.Size, d.Name), d.Size.W, d.Size.H), nil
}

// ssd1306Diagonal: the common SSD1306 modules are 0.96" at 128x64 and
// 0.91" at 128x32.
func ssd1306Diagonal(s Size) float64 {
	if s.H <= 32 {
		return 0.91
	}
	return 0.96
}

// Diagonal is the usual diagonal in inches of d's panel, or 0 when the
// registry does not know it (text displays, odd sizes).
func (d Display) Diagonal() float64 {
	if t, ok := displayTypes[d.Type]; ok && t.diagonal != nil {
		return t.diagonal(d.Size)
	}
	return 0
}
