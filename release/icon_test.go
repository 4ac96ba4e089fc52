package release

import (
	"bytes"
	"flag"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"testing"
)

var updateIcon = flag.Bool("update-icon", false, "write zeitnot-icon.png from drawIcon")

// drawIcon draws the Imager's icon of zeitnot, 64 by 64: a chess clock,
// two dials and two levers (the right one pressed), and a red flag on the
// left dial, the flag of zeitnot.
func drawIcon() *image.NRGBA {
	const n = 64
	img := image.NewNRGBA(image.Rect(0, 0, n, n))
	body := color.NRGBA{0x5b, 0x3a, 0x1e, 0xff}
	rim := color.NRGBA{0x2b, 0x1a, 0x0c, 0xff}
	face := color.NRGBA{0xf7, 0xf3, 0xe8, 0xff}
	ink := color.NRGBA{0x1a, 0x1a, 0x1a, 0xff}
	red := color.NRGBA{0xd0, 0x20, 0x20, 0xff}
	lever := color.NRGBA{0xb0, 0xb0, 0xb0, 0xff}
	rect := func(x0, y0, x1, y1 int, c color.NRGBA) {
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				img.SetNRGBA(x, y, c)
			}
		}
	}
	// The levers, then the case with rounded corners.
	rect(12, 10, 26, 18, lever)
	rect(38, 14, 52, 18, lever)
	for y := 18; y < 60; y++ {
		for x := 3; x < 61; x++ {
			dx := math.Max(math.Max(7-float64(x), float64(x)-56), 0)
			dy := math.Max(math.Max(22-float64(y), float64(y)-55), 0)
			d := math.Hypot(dx, dy)
			switch {
			case d > 4.5:
			case d > 3 || x < 5 || x > 58 || y > 57:
				img.SetNRGBA(x, y, rim)
			default:
				img.SetNRGBA(x, y, body)
			}
		}
	}
	// The dials, each with a hand: the left at five to twelve.
	dial := func(cx, cy float64, angle float64) {
		for y := 0; y < n; y++ {
			for x := 0; x < n; x++ {
				d := math.Hypot(float64(x)+0.5-cx, float64(y)+0.5-cy)
				switch {
				case d <= 10:
					img.SetNRGBA(x, y, face)
				case d <= 12:
					img.SetNRGBA(x, y, ink)
				}
			}
		}
		for i := 0.0; i <= 8; i += 0.25 {
			x := cx + i*math.Sin(angle)
			y := cy - i*math.Cos(angle)
			rect(int(x)-1, int(y)-1, int(x)+1, int(y)+1, ink)
		}
	}
	dial(19, 39, -math.Pi/6)
	dial(45, 39, math.Pi*2/3)
	// The flag at the left dial's twelve.
	for y := 29; y < 35; y++ {
		for x := 20; x < 20+(35-y); x++ {
			img.SetNRGBA(x, y, red)
		}
	}
	return img
}

// The icon the Imager repository names is the one drawIcon draws (go
// test ./release -run TestIcon -update-icon writes it), a PNG of 64 by 64.
func TestIcon(t *testing.T) {
	want := drawIcon()
	if *updateIcon {
		var b bytes.Buffer
		if err := png.Encode(&b, want); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("zeitnot-icon.png", b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open("zeitnot-icon.png")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := png.Decode(f)
	if err != nil {
		t.Fatalf("zeitnot-icon.png: %v", err)
	}
	if got.Bounds() != want.Bounds() {
		t.Fatalf("zeitnot-icon.png is %v, want %v", got.Bounds(), want.Bounds())
	}
	for y := 0; y < 64; y++ {
		for x := 0; x < 64; x++ {
			if color.NRGBAModel.Convert(got.At(x, y)) != want.At(x, y) {
				t.Fatalf("zeitnot-icon.png differs from drawIcon at %d,%d: run go test ./release -run TestIcon -update-icon", x, y)
			}
		}
	}
}
