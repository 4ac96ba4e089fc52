package screen

import (
	"image"

	"periph.io/x/devices/v3/ssd1306/image1bit"
)

// PixelScreen draws Views on a monochrome pixel display (an OLED panel) of
// fixed bounds, for one Role. Build one per display with NewPixelScreen: it
// renders the big digits for its layout once, so Draw does not allocate.
//
// The game screen, per side:
//
//   - a header band with the side's colour (WHITE or BLACK), its move count
//     (ShowMoves) and period (Periods). The band of the running side is
//     filled, the text cut out of it: the brightest thing on the table,
//     seen from across the room. The side to move while the clocks stand
//     (before the start, paused) gets an outlined band;
//   - the time in large Go Bold digits, FormatTime with Game.TenthsBelow,
//     as large as the area allows for the format shown (h:mm:ss, m:ss,
//     m:ss.t): the digits keep their place as the time runs down, and grow
//     once when the last hour starts;
//   - a status line with the status words (words.go) in their one order:
//     a flag (filled pennant and "FLAG", "FLAG 1ST" for the flag that fell
//     first, hollow pennant and "FLAG 2ND" for the other), OVERSTEP, the
//     Banner in reverse video, PAUSED, the delay still to come in delay
//     modes ("DELAY 5") and overtime ("OVERTIME 3": byo-yomi periods or
//     Canadian moves left).
//
// Nothing blinks. Where space is short, words take their short forms ("W",
// "M12", "OS", "D5", a pause sign) and then disappear, least important
// first at each step.
//
// Left and Right show that player's side on the whole panel. Both shows the
// two sides next to each other, left player on the left, with the game's
// words (the banner, PAUSED) on a line of their own at the bottom. On
// panels lower than 48 pixels (128x32) the status words go into the header
// band, after the colour and before the counters (on Both, the banner
// across the middle of the header row).
//
// The menu shows the title, the items around the cursor with the cursor
// item in reverse video (while editing, the item is framed and only the
// field being changed is reversed), arrows when there are more items above
// or below, and the hint line. On the Right role of a two-panel clock it
// shows the title, the cursor item enlarged and the hint, so the other side
// of the table can follow. A message is word-wrapped and centred, the same
// in every role.
type PixelScreen struct {
	w, h    int
	role    Role
	compact bool

	sides  [2]sideLayout
	nsides int
	global image.Rectangle // PAUSED and the banner, on a tall Both panel

	c     canvas
	tbuf  [48]byte
	arena [512]byte
	an    int
	toks  [12]token
	words [numWordKinds]word
}

// Templates of the time formats; a face is fitted to each.
const (
	tplMin = iota
	tplTenths1
	tplTenths2
	tplHour1
	tplHour2
	tplHour3
	numTpl
)

var templates = [numTpl]string{"00:00", "0:00.0", "00:00.0", "0:00:00", "00:00:00", "000:00:00"}

type sideLayout struct {
	header image.Rectangle
	time   image.Rectangle
	status image.Rectangle // empty: the status goes into the header
	faces  [numTpl]*bigFace
	tplW   [numTpl]int
}

// NewPixelScreen returns a screen for a display of the given bounds (any
// size; 128x64 and 128x32 are what the layouts are made for) in role (an
// unknown role is taken as Both). It renders the digit faces it needs.
func NewPixelScreen(bounds image.Rectangle, role Role) *PixelScreen {
	s := &PixelScreen{w: max(bounds.Dx(), 0), h: max(bounds.Dy(), 0), role: role}
	if role > Both {
		s.role = Both
	}
	s.compact = s.h < 48
	if s.role == Both {
		s.nsides = 2
		half := s.w / 2
		s.layoutSide(&s.sides[0], 0, half-1, true)
		s.layoutSide(&s.sides[1], half+1, s.w, true)
		if !s.compact {
			s.global = image.Rect(0, s.h-9, s.w, s.h)
		}
	} else {
		s.nsides = 1
		s.layoutSide(&s.sides[0], 0, s.w, false)
	}
	return s
}

func (s *PixelScreen) layoutSide(l *sideLayout, x0, x1 int, both bool) {
	h := s.h
	switch {
	case s.compact:
		l.header = image.Rect(x0, 0, x1, 9)
		l.time = image.Rect(x0+1, 10, x1-1, h)
	case both:
		l.header = image.Rect(x0, 0, x1, 11)
		l.time = image.Rect(x0+1, 13, x1-1, h-20)
		l.status = image.Rect(x0, h-19, x1, h-10)
	default:
		l.header = image.Rect(x0, 0, x1, 13)
		l.time = image.Rect(x0+2, 14, x1-2, h-10)
		l.status = image.Rect(x0, h-9, x1, h)
	}
	l.time = l.time.Canon()
	for i, t := range templates {
		f := fitFace(t, l.time.Dx(), l.time.Dy())
		l.faces[i] = f
		l.tplW[i] = f.width([]byte(t))
	}
}

// Bounds is the size the screen lays out, with Min at {0, 0}.
func (s *PixelScreen) Bounds() image.Rectangle { return image.Rect(0, 0, s.w, s.h) }

// Role is the role the screen was made for.
func (s *PixelScreen) Role() Role { return s.role }

// Draw clears frame and draws v on it, the screen's top left corner at the
// frame's Min. Pixels beyond the frame or the screen's bounds are dropped.
// A nil View draws a blank frame; a nil frame, or one whose pixel buffer
// does not match its bounds, is left alone. Draw never allocates once the
// screen is built, and never panics, whatever v holds.
func (s *PixelScreen) Draw(v *View, frame *image1bit.VerticalLSB) {
	if !usable(frame) {
		return
	}
	s.c = canvas{f: frame, origin: frame.Rect.Min}
	s.c.clip = image.Rect(0, 0, s.w, s.h).Add(frame.Rect.Min).Intersect(frame.Rect)
	for i := range frame.Pix {
		frame.Pix[i] = 0
	}
	s.an = 0
	if v == nil {
		return
	}
	switch v.Kind {
	case KindMenu:
		s.drawMenu(&v.Menu)
	case KindMessage:
		s.drawMessage(v.Message)
	default:
		s.drawGame(&v.Game)
	}
}

func (s *PixelScreen) drawGame(g *Game) {
	switch s.role {
	case Left:
		s.drawSide(&s.sides[0], &g.Left, &g.Right, g)
	case Right:
		s.drawSide(&s.sides[0], &g.Right, &g.Left, g)
	default:
		s.drawSide(&s.sides[0], &g.Left, &g.Right, g)
		s.drawSide(&s.sides[1], &g.Right, &g.Left, g)
		if !s.global.Empty() {
			n := s.addWords(0, gameWords, &g.Left, &g.Right, g)
			s.flow(s.global, s.toks[:n], false, true)
		} else if g.Banner != "" {
			// A low Both panel: the banner across the middle of the header row.
			t := s.bannerToken(g.Banner)
			w := min(t.width()+2*linePad, s.w)
			x := (s.w - w) / 2
			r := image.Rect(x, 0, x+w, s.sides[0].header.Max.Y)
			s.c.fill(r, false)
			s.toks[0] = t
			s.flow(r, s.toks[:1], false, true)
		}
	}
}

// drawSide draws player p (the other side is o) in layout l: the header
// band with the colour and the counters, the status words on their own
// line or, on a low panel, in the header too.
func (s *PixelScreen) drawSide(l *sideLayout, p, o *Player, g *Game) {
	// Header band: filled when running, outlined when to move at a stop.
	filled := p.Running
	if filled {
		s.c.fill(l.header, true)
	} else if p.ToMove {
		s.c.outline(l.header, 1, true)
	}

	label, short := txtBlack, txtB
	if p.White {
		label, short = txtWhite, txtW
	}
	s.toks[0] = token{long: label, short: short}
	// The game's words go on the bottom line of a tall Both panel, and
	// the banner across the header row of a low one.
	own := allWords
	if s.role == Both && !s.global.Empty() {
		own &^= gameWords
	} else if s.role == Both {
		own &^= 1 << wordBanner
	}
	status := !l.status.Empty()
	header := own
	if status {
		header = counterWords
	}
	n := s.addWords(1, header, p, o, g)
	s.flow(l.header, s.toks[:n], filled, false)
	if status {
		n = s.addWords(0, own&^counterWords, p, o, g)
		s.flow(l.status, s.toks[:n], false, false)
	}

	s.drawTime(l, p, g.TenthsBelow)
}

// addWords puts the status words of set into s.toks from n on and
// returns the new count.
func (s *PixelScreen) addWords(n int, set wordSet, p, o *Player, g *Game) int {
	for _, w := range statusWords(s.words[:0], set, p, o, g) {
		if n == len(s.toks) {
			break
		}
		if w.kind == wordBanner {
			s.toks[n] = s.bannerToken(w.text)
		} else {
			f := w.form()
			s.toks[n] = token{
				icon: f.icon, long: s.arenaWord(w, false),
				shortIcon: f.shortIcon, short: s.arenaWord(w, true),
				right: f.counter,
			}
		}
		n++
	}
	return n
}

func (s *PixelScreen) bannerToken(b string) token {
	start := s.an
	for i := 0; i < len(b) && i < 32 && s.an < len(s.arena); i++ {
		s.arena[s.an] = b[i]
		s.an++
	}
	t := s.arena[start:s.an:s.an]
	return token{long: t, short: t, boxed: true}
}

// arenaWord writes w's long form, or its short form on a pixel panel, to
// the arena and returns it; nil when the arena is full.
func (s *PixelScreen) arenaWord(w word, short bool) []byte {
	if len(s.arena)-s.an < maxWordLen {
		return nil
	}
	b := s.arena[s.an:s.an]
	if short {
		b = w.appendMark(b)
	} else {
		b = w.appendLong(b)
	}
	start := s.an
	s.an += len(b)
	return s.arena[start:s.an:s.an]
}

// timeTemplate picks the template a formatted time is laid out in.
func timeTemplate(t []byte) int {
	colons, dots, lead := 0, 0, 0
	for _, c := range t {
		switch c {
		case ':':
			colons++
		case '.':
			dots++
		default:
			if colons == 0 {
				lead++
			}
		}
	}
	switch {
	case colons >= 2 && dots == 0 && lead <= 1:
		return tplHour1
	case colons >= 2 && dots == 0 && lead == 2:
		return tplHour2
	case colons >= 2:
		return tplHour3
	case dots > 0 && lead <= 1:
		return tplTenths1
	case dots > 0:
		return tplTenths2
	}
	return tplMin
}

// drawTime draws p's time in the big digits, right-aligned in its
// template's box centred in l.time.
func (s *PixelScreen) drawTime(l *sideLayout, p *Player, tenthsBelow int64) {
	t := AppendTime(s.tbuf[:0], p.Ms, tenthsBelow, p.CountUp)
	tpl := timeTemplate(t)
	f := l.faces[tpl]
	w := f.width(t)
	if w > l.time.Dx() {
		// Longer than any template (hundreds of hours): the smallest
		// face, clipped on the right if even that is too wide.
		f = l.faces[tplHour3]
		for _, g := range l.faces {
			if g.h < f.h {
				f = g
			}
		}
		w = f.width(t)
	}
	boxW := max(l.tplW[tpl], w)
	x := l.time.Min.X + (l.time.Dx()-boxW)/2 + boxW - w
	x = max(x, l.time.Min.X)
	y := l.time.Min.Y + (l.time.Dy()-f.h)/2
	for i, c := range t {
		if i > 0 {
			x += f.gap
		}
		if k := bigIndex(c); k >= 0 {
			g := &f.glyphs[k]
			for cx, col := range g.cols {
				s.c.column(x+g.dx+cx, y, col, true)
			}
		}
		x += f.cellW(c)
	}
}

var (
	txtWhite = []byte("WHITE")
	txtBlack = []byte("BLACK")
	txtW     = []byte("W")
	txtB     = []byte("B")
)
