package oled

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/zeitnot/zeitnot/drivers/display"
	"github.com/zeitnot/zeitnot/drivers/display/bitfont"
	"github.com/zeitnot/zeitnot/drivers/display/internal/oledsim"
	"periph.io/x/devices/v3/ssd1306/image1bit"
)

// simT is a transport straight into a decoder. It counts the bytes sent
// the way the I²C or SPI transport frames them, and can fail a write after
// the chip got part of it.
type simT struct {
	t       testing.TB
	chip    *oledsim.Chip
	framing int
	bytes   int
	writes  int
	log     [][]byte // every write, when logging
	logging bool
	failAt  int // the write that fails, counting from 1; 0 for none
	cut     int // how many of its bytes the chip still gets
}

var errBus = errors.New("remote I/O error")

func (s *simT) Framing() int           { return s.framing }
func (s *simT) Command(c []byte) error { return s.write(c, false) }
func (s *simT) Data(d []byte) error    { return s.write(d, true) }

func (s *simT) write(b []byte, data bool) error {
	s.writes++
	var err error
	if s.writes == s.failAt {
		b, err = b[:min(s.cut, len(b))], errBus
	}
	s.bytes += s.framing + len(b)
	if s.logging {
		w := []byte{0x00}
		if data {
			w[0] = 0x40
		}
		s.log = append(s.log, append(w, b...))
	}
	var derr error
	if data {
		derr = s.chip.Data(b)
	} else {
		derr = s.chip.Command(b...)
	}
	if derr != nil {
		s.t.Fatalf("the controller cannot make sense of the stream: %v", derr)
	}
	return err
}

type panel struct {
	name      string
	w, h, off int
	windows   bool
	newChip   func() *oledsim.Chip
	framing   int
}

func panels() []panel {
	var ps []panel
	for _, f := range []int{1, 0} {
		ps = append(ps,
			panel{name: "ssd1306 128x64", w: 128, h: 64, windows: true, newChip: oledsim.NewSSD1306, framing: f},
			panel{name: "ssd1306 128x32", w: 128, h: 32, windows: true, newChip: oledsim.NewSSD1306, framing: f},
			panel{name: "ssd1306 64x48", w: 64, h: 48, windows: true, newChip: oledsim.NewSSD1306, framing: f},
			panel{name: "sh1106 128x64", w: 128, h: 64, off: 2, newChip: oledsim.NewSH1106, framing: f},
			panel{name: "sh1106 132x64", w: 132, h: 64, newChip: oledsim.NewSH1106, framing: f},
		)
	}
	return ps
}

func (p panel) String() string { return fmt.Sprintf("%s framing %d", p.name, p.framing) }

func (p panel) open(t testing.TB) (*Core, *simT) {
	t.Helper()
	s := &simT{t: t, chip: p.newChip(), framing: p.framing}
	c, err := NewCore(p.name, s, Config{W: p.w, H: p.h, ColOffset: p.off, Init: []byte{DisplayOff}, Windows: p.windows})
	if err != nil {
		t.Fatal(err)
	}
	return c, s
}

// shows checks the decoded RAM against f.
func shows(t *testing.T, s *simT, p panel, f *image1bit.VerticalLSB, what string) {
	t.Helper()
	if got := s.chip.Frame(p.off, p.w, p.h); !bytes.Equal(got.Pix, f.Pix) {
		t.Fatalf("%v: %s: the panel does not show the frame", p, what)
	}
}

// change draws something new on f, of one of the kinds a clock draws or
// worse.
func change(r *rand.Rand, f *image1bit.VerticalLSB) {
	b := f.Bounds()
	switch r.IntN(8) {
	case 0: // a few bytes anywhere
		for range 1 + r.IntN(6) {
			f.Pix[r.IntN(len(f.Pix))] ^= byte(1 + r.IntN(255))
		}
	case 1: // a filled or cleared rectangle
		x0, y0 := r.IntN(b.Dx()), r.IntN(b.Dy())
		x1, y1 := x0+1+r.IntN(b.Dx()-x0), y0+1+r.IntN(b.Dy()-y0)
		c := image1bit.Bit(r.IntN(2) == 0)
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				f.SetBit(x, y, c)
			}
		}
	case 2, 3: // text, as a clock draws it
		clear(f.Pix)
		s := 1 + r.IntN(3)
		text := fmt.Sprintf("%d:%02d:%02d", r.IntN(2), r.IntN(60), r.IntN(60))
		bitfont.Draw(f, r.IntN(max(1, b.Dx()-bitfont.Width(text, s))), r.IntN(b.Dy()-bitfont.Height*s+1), text, s)
	case 4: // text over text
		bitfont.Draw(f, r.IntN(b.Dx()), r.IntN(b.Dy()), fmt.Sprint(r.IntN(100)), 1+r.IntN(2))
	case 5: // noise
		for i := range f.Pix {
			f.Pix[i] = byte(r.Uint32())
		}
	case 6: // one column
		x := r.IntN(b.Dx())
		for y := 0; y < b.Dy(); y++ {
			f.SetBit(x, y, image1bit.Bit(r.IntN(2) == 0))
		}
	case 7: // nothing
	}
}

// TestPlanNeverCostsMore draws random frames and checks that each plan
// costs what it sends, costs no more than the spans of each page, and
// leaves the panel showing the frame.
func TestPlanNeverCostsMore(t *testing.T) {
	for _, p := range panels() {
		r := rand.New(rand.NewPCG(1, uint64(p.w*p.h+p.framing)))
		c, s := p.open(t)
		f := display.NewFrame(c.Bounds())
		if err := c.Draw(f); err != nil {
			t.Fatal(err)
		}
		saved, spans := 0, 0
		for i := range 600 {
			change(r, f)
			before := s.bytes
			if err := c.Draw(f); err != nil {
				t.Fatal(err)
			}
			if sent := s.bytes - before; sent != c.cost {
				t.Fatalf("%v: draw %d sent %d bytes, its plan costs %d", p, i, sent, c.cost)
			}
			if c.cost > c.spanCost {
				t.Fatalf("%v: draw %d: the plan costs %d bytes, the spans %d", p, i, c.cost, c.spanCost)
			}
			saved += c.spanCost - c.cost
			spans += c.spanCost
			shows(t, s, p, f, fmt.Sprintf("draw %d", i))
		}
		t.Logf("%v: plans cost %.1f%% less than spans", p, 100*float64(saved)/float64(max(spans, 1)))
		if p.windows && saved == 0 {
			t.Errorf("%v: windows never helped", p)
		}
		if !p.windows && saved != 0 {
			t.Errorf("%v: a controller without windows saved on spans", p)
		}
	}
}

// TestBusErrors fails writes anywhere, part of their bytes reaching the
// chip, and checks that the next draw sends the whole frame and that the
// panel shows it.
func TestBusErrors(t *testing.T) {
	for _, p := range panels() {
		r := rand.New(rand.NewPCG(2, uint64(p.w*p.h+p.framing)))
		c, s := p.open(t)
		f := display.NewFrame(c.Bounds())
		failures := 0
		for i := range 400 {
			change(r, f)
			if r.IntN(3) == 0 {
				s.failAt, s.cut = s.writes+1+r.IntN(4), r.IntN(12)
			}
			err := c.Draw(f)
			switch {
			case r.IntN(8) == 0:
				if c.SetContrast(byte(r.Uint32())) != nil {
					err = errBus
				}
			case r.IntN(8) == 0:
				if c.Halt() != nil {
					err = errBus
				}
			}
			s.failAt = 0
			if err == nil {
				shows(t, s, p, f, fmt.Sprintf("draw %d", i))
				continue
			}
			failures++
			if err := c.Draw(f); err != nil {
				t.Fatal(err)
			}
			shows(t, s, p, f, fmt.Sprintf("draw %d after an error", i))
		}
		if failures < 50 {
			t.Errorf("%v: only %d failures", p, failures)
		}
	}
}

func TestDrawAfterErrorIsFull(t *testing.T) {
	p := panels()[0]
	c, s := p.open(t)
	f := display.NewFrame(c.Bounds())
	_ = c.Draw(f)
	f.Pix[100] = 1
	s.failAt, s.cut = s.writes+1, 0
	if err := c.Draw(f); err == nil {
		t.Fatal("Draw on a failing bus succeeded")
	}
	before := s.chip.DataBytes
	if err := c.Draw(f); err != nil {
		t.Fatal(err)
	}
	if n := s.chip.DataBytes - before; n != 128*8 {
		t.Errorf("draw after an error sent %d data bytes, want the whole panel", n)
	}
}

// The streams of a few draws, byte for byte.
func TestStreams(t *testing.T) {
	p := panels()[0] // SSD1306 128x64 on I²C
	c, s := p.open(t)
	f := display.NewFrame(c.Bounds())
	s.logging = true
	step := func(what string, want ...[]byte) {
		t.Helper()
		s.log = nil
		if err := c.Draw(f); err != nil {
			t.Fatal(err)
		}
		if len(s.log) != len(want) {
			t.Fatalf("%s: sent %d writes % x, want %d", what, len(s.log), s.log, len(want))
		}
		for i := range want {
			if !bytes.Equal(s.log[i], want[i]) {
				t.Errorf("%s: write %d = % x, want % x", what, i, s.log[i], want[i])
			}
		}
		shows(t, s, p, f, what)
	}
	full := append([]byte{0x40}, f.Pix...)
	// Init left a window over the whole panel, its pointer at the start.
	step("first frame", full, []byte{0x00, DisplayOn})
	digit := func(v byte) {
		for pg := 2; pg < 5; pg++ {
			for x := 101; x < 116; x++ {
				f.Pix[pg*128+x] = v
			}
		}
	}
	digit(1)
	step("a digit", []byte{0x00, 0x21, 101, 115, 0x22, 2, 4}, append([]byte{0x40}, bytes.Repeat([]byte{1}, 45)...))
	digit(2)
	step("the same digit again: no addressing", append([]byte{0x40}, bytes.Repeat([]byte{2}, 45)...))
	for x := 101; x < 116; x++ {
		f.Pix[2*128+x], f.Pix[3*128+x] = 3, 3
	}
	step("its top two pages: the pointer stops short", append([]byte{0x40}, bytes.Repeat([]byte{3}, 30)...))
	digit(4)
	// The pointer is on page 4: the window comes round from there.
	want := append([]byte{0x40}, bytes.Repeat([]byte{4}, 45)...)
	step("the digit again, from page 4", want)
	// Two bytes far apart: spans, after widening the column window again
	// so that page addressing cannot run into its end.
	f.Pix[0], f.Pix[7*128+127] = 6, 7
	step("two corners",
		[]byte{0x00, 0x21, 0, 127, 0x20, 0x02, 0xB0, 0x00, 0x10}, []byte{0x40, 6},
		[]byte{0x00, 0xB7, 0x0F, 0x17}, []byte{0x40, 7})
	digit(8)
	step("the digit from page addressing",
		[]byte{0x00, 0x20, 0x00, 0x21, 101, 115, 0x22, 2, 4}, append([]byte{0x40}, bytes.Repeat([]byte{8}, 45)...))
	// Five bytes at the start of the window: the pointer stops mid-row.
	for x := 101; x < 106; x++ {
		f.Pix[2*128+x] = 5
	}
	step("the start of the window", append([]byte{0x40}, bytes.Repeat([]byte{5}, 5)...))
	// The whole digit again comes round from there, ending before it.
	digit(9)
	step("the digit from mid-row", append([]byte{0x40}, bytes.Repeat([]byte{9}, 45)...))
	// The same columns on another page: the pointer, mid-row, must go back
	// to the window's first column.
	for x := 101; x < 116; x++ {
		f.Pix[6*128+x] = 11
	}
	step("the same columns lower down", []byte{0x00, 0x21, 101, 115, 0x22, 6, 6}, append([]byte{0x40}, bytes.Repeat([]byte{11}, 15)...))
	// After an error every command write starts with two Resync.
	f.Pix[5*128] = 9
	s.failAt, s.cut = s.writes+1, 2
	if err := c.Draw(f); err == nil {
		t.Fatal("Draw on a failing bus succeeded")
	}
	full = append([]byte{0x40}, f.Pix...)
	step("after an error", []byte{0x00, Resync, Resync, 0x20, 0x00, 0x21, 0, 127, 0x22, 0, 7}, full)
}

// countT only counts bytes.
type countT struct{ framing, bytes int }

func (t *countT) Framing() int           { return t.framing }
func (t *countT) Command(c []byte) error { t.bytes += t.framing + len(c); return nil }
func (t *countT) Data(d []byte) error    { t.bytes += t.framing + len(d); return nil }

func TestDrawAllocs(t *testing.T) {
	for _, p := range panels() {
		c, err := NewCore(p.name, &countT{framing: p.framing}, Config{W: p.w, H: p.h, ColOffset: p.off, Init: []byte{DisplayOff}, Windows: p.windows})
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(3, 3))
		frames := make([]*image1bit.VerticalLSB, 16)
		for i := range frames {
			frames[i] = display.NewFrame(c.Bounds())
			if i > 0 {
				copy(frames[i].Pix, frames[i-1].Pix)
			}
			change(r, frames[i])
		}
		i := 0
		n := testing.AllocsPerRun(100, func() {
			_ = c.Draw(frames[i%len(frames)])
			i++
		})
		if n != 0 {
			t.Errorf("%v: Draw allocates %v times", p, n)
		}
	}
}

func TestI2CWriteTooLong(t *testing.T) {
	// The transport refuses what does not fit rather than cut it.
	tr := NewI2C(nil, 0x3C, 4)
	if err := tr.Data(make([]byte, 5)); err == nil {
		t.Error("a write longer than the buffer was accepted")
	}
}
