package screen

import (
	"image"
	"math/bits"

	"periph.io/x/devices/v3/ssd1306/image1bit"
)

// canvas draws on a frame, clipped to clip; coordinates are relative to
// origin, the top left corner of the screen's bounds.
type canvas struct {
	f      *image1bit.VerticalLSB
	clip   image.Rectangle // in frame coordinates
	origin image.Point
}

// usable reports whether frame's pixel buffer matches its bounds, so that
// drawing on it cannot index out of range.
func usable(f *image1bit.VerticalLSB) bool {
	if f == nil || f.Rect.Empty() {
		return false
	}
	if f.Stride < f.Rect.Dx() {
		return false
	}
	minY := f.Rect.Min.Y &^ 7
	pages := (f.Rect.Max.Y - minY + 7) / 8
	return len(f.Pix) >= pages*f.Stride
}

// clipRect returns r (screen coordinates) clipped, in frame coordinates.
func (c *canvas) clipRect(r image.Rectangle) image.Rectangle {
	return r.Add(c.origin).Intersect(c.clip)
}

// fill sets every pixel of r.
func (c *canvas) fill(r image.Rectangle, on bool) {
	r = c.clipRect(r).Sub(c.origin)
	for y := r.Min.Y; y < r.Max.Y; y += 64 {
		h := min(64, r.Max.Y-y)
		mask := ^uint64(0) >> (64 - h)
		for x := r.Min.X; x < r.Max.X; x++ {
			c.column(x, y, mask, on)
		}
	}
}

// invert flips every pixel of r.
func (c *canvas) invert(r image.Rectangle) {
	r = c.clipRect(r)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c.f.SetBit(x, y, !c.f.BitAt(x, y))
		}
	}
}

// outline draws the border of r, t pixels thick.
func (c *canvas) outline(r image.Rectangle, t int, on bool) {
	c.fill(image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+t), on)
	c.fill(image.Rect(r.Min.X, r.Max.Y-t, r.Max.X, r.Max.Y), on)
	c.fill(image.Rect(r.Min.X, r.Min.Y, r.Min.X+t, r.Max.Y), on)
	c.fill(image.Rect(r.Max.X-t, r.Min.Y, r.Max.X, r.Max.Y), on)
}

// column sets the pixels of col (bit 0 at row y) in column x, writing
// whole bytes of the frame's pages.
func (c *canvas) column(x, y int, col uint64, on bool) {
	fx, fy := x+c.origin.X, y+c.origin.Y
	if col == 0 || fx < c.clip.Min.X || fx >= c.clip.Max.X {
		return
	}
	if lo := c.clip.Min.Y - fy; lo > 0 {
		if lo >= 64 {
			return
		}
		col &^= 1<<uint(lo) - 1
	}
	if hi := c.clip.Max.Y - fy; hi < 64 {
		if hi <= 0 {
			return
		}
		col &= 1<<uint(hi) - 1
	}
	if col == 0 {
		return
	}
	rel := fy - c.f.Rect.Min.Y&^7
	base := fx - c.f.Rect.Min.X
	first := rel + bits.TrailingZeros64(col)
	last := rel + 63 - bits.LeadingZeros64(col)
	for p := first >> 3; p <= last>>3; p++ {
		var b byte
		if sh := p*8 - rel; sh >= 0 {
			b = byte(col >> uint(sh))
		} else {
			b = byte(col << uint(-sh))
		}
		i := p*c.f.Stride + base
		if on {
			c.f.Pix[i] |= b
		} else {
			c.f.Pix[i] &^= b
		}
	}
}
