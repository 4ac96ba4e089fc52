package displaytest

import (
	"fmt"
	"image"
	"sync"

	"periph.io/x/devices/v3/ssd1306/image1bit"

	"github.com/zeitnot/zeitnot/drivers/display"
	"github.com/zeitnot/zeitnot/drivers/display/displaytest/framepng"
	"github.com/zeitnot/zeitnot/drivers/display/internal/pagediff"
	"github.com/zeitnot/zeitnot/drivers/display/simdisplay"
)

// HistoryLimit is how many frames or texts a fake keeps; older ones are
// dropped first.
const HistoryLimit = 1000

// Bytes an SSD1306 on I²C is sent for one changed span of a page: a command
// write (control byte, page, low and high column) and a data write (control
// byte, then the span).
const (
	spanOverhead = 4 + 1
	spanGap      = spanOverhead
)

// Pixel is a fake display.Pixel: the simulator's panel (simdisplay.Pixel)
// with a history of frames, a count of bus bytes and failures on demand.
type Pixel struct {
	panel *simdisplay.Pixel

	mu       sync.Mutex // held across each call, so panel and counts agree
	shadow   *pagediff.Shadow
	history  []*image1bit.VerticalLSB
	draws    int
	busBytes int
	fail     error
}

// NewPixel returns a blank w x h fake pixel display named name, with full
// brightness. w and h are clamped to [1, 1024].
func NewPixel(name string, w, h int) *Pixel {
	panel := simdisplay.NewPixel(name, w, h)
	b := panel.Bounds()
	return &Pixel{panel: panel, shadow: pagediff.New(b.Dx(), (b.Dy()+7)/8)}
}

// String implements display.Pixel.
func (p *Pixel) String() string { return p.panel.String() }

// Bounds implements display.Pixel.
func (p *Pixel) Bounds() image.Rectangle { return p.panel.Bounds() }

// Draw implements display.Pixel. It wakes a halted display.
func (p *Pixel) Draw(frame *image1bit.VerticalLSB) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := display.CheckFrame(frame, p.panel.Bounds()); err != nil {
		return fmt.Errorf("displaytest: %s: %w", p, err)
	}
	if err := p.takeFail(); err != nil {
		return err
	}
	p.draws++
	if err := p.panel.Draw(frame); err != nil {
		return err
	}
	b := p.panel.Bounds()
	n := b.Dx() * ((b.Dy() + 7) / 8) // the panel's bytes: CheckFrame saw that frame has them
	runs := p.shadow.Runs(frame.Pix[:n], spanGap)
	if len(runs) == 0 {
		return nil
	}
	for _, r := range runs {
		p.busBytes += spanOverhead + r.End - r.Col
		p.shadow.Commit(frame.Pix[:n], r)
	}
	p.shadow.Done()
	p.record(p.panel.Snapshot())
	return nil
}

// SetBrightness implements display.Pixel.
func (p *Pixel) SetBrightness(level uint8) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.takeFail(); err != nil {
		return err
	}
	return p.panel.SetBrightness(level)
}

// Halt implements display.Pixel: the display goes dark but keeps its frame,
// as an OLED controller keeps its RAM while asleep.
func (p *Pixel) Halt() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.takeFail(); err != nil {
		return err
	}
	return p.panel.Halt()
}

// FailNext makes the next Draw, SetBrightness or Halt return err instead of
// doing anything. As on a real bus, a failed Draw leaves the panel unknown:
// the Draw after it resends, and counts, every byte.
func (p *Pixel) FailNext(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.fail = err
}

func (p *Pixel) takeFail() error {
	err := p.fail
	if err != nil {
		p.fail = nil
		p.shadow.Invalidate()
		return fmt.Errorf("displaytest: %s: %w", p, err)
	}
	return nil
}

func (p *Pixel) record(f *image1bit.VerticalLSB) {
	if len(p.history) >= HistoryLimit {
		copy(p.history, p.history[1:])
		p.history = p.history[:len(p.history)-1]
	}
	p.history = append(p.history, f)
}

// Snapshot returns a copy of the frame shown (the last frame drawn, even
// while halted).
func (p *Pixel) Snapshot() *image1bit.VerticalLSB { return p.panel.Snapshot() }

// Frames returns the frames that changed the display, oldest first (at most
// HistoryLimit). The frames are copies the caller may keep.
func (p *Pixel) Frames() []*image1bit.VerticalLSB {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]*image1bit.VerticalLSB(nil), p.history...)
}

// Draws returns how many frames were drawn, changed or not.
func (p *Pixel) Draws() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.draws
}

// BusBytes returns how many bytes an SSD1306 on I²C would have been sent by
// all the Draw calls so far, sending only the changed columns of changed
// pages.
func (p *Pixel) BusBytes() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.busBytes
}

// Brightness returns the last level set; 255 at first.
func (p *Pixel) Brightness() uint8 { return p.panel.Brightness() }

// Halted reports whether Halt was called since the last Draw.
func (p *Pixel) Halted() bool { return p.panel.Halted() }

// SavePNG saves the frame shown as a PNG, each pixel a scale x scale
// square (see Render).
func (p *Pixel) SavePNG(path string, scale int) error {
	return framepng.Save(path, p.Snapshot(), scale)
}

var _ display.Pixel = (*Pixel)(nil)
