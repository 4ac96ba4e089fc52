package ht16k33

import (
	"fmt"
	"sync"

	"github.com/zeitnot/zeitnot/drivers/display"
	"github.com/zeitnot/zeitnot/drivers/display/sevenseg"
	"periph.io/x/conn/v3/i2c"
)

// Commands.
const (
	cmdOscillatorOn = 0x21
	cmdDisplayOff   = 0x80
	cmdDisplayOn    = 0x81 // no blinking
	cmdDimming      = 0xE0 // + 0..15
)

// colonRow is the RAM row of the colon, and colonBit its segment.
const (
	colonRow = 2
	colonBit = 0x02
)

// Opts configures a backpack.
type Opts struct {
	// Addr is the I²C address, 0x70 to 0x77.
	Addr uint16
}

// DefaultOpts is a backpack with no address jumper closed.
var DefaultOpts = Opts{Addr: 0x70}

// Dev is an open backpack. It is safe for concurrent use.
type Dev struct {
	mu    sync.Mutex
	name  string
	dev   i2c.Dev
	on    bool
	valid bool
	shown [5]byte  // rows 0 to 4, low byte of each
	buf   [11]byte // address, then 5 rows of 2 bytes
}

// ramBytes is the size of the display RAM: 8 rows of 16 bits.
const ramBytes = 16

// New opens a backpack on b (nil opts means DefaultOpts): it starts the
// oscillator, clears all 16 bytes of display RAM (it powers up random; the
// digits use only rows 0 to 4), sets full brightness, and leaves the display
// off until the first Show.
func New(b i2c.Bus, opts *Opts) (*Dev, error) {
	if opts == nil {
		opts = &DefaultOpts
	}
	if opts.Addr < 0x70 || opts.Addr > 0x77 {
		return nil, fmt.Errorf("ht16k33: I²C address %#02x is not between 0x70 and 0x77", opts.Addr)
	}
	d := &Dev{
		name: fmt.Sprintf("ht16k33 on %s@%#02x", b, opts.Addr),
		dev:  i2c.Dev{Bus: b, Addr: opts.Addr},
	}
	for _, c := range []byte{cmdOscillatorOn, cmdDisplayOff, cmdDimming | 15} {
		if err := d.command(c); err != nil {
			return nil, err
		}
	}
	// Address 0, then every RAM byte.
	var clear [1 + ramBytes]byte
	if err := d.dev.Tx(clear[:], nil); err != nil {
		return nil, fmt.Errorf("%s: clear display RAM: %w", d.name, err)
	}
	d.valid = true
	return d, nil
}

func (d *Dev) command(c byte) error {
	d.buf[0] = c
	if err := d.dev.Tx(d.buf[:1], nil); err != nil {
		return fmt.Errorf("%s: command %#02x: %w", d.name, c, err)
	}
	return nil
}

// send writes rows 0 to 4 from shown.
func (d *Dev) send() error {
	d.buf = [11]byte{}
	for r, v := range d.shown {
		d.buf[1+2*r] = v
	}
	if err := d.dev.Tx(d.buf[:], nil); err != nil {
		d.valid = false
		return fmt.Errorf("%s: write digits: %w", d.name, err)
	}
	d.valid = true
	return nil
}

// String implements display.Text, e.g. "ht16k33 on I2C1@0x70".
func (d *Dev) String() string { return d.name }

// Size implements display.Text.
func (d *Dev) Size() (cols, lines int) { return 4, 1 }

// Show implements display.Text.
func (d *Dev) Show(text string) error {
	l := sevenseg.Parse(text, 4)
	l.FoldColons(1 << 1)
	next := [5]byte{l.Cells[0], l.Cells[1], 0, l.Cells[2], l.Cells[3]}
	if l.Colons != 0 {
		next[colonRow] = colonBit
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.valid || next != d.shown {
		d.shown = next
		if err := d.send(); err != nil {
			return err
		}
	}
	if !d.on {
		if err := d.command(cmdDisplayOn); err != nil {
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
	return d.command(cmdDimming | level>>4)
}

// Halt implements display.Text: the display turns off, keeping its digits
// for the next Show.
func (d *Dev) Halt() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.on = false
	return d.command(cmdDisplayOff)
}

var _ display.Text = (*Dev)(nil)
