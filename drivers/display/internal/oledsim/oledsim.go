// Package oledsim decodes the command and data stream a driver sends to an
// SSD1306 or SH1106 back into the controller's display RAM, so tests can
// check what a panel would show rather than which bytes were sent.
//
// It is strict: an unknown command, a command cut short, data written past
// the end of the RAM, or addressing whose effect the datasheet leaves open
// is an error, since each is a driver bug. On the SSD1306 that is a page
// addressing command (0x00 to 0x1F, 0xB0 to 0xB7) outside page addressing
// mode, a column or page window (0x21, 0x22) in page addressing mode, and
// page addressing data past the end of the column window.
package oledsim

import (
	"fmt"
	"image"

	"periph.io/x/devices/v3/ssd1306/image1bit"
)

// Addressing modes set by command 0x20 (SSD1306 only).
const (
	Horizontal = 0
	Vertical   = 1
	Page       = 2
)

// Chip is the state of one controller.
type Chip struct {
	Name  string
	Cols  int    // RAM columns: 128 on an SSD1306, 132 on an SH1106
	Pages int    // RAM pages of 8 rows
	RAM   []byte // Pages*Cols bytes, page after page
	// Addressing state.
	Mode                 int
	Page, Col            int
	ColStart, ColEnd     int
	PageStart, PageEnd   int
	On                   bool // display on (0xAF) or asleep (0xAE)
	Contrast             byte
	Commands, DataBytes  int // counts of command and data bytes received
	sh1106               bool
	pending              []byte // a command waiting for its arguments
	pendingLen           int
	multiplex, comConfig byte
}

// NewSSD1306 returns an SSD1306 with 128x64 RAM in its reset state.
func NewSSD1306() *Chip {
	return &Chip{Name: "ssd1306", Cols: 128, Pages: 8, RAM: make([]byte, 128*8), Mode: Page, ColEnd: 127, PageEnd: 7, Contrast: 0x7F}
}

// NewSH1106 returns an SH1106 with 132x64 RAM in its reset state.
func NewSH1106() *Chip {
	return &Chip{Name: "sh1106", Cols: 132, Pages: 8, RAM: make([]byte, 132*8), Mode: Page, ColEnd: 131, PageEnd: 7, Contrast: 0x80, sh1106: true}
}

// argCount returns how many argument bytes follow command b, or -1 for an
// unknown command.
func (c *Chip) argCount(b byte) int {
	switch {
	case b <= 0x1F, b >= 0x40 && b <= 0x7F, b >= 0xB0 && b <= 0xB7:
		return 0
	}
	switch b {
	case 0xA0, 0xA1, 0xA4, 0xA5, 0xA6, 0xA7, 0xAE, 0xAF, 0xC0, 0xC8, 0xE3:
		return 0
	case 0x81, 0xA8, 0xD3, 0xD5, 0xD9, 0xDA, 0xDB:
		return 1
	}
	if c.sh1106 {
		switch b {
		case 0x30, 0x31, 0x32, 0x33, 0xE0, 0xEE:
			return 0
		case 0xAD:
			return 1
		}
		return -1
	}
	switch b {
	case 0x2E, 0x2F:
		return 0
	case 0x20, 0x8D:
		return 1
	case 0x21, 0x22, 0xA3:
		return 2
	case 0x29, 0x2A:
		return 5
	case 0x26, 0x27:
		return 6
	}
	return -1
}

// Command feeds command bytes. A command's arguments may come in a later
// call.
func (c *Chip) Command(bs ...byte) error {
	for _, b := range bs {
		c.Commands++
		if c.pending != nil {
			c.pending = append(c.pending, b)
			if len(c.pending) == c.pendingLen+1 {
				cmd := c.pending
				c.pending = nil
				if err := c.exec(cmd); err != nil {
					return err
				}
			}
			continue
		}
		n := c.argCount(b)
		if n < 0 {
			return fmt.Errorf("oledsim: %s: unknown command %#02x", c.Name, b)
		}
		if n == 0 {
			if err := c.exec([]byte{b}); err != nil {
				return err
			}
			continue
		}
		c.pending = []byte{b}
		c.pendingLen = n
	}
	return nil
}

func (c *Chip) exec(cmd []byte) error {
	b := cmd[0]
	if !c.sh1106 {
		pageCmd := b <= 0x1F || b >= 0xB0 && b <= 0xB7
		if pageCmd && c.Mode != Page {
			return fmt.Errorf("oledsim: %s: page addressing command %#02x in addressing mode %d", c.Name, b, c.Mode)
		}
		if (b == 0x21 || b == 0x22) && c.Mode == Page {
			return fmt.Errorf("oledsim: %s: window command %#02x in page addressing mode", c.Name, b)
		}
	}
	switch {
	case b <= 0x0F:
		c.Col = c.Col&0xF0 | int(b)
	case b <= 0x1F:
		c.Col = c.Col&0x0F | int(b&0x0F)<<4
	case b >= 0xB0 && b <= 0xB7:
		c.Page = int(b & 7)
	case b == 0xAE:
		c.On = false
	case b == 0xAF:
		c.On = true
	case b == 0x81:
		c.Contrast = cmd[1]
	case b == 0xA8:
		c.multiplex = cmd[1]
	case b == 0xDA:
		c.comConfig = cmd[1]
	case b == 0x20:
		// A[1:0]; the other bits mean nothing.
		if cmd[1]&3 == 3 {
			return fmt.Errorf("oledsim: %s: bad addressing mode %#02x", c.Name, cmd[1])
		}
		c.Mode = int(cmd[1] & 3)
	case b == 0x21:
		c.ColStart, c.ColEnd = int(cmd[1]&0x7F), int(cmd[2]&0x7F)
		c.Col = c.ColStart
	case b == 0x22:
		c.PageStart, c.PageEnd = int(cmd[1]&7), int(cmd[2]&7)
		c.Page = c.PageStart
	}
	return nil
}

// Data feeds display data bytes, written at the current address.
func (c *Chip) Data(bs []byte) error {
	if c.pending != nil {
		return fmt.Errorf("oledsim: %s: data while command %#02x waits for arguments", c.Name, c.pending[0])
	}
	for _, b := range bs {
		c.DataBytes++
		if c.Col >= c.Cols || c.Page >= c.Pages {
			return fmt.Errorf("oledsim: %s: data written past the RAM at page %d column %d", c.Name, c.Page, c.Col)
		}
		if c.Mode == Page && c.Col > c.ColEnd {
			return fmt.Errorf("oledsim: %s: page addressing data at column %d, past the column window's end %d", c.Name, c.Col, c.ColEnd)
		}
		c.RAM[c.Page*c.Cols+c.Col] = b
		switch c.Mode {
		case Page:
			c.Col++
		case Horizontal:
			c.Col++
			if c.Col > c.ColEnd {
				c.Col = c.ColStart
				c.Page++
				if c.Page > c.PageEnd {
					c.Page = c.PageStart
				}
			}
		default:
			return fmt.Errorf("oledsim: %s: vertical addressing is not modelled", c.Name)
		}
	}
	return nil
}

// I2C feeds one I²C write: control bytes (Co and D/C# bits) followed by
// commands or data.
func (c *Chip) I2C(w []byte) error {
	for len(w) > 0 {
		ctrl := w[0]
		w = w[1:]
		if ctrl&^0xC0 != 0 {
			return fmt.Errorf("oledsim: %s: bad control byte %#02x", c.Name, ctrl)
		}
		n := len(w)
		if ctrl&0x80 != 0 { // Co: one byte, then another control byte
			n = min(1, n)
		}
		var err error
		if ctrl&0x40 != 0 {
			err = c.Data(w[:n])
		} else {
			err = c.Command(w[:n]...)
		}
		if err != nil {
			return err
		}
		w = w[n:]
	}
	return nil
}

// Frame returns the w x h pixels the panel shows when its visible columns
// start at RAM column x0.
func (c *Chip) Frame(x0, w, h int) *image1bit.VerticalLSB {
	f := image1bit.NewVerticalLSB(image.Rect(0, 0, w, h))
	for p := 0; p < (h+7)/8 && p < c.Pages; p++ {
		for x := 0; x < w && x0+x < c.Cols; x++ {
			f.Pix[p*f.Stride+x] = c.RAM[p*c.Cols+x0+x]
		}
	}
	return f
}

// Multiplex returns the multiplex ratio set by 0xA8 and the COM pins
// configuration set by 0xDA.
func (c *Chip) Multiplex() (mux, com byte) { return c.multiplex, c.comConfig }
