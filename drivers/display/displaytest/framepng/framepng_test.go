package framepng

import (
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"periph.io/x/devices/v3/ssd1306/image1bit"
)

func TestRoundTrip(t *testing.T) {
	f := image1bit.NewVerticalLSB(image.Rect(0, 0, 20, 10))
	for i := range 10 {
		f.SetBit(i*2, i, image1bit.On)
	}
	for _, scale := range []int{1, 3, 4} {
		path := filepath.Join(t.TempDir(), "f.png")
		if err := Save(path, f, scale); err != nil {
			t.Fatal(err)
		}
		back, err := Load(path, scale)
		if err != nil {
			t.Fatal(err)
		}
		if back.Rect != f.Rect {
			t.Fatalf("scale %d: read back %v, want %v", scale, back.Rect, f.Rect)
		}
		for y := range 10 {
			for x := range 20 {
				if back.BitAt(x, y) != f.BitAt(x, y) {
					t.Fatalf("scale %d: pixel %d,%d differs after a round trip", scale, x, y)
				}
			}
		}
	}
	if got := Render(f, 4).Bounds(); got != image.Rect(0, 0, 80, 40) {
		t.Errorf("Render bounds = %v", got)
	}
	if got := Render(f, 1000).Bounds(); got != image.Rect(0, 0, 20*MaxScale, 10*MaxScale) {
		t.Errorf("Render at a huge scale = %v", got)
	}
}

func TestGrid(t *testing.T) {
	f := image1bit.NewVerticalLSB(image.Rect(0, 0, 2, 1))
	f.SetBit(0, 0, image1bit.On)
	img := Render(f, 4)
	if img.ColorIndexAt(0, 0) != 2 || img.ColorIndexAt(3, 0) != 1 || img.ColorIndexAt(4, 0) != 0 {
		t.Errorf("lit %d, grid %d, dark %d", img.ColorIndexAt(0, 0), img.ColorIndexAt(3, 0), img.ColorIndexAt(4, 0))
	}
	if img := Render(f, 3); img.ColorIndexAt(2, 2) != 2 {
		t.Error("a grid below scale 4")
	}
}

func TestMalformedFrames(t *testing.T) {
	bad := &image1bit.VerticalLSB{Rect: image.Rect(0, 0, 128, 64), Stride: 128, Pix: make([]byte, 10)}
	for _, f := range []*image1bit.VerticalLSB{nil, bad} {
		if WellFormed(f) {
			t.Errorf("%v is well formed", f)
		}
		if got := Render(f, 4).Bounds(); !got.Empty() {
			t.Errorf("Render of a malformed frame is %v", got)
		}
	}
	odd := image1bit.NewVerticalLSB(image.Rect(3, 5, 20, 30))
	odd.SetBit(19, 29, image1bit.On)
	if !WellFormed(odd) || Render(odd, 2).Bounds().Dx() != 34 {
		t.Error("a frame with an odd origin is refused")
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	f := image1bit.NewVerticalLSB(image.Rect(0, 0, 5, 5))
	odd := filepath.Join(dir, "odd.png")
	if err := Save(odd, f, 3); err != nil {
		t.Fatal(err)
	}
	notPNG := filepath.Join(dir, "not.png")
	os.WriteFile(notPNG, []byte("GIF89a is not a PNG picture"), 0o644)
	for _, tc := range []struct{ path, want string }{
		{odd, "odd.png: 15x15 is not a multiple of scale 4"},
		{notPNG, "not.png: png: invalid format"},
		{filepath.Join(dir, "none.png"), "no such file"},
	} {
		_, err := Load(tc.path, 4)
		if err == nil || !strings.HasPrefix(err.Error(), "framepng: ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Load(%s): %v, want %q", tc.path, err, tc.want)
		}
	}
	if err := Save(filepath.Join(dir, "no", "dir.png"), f, 1); err == nil || !strings.HasPrefix(err.Error(), "framepng: ") {
		t.Errorf("Save into a missing directory: %v", err)
	}
}
