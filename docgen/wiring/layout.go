package wiring

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The diagram's geometry, in SVG user units (pixels at 100%).
const (
	pitch    = 22.0 // header rows, and device pins
	laneGap  = 10.0 // between the vertical runs of wires beside the header
	margin   = 24.0
	pinR     = 8.0  // header pin circles
	colGap   = 12.0 // between a circle and its label
	boxHead  = 44.0 // from a device box's top to its first pin
	boxFoot  = 14.0 // from its last pin to its bottom
	boxSpace = 3    // rows between one box's last pin and the next box's first
)

// layout is where everything of a diagram goes.
type layout struct {
	w *Wiring

	hx, y0     float64 // the header's centre line and top
	xL, xR     float64 // the header block's outer edges
	labelWL    float64 // width of the odd pins' labels
	labelWR    float64 // width of the even pins' labels
	boxes      []*box
	nets       map[int]*net // by header pin
	width      float64
	height     float64
	headerBot  float64
	lanesL     int // lanes in use on each side
	lanesR     int
	titleLines []string
}

// box is a device's box.
type box struct {
	dev        *Device
	x, y, w, h float64
	left       []*boxPin // pins on its left edge, top to bottom
	right      []*boxPin // pins on its right edge
	ideal      float64   // the grid row its first pin would like
}

// boxPin is a pin of a box, where its wire ends.
type boxPin struct {
	pin  *Pin
	x, y float64
}

// net is the wires of one header pin: a vertical run in a lane beside the
// header, with horizontal runs to the header and to each device pin.
type net struct {
	header int
	side   Side // the side of the header it leaves by
	signal Signal
	hy     float64   // the header row's y
	ends   []*boxPin // the device pins
	ins    []float64 // y of the runs toward the header: the header's own, and those into boxes below it
	outs   []float64 // y of the runs away from it, into boxes beside it
	lo, hi float64
	lane   int
}

func rowY(y0 float64, r int) float64 { return y0 + float64(r)*pitch + pitch/2 }

func newLayout(w *Wiring) *layout {
	l := &layout{w: w, nets: map[int]*net{}}
	l.titleLines = wrap(w.Profile.Description, 110)
	l.y0 = margin + 40 + 16*float64(len(l.titleLines)) + 26
	l.headerBot = l.y0 + 20*pitch

	// Header labels.
	for _, h := range Header {
		wd := textW(headerLabel(h), 11, true)
		if h.Number%2 == 1 {
			l.labelWL = max(l.labelWL, wd)
		} else {
			l.labelWR = max(l.labelWR, wd)
		}
	}

	// Boxes: pins sorted by header row, so a box's own wires never cross.
	for i := range w.Devices {
		d := &w.Devices[i]
		b := &box{dev: d}
		for j := range d.Pins {
			p := &d.Pins[j]
			bp := &boxPin{pin: p}
			switch {
			case d.Side == Left:
				b.right = append(b.right, bp)
			case d.Side == Right:
				b.left = append(b.left, bp)
			case sideOf(p.Header) == Left:
				b.left = append(b.left, bp)
			default:
				b.right = append(b.right, bp)
			}
		}
		byRow := func(a, c *boxPin) int {
			return cmp.Or(cmp.Compare(row(a.pin.Header), row(c.pin.Header)), cmp.Compare(a.pin.Header, c.pin.Header))
		}
		if d.Side == Below {
			// Its wires come down beside the header and turn in: the
			// lowest header row goes to its top pin, so none crosses
			// another.
			asc := byRow
			byRow = func(a, c *boxPin) int { return asc(c, a) }
		}
		slices.SortStableFunc(b.left, byRow)
		slices.SortStableFunc(b.right, byRow)
		b.w = boxWidth(b)
		n := max(len(b.left), len(b.right))
		b.h = boxHead + float64(n-1)*pitch + boxFoot
		var sum float64
		for _, p := range d.Pins {
			sum += float64(row(p.Header)) + 0.5
		}
		b.ideal = sum/float64(len(d.Pins)) - float64(n-1)/2
		l.boxes = append(l.boxes, b)
	}

	// Below the header, boxes take both sides' wires: it must be wide
	// enough for the widest.
	var belowW float64
	for _, b := range l.boxes {
		if b.dev.Side == Below {
			belowW = max(belowW, b.w)
		}
	}
	if extra := belowW - l.blockW(); extra > 0 {
		l.labelWL += extra / 2
		l.labelWR += extra / 2
	}

	l.placeColumn(Left)
	l.placeColumn(Right)
	l.placeBelow()
	l.makeNets()
	l.lanesL = l.assignLanes(Left)
	l.lanesR = l.assignLanes(Right)
	l.placeX()
	return l
}

// blockW is the width of the header block.
func (l *layout) blockW() float64 {
	return l.labelWL + l.labelWR + 2*(12+pinR+colGap+8)
}

func headerLabel(h HeaderPin) string {
	if h.Alt != "" {
		return h.Name + " " + h.Alt
	}
	return h.Name
}

func boxWidth(b *box) float64 {
	w := max(textW(b.dev.Title, 13, true), textW(b.dev.Part, 11, false))
	var lw, rw float64
	for _, p := range b.left {
		lw = max(lw, pinTextW(p.pin))
	}
	for _, p := range b.right {
		rw = max(rw, pinTextW(p.pin))
	}
	if lw > 0 && rw > 0 {
		w = max(w, lw+rw+24)
	} else {
		w = max(w, lw+rw)
	}
	return math.Ceil(w + 2*(pinR+6))
}

func pinTextW(p *Pin) float64 {
	return textW(p.Name, 12, true) + 8 + textW(pinNote(p), 11, false)
}

// pinNote is what a device pin says of its header pin: "pin 3 · GPIO2".
func pinNote(p *Pin) string {
	return "pin " + strconv.Itoa(p.Header) + " · " + Header[p.Header-1].Name
}

// placeColumn places the boxes beside one side of the header, each as near
// as the others allow to the rows its wires come from: a least-squares fit
// that keeps them in order and apart.
func (l *layout) placeColumn(s Side) {
	var col []*box
	for _, b := range l.boxes {
		if b.dev.Side == s {
			col = append(col, b)
		}
	}
	slices.SortStableFunc(col, func(a, c *box) int { return cmp.Compare(a.ideal, c.ideal) })
	ideal := make([]float64, len(col))
	height := make([]float64, len(col))
	for i, b := range col {
		ideal[i] = b.ideal
		height[i] = float64(max(len(b.left), len(b.right))-1) + boxSpace
	}
	first := math.Ceil(boxHead / pitch) // the first box's top no higher than the header's
	for i, k := range stack(ideal, height, first) {
		b := col[i]
		y := l.y0 + k*pitch
		b.y = y - boxHead
		for j, p := range append(b.left, b.right...) {
			p.y = y + float64(j)*pitch
		}
	}
}

// stack places items in order, item i wanting position ideal[i] and
// taking height[i] before the next: positions p[i+1] ≥ p[i] + height[i],
// p[0] ≥ lo, integers, as near the ideal as can be in least squares (the
// pool-adjacent-violators algorithm on the positions less the heights
// before them).
func stack(ideal, height []float64, lo float64) []float64 {
	n := len(ideal)
	before := make([]float64, n)
	for i := 1; i < n; i++ {
		before[i] = before[i-1] + height[i-1]
	}
	type block struct {
		sum   float64
		count int
	}
	var blocks []block
	for i := range n {
		blocks = append(blocks, block{ideal[i] - before[i], 1})
		for len(blocks) > 1 {
			a, b := blocks[len(blocks)-2], blocks[len(blocks)-1]
			if a.sum/float64(a.count) <= b.sum/float64(b.count) {
				break
			}
			blocks = append(blocks[:len(blocks)-2], block{a.sum + b.sum, a.count + b.count})
		}
	}
	pos := make([]float64, 0, n)
	for _, b := range blocks {
		z := max(math.Round(b.sum/float64(b.count)), lo)
		for range b.count {
			pos = append(pos, z+before[len(pos)])
		}
	}
	return pos
}

// placeBelow stacks the boxes that take pins of both rows under the header,
// their pins on the rows' centres, half a row off the pins of the boxes
// beside the header, so no two wires ever run along one line.
func (l *layout) placeBelow() {
	var col []*box
	for _, b := range l.boxes {
		if b.dev.Side == Below {
			col = append(col, b)
		}
	}
	slices.SortStableFunc(col, func(a, c *box) int { return cmp.Compare(a.ideal, c.ideal) })
	r := 21 // the first grid row below the header and a gap
	for _, b := range col {
		r += int(math.Ceil(boxHead / pitch))
		y := rowY(l.y0, r)
		b.y = y - boxHead
		for j, p := range b.left {
			p.y = y + float64(j)*pitch
		}
		for j, p := range b.right {
			p.y = y + float64(j)*pitch
		}
		r += max(len(b.left), len(b.right))
	}
}

func (l *layout) makeNets() {
	for _, b := range l.boxes {
		for _, p := range append(b.left, b.right...) {
			h := p.pin.Header
			n := l.nets[h]
			if n == nil {
				hy := rowY(l.y0, row(h))
				n = &net{header: h, side: sideOf(h), signal: p.pin.Signal, hy: hy, ins: []float64{hy}, lo: hy, hi: hy}
				l.nets[h] = n
			}
			n.ends = append(n.ends, p)
			if b.dev.Side == Below {
				n.ins = append(n.ins, p.y)
			} else {
				n.outs = append(n.outs, p.y)
			}
			n.lo, n.hi = min(n.lo, p.y), max(n.hi, p.y)
		}
	}
}

// crossings counts where the wires of a and b cross when a's lane is
// nearer the header than b's: a's runs away from the header cross b's
// vertical run, and b's runs toward the header cross a's.
func crossings(a, b *net) int {
	c := 0
	for _, y := range a.outs {
		if y >= b.lo && y <= b.hi {
			c++
		}
	}
	for _, y := range b.ins {
		if y >= a.lo && y <= a.hi {
			c++
		}
	}
	return c
}

// assignLanes orders the nets of one side, nearest the header first, to
// cross as little as it can find, then gives each the lowest lane that
// keeps that order among the nets whose vertical runs overlap. It returns
// the number of lanes.
func (l *layout) assignLanes(s Side) int {
	var ns []*net
	for _, h := range slices.Sorted(maps.Keys(l.nets)) {
		if n := l.nets[h]; n.side == s {
			ns = append(ns, n)
		}
	}
	slices.SortStableFunc(ns, func(a, b *net) int { return cmp.Compare(a.hi-a.lo, b.hi-b.lo) })
	cost := func(order []*net) int {
		c := 0
		for i := range order {
			for j := i + 1; j < len(order); j++ {
				c += crossings(order[i], order[j])
			}
		}
		return c
	}
	// Move one net at a time to where it crosses least, until none moves.
	best := cost(ns)
	for improved := true; improved; {
		improved = false
		for i := range ns {
			for j := range ns {
				if i == j {
					continue
				}
				try := slices.Clone(ns)
				n := try[i]
				try = slices.Delete(try, i, i+1)
				try = slices.Insert(try, j, n)
				if c := cost(try); c < best {
					best, ns, improved = c, try, true
				}
			}
		}
	}
	lanes := 0
	for i, n := range ns {
		n.lane = 0
		for _, m := range ns[:i] {
			if n.lo-pitch/2 < m.hi && m.lo-pitch/2 < n.hi {
				n.lane = max(n.lane, m.lane+1)
			}
		}
		lanes = max(lanes, n.lane+1)
	}
	return lanes
}

// laneX is the x of a net's vertical run.
func (l *layout) laneX(n *net) float64 {
	if n.side == Left {
		return l.xL - laneGap*float64(n.lane+1)
	}
	return l.xR + laneGap*float64(n.lane+1)
}

// segment is a straight piece of wire, horizontal or vertical, from
// (x1, y1) to (x2, y2).
type segment struct{ x1, y1, x2, y2 float64 }

// segments are the pieces of a net's wires: from the header's edge to its
// lane, along the lane, and from the lane to each device pin.
func (l *layout) segments(n *net) []segment {
	x := l.laneX(n)
	edge := l.xL
	if n.side == Right {
		edge = l.xR
	}
	sg := []segment{{edge, n.hy, x, n.hy}, {x, n.lo, x, n.hi}}
	for _, e := range n.ends {
		sg = append(sg, segment{x, e.y, e.x, e.y})
	}
	return sg
}

// placeX sets the columns left to right: the boxes beside the odd pins,
// their lanes, the header (with the boxes below it), the even pins' lanes
// and boxes.
func (l *layout) placeX() {
	var wl, wr float64
	for _, b := range l.boxes {
		switch b.dev.Side {
		case Left:
			wl = max(wl, b.w)
		case Right:
			wr = max(wr, b.w)
		}
	}
	chanL := laneGap*float64(l.lanesL) + 24
	chanR := laneGap*float64(l.lanesR) + 24
	l.xL = margin + wl + chanL
	l.xR = l.xL + l.blockW()
	l.hx = l.xL + 12 + pinR + colGap + 8 + l.labelWL
	l.width = l.xR + chanR + wr + margin
	l.height = l.headerBot
	for _, b := range l.boxes {
		switch b.dev.Side {
		case Left:
			b.x = l.xL - chanL - b.w
		case Right:
			b.x = l.xR + chanR
		default:
			b.x = l.hx - b.w/2
		}
		for _, p := range b.left {
			p.x = b.x
		}
		for _, p := range b.right {
			p.x = b.x + b.w
		}
		l.height = max(l.height, b.y+b.h)
	}
	l.width = max(l.width, margin*2+textW(l.w.Profile.Name, 18, true))
	for _, s := range l.titleLines {
		l.width = max(l.width, margin*2+textW(s, 12, false))
	}
}

// textW estimates the width of s in DejaVu Sans (or Arial) at size px:
// close enough to size boxes, a little generous.
func textW(s string, size float64, bold bool) float64 {
	w := 0.0
	for _, r := range s {
		switch {
		case r == ' ':
			w += 0.32
		case r >= '0' && r <= '9', r >= 'A' && r <= 'Z', r == 'Ω', r == '²':
			w += 0.68
		case r == 'i', r == 'l', r == 'j', r == '.', r == ',', r == '\'', r == '|', r == ':':
			w += 0.3
		case r == 'm', r == 'w':
			w += 0.9
		default:
			w += 0.6
		}
	}
	if bold {
		w *= 1.1
	}
	return w * size
}

// wrap breaks s into lines of at most n characters, at spaces.
func wrap(s string, n int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		if line != "" && utf8.RuneCountInString(line)+1+utf8.RuneCountInString(word) > n {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
