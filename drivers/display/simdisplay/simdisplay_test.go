package simdisplay

import (
	"image"
	"sync"
	"testing"

	"periph.io/x/devices/v3/ssd1306/image1bit"

	"github.com/zeitnot/zeitnot/drivers/display"
)

func TestPixel(t *testing.T) {
	p := NewPixel("sim-oled 128x64 (left)", 128, 64)
	if p.String() != "sim-oled 128x64 (left)" || p.Bounds() != image.Rect(0, 0, 128, 64) {
		t.Fatalf("%s %v", p, p.Bounds())
	}
	if bool(p.Snapshot().BitAt(10, 10)) || p.Brightness() != 255 || p.Halted() {
		t.Fatal("not blank, bright and awake at first")
	}
	f := display.NewFrame(p.Bounds())
	f.SetBit(10, 10, image1bit.On)
	f.SetBit(127, 63, image1bit.On)
	if err := p.Draw(f); err != nil {
		t.Fatal(err)
	}
	s := p.Snapshot()
	if !s.BitAt(10, 10) || !s.BitAt(127, 63) || s.BitAt(11, 10) {
		t.Error("snapshot does not show the frame drawn")
	}
	s.SetBit(0, 0, image1bit.On)
	f.SetBit(1, 1, image1bit.On)
	if p.Snapshot().BitAt(0, 0) || p.Snapshot().BitAt(1, 1) {
		t.Error("the display shares memory with a snapshot or a frame drawn")
	}
	_ = p.SetBrightness(3)
	_ = p.Halt()
	if p.Brightness() != 3 || !p.Halted() || !bool(p.Snapshot().BitAt(10, 10)) {
		t.Errorf("after Halt: brightness %d, halted %v, frame kept %v", p.Brightness(), p.Halted(), p.Snapshot().BitAt(10, 10))
	}
	if err := p.Draw(f); err != nil || p.Halted() {
		t.Errorf("Draw did not wake the display: %v", err)
	}
}

func TestPixelRejectsBadFrames(t *testing.T) {
	p := NewPixel("p", 128, 64)
	for _, f := range []*image1bit.VerticalLSB{nil, display.NewFrame(image.Rect(0, 0, 128, 32)), {Rect: p.Bounds()}} {
		if err := p.Draw(f); err == nil {
			t.Errorf("Draw(%v) succeeded", f)
		}
	}
}

func TestSizesClamped(t *testing.T) {
	if b := NewPixel("p", 0, 5000).Bounds(); b != image.Rect(0, 0, 1, MaxPixels) {
		t.Errorf("pixel bounds %v", b)
	}
	if c, l := NewText("t", -3, 500).Size(); c != 1 || l != MaxCells {
		t.Errorf("text size %dx%d", c, l)
	}
}

func TestText(t *testing.T) {
	d := NewText("sim-segment 4x1 (right)", 4, 1)
	if c, l := d.Size(); c != 4 || l != 1 || d.String() != "sim-segment 4x1 (right)" {
		t.Fatalf("%s %dx%d", d, c, l)
	}
	if d.Text() != "" || d.Brightness() != 255 || d.Halted() {
		t.Fatal("not blank, bright and awake at first")
	}
	_ = d.Show("1:29")
	_ = d.SetBrightness(7)
	_ = d.Halt()
	if d.Text() != "1:29" || d.Brightness() != 7 || !d.Halted() {
		t.Errorf("text %q brightness %d halted %v", d.Text(), d.Brightness(), d.Halted())
	}
	_ = d.Show("1:29")
	if d.Halted() {
		t.Error("Show did not wake the display")
	}
}

func TestConcurrent(t *testing.T) {
	p := NewPixel("p", 64, 16)
	d := NewText("t", 16, 2)
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			f := display.NewFrame(p.Bounds())
			for j := range 50 {
				f.SetBit(j, i, image1bit.On)
				_ = p.Draw(f)
				_ = p.Snapshot()
				_ = d.Show("x")
				_ = d.Text()
			}
		})
	}
	wg.Wait()
	// The last frame drawn is one goroutine's whole row of 50 pixels.
	s, rows := p.Snapshot(), 0
	for y := range 4 {
		if s.BitAt(0, y) && s.BitAt(49, y) && !s.BitAt(50, y) {
			rows++
		}
	}
	if rows != 1 || d.Text() != "x" {
		t.Errorf("the display shows %d whole rows, want the 1 of the last frame drawn", rows)
	}
}
