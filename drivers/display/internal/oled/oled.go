// Package oled is the part the SSD1306 and SH1106 drivers share: both take
// page addressing commands (0xB0+page, then the column in two nibbles) and a
// stream of display bytes, over I²C with a control byte or over 4-wire SPI
// with a D/C line; the SSD1306 also has a horizontal addressing mode that
// fills a window of columns and pages. Core sends only what changed, each
// time addressed the cheapest way it finds.
package oled

import (
	"fmt"
	"image"
	"sync"

	"github.com/zeitnot/zeitnot/drivers/display"
	"github.com/zeitnot/zeitnot/drivers/display/internal/pagediff"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/devices/v3/ssd1306/image1bit"
)

// Transport carries command and data bytes to the controller.
type Transport interface {
	Command(c []byte) error
	Data(d []byte) error
	// Framing is the bytes each write costs besides its payload.
	Framing() int
}

// I²C control bytes: what follows is all commands, or all data.
const (
	i2cCommands = 0x00
	i2cData     = 0x40
)

// I2C sends over I²C to one address.
type I2C struct {
	dev i2c.Dev
	buf []byte
}

// NewI2C returns a transport to addr on b, for writes of up to maxLen bytes.
func NewI2C(b i2c.Bus, addr uint16, maxLen int) *I2C {
	return &I2C{dev: i2c.Dev{Bus: b, Addr: addr}, buf: make([]byte, 1+maxLen)}
}

func (t *I2C) send(ctrl byte, p []byte) error {
	if len(p) >= len(t.buf) {
		return fmt.Errorf("write of %d bytes is longer than %d", len(p), len(t.buf)-1)
	}
	t.buf[0] = ctrl
	n := copy(t.buf[1:], p)
	return t.dev.Tx(t.buf[:1+n], nil)
}

// Command implements Transport.
func (t *I2C) Command(c []byte) error { return t.send(i2cCommands, c) }

// Data implements Transport.
func (t *I2C) Data(d []byte) error { return t.send(i2cData, d) }

// Framing implements Transport: the control byte.
func (t *I2C) Framing() int { return 1 }

// SPI sends over 4-wire SPI: D/C low for commands, high for data.
type SPI struct {
	c  spi.Conn
	dc gpio.PinOut
}

// NewSPI sets the D/C line dc low and connects to p at speed, in mode 0
// with 8-bit words, for a transport. The speed is the chip's to choose (the
// SSD1306 takes 10 MHz, the SH1106 much less), so there is no default here:
// a speed of 0 or less is an error.
func NewSPI(p spi.Port, dc gpio.PinOut, speed physic.Frequency) (*SPI, error) {
	if speed <= 0 {
		return nil, fmt.Errorf("SPI clock %v is not a speed", speed)
	}
	if err := dc.Out(gpio.Low); err != nil {
		return nil, fmt.Errorf("D/C line: %w", err)
	}
	c, err := p.Connect(speed, spi.Mode0, 8)
	if err != nil {
		return nil, err
	}
	return &SPI{c: c, dc: dc}, nil
}

// Command implements Transport.
func (t *SPI) Command(c []byte) error {
	if err := t.dc.Out(gpio.Low); err != nil {
		return fmt.Errorf("D/C line: %w", err)
	}
	return t.c.Tx(c, nil)
}

// Data implements Transport.
func (t *SPI) Data(d []byte) error {
	if err := t.dc.Out(gpio.High); err != nil {
		return fmt.Errorf("D/C line: %w", err)
	}
	return t.c.Tx(d, nil)
}

// Framing implements Transport: the D/C line frames writes for free.
func (t *SPI) Framing() int { return 0 }

// Commands both controllers share.
const (
	DisplayOff  = 0xAE
	DisplayOn   = 0xAF
	SetContrast = 0x81
	PageAddr    = 0xB0 // + page
	ColLow      = 0x00 // + low nibble
	ColHigh     = 0x10 // + high nibble
	// Resync, twice, completes any command a failed write cut short before
	// the next ones: it is harmless as a command (the display follows RAM,
	// as init set it) and as an argument of any command sent after init (as
	// 0x20's it selects horizontal addressing, which is set again next).
	Resync = 0xA4
)

// Config describes a panel to NewCore.
type Config struct {
	W, H int
	// ColOffset is the RAM column shown at the panel's left edge.
	ColOffset int
	// Init is sent first and must leave the display off.
	Init []byte
	// Windows says the controller has the SSD1306's horizontal addressing
	// mode with column and page windows (commands 0x20, 0x21 and 0x22).
	// NewCore then appends to Init the commands that select it with a
	// window over the whole panel.
	Windows bool
}

// Core draws diffed frames on one panel. It is safe for concurrent use.
type Core struct {
	mu        sync.Mutex
	name      string
	t         Transport
	framing   int
	rect      image.Rectangle
	colOffset int
	pages     int
	windows   bool
	shadow    *pagediff.Shadow
	st        addrState
	on        bool
	cmd       [16]byte
	win       []byte // a window's data, page after page
	// Plans and what clusters works with, kept to draw without allocating.
	opsA, opsB   []op
	opsC         []op
	runs         []pagediff.Run
	depth, group []int
	// cost and spanCost are the prices of the last plan and of its spans.
	cost, spanCost int
}

// NewCore sends cfg.Init and returns a Core for a cfg.W x cfg.H panel.
func NewCore(name string, t Transport, cfg Config) (*Core, error) {
	w, pages := cfg.W, (cfg.H+7)/8
	c := &Core{
		name:      name,
		t:         t,
		framing:   t.Framing(),
		rect:      image.Rect(0, 0, w, cfg.H),
		colOffset: cfg.ColOffset,
		pages:     pages,
		windows:   cfg.Windows,
		shadow:    pagediff.New(w, pages),
		st:        addrState{mode: modePage},
		// Runs returns at most one run per two columns of each page.
		opsA: make([]op, 0, pages*(w+1)/2),
		opsB: make([]op, 0, pages*(w+1)/2),
	}
	init := cfg.Init
	if c.windows {
		c.win = make([]byte, w*pages)
		c.depth, c.group = make([]int, w+1), make([]int, w)
		c.opsC = make([]op, 0, pages*(w+1)/2)
		c.runs = make([]pagediff.Run, 0, pages*(w+1)/2)
		last := c.colOffset + w - 1
		init = append(init[:len(init):len(init)],
			SetMode, ModeHorizontal, ColumnWindow, byte(c.colOffset), byte(last), PageWindow, 0, byte(pages-1))
		c.st = addrState{mode: modeHorizontal, win: true, cs: c.colOffset, ce: last, ps: 0, pe: pages - 1, col: c.colOffset}
	}
	if err := t.Command(init); err != nil {
		return nil, fmt.Errorf("%s: init: %w", name, err)
	}
	return c, nil
}

// String returns the name given to NewCore.
func (c *Core) String() string { return c.name }

// Bounds is the panel's size.
func (c *Core) Bounds() image.Rectangle { return c.rect }

// Draw sends the changed bytes of frame, then turns the display on if it
// was off. On error the panel is unknown and the next Draw sends it all.
func (c *Core) Draw(frame *image1bit.VerticalLSB) error {
	if err := display.CheckFrame(frame, c.rect); err != nil {
		return fmt.Errorf("%s: %w", c.name, err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	w := c.rect.Dx()
	pix := frame.Pix[:w*c.pages]
	// Within a page, an unchanged gap shorter than addressing a new span is
	// cheaper to resend than to skip.
	gap := 2*c.framing + 3
	var runs []pagediff.Run
	if c.windows {
		// Windows around the columns that changed, for plan to weigh.
		exact := c.shadow.Runs(pix, 0)
		c.opsC = c.clusters(exact, c.opsC[:0])
		runs = merge(c.runs[:0], exact, gap)
	} else {
		runs = c.shadow.Runs(pix, gap)
	}
	ops := c.plan(runs)
	for i := range ops {
		o := &ops[i]
		if cmd := c.address(&c.st, o, c.cmd[:0]); len(cmd) > 0 {
			if err := c.t.Command(cmd); err != nil {
				return c.fail(o, err)
			}
		}
		if err := c.t.Data(c.data(pix, o)); err != nil {
			return c.fail(o, err)
		}
		c.st.sent(o)
	}
	// Every plan covers the runs, and what else it sends is unchanged.
	for _, r := range runs {
		c.shadow.Commit(pix, r)
	}
	c.shadow.Done()
	if !c.on {
		if err := c.command(DisplayOn); err != nil {
			return fmt.Errorf("%s: display on: %w", c.name, err)
		}
		c.on = true
	}
	return nil
}

// merge appends to dst the runs of src, joining those of a page less than
// gap apart, as pagediff.Runs does.
func merge(dst, src []pagediff.Run, gap int) []pagediff.Run {
	for _, r := range src {
		if n := len(dst); n > 0 && dst[n-1].Page == r.Page && r.Col-dst[n-1].End <= gap {
			dst[n-1].End = r.End
			continue
		}
		dst = append(dst, r)
	}
	return dst
}

// data returns the bytes of pix that o sends once addressed, in the order
// the controller stores them: a window's or more's from the pointer on.
func (c *Core) data(pix []byte, o *op) []byte {
	w := c.rect.Dx()
	if o.kind == span {
		return pix[o.p0*w+o.c0 : o.p0*w+o.c1]
	}
	d, st := c.win[:0], c.st
	for n := o.size(); n > 0; {
		k := min(n, st.ce-st.col+1)
		i := st.page*w + st.col - c.colOffset
		d = append(d, pix[i:i+k]...)
		n -= k
		st.advance(k)
	}
	return d
}

// fail forgets the panel's contents and addressing after o failed.
func (c *Core) fail(o *op, err error) error {
	c.shadow.Invalidate()
	c.lost()
	switch {
	case o.kind == more:
		return fmt.Errorf("%s: %d bytes of the window: %w", c.name, o.n, err)
	case o.p1-o.p0 > 1:
		return fmt.Errorf("%s: pages %d-%d: %w", c.name, o.p0, o.p1-1, err)
	}
	return fmt.Errorf("%s: page %d: %w", c.name, o.p0, err)
}

// lost forgets the addressing state after a failed write: the next command
// write starts with Resync and sets the addressing mode again.
func (c *Core) lost() {
	c.st = addrState{mode: modeUnknown, resync: true}
	if !c.windows {
		c.st.mode = modePage // the only one
	}
}

// command sends one command and its argument, if any.
func (c *Core) command(b ...byte) error {
	cmd := c.cmd[:0]
	if c.st.resync {
		cmd = append(cmd, Resync, Resync)
	}
	cmd = append(cmd, b...)
	if err := c.t.Command(cmd); err != nil {
		c.lost()
		return err
	}
	c.st.resync = false
	return nil
}

// SetContrast sends the contrast command.
func (c *Core) SetContrast(level uint8) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.command(SetContrast, level); err != nil {
		return fmt.Errorf("%s: contrast: %w", c.name, err)
	}
	return nil
}

// Halt turns the display off; the controller keeps its RAM, so the next
// Draw still sends only what changed, then turns the display back on.
func (c *Core) Halt() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	// Even when the command fails the next Draw must turn the display on.
	c.on = false
	if err := c.command(DisplayOff); err != nil {
		return fmt.Errorf("%s: display off: %w", c.name, err)
	}
	return nil
}
