// Package oled is the part the SSD1306 and SH1106 drivers share: both take
// page addressing commands (0xB0+page, then the column in two nibbles) and a
// stream of display bytes, over I²C with a control byte or over 4-wire SPI
// with a D/C line. Core sends only the changed columns of changed pages.
package oled

import (
	"fmt"
	"image"
	"sync"

	"github.com/zeitnot/zeitnot/drivers/display"
	"github.com/zeitnot/zeitnot/drivers/display/internal/pagediff"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/devices/v3/ssd1306/image1bit"
)

// Transport carries command and data bytes to the controller.
type Transport interface {
	Command(c []byte) error
	Data(d []byte) error
	// Overhead is the bytes it costs to address a new span: an unchanged
	// gap up to this long is cheaper to resend than to skip.
	Overhead() int
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

// Overhead implements Transport: a command write of control byte, page and
// two column bytes, and the data write's control byte.
func (t *I2C) Overhead() int { return 5 }

// SPI sends over 4-wire SPI: D/C low for commands, high for data.
type SPI struct {
	c  spi.Conn
	dc gpio.PinOut
}

// NewSPI returns a transport on an already connected SPI conn.
func NewSPI(c spi.Conn, dc gpio.PinOut) *SPI { return &SPI{c: c, dc: dc} }

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

// Overhead implements Transport: page and two column bytes.
func (t *SPI) Overhead() int { return 3 }

// Commands both controllers share.
const (
	DisplayOff  = 0xAE
	DisplayOn   = 0xAF
	SetContrast = 0x81
	PageAddr    = 0xB0 // + page
	ColLow      = 0x00 // + low nibble
	ColHigh     = 0x10 // + high nibble
)

// Core draws diffed frames on one panel. It is safe for concurrent use.
type Core struct {
	mu        sync.Mutex
	name      string
	t         Transport
	rect      image.Rectangle
	colOffset int
	shadow    *pagediff.Shadow
	on        bool
	cmd       [3]byte
}

// NewCore sends init, which must leave the display off, and returns a Core
// for a w x h panel whose first visible column is RAM column colOffset.
func NewCore(name string, t Transport, w, h, colOffset int, init []byte) (*Core, error) {
	c := &Core{
		name:      name,
		t:         t,
		rect:      image.Rect(0, 0, w, h),
		colOffset: colOffset,
		shadow:    pagediff.New(w, (h+7)/8),
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

// Draw sends the changed spans of frame, then turns the display on if it
// was off. On error the panel is unknown and the next Draw sends it all.
func (c *Core) Draw(frame *image1bit.VerticalLSB) error {
	if err := display.CheckFrame(frame, c.rect); err != nil {
		return fmt.Errorf("%s: %w", c.name, err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	w := c.rect.Dx()
	pix := frame.Pix[:w*((c.rect.Dy()+7)/8)]
	for _, r := range c.shadow.Runs(pix, c.t.Overhead()) {
		col := r.Col + c.colOffset
		c.cmd = [3]byte{PageAddr | byte(r.Page), ColLow | byte(col&0x0F), ColHigh | byte(col>>4)}
		if err := c.t.Command(c.cmd[:]); err != nil {
			c.shadow.Invalidate()
			return fmt.Errorf("%s: page %d: %w", c.name, r.Page, err)
		}
		o := r.Page * w
		if err := c.t.Data(pix[o+r.Col : o+r.End]); err != nil {
			c.shadow.Invalidate()
			return fmt.Errorf("%s: page %d: %w", c.name, r.Page, err)
		}
		c.shadow.Commit(pix, r)
	}
	c.shadow.Done()
	if !c.on {
		c.cmd[0] = DisplayOn
		if err := c.t.Command(c.cmd[:1]); err != nil {
			return fmt.Errorf("%s: display on: %w", c.name, err)
		}
		c.on = true
	}
	return nil
}

// SetContrast sends the contrast command.
func (c *Core) SetContrast(level uint8) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cmd[0], c.cmd[1] = SetContrast, level
	if err := c.t.Command(c.cmd[:2]); err != nil {
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
	c.cmd[0] = DisplayOff
	if err := c.t.Command(c.cmd[:1]); err != nil {
		return fmt.Errorf("%s: display off: %w", c.name, err)
	}
	return nil
}
