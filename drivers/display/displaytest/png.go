package displaytest

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"

	"periph.io/x/devices/v3/ssd1306/image1bit"
)

// Colours of a rendered frame: a dark panel, a grid line between pixels and
// the lit pixels.
var palette = color.Palette{
	color.RGBA{0x10, 0x10, 0x14, 0xFF},
	color.RGBA{0x00, 0x00, 0x00, 0xFF},
	color.RGBA{0xC8, 0xE6, 0xFF, 0xFF},
}

// Render returns frame enlarged so each pixel is a scale x scale square
// (scale clamped to [1, 32]), lit pixels light blue on a dark panel. From
// scale 4 up a thin dark grid separates pixels, as on a real panel.
func Render(frame *image1bit.VerticalLSB, scale int) *image.Paletted {
	scale = max(1, min(scale, 32))
	if !wellFormed(frame) {
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

// SavePNG writes Render(frame, scale) to path as a PNG.
func SavePNG(path string, frame *image1bit.VerticalLSB, scale int) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("displaytest: %w", err)
	}
	if err := png.Encode(f, Render(frame, scale)); err != nil {
		f.Close()
		return fmt.Errorf("displaytest: %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("displaytest: %w", err)
	}
	return nil
}

// LoadPNG reads a PNG written by SavePNG with the same scale back into a
// frame: a pixel is lit when the centre of its square is bright.
func LoadPNG(path string, scale int) (*image1bit.VerticalLSB, error) {
	scale = max(1, min(scale, 32))
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("displaytest: %w", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return nil, fmt.Errorf("displaytest: %s: %w", path, err)
	}
	b := img.Bounds()
	if b.Dx()%scale != 0 || b.Dy()%scale != 0 {
		return nil, fmt.Errorf("displaytest: %s: %dx%d is not a multiple of scale %d", path, b.Dx(), b.Dy(), scale)
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

// Diff returns how many pixels differ between two frames, or -1 when their
// bounds differ.
func Diff(a, b *image1bit.VerticalLSB) int {
	if !wellFormed(a) || !wellFormed(b) || a.Rect != b.Rect {
		return -1
	}
	n := 0
	for y := a.Rect.Min.Y; y < a.Rect.Max.Y; y++ {
		for x := a.Rect.Min.X; x < a.Rect.Max.X; x++ {
			if a.BitAt(x, y) != b.BitAt(x, y) {
				n++
			}
		}
	}
	return n
}

// Golden compares frame with the golden PNG at path, written by SavePNG at
// scale. With update set it writes frame to path instead. The error says how
// many pixels differ.
func Golden(path string, frame *image1bit.VerticalLSB, scale int, update bool) error {
	if update {
		return SavePNG(path, frame, scale)
	}
	want, err := LoadPNG(path, scale)
	if err != nil {
		return err
	}
	if n := Diff(frame, want); n != 0 {
		if n < 0 {
			return fmt.Errorf("displaytest: frame is %v, golden %s is %v", frame.Bounds(), path, want.Bounds())
		}
		return fmt.Errorf("displaytest: %d pixels differ from golden %s", n, path)
	}
	return nil
}

// wellFormed reports whether every pixel of f's bounds lies within its Pix,
// as it does for frames made by image1bit.NewVerticalLSB.
func wellFormed(f *image1bit.VerticalLSB) bool {
	if f == nil || f.Rect.Empty() {
		return f != nil
	}
	bands := ((f.Rect.Max.Y+7)&^7 - f.Rect.Min.Y&^7) / 8
	return f.Stride >= f.Rect.Dx() && len(f.Pix) >= (bands-1)*f.Stride+f.Rect.Dx()
}
