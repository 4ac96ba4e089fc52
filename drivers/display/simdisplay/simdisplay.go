// Package simdisplay has the simulator's displays: Pixel, a panel of pixels
// that keeps the frame it shows, and Text, a segment or character display
// that keeps the text it shows. They stand in for the chips of a build in
// `zeitnot-sim`, which draws them in the terminal and saves them as
// pictures (see framepng).
//
// Both are safe for concurrent use: the event loop draws while the terminal
// reads. They behave as the interfaces of package display say, with no bus
// to fail. For tests that need a display to fail, count bus bytes or keep
// a history, see displaytest.
package simdisplay

import (
	"fmt"
	"image"
	"sync"

	"periph.io/x/devices/v3/ssd1306/image1bit"

	"github.com/zeitnot/zeitnot/drivers/display"
)

// MaxPixels and MaxCells bound the size of a simulated display; larger
// sizes are clamped.
const (
	MaxPixels = 1024 // width and height of a Pixel
	MaxCells  = 80   // cells and lines of a Text
)

// Pixel is a simulated pixel display (display.Pixel).
type Pixel struct {
	name string
	rect image.Rectangle

	mu         sync.Mutex
	shown      *image1bit.VerticalLSB
	brightness uint8
	halted     bool
}

var _ display.Pixel = (*Pixel)(nil)

// NewPixel returns a blank w x h pixel display named name (its String), at
// full brightness. w and h are clamped to [1, MaxPixels].
func NewPixel(name string, w, h int) *Pixel {
	r := image.Rect(0, 0, max(1, min(w, MaxPixels)), max(1, min(h, MaxPixels)))
	return &Pixel{name: name, rect: r, shown: display.NewFrame(r), brightness: 255}
}

// String implements display.Pixel: the name given to NewPixel.
func (p *Pixel) String() string { return p.name }

// Bounds implements display.Pixel.
func (p *Pixel) Bounds() image.Rectangle { return p.rect }

// Draw implements display.Pixel: the display shows frame, which must have
// exactly Bounds(). It wakes a halted display.
func (p *Pixel) Draw(frame *image1bit.VerticalLSB) error {
	if err := display.CheckFrame(frame, p.rect); err != nil {
		return fmt.Errorf("simdisplay: %s: %w", p.name, err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	copy(p.shown.Pix, frame.Pix[:len(p.shown.Pix)])
	p.halted = false
	return nil
}

// SetBrightness implements display.Pixel.
func (p *Pixel) SetBrightness(level uint8) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.brightness = level
	return nil
}

// Halt implements display.Pixel: the display goes dark but keeps its frame,
// as an OLED controller keeps its RAM while asleep.
func (p *Pixel) Halt() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.halted = true
	return nil
}

// Snapshot returns a copy of the frame shown: the last frame drawn, even
// while halted.
func (p *Pixel) Snapshot() *image1bit.VerticalLSB {
	p.mu.Lock()
	defer p.mu.Unlock()
	f := display.NewFrame(p.rect)
	copy(f.Pix, p.shown.Pix)
	return f
}

// Brightness returns the last level set; 255 at first.
func (p *Pixel) Brightness() uint8 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.brightness
}

// Halted reports whether Halt was called since the last Draw.
func (p *Pixel) Halted() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.halted
}

// Text is a simulated segment or character display (display.Text).
type Text struct {
	name        string
	cols, lines int

	mu         sync.Mutex
	text       string
	brightness uint8
	halted     bool
}

var _ display.Text = (*Text)(nil)

// NewText returns a blank text display named name (its String), cols cells
// wide and lines lines high, each clamped to [1, MaxCells], at full
// brightness.
func NewText(name string, cols, lines int) *Text {
	return &Text{
		name:       name,
		cols:       max(1, min(cols, MaxCells)),
		lines:      max(1, min(lines, MaxCells)),
		brightness: 255,
	}
}

// String implements display.Text: the name given to NewText.
func (t *Text) String() string { return t.name }

// Size implements display.Text.
func (t *Text) Size() (cols, lines int) { return t.cols, t.lines }

// Show implements display.Text. The text is kept as given: what the cells
// show of it is for the one who draws it (the terminal cuts long lines). It
// wakes a halted display.
func (t *Text) Show(text string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.text = text
	t.halted = false
	return nil
}

// SetBrightness implements display.Text.
func (t *Text) SetBrightness(level uint8) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.brightness = level
	return nil
}

// Halt implements display.Text: the display goes blank; Text still returns
// the last text shown.
func (t *Text) Halt() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.halted = true
	return nil
}

// Text returns the last text shown, "" at first.
func (t *Text) Text() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.text
}

// Brightness returns the last level set; 255 at first.
func (t *Text) Brightness() uint8 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.brightness
}

// Halted reports whether Halt was called since the last Show.
func (t *Text) Halted() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.halted
}
