package tm1637

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/zeitnot/zeitnot/drivers/display/sevenseg"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"
)

// bus records the two lines as a TM1637 sees them and decodes the frames:
// the bytes between a start and a stop, sampled on CLK rising edges. It
// plays the chip's part of the acknowledge as the datasheet (V2.4) puts it:
// "an answering signal ACK is generated inside the chip to lower the DIO
// pin at the failing edge of the 8th clock. DIO interface wire is released
// at the end of the 9th clock." While the chip pulls DIO low the host must
// not drive it high.
type bus struct {
	mu      sync.Mutex
	clk     gpio.Level
	out     bool       // the host drives DIO (else it is an input, pulled up)
	drv     gpio.Level // the host's level when out
	ack     bool       // the chip's acknowledge: from the 8th falling CLK edge to the 9th
	ninth   bool       // the 9th rising CLK edge of the acknowledge was seen
	absent  bool       // no chip: nobody pulls DIO low for the acknowledge
	bits    []bool
	inFrame bool
	frames  [][]byte
	acks    int
	errors  []string
}

// dio is the level on the DIO line.
func (b *bus) dio() gpio.Level {
	if b.ack && !b.absent {
		return gpio.Low
	}
	if b.out {
		return b.drv
	}
	return gpio.High // the pull-ups
}

// set applies a change of the host's lines.
func (b *bus) set(clk gpio.Level, out bool, drv gpio.Level) {
	b.mu.Lock()
	defer b.mu.Unlock()
	oldCLK, oldDIO := b.clk, b.dio()
	b.clk, b.out, b.drv = clk, out, drv
	if oldCLK == gpio.High && clk == gpio.Low && b.inFrame {
		switch {
		case b.ack && b.ninth:
			b.ack, b.ninth = false, false // released at the end of the 9th clock
		case !b.ack && len(b.bits) == 8:
			b.ack = true // lowered at the falling edge of the 8th clock
		}
	}
	if b.ack && !b.absent && b.out && b.drv == gpio.High {
		b.errors = append(b.errors, fmt.Sprintf("DIO driven high while the chip pulls it low for the acknowledge (after %d bits)", len(b.bits)))
	}
	dio := b.dio()
	switch {
	case oldCLK == gpio.High && clk == gpio.High && oldDIO == gpio.High && dio == gpio.Low:
		if b.inFrame {
			b.errors = append(b.errors, "start inside a frame")
		}
		b.inFrame, b.bits = true, nil
		b.frames = append(b.frames, []byte{})
	case oldCLK == gpio.High && clk == gpio.High && oldDIO == gpio.Low && dio == gpio.High:
		if b.inFrame {
			// The stop's own CLK rise reads as one bit.
			if len(b.bits) > 1 || b.ack {
				b.errors = append(b.errors, fmt.Sprintf("stop after %d stray bits", len(b.bits)))
			}
			b.inFrame = false
		}
	case oldCLK == gpio.Low && clk == gpio.High && b.inFrame:
		if b.ack {
			// Ninth clock: the chip answers.
			var c byte
			for i, bit := range b.bits {
				if bit {
					c |= 1 << i
				}
			}
			b.frames[len(b.frames)-1] = append(b.frames[len(b.frames)-1], c)
			b.bits = b.bits[:0]
			b.ninth = true
			b.acks++
		} else {
			b.bits = append(b.bits, dio == gpio.High)
		}
	}
}

type line struct {
	gpiotest.Pin
	b     *bus
	isCLK bool
}

func (p *line) Out(l gpio.Level) error {
	p.b.mu.Lock()
	clk, out, drv := p.b.clk, p.b.out, p.b.drv
	p.b.mu.Unlock()
	if p.isCLK {
		clk = l
	} else {
		out, drv = true, l
	}
	p.b.set(clk, out, drv)
	return p.Pin.Out(l)
}

func (p *line) In(pull gpio.Pull, e gpio.Edge) error {
	p.b.mu.Lock()
	clk, drv := p.b.clk, p.b.drv
	p.b.mu.Unlock()
	p.b.set(clk, false, drv)
	return p.Pin.In(pull, e)
}

func (p *line) Read() gpio.Level {
	p.b.mu.Lock()
	defer p.b.mu.Unlock()
	return p.b.dio()
}

func newBus() (*bus, *line, *line) {
	b := &bus{clk: gpio.High, out: true, drv: gpio.High}
	return b, &line{Pin: gpiotest.Pin{N: "GPIO23"}, b: b, isCLK: true}, &line{Pin: gpiotest.Pin{N: "GPIO24"}, b: b}
}

func (b *bus) take() [][]byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	f := b.frames
	b.frames = nil
	return f
}

func seg(s string) byte { return sevenseg.Glyph(rune(s[0])) }

func TestNewAndShow(t *testing.T) {
	b, clk, dio := newBus()
	d, err := New(clk, dio, &Opts{Digits: 4, Colons: 1 << 1, HalfCycle: 1})
	if err != nil {
		t.Fatal(err)
	}
	if d.String() != "tm1637 on GPIO23/GPIO24" {
		t.Errorf("String = %q", d.String())
	}
	if got, want := b.take(), [][]byte{{0x80}}; !reflect.DeepEqual(got, want) {
		t.Errorf("New sent %#v, want %#v", got, want)
	}
	if err := d.Show("12:34"); err != nil {
		t.Fatal(err)
	}
	want := [][]byte{
		{0x40},
		{0xC0, seg("1"), seg("2") | 0x80, seg("3"), seg("4")},
		{0x8F},
	}
	if got := b.take(); !reflect.DeepEqual(got, want) {
		t.Errorf("Show(\"12:34\") sent %#v, want %#v", got, want)
	}
	// The same text again costs nothing.
	if err := d.Show("12:34"); err != nil {
		t.Fatal(err)
	}
	if got := b.take(); len(got) != 0 {
		t.Errorf("the same text again sent %#v", got)
	}
	// A colon where the module has none lights the point before it; a
	// point is the same segment.
	if err := d.Show("0:09.7"); err != nil {
		t.Fatal(err)
	}
	want = [][]byte{{0x40}, {0xC0, seg("0") | 0x80, seg("0"), seg("9") | 0x80, seg("7")}}
	if got := b.take(); !reflect.DeepEqual(got, want) {
		t.Errorf("Show(\"0:09.7\") sent %#v, want %#v", got, want)
	}
	if len(b.errors) != 0 || b.acks != 14 {
		t.Errorf("protocol errors: %v; %d bytes acknowledged, want 14", b.errors, b.acks)
	}
}

// TestAcknowledgeNotDriven: bytes whose bit 7 is set (0xC0, 0x8F, digits
// with a point) leave DIO high after their last bit; the driver must have
// let go of it when the chip pulls it low at the 8th falling clock edge, and
// must not raise it while CLK is high (a stop) to do so.
func TestAcknowledgeNotDriven(t *testing.T) {
	b, clk, dio := newBus()
	d, err := New(clk, dio, &Opts{Digits: 4, Colons: 1 << 1, HalfCycle: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"12:34", "8.8.:8.8.", "0000", "1:29"} {
		if err := d.Show(text); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.SetBrightness(255); err != nil {
		t.Fatal(err)
	}
	if err := d.Halt(); err != nil {
		t.Fatal(err)
	}
	for _, e := range b.errors {
		t.Error(e)
	}
	if b.acks == 0 {
		t.Error("no byte acknowledged")
	}
}

func TestBrightnessHalt(t *testing.T) {
	b, clk, dio := newBus()
	d, _ := New(clk, dio, &Opts{Digits: 4, HalfCycle: 1})
	b.take()
	for level, cmd := range map[uint8]byte{0: 0x88, 31: 0x88, 32: 0x89, 128: 0x8C, 255: 0x8F} {
		if err := d.SetBrightness(level); err != nil {
			t.Fatal(err)
		}
		if got := b.take(); !reflect.DeepEqual(got, [][]byte{{cmd}}) {
			t.Errorf("SetBrightness(%d) sent %#v, want %#02x", level, got, cmd)
		}
	}
	_ = d.SetBrightness(255)
	_ = d.Show("PAUS")
	b.take()
	if err := d.Halt(); err != nil {
		t.Fatal(err)
	}
	if got := b.take(); !reflect.DeepEqual(got, [][]byte{{0x80}}) {
		t.Errorf("Halt sent %#v", got)
	}
	// Showing the same text wakes the display without resending digits.
	_ = d.Show("PAUS")
	if got := b.take(); !reflect.DeepEqual(got, [][]byte{{0x8F}}) {
		t.Errorf("Show after Halt sent %#v, want display on", got)
	}
}

func TestNoChip(t *testing.T) {
	b, clk, dio := newBus()
	b.absent = true
	_, err := New(clk, dio, &Opts{Digits: 4, HalfCycle: 1})
	if err == nil || !strings.HasPrefix(err.Error(), "tm1637 on GPIO23/GPIO24: no acknowledge") {
		t.Fatalf("New with no chip = %v", err)
	}
	b.absent = false
	d, err := New(clk, dio, &Opts{Digits: 4, HalfCycle: 1})
	if err != nil {
		t.Fatal(err)
	}
	_ = d.Show("1:29")
	b.absent = true
	if err := d.Show("1:28"); err == nil {
		t.Fatal("Show with the chip gone succeeded")
	}
	b.absent = false
	b.take()
	// After an error the digits are resent even if unchanged since.
	_ = d.Show("1:28")
	if got := b.take(); len(got) < 2 || got[1][0] != 0xC0 {
		t.Errorf("Show after an error sent %#v, want the digits", got)
	}
}

type brokenPin struct{ gpiotest.Pin }

func (p *brokenPin) Out(gpio.Level) error { return errors.New("line busy") }

func TestPinError(t *testing.T) {
	_, err := New(&brokenPin{gpiotest.Pin{N: "GPIO5"}}, &gpiotest.Pin{N: "GPIO6"}, nil)
	if err == nil || !strings.Contains(err.Error(), "tm1637 on GPIO5/GPIO6: CLK: line busy") {
		t.Errorf("New = %v", err)
	}
}

func TestOptsAndOrder(t *testing.T) {
	_, clk, dio := newBus()
	for _, o := range []Opts{{Digits: 0}, {Digits: 7}, {Digits: 4, Order: []int{0, 1, 2}}, {Digits: 2, Order: []int{1, 1}}, {Digits: 1, Order: []int{9}}} {
		if _, err := New(clk, dio, &o); err == nil || !strings.HasPrefix(err.Error(), "tm1637: ") {
			t.Errorf("New(%+v) = %v", o, err)
		}
	}
	if _, err := New(nil, dio, nil); err == nil {
		t.Error("New without CLK succeeded")
	}
	b, clk, dio := newBus()
	d, err := New(clk, dio, &Opts{Digits: 6, Order: []int{2, 1, 0, 5, 4, 3}, HalfCycle: 1})
	if err != nil {
		t.Fatal(err)
	}
	if c, l := d.Size(); c != 6 || l != 1 {
		t.Errorf("Size = %d, %d", c, l)
	}
	b.take()
	_ = d.Show("123456")
	got := b.take()
	want := []byte{0xC0, seg("3"), seg("2"), seg("1"), seg("6"), seg("5"), seg("4")}
	if len(got) < 2 || !reflect.DeepEqual(got[1], want) {
		t.Errorf("6 digits out of order sent %#v, want %#v", got, want)
	}
}
