package screen

import (
	"image"
	"strings"
)

// icon is a small symbol drawn in the small font's height.
type icon uint8

const (
	iconNone       icon = iota
	iconFlag            // the flag that fell first: a filled pennant
	iconFlagHollow      // the flag that fell second: an outlined pennant
	iconPause           // two bars
	iconUp              // more menu items above
	iconDown            // more menu items below
	iconRight           // the item being edited
	numIcons
)

type iconGlyph struct {
	cols [8]byte // bit 0 is the top row
	w    int
}

var icons [numIcons]iconGlyph

func init() {
	shapes := [numIcons]string{
		iconFlag:       "###### ###### ###### ###### #..... #..... #.....",
		iconFlagHollow: "###### #....# #....# ###### #..... #..... #.....",
		iconPause:      "##.## ##.## ##.## ##.## ##.## ##.## ##.##",
		iconUp:         "..... ..... ..#.. .###. ##### ..... .....",
		iconDown:       "..... ..... ##### .###. ..#.. ..... .....",
		iconRight:      "... #.. ##. ### ##. #.. ...",
	}
	for i, s := range shapes {
		if s == "" {
			continue
		}
		rows := strings.Fields(s)
		g := iconGlyph{w: len(rows[0])}
		for y, row := range rows {
			for x := 0; x < len(row) && x < len(g.cols); x++ {
				if row[x] == '#' {
					g.cols[x] |= 1 << y
				}
			}
		}
		icons[i] = g
	}
}

func (c *canvas) icon(x, y int, i icon, on bool) int {
	if i == iconNone || i >= numIcons {
		return x
	}
	g := &icons[i]
	for cx := 0; cx < g.w; cx++ {
		c.column(x+cx, y, uint64(g.cols[cx]), on)
	}
	return x + g.w
}

// token is one item of a header or status line: an optional icon and a
// word, with a shorter form for when space is short.
type token struct {
	icon      icon
	long      []byte
	shortIcon icon
	short     []byte
	boxed     bool // reverse video (the banner)
	right     bool // in the right-aligned group

	useShort, drop bool
}

const (
	iconGap  = 2 // between an icon and its word
	tokenGap = 5 // between two tokens
	boxPad   = 2 // inside a reverse video box
	linePad  = 2 // at both ends of a line
)

func (t *token) parts() (icon, []byte) {
	if t.useShort {
		return t.shortIcon, t.short
	}
	return t.icon, t.long
}

func partsWidth(i icon, text []byte, boxed bool) int {
	w := 0
	if i != iconNone && i < numIcons {
		w = icons[i].w
		if len(text) > 0 {
			w += iconGap
		}
	}
	w += textW(text)
	if boxed {
		w += 2 * boxPad
	}
	return w
}

func (t *token) width() int {
	i, text := t.parts()
	return partsWidth(i, text, t.boxed)
}

func (t *token) canShorten() bool {
	if t.useShort {
		return false
	}
	return partsWidth(t.shortIcon, t.short, t.boxed) < partsWidth(t.icon, t.long, t.boxed)
}

// flow lays toks out on one line in r: the left group from the left (or
// centred, with center and no right group), the right group against the
// right end. Tokens are in order of importance: while the line is too
// long, the least important token that has a short form takes it, then
// the least important is dropped. With inverted set the line is drawn in
// reverse video (r is already filled).
func (s *PixelScreen) flow(r image.Rectangle, toks []token, inverted, center bool) {
	s.flowLine(r, toks, inverted, center, false)
}

// flowLine is flow; with clear set, the centred left group is drawn on
// a dark ground cut out of what r holds, a pixel wider all round.
func (s *PixelScreen) flowLine(r image.Rectangle, toks []token, inverted, center, clear bool) {
	avail := r.Dx() - 2*linePad
	for {
		total, n := 0, 0
		for i := range toks {
			if !toks[i].drop {
				total += toks[i].width()
				n++
			}
		}
		if n == 0 {
			return
		}
		total += (n - 1) * tokenGap
		if total <= avail {
			break
		}
		shortened := false
		for i := len(toks) - 1; i >= 0; i-- {
			if !toks[i].drop && toks[i].canShorten() {
				toks[i].useShort = true
				shortened = true
				break
			}
		}
		if shortened {
			continue
		}
		for i := len(toks) - 1; i >= 0; i-- {
			if !toks[i].drop {
				toks[i].drop = true
				break
			}
		}
	}
	lw, rw, ln, rn := 0, 0, 0, 0
	for i := range toks {
		if toks[i].drop {
			continue
		}
		if toks[i].right {
			rw += toks[i].width()
			rn++
		} else {
			lw += toks[i].width()
			ln++
		}
	}
	lw += max(ln-1, 0) * tokenGap
	rw += max(rn-1, 0) * tokenGap
	y := r.Min.Y + (r.Dy()-smallH)/2
	lx := r.Min.X + linePad
	if center && rn == 0 {
		lx = r.Min.X + (r.Dx()-lw)/2
	}
	if clear && ln > 0 {
		s.c.fill(image.Rect(lx-linePad, y-3, lx+lw+linePad, y+smallH+2).Intersect(r), false)
		inverted = false
	}
	rx := r.Max.X - linePad - rw
	for i := range toks {
		t := &toks[i]
		if t.drop {
			continue
		}
		x := &lx
		if t.right {
			x = &rx
		}
		s.drawToken(*x, y, t, inverted)
		*x += t.width() + tokenGap
	}
}

func (s *PixelScreen) drawToken(x, y int, t *token, inverted bool) {
	on := !inverted
	ic, text := t.parts()
	if t.boxed {
		s.c.fill(image.Rect(x, y-2, x+t.width(), y+smallH+1), on)
		on = !on
		x += boxPad
	}
	if ic != iconNone {
		x = s.c.icon(x, y, ic, on)
		if len(text) > 0 {
			x += iconGap
		}
	}
	drawText(&s.c, x, y, text, on)
}
