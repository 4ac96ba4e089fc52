package tm1637

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/zeitnot/zeitnot/drivers/display"
	"github.com/zeitnot/zeitnot/drivers/display/sevenseg"
	"periph.io/x/conn/v3/gpio"
)

// Commands.
const (
	cmdData    = 0x40 // write data, auto-increment address
	cmdAddress = 0xC0 // + digit address
	cmdDisplay = 0x80 // display control: off
	displayOn  = 0x08 // + brightness 0..7
)

// Opts configures a module.
type Opts struct {
	// Digits is the number of digits, 1 to 6.
	Digits int
	// Colons has bit i set for a colon between digit i and digit i+1 (from
	// 0, left to right), lit through digit i's decimal point segment. 4-digit
	// clock modules have 1<<1.
	Colons uint16
	// Order maps each digit, left to right, to its address on the chip;
	// nil means in order (0, 1, 2, ...).
	Order []int
	// HalfCycle is half a clock period; 0 means 5µs (100 kHz). The chip
	// takes up to 250 kHz; long wires may need slower.
	HalfCycle time.Duration
}

// DefaultOpts is a 4-digit clock module.
var DefaultOpts = Opts{Digits: 4, Colons: 1 << 1}

// Dev is an open module. It is safe for concurrent use.
type Dev struct {
	mu     sync.Mutex
	name   string
	clk    gpio.PinOut
	dio    gpio.PinIO
	digits int
	colons uint16
	order  [6]int
	half   time.Duration
	level  byte // brightness 0..7
	on     bool
	valid  bool // shown holds what the chip shows
	shown  [6]byte
	buf    [7]byte
}

// New opens a module on clk and dio (nil opts means DefaultOpts). It turns
// the display off, which checks that the chip acknowledges; the first Show
// turns it on.
func New(clk gpio.PinOut, dio gpio.PinIO, opts *Opts) (*Dev, error) {
	if opts == nil {
		opts = &DefaultOpts
	}
	if clk == nil || dio == nil || clk == gpio.INVALID || dio == gpio.INVALID {
		return nil, errors.New("tm1637: needs a CLK and a DIO line")
	}
	d := &Dev{
		name:   fmt.Sprintf("tm1637 on %s/%s", clk.Name(), dio.Name()),
		clk:    clk,
		dio:    dio,
		digits: opts.Digits,
		colons: opts.Colons,
		half:   opts.HalfCycle,
		level:  7,
	}
	if d.digits < 1 || d.digits > 6 {
		return nil, fmt.Errorf("tm1637: %d digits; it drives 1 to 6", d.digits)
	}
	if d.half <= 0 {
		d.half = 5 * time.Microsecond
	}
	seen := 0
	for i := range d.digits {
		d.order[i] = i
		if opts.Order != nil {
			if len(opts.Order) != d.digits {
				return nil, fmt.Errorf("tm1637: Order has %d entries for %d digits", len(opts.Order), d.digits)
			}
			a := opts.Order[i]
			if a < 0 || a >= 6 || seen&(1<<a) != 0 {
				return nil, fmt.Errorf("tm1637: Order %v is not a permutation of addresses 0 to 5", opts.Order)
			}
			seen |= 1 << a
			d.order[i] = a
		}
	}
	if err := d.idle(); err != nil {
		return nil, err
	}
	if err := d.command(cmdDisplay); err != nil {
		return nil, err
	}
	return d, nil
}

// String implements display.Text, e.g. "tm1637 on GPIO23/GPIO24".
func (d *Dev) String() string { return d.name }

// Size implements display.Text.
func (d *Dev) Size() (cols, lines int) { return d.digits, 1 }

// Show implements display.Text. Characters without a 7-segment form are
// blank (see sevenseg.Glyph).
func (d *Dev) Show(text string) error {
	l := sevenseg.Parse(text, d.digits)
	l.FoldColons(d.colons)
	var next [6]byte
	for i := range d.digits {
		seg := l.Cells[i]
		if l.Colons&(1<<i) != 0 {
			seg |= sevenseg.DP
		}
		next[d.order[i]] = seg
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.valid || next != d.shown {
		n := 0
		for i := range d.digits {
			n = max(n, d.order[i]+1)
		}
		d.valid = false
		if err := d.command(cmdData); err != nil {
			return err
		}
		d.buf[0] = cmdAddress
		copy(d.buf[1:], next[:n])
		if err := d.write(d.buf[:1+n]); err != nil {
			return err
		}
		d.shown, d.valid = next, true
	}
	if !d.on {
		if err := d.command(cmdDisplay | displayOn | d.level); err != nil {
			return err
		}
		d.on = true
	}
	return nil
}

// SetBrightness implements display.Text: 8 steps, level/32. It turns the
// display on.
func (d *Dev) SetBrightness(level uint8) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.level = level >> 5
	d.on = false
	if err := d.command(cmdDisplay | displayOn | d.level); err != nil {
		return err
	}
	d.on = true
	return nil
}

// Halt implements display.Text: the display goes off, keeping its digits
// for the next Show.
func (d *Dev) Halt() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.on = false
	return d.command(cmdDisplay)
}

// Bit-banging. The lines idle high; between bytes CLK is low.

func (d *Dev) wait() { spin(d.half) }

func (d *Dev) pinErr(what string, err error) error {
	d.valid = false
	return fmt.Errorf("%s: %s: %w", d.name, what, err)
}

func (d *Dev) idle() error {
	if err := d.dio.Out(gpio.High); err != nil {
		return d.pinErr("DIO", err)
	}
	if err := d.clk.Out(gpio.High); err != nil {
		return d.pinErr("CLK", err)
	}
	return nil
}

func (d *Dev) command(c byte) error {
	d.buf[0] = c
	return d.write(d.buf[:1])
}

// write sends one start, the bytes, and a stop.
func (d *Dev) write(b []byte) error {
	// Start: DIO falls while CLK is high.
	if err := d.idle(); err != nil {
		return err
	}
	d.wait()
	if err := d.dio.Out(gpio.Low); err != nil {
		return d.pinErr("DIO", err)
	}
	d.wait()
	for _, c := range b {
		if err := d.writeByte(c); err != nil {
			return err
		}
	}
	// Stop: DIO rises while CLK is high.
	if err := d.clk.Out(gpio.Low); err != nil {
		return d.pinErr("CLK", err)
	}
	if err := d.dio.Out(gpio.Low); err != nil {
		return d.pinErr("DIO", err)
	}
	d.wait()
	if err := d.clk.Out(gpio.High); err != nil {
		return d.pinErr("CLK", err)
	}
	d.wait()
	if err := d.dio.Out(gpio.High); err != nil {
		return d.pinErr("DIO", err)
	}
	d.wait()
	return nil
}

// writeByte clocks out c least significant bit first, then reads the
// acknowledge on the ninth clock.
//
// The datasheet (V2.4): "an answering signal ACK is generated inside the
// chip to lower the DIO pin at the failing edge of the 8th clock. DIO
// interface wire is released at the end of the 9th clock." So DIO must not
// be driven high when CLK falls after the 8th bit. When bit 7 is 1 the line
// is let go while CLK is still high: the pull-up keeps it high, so nothing
// changes on the wire, and the chip is then free to pull it low. When bit 7
// is 0 letting go then would let the pull-up raise DIO while CLK is high,
// which is a stop; the line is let go just after CLK falls instead, while
// host and chip both hold it low, which draws no current.
func (d *Dev) writeByte(c byte) error {
	for i := range 8 {
		if err := d.clk.Out(gpio.Low); err != nil {
			return d.pinErr("CLK", err)
		}
		if err := d.dio.Out(c&(1<<i) != 0); err != nil {
			return d.pinErr("DIO", err)
		}
		d.wait()
		if err := d.clk.Out(gpio.High); err != nil {
			return d.pinErr("CLK", err)
		}
		d.wait()
	}
	high := c&0x80 != 0
	if high {
		if err := d.dio.In(gpio.PullUp, gpio.NoEdge); err != nil {
			return d.pinErr("DIO", err)
		}
	}
	if err := d.clk.Out(gpio.Low); err != nil {
		return d.pinErr("CLK", err)
	}
	if !high {
		if err := d.dio.In(gpio.PullUp, gpio.NoEdge); err != nil {
			return d.pinErr("DIO", err)
		}
	}
	d.wait()
	if err := d.clk.Out(gpio.High); err != nil {
		return d.pinErr("CLK", err)
	}
	d.wait()
	ack := d.dio.Read() == gpio.Low
	// The chip lets go of DIO as CLK falls at the end of the ninth clock;
	// only then is it driven again.
	if err := d.clk.Out(gpio.Low); err != nil {
		return d.pinErr("CLK", err)
	}
	if err := d.dio.Out(gpio.Low); err != nil {
		return d.pinErr("DIO", err)
	}
	if !ack {
		d.valid = false
		// Leave the lines idle for the next try.
		_ = d.idle()
		return fmt.Errorf("%s: no acknowledge for byte %#02x: is the module wired and powered?", d.name, c)
	}
	return nil
}

// spin waits d without giving up the CPU: sleeping is far too coarse for
// microseconds.
func spin(d time.Duration) {
	for start := time.Now(); time.Since(start) < d; {
	}
}

var _ display.Text = (*Dev)(nil)
