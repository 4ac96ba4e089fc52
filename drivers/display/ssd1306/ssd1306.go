package ssd1306

import (
	"errors"
	"fmt"
	"image"
	"strings"

	"github.com/zeitnot/zeitnot/drivers/display"
	"github.com/zeitnot/zeitnot/drivers/display/internal/oled"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/devices/v3/ssd1306/image1bit"
)

// Opts configures a panel.
type Opts struct {
	// W and H are the panel's size in pixels, one of Sizes: 128x64, 128x32,
	// 96x16, 72x40, 64x48 or 64x32. A panel narrower than the controller's
	// 128 columns or shorter than its 64 rows is wired to some of its
	// segment and COM pins, which the driver must know; see the package
	// documentation.
	W, H int
	// Addr is the I²C address, 0x3C or 0x3D; NewSPI ignores it.
	Addr uint16
	// Speed is the SPI clock, at most MaxSpeed; 0 means DefaultSpeed.
	// NewI2C ignores it: the bus speed is the bus's.
	Speed physic.Frequency
	// MirrorHorizontal and MirrorVertical flip the picture; both turn it by
	// 180°.
	MirrorHorizontal, MirrorVertical bool
	// COMPins is the COM pins hardware configuration (command 0xDA's
	// argument). 0 picks the size's (see Sizes), which suits nearly every
	// module.
	COMPins byte
}

// panel is how a panel of one size is wired to the controller, as the
// widely used drivers (u8g2's u8x8_d_ssd1306_*.c) set it up.
type panel struct {
	w, h int
	// col is the RAM column shown at the panel's left edge with the
	// default segment remap (0xA1: RAM column 127 drives SEG0), colMirror
	// with MirrorHorizontal (0xA0). They differ when the panel is not
	// centred on the 128 segments.
	col, colMirror int
	com            byte // COM pins configuration, command 0xDA's argument
}

// panels are the sizes the driver knows. Multiplex ratio is H-1 and the
// display offset 0 on all of them.
var panels = []panel{
	{w: 128, h: 64, col: 0, colMirror: 0, com: 0x12},
	{w: 128, h: 32, col: 0, colMirror: 0, com: 0x02},
	{w: 96, h: 16, col: 0, colMirror: 32, com: 0x02}, // SEG32 to SEG127
	{w: 72, h: 40, col: 28, colMirror: 28, com: 0x12},
	{w: 64, h: 48, col: 32, colMirror: 32, com: 0x12},
	{w: 64, h: 32, col: 32, colMirror: 32, com: 0x12},
}

// Sizes returns the panel sizes the driver knows, as width and height in
// pixels, largest first.
func Sizes() []image.Point {
	s := make([]image.Point, len(panels))
	for i, p := range panels {
		s[i] = image.Pt(p.w, p.h)
	}
	return s
}

// CheckSize returns an error naming the known sizes if w x h is not one of
// them.
func CheckSize(w, h int) error {
	if _, ok := findPanel(w, h); ok {
		return nil
	}
	known := make([]string, len(panels))
	for i, p := range panels {
		known[i] = fmt.Sprintf("%dx%d", p.w, p.h)
	}
	return fmt.Errorf("ssd1306: no known panel is %dx%d (known: %s)", w, h, strings.Join(known, ", "))
}

func findPanel(w, h int) (panel, bool) {
	for _, p := range panels {
		if p.w == w && p.h == h {
			return p, true
		}
	}
	return panel{}, false
}

// SPI clocks: the datasheet's shortest 4-wire serial clock cycle is 100 ns
// (10 MHz); the default leaves a margin for jumper wires.
const (
	MaxSpeed     = 10 * physic.MegaHertz
	DefaultSpeed = 8 * physic.MegaHertz
)

// DefaultOpts is a 128x64 panel at I²C address 0x3C.
var DefaultOpts = Opts{W: 128, H: 64, Addr: 0x3C}

// Dev is an open panel. It is safe for concurrent use.
type Dev struct {
	core *oled.Core
}

// NewI2C opens a panel on an I²C bus at opts.Addr (nil opts means
// DefaultOpts). It sends the init sequence, which leaves the display off
// until the first Draw.
func NewI2C(b i2c.Bus, opts *Opts) (*Dev, error) {
	o, err := check(opts)
	if err != nil {
		return nil, err
	}
	if o.Addr != 0x3C && o.Addr != 0x3D {
		return nil, fmt.Errorf("ssd1306: I²C address %#02x is not 0x3C or 0x3D", o.Addr)
	}
	name := fmt.Sprintf("ssd1306 %dx%d on %s@%#02x", o.W, o.H, b, o.Addr)
	// A window of the whole panel goes in one write.
	return newDev(name, oled.NewI2C(b, o.Addr, max(o.W*o.H/8, len(initCmds(&o))+16)), &o)
}

// NewSPI opens a panel on a 4-wire SPI port with its D/C line on dc (nil
// opts means DefaultOpts). Wire SDA (or D1) to MOSI, SCK (or D0) to SCLK, CS
// to the port's chip select, and keep RES high. It sends the init sequence,
// which leaves the display off until the first Draw.
func NewSPI(p spi.Port, dc gpio.PinOut, opts *Opts) (*Dev, error) {
	o, err := check(opts)
	if err != nil {
		return nil, err
	}
	if dc == nil || dc == gpio.INVALID {
		return nil, errors.New("ssd1306: SPI needs a D/C line")
	}
	if o.Speed == 0 {
		o.Speed = DefaultSpeed
	}
	if o.Speed < 0 || o.Speed > MaxSpeed {
		return nil, fmt.Errorf("ssd1306: SPI clock %v is not between 0 and %v", o.Speed, MaxSpeed)
	}
	name := fmt.Sprintf("ssd1306 %dx%d on %s (D/C %s)", o.W, o.H, p, dc)
	t, err := oled.NewSPI(p, dc, o.Speed)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return newDev(name, t, &o)
}

func check(opts *Opts) (Opts, error) {
	if opts == nil {
		opts = &DefaultOpts
	}
	o := *opts
	if err := CheckSize(o.W, o.H); err != nil {
		return o, err
	}
	return o, nil
}

func newDev(name string, t oled.Transport, o *Opts) (*Dev, error) {
	p, _ := findPanel(o.W, o.H)
	col := p.col
	if o.MirrorHorizontal {
		col = p.colMirror
	}
	c, err := oled.NewCore(name, t, oled.Config{W: o.W, H: o.H, ColOffset: col, Init: initCmds(o), Windows: true})
	if err != nil {
		return nil, err
	}
	return &Dev{core: c}, nil
}

// initCmds follows the power-up flow of the datasheet's application note:
// everything set explicitly so a warm restart starts from a known state.
// oled.NewCore appends the addressing mode and windows.
func initCmds(o *Opts) []byte {
	seg := byte(0xA1) // column 127 drives SEG0
	if o.MirrorHorizontal {
		seg = 0xA0
	}
	com := byte(0xC8) // scan from COM[N-1] to COM0
	if o.MirrorVertical {
		com = 0xC0
	}
	pins := o.COMPins
	if pins == 0 {
		p, _ := findPanel(o.W, o.H)
		pins = p.com
	}
	return []byte{
		oled.DisplayOff,
		0xD5, 0x80, // clock divide and oscillator: reset value
		0xA8, byte(o.H - 1), // multiplex ratio
		0xD3, 0x00, // no display offset
		0x40,       // start line 0
		0x8D, 0x14, // charge pump on (internal VCC)
		seg, com,
		0xDA, pins,
		oled.SetContrast, 0xCF,
		0xD9, 0xF1, // pre-charge for internal VCC
		0xDB, 0x40, // VCOMH deselect level
		0x2E, // no scrolling
		0xA4, // show RAM
		0xA6, // not inverted
	}
}

// String implements display.Pixel, e.g. "ssd1306 128x64 on I2C1@0x3d".
func (d *Dev) String() string { return d.core.String() }

// Bounds implements display.Pixel.
func (d *Dev) Bounds() image.Rectangle { return d.core.Bounds() }

// Draw implements display.Pixel. The first Draw, and the first after an
// error, sends the whole panel; later ones only what changed, as spans of
// pages or as windows, whichever costs the fewest bytes. It turns on a
// display that is off (after New or Halt).
func (d *Dev) Draw(frame *image1bit.VerticalLSB) error { return d.core.Draw(frame) }

// SetBrightness implements display.Pixel by setting the contrast, 256 steps.
func (d *Dev) SetBrightness(level uint8) error { return d.core.SetContrast(level) }

// Halt implements display.Pixel: the display sleeps (a few µA) and keeps its
// RAM; the next Draw wakes it.
func (d *Dev) Halt() error { return d.core.Halt() }

var _ display.Pixel = (*Dev)(nil)
