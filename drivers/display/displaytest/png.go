package displaytest

import (
	"fmt"
	"image"

	"periph.io/x/devices/v3/ssd1306/image1bit"

	"github.com/zeitnot/zeitnot/drivers/display/displaytest/framepng"
)

// Render returns frame enlarged so each pixel is a scale x scale square
// (scale clamped to [1, 32]), lit pixels light blue on a dark panel, as
// framepng.Render.
func Render(frame *image1bit.VerticalLSB, scale int) *image.Paletted {
	return framepng.Render(frame, scale)
}

// SavePNG writes Render(frame, scale) to path as a PNG (framepng.Save).
func SavePNG(path string, frame *image1bit.VerticalLSB, scale int) error {
	return framepng.Save(path, frame, scale)
}

// LoadPNG reads a PNG written by SavePNG with the same scale back into a
// frame (framepng.Load).
func LoadPNG(path string, scale int) (*image1bit.VerticalLSB, error) {
	return framepng.Load(path, scale)
}

// Diff returns how many pixels differ between two frames, or -1 when their
// bounds differ or one is malformed.
func Diff(a, b *image1bit.VerticalLSB) int {
	if !framepng.WellFormed(a) || !framepng.WellFormed(b) || a.Rect != b.Rect {
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
