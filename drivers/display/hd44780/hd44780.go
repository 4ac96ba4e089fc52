package hd44780

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/zeitnot/zeitnot/drivers/display"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/i2c"
)

// Instructions.
const (
	cmdClear       = 0x01
	cmdEntryMode   = 0x06 // cursor moves right, no shift
	cmdDisplayOff  = 0x08
	cmdDisplayOn   = 0x0C // no cursor, no blink
	cmdFunction4   = 0x20 // 4-bit, 1 line, 5x8 dots
	functionLines2 = 0x08
	cmdSetDDRAM    = 0x80
)

// Execution times from the datasheet (at 270 kHz), with margin.
const (
	powerUpWait = 50 * time.Millisecond
	clearWait   = 2 * time.Millisecond
	byteWait    = 50 * time.Microsecond
)

// sleep waits; tests replace it.
var sleep = time.Sleep

// Opts configures a module.
type Opts struct {
	// Cols and Lines are the module's size: 8 to 40 columns, 1 to 4 lines,
	// at most 80 characters.
	Cols, Lines int
	// Addr is the backpack's I²C address, 0x20 to 0x27 or 0x38 to 0x3F;
	// NewGPIO ignores it.
	Addr uint16
}

// DefaultOpts is a 16x2 module on a backpack at 0x27.
var DefaultOpts = Opts{Cols: 16, Lines: 2, Addr: 0x27}

// port moves nibbles to the controller.
type port interface {
	// write sends each nibble (low 4 bits) with RS set as rs, pulsing E
	// once per nibble, high nibble of each byte first.
	write(rs bool, nibbles []byte) error
	backlight(on bool) error
}

// Dev is an open module. It is safe for concurrent use.
type Dev struct {
	mu          sync.Mutex
	name        string
	p           port
	cols, lines int
	on          bool // display on
	light       bool // backlight as asked by SetBrightness
	valid       bool
	shown       []byte
	next        []byte
	nib         []byte
}

// NewGPIO opens a module wired in 4-bit mode: rs, e, and data lines D4 to
// D7. backlight may be nil when the backlight is not switched by a line.
func NewGPIO(rs, e gpio.PinOut, data [4]gpio.PinOut, backlight gpio.PinOut, opts *Opts) (*Dev, error) {
	if rs == nil || e == nil || data[0] == nil || data[1] == nil || data[2] == nil || data[3] == nil {
		return nil, errors.New("hd44780: needs RS, E and D4 to D7")
	}
	name := fmt.Sprintf("hd44780 on RS %s E %s D4-D7 %s/%s/%s/%s", rs.Name(), e.Name(), data[0].Name(), data[1].Name(), data[2].Name(), data[3].Name())
	return newDev(name, &gpioPort{rs: rs, e: e, d: data, bl: backlight}, opts)
}

// NewPCF8574 opens a module on a PCF8574 backpack on b at opts.Addr.
func NewPCF8574(b i2c.Bus, opts *Opts) (*Dev, error) {
	if opts == nil {
		opts = &DefaultOpts
	}
	a := opts.Addr
	if !(a >= 0x20 && a <= 0x27) && !(a >= 0x38 && a <= 0x3F) {
		return nil, fmt.Errorf("hd44780: I²C address %#02x is not a PCF8574's (0x20 to 0x27, 0x38 to 0x3F)", a)
	}
	name := fmt.Sprintf("hd44780 on %s@%#02x", b, a)
	return newDev(name, &pcfPort{dev: i2c.Dev{Bus: b, Addr: a}, light: true}, opts)
}

func newDev(name string, p port, opts *Opts) (*Dev, error) {
	if opts == nil {
		opts = &DefaultOpts
	}
	if opts.Cols < 8 || opts.Cols > 40 || opts.Lines < 1 || opts.Lines > 4 || opts.Cols*opts.Lines > 80 {
		return nil, fmt.Errorf("hd44780: %dx%d is not a size the controller drives", opts.Cols, opts.Lines)
	}
	n := opts.Cols * opts.Lines
	d := &Dev{
		name:  name,
		p:     p,
		cols:  opts.Cols,
		lines: opts.Lines,
		light: true,
		shown: make([]byte, n),
		next:  make([]byte, n),
		nib:   make([]byte, 0, 2*(opts.Cols+1)),
	}
	if err := d.init(); err != nil {
		return nil, err
	}
	return d, nil
}

func (d *Dev) wrap(what string, err error) error {
	d.valid = false
	return fmt.Errorf("%s: %s: %w", d.name, what, err)
}

func (d *Dev) init() error {
	if err := d.p.backlight(true); err != nil {
		return d.wrap("backlight", err)
	}
	sleep(powerUpWait)
	for _, s := range []struct {
		n    byte
		wait time.Duration
	}{{0x3, 4500 * time.Microsecond}, {0x3, 150 * time.Microsecond}, {0x3, 150 * time.Microsecond}, {0x2, byteWait}} {
		if err := d.p.write(false, []byte{s.n}); err != nil {
			return d.wrap("init", err)
		}
		sleep(s.wait)
	}
	function := byte(cmdFunction4)
	if d.lines > 1 {
		function |= functionLines2
	}
	if err := d.command(function, cmdDisplayOff, cmdClear); err != nil {
		return d.wrap("init", err)
	}
	sleep(clearWait)
	if err := d.command(cmdEntryMode); err != nil {
		return d.wrap("init", err)
	}
	for i := range d.shown {
		d.shown[i] = ' '
	}
	d.valid = true
	return nil
}

// command sends instructions (RS low).
func (d *Dev) command(c ...byte) error { return d.send(false, c) }

// send writes bytes as nibble pairs.
func (d *Dev) send(rs bool, b []byte) error {
	d.nib = d.nib[:0]
	for _, c := range b {
		d.nib = append(d.nib, c>>4, c&0x0F)
	}
	return d.p.write(rs, d.nib)
}

// lineAddr is the display RAM address of the first character of line l.
func (d *Dev) lineAddr(l int) int {
	return [4]int{0x00, 0x40, d.cols, 0x40 + d.cols}[l]
}

// String implements display.Text, e.g. "hd44780 on I2C1@0x27".
func (d *Dev) String() string { return d.name }

// Size implements display.Text.
func (d *Dev) Size() (cols, lines int) { return d.cols, d.lines }

// Show implements display.Text: each line is cut at the width and padded
// with blanks; lines past the module's are dropped.
func (d *Dev) Show(text string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	for i := range d.next {
		d.next[i] = ' '
	}
	for l := 0; l < d.lines; l++ {
		line, rest, _ := strings.Cut(text, "\n")
		c := 0
		for _, r := range line {
			if c >= d.cols {
				break
			}
			d.next[l*d.cols+c] = romCode(r)
			c++
		}
		text = rest
	}
	for l := 0; l < d.lines; l++ {
		old := d.shown[l*d.cols : (l+1)*d.cols]
		cur := d.next[l*d.cols : (l+1)*d.cols]
		for c := 0; c < d.cols; {
			if d.valid && old[c] == cur[c] {
				c++
				continue
			}
			// A run of changes; a single unchanged character inside costs
			// no more than addressing past it.
			end := c + 1
			for end < d.cols && (!d.valid || old[end] != cur[end] || end+1 < d.cols && old[end+1] != cur[end+1]) {
				end++
			}
			if err := d.command(cmdSetDDRAM | byte(d.lineAddr(l)+c)); err != nil {
				return d.wrap("address", err)
			}
			if err := d.send(true, cur[c:end]); err != nil {
				return d.wrap("write", err)
			}
			copy(old[c:end], cur[c:end])
			c = end
		}
	}
	d.valid = true
	if !d.on {
		if err := d.command(cmdDisplayOn); err != nil {
			return d.wrap("display on", err)
		}
		if err := d.p.backlight(d.light); err != nil {
			return d.wrap("backlight", err)
		}
		d.on = true
	}
	return nil
}

// SetBrightness implements display.Text: the backlight is off at level 0
// and on above. Without a backlight line it does nothing.
func (d *Dev) SetBrightness(level uint8) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.light = level > 0
	if !d.on {
		return nil // applied by the next Show
	}
	if err := d.p.backlight(d.light); err != nil {
		return d.wrap("backlight", err)
	}
	return nil
}

// Halt implements display.Text: the display and the backlight go off; the
// characters stay for the next Show.
func (d *Dev) Halt() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.on = false
	if err := d.command(cmdDisplayOff); err != nil {
		return d.wrap("display off", err)
	}
	if err := d.p.backlight(false); err != nil {
		return d.wrap("backlight", err)
	}
	return nil
}

// romCode maps r to the A00 character ROM, blank when it has no such
// character.
func romCode(r rune) byte {
	switch {
	case r == '\\' || r == '~':
		return ' '
	case r >= 0x20 && r < 0x7E:
		return byte(r)
	}
	switch r {
	case '¥':
		return 0x5C
	case '→':
		return 0x7E
	case '←':
		return 0x7F
	case '°':
		return 0xDF
	case 'ä':
		return 0xE1
	case 'ß':
		return 0xE2
	case 'µ':
		return 0xE4
	case 'ñ':
		return 0xEE
	case 'ö':
		return 0xEF
	case 'ü':
		return 0xF5
	case '÷':
		return 0xFD
	}
	return ' '
}

// gpioPort drives the module's lines directly.
type gpioPort struct {
	rs, e gpio.PinOut
	d     [4]gpio.PinOut
	bl    gpio.PinOut
}

func (p *gpioPort) write(rs bool, nibbles []byte) error {
	if err := p.rs.Out(gpio.Level(rs)); err != nil {
		return fmt.Errorf("pin RS: %w", err)
	}
	for i, n := range nibbles {
		for b, pin := range p.d {
			if err := pin.Out(n&(1<<b) != 0); err != nil {
				return fmt.Errorf("pin D%d: %w", 4+b, err)
			}
		}
		// E must be high at least 450 ns and the data held 10 ns after it
		// falls; a GPIO write takes longer than either.
		if err := p.e.Out(gpio.High); err != nil {
			return fmt.Errorf("pin E: %w", err)
		}
		spin(time.Microsecond)
		if err := p.e.Out(gpio.Low); err != nil {
			return fmt.Errorf("pin E: %w", err)
		}
		if i%2 == 1 || len(nibbles) == 1 {
			sleep(byteWait)
		}
	}
	return nil
}

func (p *gpioPort) backlight(on bool) error {
	if p.bl == nil {
		return nil
	}
	return p.bl.Out(gpio.Level(on))
}

// PCF8574 outputs.
const (
	pcfRS = 1 << 0
	pcfE  = 1 << 2
	pcfBL = 1 << 3
)

// pcfPort drives the module through a PCF8574: each nibble is three writes
// of the expander, all in one I²C transfer: RS and the data with E low,
// then E high, then E low. RS must be settled before E rises (the
// datasheet's address set-up time), so it cannot change in the write that
// raises E; LiquidCrystal_I2C writes the same three. At 100 kHz each write
// takes 90 µs, far more than E's 450 ns pulse or any set-up time, and a
// character 0.6 ms.
type pcfPort struct {
	dev   i2c.Dev
	light bool
	buf   [3 * 2 * 41]byte
}

func (p *pcfPort) write(rs bool, nibbles []byte) error {
	base := byte(0)
	if rs {
		base |= pcfRS
	}
	if p.light {
		base |= pcfBL
	}
	for len(nibbles) > 0 {
		k := min(len(nibbles), len(p.buf)/3)
		for i, n := range nibbles[:k] {
			v := base | n<<4
			p.buf[3*i] = v
			p.buf[3*i+1] = v | pcfE
			p.buf[3*i+2] = v
		}
		if err := p.dev.Tx(p.buf[:3*k], nil); err != nil {
			return err
		}
		nibbles = nibbles[k:]
	}
	return nil
}

func (p *pcfPort) backlight(on bool) error {
	p.light = on
	p.buf[0] = 0
	if on {
		p.buf[0] = pcfBL
	}
	return p.dev.Tx(p.buf[:1], nil)
}

func spin(d time.Duration) {
	for start := time.Now(); time.Since(start) < d; {
	}
}

var _ display.Text = (*Dev)(nil)
