package screen

import (
	"image"
	"math"

	"periph.io/x/conn/v3/physic"
)

// The two marks of the game screen that must be seen from afar are sized
// from the panel's physical size (README.md, "Seen from afar", gives the
// reasoning and the figures):
//
//   - which clock runs, from 10 m (FIDE: "visible from 10 m"): a solid
//     bar whose smaller side subtends at least one minute of arc, the
//     detail normal vision resolves (2.9 mm at 10 m);
//   - a fallen flag, from 3 m (FIDE: the time "legible from 3 m"): letters
//     at least 5 minutes of arc high, the 6/6 Snellen letter, the lower
//     limit of legibility for normal vision (4.4 mm at 3 m).

// PixelOpts are the options of a PixelScreen.
type PixelOpts struct {
	// Width and Height are the panel's active area, the size of its
	// pixels on the glass. Zero: OLED096's for a 128x64 screen, OLED091's
	// for a 128x32, else pixels 0.17 mm square.
	Width, Height physic.Distance
}

// The active areas of the common panels.
var (
	// OLED096 is a 0.96" 128x64 SSD1306 panel: 21.7 x 10.9 mm.
	OLED096 = PixelOpts{Width: 21700 * physic.MicroMetre, Height: 10900 * physic.MicroMetre}
	// OLED130 is a 1.3" 128x64 SH1106 panel: 29.4 x 14.7 mm.
	OLED130 = PixelOpts{Width: 29400 * physic.MicroMetre, Height: 14700 * physic.MicroMetre}
	// OLED091 is a 0.91" 128x32 SSD1306 panel: 22.4 x 5.6 mm.
	OLED091 = PixelOpts{Width: 22400 * physic.MicroMetre, Height: 5600 * physic.MicroMetre}
)

// defaultPitch is the pixel pitch assumed for a panel of unknown size.
const defaultPitch = 170 * physic.MicroMetre

const (
	runDistance  = 10 * physic.Metre // which clock runs must be visible from here
	readDistance = 3 * physic.Metre  // the time must be legible from here
	runArcmin    = 1.0               // the smaller side of the running bar
	letterArcmin = 5.0               // the height of the flag mark's letters
)

// Burn-in: the running bar moves one row a minute (of the running clock)
// through barShift+1 positions and back, so its edges do not wear a sharp
// line into the panel.
const barShift = 2

// span is the size that subtends arcmin minutes of arc at distance d.
func span(d physic.Distance, arcmin float64) physic.Distance {
	return physic.Distance(2 * float64(d) * math.Tan(arcmin/60*math.Pi/180/2))
}

// pixelsFor is how many pixels of pitch p it takes to cover size s.
func pixelsFor(s, p physic.Distance) int {
	if p <= 0 {
		p = defaultPitch
	}
	return int((s + p - 1) / p)
}

// marks are the sizes, in pixels, of the marks seen from afar on one
// panel.
type marks struct {
	runRows int // height of the running bar (tall panels)
	runCols int // width of the running block (low panels)
	letter  int // height of the flag mark's letters
}

// panelMarks sizes the marks for a screen of w x h pixels.
func panelMarks(opts *PixelOpts, w, h int) marks {
	o := PixelOpts{}
	if opts != nil {
		o = *opts
	}
	if o.Width <= 0 || o.Height <= 0 {
		switch {
		case w == 128 && h == 64:
			o = OLED096
		case w == 128 && h == 32:
			o = OLED091
		default:
			o = PixelOpts{Width: defaultPitch * physic.Distance(max(w, 1)), Height: defaultPitch * physic.Distance(max(h, 1))}
		}
	}
	px := o.Width / physic.Distance(max(w, 1))
	py := o.Height / physic.Distance(max(h, 1))
	run := span(runDistance, runArcmin)
	return marks{
		runRows: pixelsFor(run, py),
		runCols: pixelsFor(run, px),
		letter:  pixelsFor(span(readDistance, letterArcmin), py),
	}
}

// barOffset is how far the running bar is moved down, from the running
// clock's time: 0, 1, 2, 1, 0... one step a minute. A position a minute,
// never a blink.
func barOffset(ms int64) int {
	seq := [2 * barShift]int{}
	for i := range seq {
		seq[i] = min(i, 2*barShift-i)
	}
	m := max(ms, 0) / 60000
	return seq[m%int64(len(seq))]
}

// pennantW is the width of the flag mark's pennant of height h.
func pennantW(h int) int { return h * 4 / 5 }

// pennant draws the flag mark's pennant, h pixels high, its top left at
// (x, y): a pole and a triangle pointing away from it, filled for the
// flag that fell first (or the only one), outlined for the second. It
// returns the x after it.
func (c *canvas) pennant(x, y, h int, filled, on bool) int {
	w := pennantW(h)
	t := max(h/8, 1) // stroke
	c.fill(image.Rect(x, y, x+t, y+h), on)
	th := h * 5 / 8 // the triangle's height
	mid := float64(th-1) / 2
	// The outline's slanted edges, t thick across: wider along a row.
	slope := float64(w-t) / (mid + 1)
	edge := int(math.Ceil(float64(t) * math.Sqrt(1+slope*slope)))
	for r := 0; r < th; r++ {
		// The triangle's width at row r: full in the middle row.
		d := math.Abs(float64(r)-mid) / (mid + 1)
		rw := int(math.Round(float64(w-t) * (1 - d)))
		if filled {
			c.fill(image.Rect(x+t, y+r, x+t+rw, y+r+1), on)
			continue
		}
		// Outlined: the slanted edges and the pole side, t thick.
		c.fill(image.Rect(x+t+max(rw-edge, 0), y+r, x+t+rw, y+r+1), on)
		if r < t || r >= th-t {
			c.fill(image.Rect(x+t, y+r, x+t+rw, y+r+1), on)
		}
	}
	return x + w
}
