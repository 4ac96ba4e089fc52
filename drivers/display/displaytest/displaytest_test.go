package displaytest

import (
	"errors"
	"image"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/zeitnot/zeitnot/drivers/display"
	"periph.io/x/devices/v3/ssd1306/image1bit"
)

func TestPixelDiffAndBytes(t *testing.T) {
	p := NewPixel("left", 128, 64)
	f := display.NewFrame(p.Bounds())
	if err := p.Draw(f); err != nil {
		t.Fatal(err)
	}
	full := 8 * (spanOverhead + 128)
	if got := p.BusBytes(); got != full {
		t.Fatalf("first draw counts %d bytes, want %d", got, full)
	}
	if err := p.Draw(f); err != nil {
		t.Fatal(err)
	}
	if got := p.BusBytes(); got != full {
		t.Errorf("same frame again counts %d more bytes", got-full)
	}
	f.SetBit(10, 10, image1bit.On) // page 1, column 10
	f.SetBit(12, 60, image1bit.On) // page 7, column 12
	if err := p.Draw(f); err != nil {
		t.Fatal(err)
	}
	if got, want := p.BusBytes()-full, 2*(spanOverhead+1); got != want {
		t.Errorf("two changed pixels count %d bytes, want %d", got, want)
	}
	if p.Draws() != 3 || len(p.Frames()) != 2 {
		t.Errorf("Draws=%d Frames=%d, want 3 and 2", p.Draws(), len(p.Frames()))
	}
	s := p.Snapshot()
	if !s.BitAt(10, 10) || !s.BitAt(12, 60) || s.BitAt(11, 10) {
		t.Error("snapshot does not show the frame drawn")
	}
	// The snapshot is a copy.
	s.SetBit(0, 0, image1bit.On)
	if p.Snapshot().BitAt(0, 0) {
		t.Error("changing a snapshot changed the display")
	}
}

func TestPixelFailResetsDiff(t *testing.T) {
	p := NewPixel("p", 128, 32)
	f := display.NewFrame(p.Bounds())
	_ = p.Draw(f)
	before := p.BusBytes()
	boom := errors.New("bus gone")
	p.FailNext(boom)
	if err := p.Draw(f); !errors.Is(err, boom) {
		t.Fatalf("Draw = %v, want %v", err, boom)
	}
	if err := p.Draw(f); err != nil {
		t.Fatal(err)
	}
	if got, want := p.BusBytes()-before, 4*(spanOverhead+128); got != want {
		t.Errorf("draw after a failure counts %d bytes, want a full frame of %d", got, want)
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

func TestPixelBrightnessHalt(t *testing.T) {
	p := NewPixel("p", 16, 8)
	if p.Brightness() != 255 {
		t.Errorf("Brightness = %d at first", p.Brightness())
	}
	_ = p.SetBrightness(3)
	_ = p.Halt()
	if p.Brightness() != 3 || !p.Halted() {
		t.Errorf("Brightness=%d Halted=%v", p.Brightness(), p.Halted())
	}
	_ = p.Draw(display.NewFrame(p.Bounds()))
	if p.Halted() {
		t.Error("Draw did not wake the display")
	}
}

func TestPixelConcurrent(t *testing.T) {
	p := NewPixel("p", 64, 16)
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			f := display.NewFrame(p.Bounds())
			for j := range 50 {
				f.SetBit(j, i, image1bit.On)
				_ = p.Draw(f)
				_ = p.Snapshot()
				_ = p.BusBytes()
			}
		})
	}
	wg.Wait()
	if p.Draws() != 200 {
		t.Errorf("Draws = %d, want 200", p.Draws())
	}
}

func TestText(t *testing.T) {
	d := NewText("clock", 4, 1)
	if c, l := d.Size(); c != 4 || l != 1 {
		t.Errorf("Size = %d, %d", c, l)
	}
	for _, s := range []string{"1:29", "1:29", "1:28", "PAUS", "PAUS"} {
		if err := d.Show(s); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := d.History(), []string{"1:29", "1:28", "PAUS"}; !reflect.DeepEqual(got, want) {
		t.Errorf("History = %q, want %q", got, want)
	}
	if d.Text() != "PAUS" || d.Shows() != 5 {
		t.Errorf("Text=%q Shows=%d", d.Text(), d.Shows())
	}
	d.FailNext(errors.New("no ack"))
	if err := d.Show("FLAG"); err == nil || d.Text() != "PAUS" {
		t.Errorf("failed Show: err=%v text=%q", err, d.Text())
	}
	_ = d.Halt()
	_ = d.Show("PAUS")
	if d.Halted() || len(d.History()) != 4 {
		t.Errorf("showing the same text after Halt: halted=%v history=%q", d.Halted(), d.History())
	}
}

func TestTextConcurrent(t *testing.T) {
	d := NewText("t", 16, 2)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 100 {
				_ = d.Show("x")
				_ = d.History()
			}
		})
	}
	wg.Wait()
	if d.Shows() != 400 {
		t.Errorf("Shows = %d", d.Shows())
	}
}

func TestPNGRoundTrip(t *testing.T) {
	f := display.NewFrame(image.Rect(0, 0, 20, 10))
	for i := range 10 {
		f.SetBit(i*2, i, image1bit.On)
	}
	for _, scale := range []int{1, 3, 4} {
		path := filepath.Join(t.TempDir(), "f.png")
		if err := SavePNG(path, f, scale); err != nil {
			t.Fatal(err)
		}
		back, err := LoadPNG(path, scale)
		if err != nil {
			t.Fatal(err)
		}
		if n := Diff(f, back); n != 0 {
			t.Errorf("scale %d: %d pixels differ after a round trip", scale, n)
		}
		if err := Golden(path, f, scale, false); err != nil {
			t.Errorf("Golden: %v", err)
		}
		g := display.NewFrame(f.Rect)
		if err := Golden(path, g, scale, false); err == nil {
			t.Errorf("scale %d: Golden accepted a different frame", scale)
		}
	}
	if got := Render(f, 4).Bounds(); got != image.Rect(0, 0, 80, 40) {
		t.Errorf("Render bounds = %v", got)
	}
	if Diff(f, nil) != -1 {
		t.Error("Diff with nil")
	}
}

func TestMalformedFrames(t *testing.T) {
	bad := &image1bit.VerticalLSB{Rect: image.Rect(0, 0, 128, 64), Stride: 128, Pix: make([]byte, 10)}
	if got := Render(bad, 4).Bounds(); !got.Empty() {
		t.Errorf("Render of a malformed frame is %v", got)
	}
	if Diff(bad, bad) != -1 {
		t.Error("Diff of malformed frames")
	}
	odd := image1bit.NewVerticalLSB(image.Rect(3, 5, 20, 30))
	odd.SetBit(19, 29, image1bit.On)
	if Diff(odd, odd) != 0 || Render(odd, 2).Bounds().Dx() != 34 {
		t.Error("a frame with an odd origin is refused")
	}
}
