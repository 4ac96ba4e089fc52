package sh1106

import (
	"bytes"
	"errors"
	"flag"
	"image"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/drivers/display"
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

func decode(t *testing.T, rec *i2ctest.Record, addr uint16) *oledsim.Chip {
	t.Helper()
	chip := oledsim.NewSH1106()
	rec.Lock()
	defer rec.Unlock()
	// The decoder refuses SSD1306-only commands, such as addressing modes.
	if err := chip.ReplayI2C(rec.Ops, addr); err != nil {
		t.Fatal(err)
	}
	return chip
}

func TestDrawGolden(t *testing.T) {
	rec := &i2ctest.Record{}
	d, err := NewI2C(rec, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := d.String(); got != "sh1106 128x64 on record@0x3c" {
		t.Errorf("String = %q", got)
	}
	frame := displaytest.TestCard(d.Bounds(), "1:29:05")
	if err := d.Draw(frame); err != nil {
		t.Fatal(err)
	}
	chip := decode(t, rec, 0x3C)
	if !chip.On {
		t.Error("display off after Draw")
	}
	// RAM columns 0, 1, 130 and 131 are never written.
	for p := 0; p < 8; p++ {
		for _, c := range []int{0, 1, 130, 131} {
			if chip.RAM[p*chip.Cols+c] != 0 {
				t.Errorf("RAM page %d column %d written", p, c)
			}
		}
	}
	got := chip.Frame(2, 128, 64)
	if n := displaytest.Diff(got, frame); n != 0 {
		t.Errorf("the panel differs from the frame by %d pixels", n)
	}
	if err := displaytest.Golden(filepath.Join("testdata", "testcard_128x64.png"), got, 4, *update); err != nil {
		t.Error(err)
	}
}

func TestOffsetInSpans(t *testing.T) {
	rec := &i2ctest.Record{}
	d, _ := NewI2C(rec, nil)
	f := display.NewFrame(d.Bounds())
	_ = d.Draw(f)
	n := len(rec.Ops)
	f.SetBit(0, 63, image1bit.On)  // page 7, visible column 0 = RAM column 2
	f.SetBit(127, 0, image1bit.On) // page 0, visible column 127 = RAM 129
	if err := d.Draw(f); err != nil {
		t.Fatal(err)
	}
	want := [][]byte{
		{0x00, 0xB0, 0x01, 0x18}, {0x40, 0x01},
		{0x00, 0xB7, 0x02, 0x10}, {0x40, 0x80},
	}
	got := rec.Ops[n:]
	if len(got) != len(want) {
		t.Fatalf("sent %d writes, want %d", len(got), len(want))
	}
	for i := range want {
		if !bytes.Equal(got[i].W, want[i]) {
			t.Errorf("write %d = % x, want % x", i, got[i].W, want[i])
		}
	}
	n = len(rec.Ops)
	_ = d.Draw(f)
	if len(rec.Ops) != n {
		t.Error("the same frame again was sent")
	}
}

func TestOpts(t *testing.T) {
	for _, o := range []Opts{
		{W: 128, H: 64, Addr: 0x3C, ColOffset: 5},
		{W: 128, H: 64, Addr: 0x3E, ColOffset: 2},
		{W: 128, H: 63, Addr: 0x3C, ColOffset: 2},
		{W: 128, H: 64, Addr: 0x3C, ColOffset: -1},
	} {
		if _, err := NewI2C(&i2ctest.Record{}, &o); err == nil || !strings.HasPrefix(err.Error(), "sh1106: ") {
			t.Errorf("NewI2C(%+v) = %v", o, err)
		}
	}
	rec := &i2ctest.Record{}
	d, err := NewI2C(rec, &Opts{W: 132, H: 32, Addr: 0x3D})
	if err != nil {
		t.Fatal(err)
	}
	f := displaytest.TestCard(d.Bounds(), "0:09.7")
	if err := d.Draw(f); err != nil {
		t.Fatal(err)
	}
	if n := displaytest.Diff(decode(t, rec, 0x3D).Frame(0, 132, 32), f); n != 0 {
		t.Errorf("a 132-wide panel with no offset differs by %d pixels", n)
	}
}

type failBus struct {
	i2ctest.Record
	fail bool
}

func (b *failBus) Tx(addr uint16, w, r []byte) error {
	if b.fail {
		return errors.New("remote I/O error")
	}
	return b.Record.Tx(addr, w, r)
}

func TestBusErrorResetsDiff(t *testing.T) {
	bus := &failBus{}
	d, _ := NewI2C(bus, nil)
	f := display.NewFrame(d.Bounds())
	_ = d.Draw(f)
	f.SetBit(5, 5, image1bit.On)
	bus.fail = true
	if err := d.Draw(f); err == nil || !strings.Contains(err.Error(), "sh1106 128x64 on record@0x3c") {
		t.Fatalf("Draw = %v", err)
	}
	bus.fail = false
	n := len(bus.Ops)
	_ = d.Draw(f)
	if got := len(bus.Ops) - n; got != 16 {
		t.Errorf("draw after an error made %d writes, want 16 (all 8 pages)", got)
	}
}

func TestSPI(t *testing.T) {
	rec := &spitest.Record{}
	dc := &oledsim.DCPin{Pin: gpiotest.Pin{N: "GPIO24"}, Rec: rec}
	d, err := NewSPI(rec, dc, nil)
	if err != nil {
		t.Fatal(err)
	}
	f := displaytest.TestCard(d.Bounds(), "PAUSE")
	_ = d.Draw(f)
	_ = d.SetBrightness(7)
	chip := oledsim.NewSH1106()
	if err := chip.ReplaySPI(rec, dc); err != nil {
		t.Fatal(err)
	}
	if n := displaytest.Diff(chip.Frame(2, 128, 64), f); n != 0 || chip.Contrast != 7 {
		t.Errorf("SPI panel differs by %d pixels, contrast %d", n, chip.Contrast)
	}
	if err := d.Draw(display.NewFrame(image.Rect(0, 0, 64, 64))); err == nil {
		t.Error("a frame of the wrong size was accepted")
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
		{0, 4 * physic.MegaHertz, ""}, // the default: never the SSD1306's 8 MHz
		{2 * physic.MegaHertz, 2 * physic.MegaHertz, ""},
		{4 * physic.MegaHertz, 4 * physic.MegaHertz, ""},
		{8 * physic.MegaHertz, 0, "sh1106: SPI clock 8MHz is not between 0 and 4MHz"},
		{-physic.Hertz, 0, "sh1106: SPI clock -1Hz is not between 0 and 4MHz"},
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
