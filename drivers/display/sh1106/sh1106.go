package sh1106

import (
	"errors"
	"fmt"
	"image"

	"github.com/zeitnot/zeitnot/drivers/display"
	"github.com/zeitnot/zeitnot/drivers/display/internal/oled"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/devices/v3/ssd1306/image1bit"
)

// ramCols is the width of the controller's display RAM.
const ramCols = 132

// MaxSpeed is the fastest SPI clock the driver uses, and the default: the
// SH1106 is specified for a much slower serial clock than the SSD1306's
// 10 MHz (see the package documentation).
const MaxSpeed = 4 * physic.MegaHertz

// Opts configures a panel.
type Opts struct {
	// W and H are the panel's size in pixels: W from 8 to 132-ColOffset, H a
	// multiple of 8 from 8 to 64.
	W, H int
	// Addr is the I²C address, 0x3C or 0x3D; NewSPI ignores it.
	Addr uint16
	// ColOffset is the RAM column shown at the panel's left edge: 2 on
	// 128-wide panels.
	ColOffset int
	// Speed is the SPI clock, at most MaxSpeed; 0 means MaxSpeed (4 MHz).
	// Long wires may need slower. NewI2C ignores it.
	Speed physic.Frequency
	// MirrorHorizontal and MirrorVertical flip the picture; both turn it by
	// 180°.
	MirrorHorizontal, MirrorVertical bool
}

// DefaultOpts is a 1.3" 128x64 panel at I²C address 0x3C.
var DefaultOpts = Opts{W: 128, H: 64, Addr: 0x3C, ColOffset: 2}

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
		return nil, fmt.Errorf("sh1106: I²C address %#02x is not 0x3C or 0x3D", o.Addr)
	}
	name := fmt.Sprintf("sh1106 %dx%d on %s@%#02x", o.W, o.H, b, o.Addr)
	return newDev(name, oled.NewI2C(b, o.Addr, max(o.W, len(initCmds(&o)))), &o)
}

// NewSPI opens a panel on a 4-wire SPI port with its D/C line on dc (nil
// opts means DefaultOpts).
func NewSPI(p spi.Port, dc gpio.PinOut, opts *Opts) (*Dev, error) {
	o, err := check(opts)
	if err != nil {
		return nil, err
	}
	if dc == nil || dc == gpio.INVALID {
		return nil, errors.New("sh1106: SPI needs a D/C line")
	}
	if o.Speed == 0 {
		o.Speed = MaxSpeed
	}
	if o.Speed < 0 || o.Speed > MaxSpeed {
		return nil, fmt.Errorf("sh1106: SPI clock %v is not between 0 and %v", o.Speed, MaxSpeed)
	}
	name := fmt.Sprintf("sh1106 %dx%d on %s (D/C %s)", o.W, o.H, p, dc)
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
	if o.ColOffset < 0 || o.ColOffset > ramCols-8 {
		return o, fmt.Errorf("sh1106: column offset %d is not between 0 and %d", o.ColOffset, ramCols-8)
	}
	if o.W < 8 || o.W+o.ColOffset > ramCols {
		return o, fmt.Errorf("sh1106: width %d with column offset %d does not fit the 132-column RAM", o.W, o.ColOffset)
	}
	if o.H < 8 || o.H > 64 || o.H%8 != 0 {
		return o, fmt.Errorf("sh1106: height %d is not a multiple of 8 between 8 and 64", o.H)
	}
	return o, nil
}

func newDev(name string, t oled.Transport, o *Opts) (*Dev, error) {
	c, err := oled.NewCore(name, t, oled.Config{W: o.W, H: o.H, ColOffset: o.ColOffset, Init: initCmds(o)})
	if err != nil {
		return nil, err
	}
	return &Dev{core: c}, nil
}

func initCmds(o *Opts) []byte {
	seg := byte(0xA1)
	if o.MirrorHorizontal {
		seg = 0xA0
	}
	com := byte(0xC8)
	if o.MirrorVertical {
		com = 0xC0
	}
	return []byte{
		oled.DisplayOff,
		0xD5, 0x80, // clock divide and oscillator
		0xA8, byte(o.H - 1), // multiplex ratio
		0xD3, 0x00, // no display offset
		0x40,       // start line 0
		0xAD, 0x8B, // DC-DC converter on
		0x32, // pump voltage 8.0 V
		seg, com,
		0xDA, 0x12, // COM pins: alternative
		oled.SetContrast, 0x80,
		0xD9, 0x22, // pre-charge and discharge periods
		0xDB, 0x35, // VCOM deselect level
		0xA4, // show RAM
		0xA6, // not inverted
	}
}

// String implements display.Pixel, e.g. "sh1106 128x64 on I2C1@0x3c".
func (d *Dev) String() string { return d.core.String() }

// Bounds implements display.Pixel.
func (d *Dev) Bounds() image.Rectangle { return d.core.Bounds() }

// Draw implements display.Pixel. The first Draw, and the first after an
// error, sends every page; later ones only the changed columns of changed
// pages. It turns on a display that is off (after New or Halt).
func (d *Dev) Draw(frame *image1bit.VerticalLSB) error { return d.core.Draw(frame) }

// SetBrightness implements display.Pixel by setting the contrast, 256 steps.
func (d *Dev) SetBrightness(level uint8) error { return d.core.SetContrast(level) }

// Halt implements display.Pixel: the display sleeps and keeps its RAM; the
// next Draw wakes it.
func (d *Dev) Halt() error { return d.core.Halt() }

var _ display.Pixel = (*Dev)(nil)
