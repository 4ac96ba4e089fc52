package ssd1306

import (
	"fmt"
	"testing"

	"github.com/zeitnot/zeitnot/drivers/display"
	"github.com/zeitnot/zeitnot/drivers/display/bitfont"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/devices/v3/ssd1306/image1bit"
)

// countBus is an I²C bus that only counts the bytes written to it (the
// address byte of each write not included).
type countBus struct{ bytes, writes int }

func (b *countBus) String() string                  { return "count" }
func (b *countBus) SetSpeed(physic.Frequency) error { return nil }
func (b *countBus) Tx(addr uint16, w, r []byte) error {
	b.bytes += len(w)
	b.writes++
	return nil
}

// countdown returns the clock's text for each second of a minute counting
// down from 1:29:05, through the minute change at 1:29:00.
func countdown() []string {
	var s []string
	for t := 1*3600 + 29*60 + 5; len(s) < 60; t-- {
		s = append(s, fmt.Sprintf("%d:%02d:%02d", t/3600, t/60%60, t%60))
	}
	return s
}

// clockFrame draws text large, as the appliance shows one player's clock:
// centred, at scale 3 (21 rows), its top on a page boundary so it spans 3
// pages rather than 4.
func clockFrame(f *image1bit.VerticalLSB, text string) {
	clear(f.Pix)
	const scale = 3
	y := (f.Rect.Dy() - bitfont.Height*scale) / 2 &^ 7
	bitfont.Draw(f, (f.Rect.Dx()-bitfont.Width(text, scale))/2, y, text, scale)
}

// minuteTraffic draws a minute of countdown after a first full frame and
// returns the bytes sent for the minute, for one full frame, and the bytes
// of the frames that changed over the minute.
func minuteTraffic(t testing.TB, h int) (minute, full, changed int) {
	bus := &countBus{}
	d, err := NewI2C(bus, &Opts{W: 128, H: h, Addr: 0x3C})
	if err != nil {
		t.Fatal(err)
	}
	f := display.NewFrame(d.Bounds())
	prev := make([]byte, len(f.Pix))
	times := countdown()
	bus.bytes = 0
	clockFrame(f, "1:29:06")
	if err := d.Draw(f); err != nil {
		t.Fatal(err)
	}
	full = bus.bytes - 2 // less the display on command
	bus.bytes = 0
	for _, s := range times {
		copy(prev, f.Pix)
		clockFrame(f, s)
		for i := range prev {
			if prev[i] != f.Pix[i] {
				changed++
			}
		}
		if err := d.Draw(f); err != nil {
			t.Fatal(err)
		}
	}
	return bus.bytes, full, changed
}

// TestCountdownTraffic guards the traffic of a running clock: at most 5% of
// redrawing the whole 128x64 panel every second. With a 21-row time the
// changed bytes alone are 3.8% of a full frame (1025 bytes on I²C); most of
// the rest are unchanged bytes inside a digit's rows, cheaper to resend
// than to skip. A 128x32 panel gets the same traffic for the same text, but
// its frames are half the size.
func TestCountdownTraffic(t *testing.T) {
	var perSecond [2]float64
	full64 := 0
	for i, h := range []int{64, 32} {
		minute, full, changed := minuteTraffic(t, h)
		perSecond[i] = float64(minute) / 60
		ratio := perSecond[i] / float64(full)
		t.Logf("128x%d: %d bytes/minute, %.1f bytes/s; full frame %d bytes; ratio %.2f%% (changed bytes alone %.2f%%)",
			h, minute, perSecond[i], full, 100*ratio, 100*float64(changed)/60/float64(full))
		if h == 64 {
			full64 = full
			if ratio > 0.05 {
				t.Errorf("128x64: countdown sends %.2f%% of full frames, want at most 5%%", 100*ratio)
			}
		}
	}
	if perSecond[1] > 0.05*float64(full64) {
		t.Errorf("128x32: countdown sends %.1f bytes/s, more than 5%% of a 128x64 frame", perSecond[1])
	}
}

// BenchmarkCountdown draws a minute of countdown per iteration and reports
// the bus traffic per second of clock time and its ratio to full frames.
func BenchmarkCountdown(b *testing.B) {
	for _, h := range []int{64, 32} {
		b.Run(fmt.Sprintf("128x%d", h), func(b *testing.B) {
			bus := &countBus{}
			d, err := NewI2C(bus, &Opts{W: 128, H: h, Addr: 0x3C})
			if err != nil {
				b.Fatal(err)
			}
			f := display.NewFrame(d.Bounds())
			times := countdown()
			clockFrame(f, "1:29:06")
			_ = d.Draw(f)
			_, full, _ := minuteTraffic(b, h)
			bus.bytes = 0
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				for _, s := range times {
					clockFrame(f, s)
					if err := d.Draw(f); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.StopTimer()
			// The minute loops back from 1:28:06 to 1:29:05: one more change
			// than a straight countdown, so these figures slightly overstate
			// the traffic.
			perSecond := float64(bus.bytes) / float64(b.N) / 60
			b.ReportMetric(perSecond, "busB/s")
			b.ReportMetric(100*perSecond/float64(full), "%full")
		})
	}
}

// BenchmarkRenderAndSend renders a new time and sends it, one frame per op.
func BenchmarkRenderAndSend(b *testing.B) {
	d, err := NewI2C(&countBus{}, nil)
	if err != nil {
		b.Fatal(err)
	}
	f := display.NewFrame(d.Bounds())
	times := countdown()
	clockFrame(f, times[len(times)-1])
	_ = d.Draw(f)
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		clockFrame(f, times[i])
		if err := d.Draw(f); err != nil {
			b.Fatal(err)
		}
		i = (i + 1) % len(times)
	}
}

// BenchmarkFullFrame sends a whole frame each op (the worst case).
func BenchmarkFullFrame(b *testing.B) {
	d, err := NewI2C(&countBus{}, nil)
	if err != nil {
		b.Fatal(err)
	}
	f := [2]*image1bit.VerticalLSB{display.NewFrame(d.Bounds()), display.NewFrame(d.Bounds())}
	for i := range f[1].Pix {
		f[1].Pix[i] = 0xFF
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if err := d.Draw(f[i&1]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

func TestDrawAllocs(t *testing.T) {
	d, _ := NewI2C(&countBus{}, nil)
	f := display.NewFrame(d.Bounds())
	times := countdown()
	i := 0
	n := testing.AllocsPerRun(100, func() {
		clockFrame(f, times[i%len(times)])
		_ = d.Draw(f)
		i++
	})
	if n != 0 {
		t.Errorf("render and draw allocates %v times per frame", n)
	}
}
