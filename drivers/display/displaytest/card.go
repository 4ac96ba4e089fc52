package displaytest

import (
	"image"

	"github.com/zeitnot/zeitnot/drivers/display/bitfont"
	"periph.io/x/devices/v3/ssd1306/image1bit"
)

// TestCard returns a frame for checking a panel by eye: a one-pixel border,
// a filled 4x4 square in the top left corner only (so a mirrored or rotated
// panel is obvious), a checkerboard strip along the bottom and text centred
// at the largest scale that fits.
func TestCard(bounds image.Rectangle, text string) *image1bit.VerticalLSB {
	f := image1bit.NewVerticalLSB(bounds)
	b := bounds
	for x := b.Min.X; x < b.Max.X; x++ {
		f.SetBit(x, b.Min.Y, image1bit.On)
		f.SetBit(x, b.Max.Y-1, image1bit.On)
	}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		f.SetBit(b.Min.X, y, image1bit.On)
		f.SetBit(b.Max.X-1, y, image1bit.On)
	}
	for y := 2; y < 6; y++ {
		for x := 2; x < 6; x++ {
			f.SetBit(b.Min.X+x, b.Min.Y+y, image1bit.On)
		}
	}
	for y := b.Max.Y - 5; y < b.Max.Y-2; y++ {
		for x := b.Min.X + 8; x < b.Max.X-8; x++ {
			if (x+y)%2 == 0 {
				f.SetBit(x, y, image1bit.On)
			}
		}
	}
	scale := 1
	for s := 8; s > 1; s-- {
		if bitfont.Width(text, s) <= b.Dx()-8 && bitfont.Height*s <= b.Dy()-14 {
			scale = s
			break
		}
	}
	x := b.Min.X + (b.Dx()-bitfont.Width(text, scale))/2
	y := b.Min.Y + (b.Dy()-6-bitfont.Height*scale)/2
	bitfont.Draw(f, x, y, text, scale)
	return f
}
