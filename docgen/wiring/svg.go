package wiring

import (
	"encoding/xml"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// colours of the wires, by signal: the usual red for 5 V and black for
// ground, blue and yellow for I²C.
var colours = [...]string{
	Supply3V3: "#e8710a",
	Supply5V:  "#d62728",
	Ground:    "#222222",
	I2CData:   "#1f6fd1",
	I2CClock:  "#c9a400",
	SPIBus:    "#8e44ad",
	Control:   "#12a3a3",
	Input:     "#2ca02c",
	Output:    "#d63384",
}

const font = `font-family="DejaVu Sans, Verdana, Arial, sans-serif"`

// svgw writes SVG elements; coordinates are rounded to 0.1.
type svgw struct{ b strings.Builder }

func (s *svgw) f(format string, args ...any) { fmt.Fprintf(&s.b, format, args...) }

func num(v float64) string {
	return strconv.FormatFloat(float64(int64(v*10+0.5*sign(v)))/10, 'f', -1, 64)
}

func sign(v float64) float64 {
	if v < 0 {
		return -1
	}
	return 1
}

func esc(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return b.String()
}

// SVG writes the wiring diagram: the Pi's 40-pin header with every pin's
// number and name, each device as a box with its pins, and one line per
// wire, coloured by what it carries. Wires that share a header pin join
// at a dot.
func (w *Wiring) SVG(out io.Writer) error {
	l := newLayout(w)
	s := &svgw{}
	legendY := l.height + 30
	insetH := 0.0
	npnTitle, npnLoad := l.npnLoads()
	if npnTitle != "" {
		insetH = 150
	}
	height := legendY + 40 + insetH + margin
	s.f(`<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" %s>`+"\n",
		num(l.width), num(height), num(l.width), num(height), font)
	s.f("<title>Wiring of %s</title>\n", esc(w.Profile.Name))
	s.f(`<rect width="100%%" height="100%%" fill="#ffffff"/>` + "\n")
	s.f(`<text x="%s" y="%s" font-size="18" font-weight="bold">%s</text>`+"\n", num(margin), num(margin+14), esc(w.Profile.Name))
	for i, line := range l.titleLines {
		s.f(`<text x="%s" y="%s" font-size="12" fill="#444">%s</text>`+"\n", num(margin), num(margin+36+16*float64(i)), esc(line))
	}
	l.drawHeader(s)
	for _, h := range slices.Sorted(maps.Keys(l.nets)) {
		l.drawNet(s, l.nets[h])
	}
	for _, b := range l.boxes {
		l.drawBox(s, b)
	}
	l.drawLegend(s, legendY)
	if insetH > 0 {
		drawNPN(s, margin, legendY+40, npnTitle, npnLoad)
	}
	s.f("</svg>\n")
	_, err := io.WriteString(out, s.b.String())
	return err
}

// npnLoads names, for the inset, what the diagram switches with NPN
// transistors: its title and the load's label; "" when nothing is.
func (l *layout) npnLoads() (title, load string) {
	var buzzer, leds bool
	for _, d := range l.w.Devices {
		for _, p := range d.Pins {
			if strings.HasPrefix(p.Name, "base") {
				buzzer = buzzer || d.ID == "buzzer"
				leds = leds || d.ID != "buzzer"
			}
		}
	}
	switch {
	case buzzer && leds:
		return "The buzzer and the LEDs, each switched by an NPN transistor", "buzzer, or the LED"
	case buzzer:
		return "The buzzer, switched by an NPN transistor", "buzzer"
	case leds:
		return "The LEDs, each switched by an NPN transistor", "LED"
	}
	return "", ""
}

// drawHeader draws the 40-pin header: a block with two rows of pins, odd
// on the left, the name of each beside it; the pins in use coloured as
// their wires, and a stub from the pin to the block's edge.
func (l *layout) drawHeader(s *svgw) {
	top := l.y0 - 6
	s.f(`<text x="%s" y="%s" font-size="13" font-weight="bold" text-anchor="middle">Raspberry Pi 40-pin header</text>`+"\n", num(l.hx), num(top-18))
	s.f(`<text x="%s" y="%s" font-size="10" fill="#555" text-anchor="middle">pin 1 (square) at the SD card's end; odd pins toward the board</text>`+"\n", num(l.hx), num(top-5))
	s.f(`<rect x="%s" y="%s" width="%s" height="%s" rx="6" fill="#f3f6f3" stroke="#8a9a8a"/>`+"\n",
		num(l.xL), num(top), num(l.xR-l.xL), num(l.headerBot-top+6))
	s.f(`<rect x="%s" y="%s" width="%s" height="%s" rx="3" fill="#2b2b2b"/>`+"\n",
		num(l.hx-12-pinR-3), num(l.y0-2), num(2*(12+pinR+3)), num(20*pitch+4))
	for _, h := range Header {
		n := l.nets[h.Number]
		y := rowY(l.y0, row(h.Number))
		cx, anchor, lx, edge := l.hx-12, "end", l.hx-12-pinR-colGap, l.xL
		if h.Number%2 == 0 {
			cx, anchor, lx, edge = l.hx+12, "start", l.hx+12+pinR+colGap, l.xR
		}
		s.f(`<g class="header-pin" id="header-pin-%d" data-name="%s">`, h.Number, h.Name)
		fill, stroke, textFill, weight := "#d8c47a", "#8a7a3a", "#333", "normal"
		labelFill := "#8a8a8a"
		if n != nil {
			c := colours[n.signal]
			fill, stroke, textFill, weight, labelFill = c, c, "#fff", "bold", "#111"
			if n.signal == Supply3V3 || n.signal == I2CClock {
				textFill = "#111"
			}
			// A band in the wire's colour from the pin to the block's edge,
			// where the wire goes on.
			x0, x1 := min(cx, edge), max(cx, edge)
			s.f(`<rect x="%s" y="%s" width="%s" height="16" rx="8" fill="%s" fill-opacity="0.2"/>`, num(x0), num(y-8), num(x1-x0), c)
		}
		if h.Number == 1 {
			s.f(`<rect x="%s" y="%s" width="%s" height="%s" fill="%s" stroke="%s"/>`, num(cx-pinR), num(y-pinR), num(2*pinR), num(2*pinR), fill, stroke)
		} else {
			s.f(`<circle cx="%s" cy="%s" r="%s" fill="%s" stroke="%s"/>`, num(cx), num(y), num(pinR), fill, stroke)
		}
		s.f(`<text x="%s" y="%s" font-size="8" text-anchor="middle" fill="%s">%d</text>`, num(cx), num(y+3), textFill, h.Number)
		s.f(`<text x="%s" y="%s" font-size="11" font-weight="%s" text-anchor="%s" fill="%s">%s`,
			num(lx), num(y+4), weight, anchor, labelFill, esc(h.Name))
		if h.Alt != "" {
			s.f(`<tspan dx="4" font-size="9" font-weight="normal" fill="#777">%s</tspan>`, esc(h.Alt))
		}
		s.f("</text></g>\n")
	}
}

// drawNet draws the wires of one header pin: a white casing first, so a
// wire crossing another shows a gap, then the wire.
func (l *layout) drawNet(s *svgw, n *net) {
	var d strings.Builder
	for _, sg := range l.segments(n) {
		if sg.y1 == sg.y2 {
			fmt.Fprintf(&d, "M%s %sH%s", num(sg.x1), num(sg.y1), num(sg.x2))
		} else {
			fmt.Fprintf(&d, "M%s %sV%s", num(sg.x1), num(sg.y1), num(sg.y2))
		}
	}
	x := l.laneX(n)
	var dots []float64
	for _, y := range append([]float64{n.hy}, endYs(n)...) {
		if y > n.lo && y < n.hi {
			dots = append(dots, y)
		}
	}
	c := colours[n.signal]
	var ends []string
	for _, e := range n.ends {
		ends = append(ends, fmt.Sprintf("%s.%s", l.deviceOf(e).ID, e.pin.Name))
	}
	s.f(`<g class="wire" data-pin="%d" data-signal="%s" data-ends="%s">`, n.header, esc(n.signal.String()), esc(strings.Join(ends, " ")))
	s.f(`<path d="%s" fill="none" stroke="#ffffff" stroke-width="7"/>`, d.String())
	s.f(`<path d="%s" fill="none" stroke="%s" stroke-width="2.5" stroke-linejoin="round"/>`, d.String(), c)
	for _, y := range dots {
		s.f(`<circle cx="%s" cy="%s" r="3.5" fill="%s"/>`, num(x), num(y), c)
	}
	s.f("</g>\n")
}

func endYs(n *net) []float64 {
	var ys []float64
	for _, e := range n.ends {
		ys = append(ys, e.y)
	}
	return ys
}

func (l *layout) deviceOf(p *boxPin) *Device {
	for _, b := range l.boxes {
		if slices.Contains(b.left, p) || slices.Contains(b.right, p) {
			return b.dev
		}
	}
	return nil
}

func (l *layout) drawBox(s *svgw, b *box) {
	s.f(`<g class="device" id="device-%s">`, esc(b.dev.ID))
	s.f(`<rect x="%s" y="%s" width="%s" height="%s" rx="5" fill="#ffffff" stroke="#555" stroke-width="1.2"/>`,
		num(b.x), num(b.y), num(b.w), num(b.h))
	s.f(`<text x="%s" y="%s" font-size="13" font-weight="bold">%s</text>`, num(b.x+pinR+6), num(b.y+17), esc(b.dev.Title))
	s.f(`<text x="%s" y="%s" font-size="11" fill="#555">%s</text>`, num(b.x+pinR+6), num(b.y+32), esc(b.dev.Part))
	for _, p := range b.left {
		s.f(`<g class="device-pin" data-pin="%d">`, p.pin.Header)
		s.f(`<circle cx="%s" cy="%s" r="4" fill="%s"/>`, num(p.x), num(p.y), colours[p.pin.Signal])
		s.f(`<text x="%s" y="%s" font-size="12"><tspan font-weight="bold">%s</tspan><tspan dx="6" font-size="11" fill="#666">%s</tspan></text>`,
			num(p.x+pinR+6), num(p.y+4), esc(p.pin.Name), esc(pinNote(p.pin)))
		s.f("</g>")
	}
	for _, p := range b.right {
		s.f(`<g class="device-pin" data-pin="%d">`, p.pin.Header)
		s.f(`<circle cx="%s" cy="%s" r="4" fill="%s"/>`, num(p.x), num(p.y), colours[p.pin.Signal])
		s.f(`<text x="%s" y="%s" font-size="12" text-anchor="end"><tspan font-size="11" fill="#666">%s</tspan><tspan dx="6" font-weight="bold">%s</tspan></text>`,
			num(p.x-pinR-6), num(p.y+4), esc(pinNote(p.pin)), esc(p.pin.Name))
		s.f("</g>")
	}
	s.f("</g>\n")
}

// drawLegend draws a sample of each kind of wire the diagram has.
func (l *layout) drawLegend(s *svgw, y float64) {
	used := map[Signal]bool{}
	for _, n := range l.nets {
		used[n.signal] = true
	}
	x := margin
	s.f(`<g class="legend">`)
	for sig := range Signal(len(colours)) {
		if !used[sig] {
			continue
		}
		s.f(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="3"/>`, num(x), num(y), num(x+22), num(y), colours[sig])
		s.f(`<text x="%s" y="%s" font-size="11">%s</text>`, num(x+28), num(y+4), esc(sig.String()))
		x += 28 + textW(sig.String(), 11, false) + 22
	}
	s.f("</g>\n")
}

// drawNPN draws how the buzzer and the LEDs are switched: an
// NPN transistor on the low side, its base on the GPIO line through 1 kΩ.
func drawNPN(s *svgw, x, y float64, title, load string) {
	s.f(`<g class="npn-stage">`)
	s.f(`<text x="%s" y="%s" font-size="12" font-weight="bold">%s</text>`, num(x), num(y), esc(title))
	line := func(x1, y1, x2, y2 float64, c string) {
		s.f(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2"/>`, num(x1), num(y1), num(x2), num(y2), c)
	}
	text := func(tx, ty float64, anchor, str string) {
		s.f(`<text x="%s" y="%s" font-size="11" text-anchor="%s">%s</text>`, num(tx), num(ty), anchor, esc(str))
	}
	by := y + 90  // base level
	bx := x + 150 // base bar
	cx := bx + 16 // collector and emitter column
	line(x+40, by, x+70, by, colours[Output])
	text(x+36, by+4, "end", "GPIO")
	s.f(`<rect x="%s" y="%s" width="30" height="10" fill="#fff" stroke="#222" stroke-width="1.5"/>`, num(x+70), num(by-5))
	text(x+85, by-10, "middle", "1 kΩ")
	line(x+100, by, bx, by, colours[Output])
	line(bx, by-12, bx, by+12, "#222") // base bar
	s.f(`<circle cx="%s" cy="%s" r="19" fill="none" stroke="#222" stroke-width="1.2"/>`, num(bx+8), num(by))
	line(bx, by-6, cx, by-16, "#222") // collector
	line(bx, by+6, cx, by+16, "#222") // emitter
	s.f(`<path d="M%s %sl-7 -1l3 -5z" fill="#222"/>`, num(cx), num(by+16))
	line(cx, by-16, cx, by-30, "#222")
	line(cx, by+16, cx, by+40, colours[Ground])
	line(cx-10, by+40, cx+10, by+40, colours[Ground])
	line(cx-6, by+44, cx+6, by+44, colours[Ground])
	line(cx-2, by+48, cx+2, by+48, colours[Ground])
	text(cx+14, by+44, "start", "GND (emitter)")
	text(bx-4, by+22, "end", "B")
	text(cx+6, by-20, "start", "C")
	text(cx+6, by+28, "start", "E")
	text(bx+36, by+4, "start", "2N2222 or S8050")
	s.f(`<rect x="%s" y="%s" width="20" height="26" fill="#fff" stroke="#222" stroke-width="1.5"/>`, num(cx-10), num(by-56))
	text(cx+16, by-39, "start", load)
	text(cx-14, by-46, "end", "+")
	text(cx-14, by-32, "end", "−")
	line(cx, by-56, cx, by-66, colours[Supply5V])
	text(cx+6, by-62, "start", "5 V")
	s.f("</g>\n")
}
