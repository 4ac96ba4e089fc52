package max7219

import (
	"fmt"
	"sync"

	"github.com/zeitnot/zeitnot/drivers/display"
	"github.com/zeitnot/zeitnot/drivers/display/sevenseg"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
)

// Registers.
const (
	regDigit0    = 0x01 // to 0x08
	regDecode    = 0x09
	regIntensity = 0x0A
	regScanLimit = 0x0B
	regShutdown  = 0x0C
	regTest      = 0x0F
)

// Opts configures a module.
type Opts struct {
	// Digits is the number of digits, 1 to 8.
	Digits int
	// LeftFirst means the chip's digit 0 is the leftmost, not the rightmost.
	LeftFirst bool
	// Speed is the SPI clock, at most MaxSpeed; 0 means 1 MHz (the chip
	// takes 10 MHz, but slower is kinder to 3.3 V logic and long wires).
	Speed physic.Frequency
}

// MaxSpeed is the datasheet's fastest serial clock.
const MaxSpeed = 10 * physic.MegaHertz

// DefaultOpts is the common 8-digit module.
var DefaultOpts = Opts{Digits: 8}

// Dev is an open module. It is safe for concurrent use.
type Dev struct {
	mu     sync.Mutex
	name   string
	c      spi.Conn
	digits int
	left   bool
	on     bool
	valid  bool
	shown  [8]byte // per register, segments in the chip's order
	w      [2]byte
}

// New opens a module on an SPI port (nil opts means DefaultOpts). It turns
// off the test mode and decoding, sets the scan limit, blanks all digits and
// sets full brightness, leaving the display shut down until the first Show.
func New(p spi.Port, opts *Opts) (*Dev, error) {
	if opts == nil {
		opts = &DefaultOpts
	}
	if opts.Digits < 1 || opts.Digits > 8 {
		return nil, fmt.Errorf("max7219: %d digits; it drives 1 to 8", opts.Digits)
	}
	d := &Dev{name: fmt.Sprintf("max7219 on %s", p), digits: opts.Digits, left: opts.LeftFirst}
	speed := opts.Speed
	if speed == 0 {
		speed = physic.MegaHertz
	}
	if speed < 0 || speed > MaxSpeed {
		return nil, fmt.Errorf("max7219: SPI clock %v is not between 0 and %v", speed, MaxSpeed)
	}
	c, err := p.Connect(speed, spi.Mode0, 8)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", d.name, err)
	}
	d.c = c
	for _, rv := range [][2]byte{
		{regShutdown, 0},
		{regTest, 0},
		{regDecode, 0},
		{regScanLimit, byte(d.digits - 1)},
		{regIntensity, 15},
	} {
		if err := d.write(rv[0], rv[1]); err != nil {
			return nil, err
		}
	}
	for r := range 8 {
		if err := d.write(regDigit0+byte(r), 0); err != nil {
			return nil, err
		}
	}
	d.valid = true
	return d, nil
}

func (d *Dev) write(reg, v byte) error {
	d.w = [2]byte{reg, v}
	if err := d.c.Tx(d.w[:], nil); err != nil {
		d.valid = false
		return fmt.Errorf("%s: register %#02x: %w", d.name, reg, err)
	}
	return nil
}

// String implements display.Text, e.g. "max7219 on SPI0.0".
func (d *Dev) String() string { return d.name }

// Size implements display.Text.
func (d *Dev) Size() (cols, lines int) { return d.digits, 1 }

// Show implements display.Text. Only the digits that changed are sent.
func (d *Dev) Show(text string) error {
	l := sevenseg.Parse(text, d.digits)
	l.FoldColons(0)
	d.mu.Lock()
	defer d.mu.Unlock()
	for i := range d.digits {
		r := d.digits - 1 - i // the rightmost digit is digit 0
		if d.left {
			r = i
		}
		v := sevenseg.ToMAX7219(l.Cells[i])
		if d.valid && d.shown[r] == v {
			continue
		}
		if err := d.write(regDigit0+byte(r), v); err != nil {
			return err
		}
		d.shown[r] = v
	}
	d.valid = true
	if !d.on {
		if err := d.write(regShutdown, 1); err != nil {
			return err
		}
		d.on = true
	}
	return nil
}

// SetBrightness implements display.Text: 16 steps, level/16.
func (d *Dev) SetBrightness(level uint8) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.write(regIntensity, level>>4)
}

// Halt implements display.Text: the chip shuts down (blank, 150 µA),
// keeping its digits for the next Show.
func (d *Dev) Halt() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.on = false
	return d.write(regShutdown, 0)
}

var _ display.Text = (*Dev)(nil)
