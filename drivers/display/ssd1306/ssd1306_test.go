package ssd1306

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"image"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/drivers/display"
	"github.com/zeitnot/zeitnot/drivers/display/bitfont"
	"github.com/zeitnot/zeitnot/drivers/display/displaytest"
	"github.com/zeitnot/zeitnot/drivers/display/internal/oledsim"
	"periph.io/x/conn/v3/gpio/gpiotest"
	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/conn/v3/spi/spitest"
	"periph.io/x/devices/v3/ssd1306/image1bit"
)

var update = flag.Bool("update", false, "rewrite the golden PNGs in testdata/")

// golden compares what the chip's RAM shows with testdata/name.
func golden(t *testing.T, name string, got *image1bit.VerticalLSB) {
	t.Helper()
	if err := displaytest.Golden(filepath.Join("testdata", name), got, 4, *update); err != nil {
		t.Error(err)
	}
}

func decodeI2C(t *testing.T, rec *i2ctest.Record, addr uint16) *oledsim.Chip {
	t.Helper()
	chip := oledsim.NewSSD1306()
	rec.Lock()
	defer rec.Unlock()
	if err := chip.ReplayI2C(rec.Ops, addr); err != nil {
		t.Fatal(err)
	}
	return chip
}

func opsLen(rec *i2ctest.Record) int {
	rec.Lock()
	defer rec.Unlock()
	return len(rec.Ops)
}

// bothClocks is one panel showing both players' clocks.
func bothClocks(b image.Rectangle, left, right string) *image1bit.VerticalLSB {
	f := display.NewFrame(b)
	mid := b.Dx() / 2
	for y := 0; y < b.Dy(); y++ {
		f.SetBit(mid, y, image1bit.On)
	}
	bitfont.Draw(f, (mid-bitfont.Width("WHITE", 1))/2, 4, "WHITE", 1)
	bitfont.Draw(f, mid+(mid-bitfont.Width("BLACK", 1))/2, 4, "BLACK", 1)
	for i, text := range []string{left, right} {
		s := 4
		for s > 1 && bitfont.Width(text, s) > mid-4 {
			s--
		}
		x := i*mid + (mid-bitfont.Width(text, s))/2
		bitfont.Draw(f, x, 14+(b.Dy()-14-bitfont.Height*s)/2, text, s)
	}
	return f
}

func TestInit(t *testing.T) {
	rec := &i2ctest.Record{}
	d, err := NewI2C(rec, &Opts{W: 128, H: 32, Addr: 0x3D})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := d.String(), "ssd1306 128x32 on record@0x3d"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	chip := decodeI2C(t, rec, 0x3D)
	if mux, com := chip.Multiplex(); mux != 31 || com != 0x02 {
		t.Errorf("multiplex %d, COM pins %#02x; want 31 and 0x02", mux, com)
	}
	// Horizontal addressing with a window over the whole panel, the
	// pointer at its start: a first frame is one data write.
	if chip.Mode != oledsim.Horizontal {
		t.Errorf("addressing mode %d, want horizontal addressing", chip.Mode)
	}
	if chip.ColStart != 0 || chip.ColEnd != 127 || chip.PageStart != 0 || chip.PageEnd != 3 || chip.Col != 0 || chip.Page != 0 {
		t.Errorf("window columns %d-%d pages %d-%d, pointer %d,%d; want 0-127, 0-3 and 0,0",
			chip.ColStart, chip.ColEnd, chip.PageStart, chip.PageEnd, chip.Col, chip.Page)
	}
	if chip.On {
		t.Error("display on before the first Draw")
	}
	for _, op := range rec.Ops {
		if op.Addr != 0x3D {
			t.Errorf("write to %#02x", op.Addr)
		}
	}
	if chip.DataBytes != 0 {
		t.Errorf("init sent %d data bytes", chip.DataBytes)
	}
}

func TestOptsRejected(t *testing.T) {
	for _, o := range []Opts{
		{W: 128, H: 64, Addr: 0x3B},
		{W: 128, H: 60, Addr: 0x3C},
		{W: 129, H: 64, Addr: 0x3C},
		{W: 0, H: 0, Addr: 0x3C},
		{W: 128, H: 72, Addr: 0x3C},
	} {
		rec := &i2ctest.Record{}
		if _, err := NewI2C(rec, &o); err == nil || !strings.HasPrefix(err.Error(), "ssd1306: ") {
			t.Errorf("NewI2C(%+v) = %v, want an ssd1306 error", o, err)
		}
		if len(rec.Ops) != 0 {
			t.Errorf("NewI2C(%+v) wrote to the bus", o)
		}
	}
	if _, err := NewSPI(&spitest.Record{}, nil, nil); err == nil {
		t.Error("NewSPI without D/C succeeded")
	}
}

func TestDrawI2C(t *testing.T) {
	for _, tt := range []struct {
		w, h int
		file string
	}{
		{128, 64, "testcard_128x64.png"},
		{128, 32, "testcard_128x32.png"},
	} {
		rec := &i2ctest.Record{}
		d, err := NewI2C(rec, &Opts{W: tt.w, H: tt.h, Addr: 0x3C})
		if err != nil {
			t.Fatal(err)
		}
		frame := displaytest.TestCard(d.Bounds(), "1:29:05")
		if err := d.Draw(frame); err != nil {
			t.Fatal(err)
		}
		chip := decodeI2C(t, rec, 0x3C)
		if !chip.On {
			t.Error("display still off after Draw")
		}
		got := chip.Frame(0, tt.w, tt.h)
		if n := displaytest.Diff(got, frame); n != 0 {
			t.Errorf("%dx%d: the panel differs from the frame by %d pixels", tt.w, tt.h, n)
		}
		golden(t, tt.file, got)
	}
}

func TestDrawSPI(t *testing.T) {
	rec := &spitest.Record{}
	dc := &oledsim.DCPin{Pin: gpiotest.Pin{N: "GPIO25"}, Rec: rec}
	d, err := NewSPI(rec, dc, &Opts{W: 128, H: 64, Speed: physic.MegaHertz})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(d.String(), "GPIO25") {
		t.Errorf("String = %q does not name the D/C line", d.String())
	}
	frame := bothClocks(d.Bounds(), "1:29:05", "0:09.7")
	if err := d.Draw(frame); err != nil {
		t.Fatal(err)
	}
	next := bothClocks(d.Bounds(), "1:29:05", "0:09.6")
	if err := d.Draw(next); err != nil {
		t.Fatal(err)
	}
	chip := oledsim.NewSSD1306()
	if err := chip.ReplaySPI(rec, dc); err != nil {
		t.Fatal(err)
	}
	got := chip.Frame(0, 128, 64)
	if n := displaytest.Diff(got, next); n != 0 {
		t.Errorf("the panel differs from the frame by %d pixels", n)
	}
	golden(t, "bothclocks_spi_128x64.png", got)
}

func TestTwoPanelsOneBus(t *testing.T) {
	rec := &i2ctest.Record{}
	left, err := NewI2C(rec, &Opts{W: 128, H: 64, Addr: 0x3C})
	if err != nil {
		t.Fatal(err)
	}
	right, err := NewI2C(rec, &Opts{W: 128, H: 32, Addr: 0x3D})
	if err != nil {
		t.Fatal(err)
	}
	lf := displaytest.TestCard(left.Bounds(), "1:29")
	rf := displaytest.TestCard(right.Bounds(), "0:42")
	if err := left.Draw(lf); err != nil {
		t.Fatal(err)
	}
	if err := right.Draw(rf); err != nil {
		t.Fatal(err)
	}
	if n := displaytest.Diff(decodeI2C(t, rec, 0x3C).Frame(0, 128, 64), lf); n != 0 {
		t.Errorf("left panel differs by %d pixels", n)
	}
	if n := displaytest.Diff(decodeI2C(t, rec, 0x3D).Frame(0, 128, 32), rf); n != 0 {
		t.Errorf("right panel differs by %d pixels", n)
	}
}

func TestSameFrameSendsNothing(t *testing.T) {
	rec := &i2ctest.Record{}
	d, _ := NewI2C(rec, nil)
	f := displaytest.TestCard(d.Bounds(), "1:29")
	if err := d.Draw(f); err != nil {
		t.Fatal(err)
	}
	n := opsLen(rec)
	if err := d.Draw(f); err != nil {
		t.Fatal(err)
	}
	g := display.NewFrame(d.Bounds()) // an equal frame in another buffer
	copy(g.Pix, f.Pix)
	if err := d.Draw(g); err != nil {
		t.Fatal(err)
	}
	if got := opsLen(rec); got != n {
		t.Errorf("drawing the same frame again sent %d writes", got-n)
	}
}

func TestOnlyChangedBytes(t *testing.T) {
	rec := &i2ctest.Record{}
	d, _ := NewI2C(rec, nil)
	f := display.NewFrame(d.Bounds())
	_ = d.Draw(f)
	n := opsLen(rec)
	f.SetBit(100, 20, image1bit.On) // page 2, column 100 = 0x64, bit 4
	f.SetBit(103, 20, image1bit.On) // 2 unchanged bytes between: one span
	f.SetBit(120, 20, image1bit.On) // far enough for a span of its own
	if err := d.Draw(f); err != nil {
		t.Fatal(err)
	}
	// Two spans cost less than windows: back to page addressing first.
	want := []i2ctest.IO{
		{Addr: 0x3C, W: []byte{0x00, 0x20, 0x02, 0xB2, 0x04, 0x16}},
		{Addr: 0x3C, W: []byte{0x40, 0x10, 0x00, 0x00, 0x10}},
		{Addr: 0x3C, W: []byte{0x00, 0xB2, 0x08, 0x17}},
		{Addr: 0x3C, W: []byte{0x40, 0x10}},
	}
	got := rec.Ops[n:]
	if len(got) != len(want) {
		t.Fatalf("sent %d writes, want %d: %v", len(got), len(want), got)
	}
	for i := range want {
		if got[i].Addr != want[i].Addr || !bytes.Equal(got[i].W, want[i].W) {
			t.Errorf("write %d = %#v, want %#v", i, got[i], want[i])
		}
	}
}

// TestCountdownOnThePanel runs a clock through a minute on I²C and SPI and
// checks, after every second, what the controller's RAM shows.
func TestCountdownOnThePanel(t *testing.T) {
	for _, h := range []int{64, 32} {
		rec := &i2ctest.Record{}
		d, err := NewI2C(rec, &Opts{W: 128, H: h, Addr: 0x3C})
		if err != nil {
			t.Fatal(err)
		}
		srec := &spitest.Record{}
		dc := &oledsim.DCPin{Pin: gpiotest.Pin{N: "GPIO25"}, Rec: srec}
		sd, err := NewSPI(srec, dc, &Opts{W: 128, H: h})
		if err != nil {
			t.Fatal(err)
		}
		f := display.NewFrame(d.Bounds())
		for _, s := range append([]string{"1:29:06"}, countdown()...) {
			clockFrame(f, s)
			if err := d.Draw(f); err != nil {
				t.Fatal(err)
			}
			if err := sd.Draw(f); err != nil {
				t.Fatal(err)
			}
			if n := displaytest.Diff(decodeI2C(t, rec, 0x3C).Frame(0, 128, h), f); n != 0 {
				t.Fatalf("128x%d on I²C at %s: the panel differs by %d pixels", h, s, n)
			}
			chip := oledsim.NewSSD1306()
			if err := chip.ReplaySPI(srec, dc); err != nil {
				t.Fatal(err)
			}
			if n := displaytest.Diff(chip.Frame(0, 128, h), f); n != 0 {
				t.Fatalf("128x%d on SPI at %s: the panel differs by %d pixels", h, s, n)
			}
		}
	}
}

// failBus is an I²C bus that fails every write from the fail-th on.
type failBus struct {
	i2ctest.Record
	fail int
}

func (b *failBus) Tx(addr uint16, w, r []byte) error {
	if b.fail--; b.fail < 0 {
		return errors.New("remote I/O error")
	}
	return b.Record.Tx(addr, w, r)
}

func TestBusErrorResetsDiff(t *testing.T) {
	bus := &failBus{fail: 1 << 30}
	d, err := NewI2C(bus, nil)
	if err != nil {
		t.Fatal(err)
	}
	a := displaytest.TestCard(d.Bounds(), "1:29")
	b := displaytest.TestCard(d.Bounds(), "1:28")
	if err := d.Draw(a); err != nil {
		t.Fatal(err)
	}
	bus.fail = 1 // the next draw fails on its data write
	err = d.Draw(b)
	if err == nil || !strings.HasPrefix(err.Error(), "ssd1306 128x64 on record@0x3c: ") {
		t.Fatalf("Draw on a failing bus = %v, want an error naming the device", err)
	}
	bus.fail = 1 << 30
	n := opsLen(&bus.Record)
	if err := d.Draw(b); err != nil {
		t.Fatal(err)
	}
	data := 0
	for _, op := range bus.Ops[n:] {
		if op.W[0] == 0x40 {
			data += len(op.W) - 1
		}
	}
	if data != 1024 {
		t.Errorf("draw after a bus error sent %d data bytes, want the full 1024", data)
	}
}

func TestBadFrames(t *testing.T) {
	rec := &i2ctest.Record{}
	d, _ := NewI2C(rec, nil)
	n := opsLen(rec)
	for _, f := range []*image1bit.VerticalLSB{
		nil,
		display.NewFrame(image.Rect(0, 0, 128, 32)),
		{Rect: d.Bounds(), Stride: 128, Pix: make([]byte, 10)},
	} {
		err := d.Draw(f)
		if err == nil || !strings.HasPrefix(err.Error(), "ssd1306 128x64") {
			t.Errorf("Draw(bad frame) = %v", err)
		}
	}
	if opsLen(rec) != n {
		t.Error("a bad frame reached the bus")
	}
}

func TestBrightnessAndHalt(t *testing.T) {
	rec := &i2ctest.Record{}
	d, _ := NewI2C(rec, nil)
	f := displaytest.TestCard(d.Bounds(), "8")
	_ = d.Draw(f)
	if err := d.SetBrightness(0x20); err != nil {
		t.Fatal(err)
	}
	if err := d.Halt(); err != nil {
		t.Fatal(err)
	}
	chip := decodeI2C(t, rec, 0x3C)
	if chip.Contrast != 0x20 || chip.On {
		t.Errorf("contrast %#02x on %v, want 0x20 and off", chip.Contrast, chip.On)
	}
	n := opsLen(rec)
	if err := d.Draw(f); err != nil {
		t.Fatal(err)
	}
	if got := rec.Ops[n:]; len(got) != 1 || !bytes.Equal(got[0].W, []byte{0x00, 0xAF}) {
		t.Errorf("drawing the same frame after Halt sent %v, want only display on", got)
	}
}

// TestSmallPanels checks each size the driver knows against the wiring the
// widely used drivers give it: multiplex H-1, the COM pins configuration,
// and the first visible RAM column, which moves with MirrorHorizontal on a
// panel that is not centred on the 128 segments.
func TestSmallPanels(t *testing.T) {
	for _, tt := range []struct {
		w, h   int
		mirror bool
		col    int
		com    byte
	}{
		{128, 64, false, 0, 0x12},
		{128, 32, false, 0, 0x02},
		{96, 16, false, 0, 0x02},
		{96, 16, true, 32, 0x02},
		{72, 40, false, 28, 0x12},
		{72, 40, true, 28, 0x12},
		{64, 48, false, 32, 0x12},
		{64, 32, false, 32, 0x12},
	} {
		name := fmt.Sprintf("%dx%d mirror %v", tt.w, tt.h, tt.mirror)
		rec := &i2ctest.Record{}
		d, err := NewI2C(rec, &Opts{W: tt.w, H: tt.h, Addr: 0x3C, MirrorHorizontal: tt.mirror})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if init := decodeI2C(t, rec, 0x3C); init.ColStart != tt.col || init.ColEnd != tt.col+tt.w-1 {
			t.Errorf("%s: column window %d-%d after init, want %d-%d", name, init.ColStart, init.ColEnd, tt.col, tt.col+tt.w-1)
		}
		// Twice: the second frame goes through the diffing windows.
		frame := displaytest.TestCard(d.Bounds(), "1:29")
		if err := d.Draw(frame); err != nil {
			t.Fatal(err)
		}
		frame2 := displaytest.TestCard(d.Bounds(), "1:30")
		if err := d.Draw(frame2); err != nil {
			t.Fatal(err)
		}
		chip := decodeI2C(t, rec, 0x3C)
		if mux, com := chip.Multiplex(); int(mux) != tt.h-1 || com != tt.com {
			t.Errorf("%s: multiplex %d, COM pins %#02x; want %d and %#02x", name, mux, com, tt.h-1, tt.com)
		}
		if n := displaytest.Diff(chip.Frame(tt.col, tt.w, tt.h), frame2); n != 0 {
			t.Errorf("%s: RAM from column %d differs from the frame by %d pixels", name, tt.col, n)
		}
		for p := 0; p < 8; p++ {
			for c := 0; c < 128; c++ {
				if (c < tt.col || c >= tt.col+tt.w || p >= tt.h/8) && chip.RAM[p*chip.Cols+c] != 0 {
					t.Errorf("%s: RAM page %d column %d, outside the panel, written", name, p, c)
				}
			}
		}
	}
}

func TestUnknownSizes(t *testing.T) {
	for _, s := range [][2]int{{100, 40}, {128, 48}, {128, 16}, {64, 64}, {8, 8}} {
		rec := &i2ctest.Record{}
		_, err := NewI2C(rec, &Opts{W: s[0], H: s[1], Addr: 0x3C})
		want := fmt.Sprintf("ssd1306: no known panel is %dx%d (known: 128x64, 128x32, 96x16, 72x40, 64x48, 64x32)", s[0], s[1])
		if err == nil || err.Error() != want {
			t.Errorf("%dx%d: %v, want %q", s[0], s[1], err, want)
		}
		if len(rec.Ops) != 0 {
			t.Errorf("%dx%d: wrote to the bus", s[0], s[1])
		}
	}
}

// speedPort records the clock it was connected at.
type speedPort struct {
	spitest.Record
	speed physic.Frequency
}

func (p *speedPort) Connect(f physic.Frequency, mode spi.Mode, bits int) (spi.Conn, error) {
	p.speed = f
	return p.Record.Connect(f, mode, bits)
}

func TestSPISpeed(t *testing.T) {
	for _, tt := range []struct {
		speed, want physic.Frequency
		err         string
	}{
		{0, 8 * physic.MegaHertz, ""},
		{10 * physic.MegaHertz, 10 * physic.MegaHertz, ""},
		{20 * physic.MegaHertz, 0, "ssd1306: SPI clock 20MHz is not between 0 and 10MHz"},
	} {
		p := &speedPort{}
		o := DefaultOpts
		o.Speed = tt.speed
		_, err := NewSPI(p, &gpiotest.Pin{N: "GPIO25"}, &o)
		switch {
		case tt.err != "" && (err == nil || err.Error() != tt.err):
			t.Errorf("Speed %v: error %v, want %q", tt.speed, err, tt.err)
		case tt.err == "" && err != nil:
			t.Errorf("Speed %v: %v", tt.speed, err)
		case p.speed != tt.want:
			t.Errorf("Speed %v: connected at %v, want %v", tt.speed, p.speed, tt.want)
		}
	}
}
