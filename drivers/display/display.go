// Package display holds the two display families zeitnot drives: pixel
// displays (OLED panels) that show 1-bit frames, and text displays (7-segment
// modules and character LCDs) that show a short string.
//
// The interfaces are deliberately small. Each chip driver lives in a
// subpackage named after the chip (ssd1306, sh1106, tm1637, max7219,
// ht16k33, hd44780); sevenseg is the segment font they share, bitfont a
// bitmap font for frames, simdisplay the simulator's displays, framepng
// turns frames into pictures, and displaytest has fakes for tests.
// README.md in this directory has the overview and figures.
package display

import (
	"errors"
	"fmt"
	"image"
	"image/color"

	"periph.io/x/devices/v3/ssd1306/image1bit"
)

// Pixel is a monochrome pixel display.
type Pixel interface {
	// String names the device, e.g. "ssd1306 128x64 on /dev/i2c-1@0x3D".
	String() string
	// Bounds is the size of the panel; Min is always {0, 0}.
	Bounds() image.Rectangle
	// Draw shows frame, which must have exactly Bounds(). The driver keeps
	// the last frame it sent and sends only the bytes that changed, so
	// drawing the same frame twice costs no bus traffic. An error leaves the
	// driver's idea of the panel unknown: the next Draw resends everything.
	Draw(frame *image1bit.VerticalLSB) error
	// SetBrightness sets contrast or brightness; 0 is the dimmest visible
	// level, 255 the brightest.
	SetBrightness(level uint8) error
	// Halt blanks the panel and puts it to sleep where the chip can.
	Halt() error
}

// Text is a segment or character display.
type Text interface {
	// String names the device, e.g. "tm1637 on GPIO23/GPIO24".
	String() string
	// Size is the number of character cells per line and the number of lines
	// (4x1 for a TM1637, 8x1 for a MAX7219, 16x2 for an HD44780).
	Size() (cols, lines int)
	// Show displays text. Lines are separated by '\n'. On segment displays a
	// ':' lights the colon between the two digits it stands between and a '.'
	// lights the decimal point of the digit before it; neither takes a cell.
	// Characters a display cannot show are drawn blank. Text longer than a
	// line is cut on the right. Showing the same text twice costs no bus
	// traffic.
	Show(text string) error
	// SetBrightness sets brightness or backlight; 0 is the dimmest visible
	// level, 255 the brightest. On chips with fewer levels it is scaled.
	SetBrightness(level uint8) error
	// Halt blanks the display.
	Halt() error
}

// Family is what a display shows, and so how a clock face is laid out on
// it. A Pixel display is of family Pixels; a Text display is of family
// Segments or Characters.
type Family uint8

// The display families.
const (
	Pixels     Family = iota + 1 // frames on a panel of pixels (OLED)
	Segments                     // digits, ':' and '.' on 7-segment modules
	Characters                   // lines of characters (HD44780 LCD)
)

func (f Family) String() string {
	switch f {
	case Pixels:
		return "pixel"
	case Segments:
		return "segment"
	case Characters:
		return "character"
	}
	return fmt.Sprintf("Family(%d)", uint8(f))
}

// NewFrame returns a blank frame for a display of the given bounds.
func NewFrame(bounds image.Rectangle) *image1bit.VerticalLSB {
	return image1bit.NewVerticalLSB(bounds)
}

// On and Off are the two pixel colours of a frame.
var (
	On  color.Color = image1bit.On
	Off color.Color = image1bit.Off
)

// CheckFrame reports why frame cannot be drawn on a panel of the given
// bounds: it must not be nil, must have exactly those bounds, and its Stride
// and Pix must be as NewFrame makes them. Drivers prefix the error with the
// device's name.
func CheckFrame(frame *image1bit.VerticalLSB, bounds image.Rectangle) error {
	if frame == nil {
		return errors.New("nil frame")
	}
	if frame.Rect != bounds {
		return fmt.Errorf("frame is %v, want %v", frame.Rect, bounds)
	}
	pages := (bounds.Dy() + 7) / 8
	if frame.Stride != bounds.Dx() || len(frame.Pix) < pages*frame.Stride {
		return fmt.Errorf("frame has stride %d and %d bytes, want %d and %d", frame.Stride, len(frame.Pix), bounds.Dx(), pages*bounds.Dx())
	}
	return nil
}
