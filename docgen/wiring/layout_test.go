package wiring

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
)

type rect struct{ x0, y0, x1, y1 float64 }

// crossedBy reports whether segment s passes through the inside of r, not
// just along or up to its edge.
func (r rect) crossedBy(s segment) bool {
	const e = 0.5
	x0, x1 := min(s.x1, s.x2), max(s.x1, s.x2)
	y0, y1 := min(s.y1, s.y2), max(s.y1, s.y2)
	return x1 > r.x0+e && x0 < r.x1-e && y1 > r.y0+e && y0 < r.y1-e
}

func (r rect) overlaps(o rect) bool {
	return r.x0 < o.x1 && o.x0 < r.x1 && r.y0 < o.y1 && o.y0 < r.y1
}

// onSegment reports whether point (x, y) lies on s.
func onSegment(x, y float64, s segment) bool {
	const e = 0.01
	return x >= min(s.x1, s.x2)-e && x <= max(s.x1, s.x2)+e && y >= min(s.y1, s.y2)-e && y <= max(s.y1, s.y2)+e
}

// checkLayout holds a diagram to what makes it legible: no box on another
// or on the header; no wire through a box or the header; no two wires
// along one line, and no wire ending on another (it would look joined);
// everything on the canvas.
func checkLayout(t *testing.T, l *layout) {
	t.Helper()
	header := rect{l.xL, l.y0 - 6, l.xR, l.headerBot}
	var boxes []rect
	for _, b := range l.boxes {
		r := rect{b.x, b.y, b.x + b.w, b.y + b.h}
		if r.x0 < 0 || r.y0 < 0 || r.x1 > l.width || r.y1 > l.height {
			t.Errorf("box %s off the canvas: %+v, canvas %gx%g", b.dev.ID, r, l.width, l.height)
		}
		if r.overlaps(header) {
			t.Errorf("box %s on the header", b.dev.ID)
		}
		for j, o := range boxes {
			if r.overlaps(o) {
				t.Errorf("box %s on box %s", b.dev.ID, l.boxes[j].dev.ID)
			}
		}
		boxes = append(boxes, r)
		for _, p := range append(b.left, b.right...) {
			if p.y <= r.y0 || p.y >= r.y1 {
				t.Errorf("box %s: pin %s at y %g outside the box", b.dev.ID, p.pin.Name, p.y)
			}
		}
	}
	type piece struct {
		segment
		net *net
	}
	var pieces []piece
	for _, n := range l.nets {
		for _, s := range l.segments(n) {
			pieces = append(pieces, piece{s, n})
		}
	}
	for _, p := range pieces {
		for i, r := range boxes {
			if r.crossedBy(p.segment) {
				t.Errorf("wire of pin %d through box %s: %+v", p.net.header, l.boxes[i].dev.ID, p.segment)
			}
		}
		if header.crossedBy(p.segment) {
			t.Errorf("wire of pin %d through the header: %+v", p.net.header, p.segment)
		}
		for _, q := range pieces {
			if p.net == q.net {
				continue
			}
			if onSegment(p.x1, p.y1, q.segment) || onSegment(p.x2, p.y2, q.segment) {
				t.Errorf("wire of pin %d ends on the wire of pin %d: %+v on %+v", p.net.header, q.net.header, p.segment, q.segment)
			}
		}
	}
}

func TestLayoutBuilds(t *testing.T) {
	for _, name := range Builds() {
		t.Run(name, func(t *testing.T) {
			l := newLayout(build(t, name))
			checkLayout(t, l)
			t.Logf("%s: %d lanes left, %d right, %gx%g", name, l.lanesL, l.lanesR, l.width, l.height)
		})
	}
}

// randomProfile writes a valid profile with a random choice of parts on
// random free lines.
func randomProfile(r *rand.Rand) string {
	free := []string{}
	for n := range 28 {
		free = append(free, fmt.Sprintf("GPIO%d", n))
	}
	r.Shuffle(len(free), func(i, j int) { free[i], free[j] = free[j], free[i] })
	taken := map[string]bool{}
	take := func() string {
		for i, l := range free {
			if !taken[l] {
				taken[l] = true
				free = append(free[:i], free[i+1:]...)
				return l
			}
		}
		panic("out of lines")
	}
	reserve := func(lines ...string) {
		for _, l := range lines {
			taken[l] = true
		}
	}
	var b strings.Builder
	power := r.IntN(3) == 0
	if power {
		reserve("GPIO2", "GPIO3")
	}
	switch r.IntN(5) {
	case 0:
		reserve("GPIO2", "GPIO3")
		chip := []string{"ssd1306", "sh1106"}[r.IntN(2)]
		fmt.Fprintf(&b, "[display.left]\ntype = %q\nbus = \"/dev/i2c-1\"\naddress = 0x3C\n\n[display.right]\ntype = %q\nbus = \"/dev/i2c-1\"\naddress = 0x3D\n\n", chip, chip)
	case 1:
		fmt.Fprintf(&b, "[display.left]\ntype = \"tm1637\"\npins = { clk = %q, dio = %q }\n\n", take(), take())
		fmt.Fprintf(&b, "[display.right]\ntype = \"tm1637\"\npins = { clk = %q, dio = %q }\n\n", take(), take())
	case 2:
		ce := r.IntN(2)
		reserve("GPIO9", "GPIO10", "GPIO11", []string{"GPIO8", "GPIO7"}[ce])
		fmt.Fprintf(&b, "[display.both]\ntype = \"ssd1306\"\nbus = \"/dev/spidev0.%d\"\n", ce)
		if r.IntN(2) == 0 {
			fmt.Fprintf(&b, "pins = { dc = %q, reset = %q }\n\n", take(), take())
		} else {
			fmt.Fprintf(&b, "pins = { dc = %q }\n\n", take())
		}
	case 3:
		reserve("GPIO2", "GPIO3")
		b.WriteString("[display.left]\ntype = \"hd44780-pcf8574\"\nbus = \"/dev/i2c-1\"\naddress = 0x27\n\n[display.right]\ntype = \"ht16k33\"\nbus = \"/dev/i2c-1\"\n\n")
	default:
		fmt.Fprintf(&b, "[display.left]\ntype = \"hd44780\"\npins = { rs = %q, e = %q, d4 = %q, d5 = %q, d6 = %q, d7 = %q }\n\n", take(), take(), take(), take(), take(), take())
		fmt.Fprintf(&b, "[display.right]\ntype = \"tm1637\"\npins = { clk = %q, dio = %q }\n\n", take(), take())
	}
	b.WriteString("[buttons]\n")
	fmt.Fprintf(&b, "left = %q\nright = %q\n", take(), take())
	for _, name := range []string{"pause", "plus", "minus", "ok"} {
		if r.IntN(3) > 0 {
			fmt.Fprintf(&b, "%s = %q\n", name, take())
		}
	}
	if r.IntN(4) == 0 {
		b.WriteString("\n[button_options]\nactive_low = false\npull = \"down\"\n")
	}
	switch r.IntN(4) {
	case 0:
		fmt.Fprintf(&b, "\n[buzzer]\ntype = \"active\"\npin = %q\n", take())
	case 1:
		fmt.Fprintf(&b, "\n[buzzer]\ntype = \"active\"\npin = %q\nactive_low = true\n", take())
	case 2:
		if !taken["GPIO18"] {
			reserve("GPIO18")
			b.WriteString("\n[buzzer]\ntype = \"pwm\"\nchip = 0\nchannel = 0\n")
		}
	}
	for _, role := range []string{"left", "right"} {
		if r.IntN(2) == 0 {
			fmt.Fprintf(&b, "\n[led.%s]\npin = %q\nactive_low = %v\n", role, take(), r.IntN(3) == 0)
		}
	}
	if power {
		b.WriteString("\n[rtc]\ntype = \"ds3231\"\nbus = \"/dev/i2c-1\"\n\n[battery]\ntype = \"ina219\"\nbus = \"/dev/i2c-1\"\naddress = 0x41\n")
		fmt.Fprintf(&b, "\n[power_loss]\npin = %q\n", take())
	}
	return b.String()
}

// Any profile of real parts gets a legible diagram, a well-formed SVG and
// wires that match the profile.
func TestLayoutRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 400
	if testing.Short() {
		n = 60
	}
	for i := range n {
		text := randomProfile(r)
		p := parse(t, text)
		w, err := New(p)
		if err != nil {
			t.Fatalf("profile %d: %v\n%s", i, err, text)
		}
		ok := t.Run(fmt.Sprint(i), func(t *testing.T) {
			checkWiring(t, w)
			checkLayout(t, newLayout(w))
			var svg bytes.Buffer
			if err := w.SVG(&svg); err != nil {
				t.Fatal(err)
			}
			if err := wellFormed(svg.Bytes()); err != nil {
				t.Errorf("SVG: %v", err)
			}
		})
		if !ok {
			t.Fatalf("profile %d:\n%s", i, text)
		}
	}
}

// wellFormed reads data as XML to its end.
func wellFormed(data []byte) error {
	d := xml.NewDecoder(bytes.NewReader(data))
	for {
		_, err := d.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
