package display

import (
	"image"
	"testing"

	"periph.io/x/devices/v3/ssd1306/image1bit"
)

func TestCheckFrame(t *testing.T) {
	b := image.Rect(0, 0, 128, 32)
	if err := CheckFrame(NewFrame(b), b); err != nil {
		t.Errorf("a frame from NewFrame is refused: %v", err)
	}
	bad := []*image1bit.VerticalLSB{
		nil,
		NewFrame(image.Rect(0, 0, 128, 64)),
		NewFrame(image.Rect(1, 0, 129, 32)),
		{Rect: b, Stride: 128, Pix: make([]byte, 100)},
		{Rect: b, Stride: 64, Pix: make([]byte, 4096)},
	}
	for i, f := range bad {
		if err := CheckFrame(f, b); err == nil {
			t.Errorf("bad frame %d accepted", i)
		}
	}
}

func TestFamilyString(t *testing.T) {
	for f, want := range map[Family]string{Pixels: "pixel", Segments: "segment", Characters: "character", 0: "Family(0)", 9: "Family(9)"} {
		if got := f.String(); got != want {
			t.Errorf("Family(%d) = %q, want %q", f, got, want)
		}
	}
}
