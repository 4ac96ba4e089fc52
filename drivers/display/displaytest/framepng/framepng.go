// Package framepng turns 1-bit display frames into enlarged PNG pictures
// and back: the simulator's screenshots (`zeitnot-sim --shots`), the
// pictures in the documentation, and golden files for tests.
//
// A picture shows each pixel as a scale x scale square, lit pixels light
// blue on a dark panel; from scale 4 up a thin dark grid separates the
// pixels, as on a real panel. Load reads such a picture back, so a test can
// compare a frame with a picture pixel for pixel.
package framepng

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"

	"periph.io/x/devices/v3/ssd1306/image1bit"
)

// MaxScale is the largest scale; larger ones are clamped, as are scales
// below 1.
const MaxScale = 32

// Colours of a picture: a dark panel, a grid line between pixels and the
// lit pixels.
var palette = color.Palette{
	color.RGBA{0x10, 0x10, 0x14, 0xFF},
	color.RGBA{0x00, 0x00, 0x00, 0xFF},
	color.RGBA{0xC8, 0xE6, 0xFF, 0xFF},
}

// Render returns frame enlarged so each pixel is a scale x scale square. A
// nil frame, or one whose Pix is too short for its bounds, gives an empty
// picture.
func Render(frame *image1bit.VerticalLSB, scale int) *image.Paletted {
	scale = max(1, min(scale, MaxScale))
	if !WellFormed(frame) {
		return image.NewPaletted(image.Rect(0, 0, 0, 0), palette)
	}
	b := frame.Bounds()
	img := image.NewPaletted(image.Rect(0, 0, b.Dx()*scale, b.Dy()*scale), palette)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			var c uint8
			if frame.BitAt(x, y) {
				c = 2
			}
			for dy := range scale {
				for dx := range scale {
					cc := c
					if scale >= 4 && (dx == scale-1 || dy == scale-1) {
						cc = 1
					}
					img.SetColorIndex((x-b.Min.X)*scale+dx, (y-b.Min.Y)*scale+dy, cc)
				}
			}
		}
	}
	return img
}

// Save writes Render(frame, scale) to path as a PNG.
func Save(path string, frame *image1bit.VerticalLSB, scale int) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("framepng: %w", err)
	}
	if err := png.Encode(f, Render(frame, scale)); err != nil {
		f.Close()
		return fmt.Errorf("framepng: %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("framepng: %w", err)
	}
	return nil
}

// Load reads a PNG written by Save with the same scale back into a frame:
// a pixel is lit when the centre of its square is bright.
func Load(path string, scale int) (*image1bit.VerticalLSB, error) {
	scale = max(1, min(scale, MaxScale))
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("framepng: %w", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return nil, fmt.Errorf("framepng: %s: %w", path, err)
	}
	b := img.Bounds()
	if b.Dx()%scale != 0 || b.Dy()%scale != 0 {
		return nil, fmt.Errorf("framepng: %s: %dx%d is not a multiple of scale %d", path, b.Dx(), b.Dy(), scale)
	}
	frame := image1bit.NewVerticalLSB(image.Rect(0, 0, b.Dx()/scale, b.Dy()/scale))
	c := (scale - 1) / 2
	for y := 0; y < frame.Rect.Dy(); y++ {
		for x := 0; x < frame.Rect.Dx(); x++ {
			r, g, bl, _ := img.At(b.Min.X+x*scale+c, b.Min.Y+y*scale+c).RGBA()
			if r+g+bl > 3*0x8000 {
				frame.SetBit(x, y, image1bit.On)
			}
		}
	}
	return frame, nil
}

// WellFormed reports whether every pixel of f's bounds lies within its Pix,
// as it does for frames made by image1bit.NewVerticalLSB, whatever their
// origin.
func WellFormed(f *image1bit.VerticalLSB) bool {
	if f == nil || f.Rect.Empty() {
		return f != nil
	}
	bands := ((f.Rect.Max.Y+7)&^7 - f.Rect.Min.Y&^7) / 8
	return f.Stride >= f.Rect.Dx() && len(f.Pix) >= (bands-1)*f.Stride+f.Rect.Dx()
}
