package screen

import (
	"image"

	"periph.io/x/devices/v3/ssd1306/image1bit"
)

// PixelScreen draws Views on a monochrome pixel display (an OLED panel) of
// fixed bounds, for one Role. Build one per display with NewPixelScreen or
// NewPixelScreenOpts: it renders the big digits for its layout once, so
// Draw does not allocate.
//
// The game screen, per side, on a panel 48 pixels high or more (128x64):
//
//   - a header line with the side's colour (WHITE or BLACK), its status
//     words (words.go) in their one order (OVERSTEP, DELAY 5, OVERTIME 3)
//     and at the right end its move count (ShowMoves) and period
//     (Periods);
//   - the time in large Go Bold digits, FormatTime with Game.TenthsBelow,
//     as large as the area allows for the format shown (h:mm:ss, m:ss,
//     m:ss.t): the digits keep their place as the time runs down, and grow
//     once when the last hour starts;
//   - below the time, the marks seen from afar (marks.go): on the running
//     side a solid bar at least one minute of arc high seen from 10 m,
//     which moves one row a minute through three positions so its edges
//     wear no line into the panel; once the flag fell, the flag mark in
//     letters 5 minutes of arc high seen from 3 m (a filled pennant and
//     FLAG, or 1ST for the flag that fell first; a hollow pennant and
//     2ND for the other), the time above it a little smaller. The side to
//     move while the clocks stand (before the start, paused) has the bar's
//     place outlined. The game's words (the Banner in reverse video,
//     PAUSED) sit in the middle of that place.
//
// Nothing blinks. Where a line is short of space, words take their short
// forms ("W", "M12", "OS", "D5", a pause sign) and then disappear, least
// important first at each step.
//
// On panels lower than 48 pixels (128x32) the header is a band with every
// status word, filled with the text cut out on the running side and
// outlined on the side to move at a stop; a one-side panel also has a
// block left of the time, one minute of arc wide seen from 10 m, filled
// on the running side, with a large pennant in it once the flag fell.
//
// Left and Right show that player's side on the whole panel. Both shows the
// two sides next to each other, left player on the left, with the game's
// words in the bars' row: in the place of the side whose bar is neither
// lit nor outlined where they fit, else across; across the header row on
// a low panel or while a flag mark is shown.
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
	marks   marks

	sides  [2]sideLayout
	nsides int
	global image.Rectangle // the game's words on a tall Both panel

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

// timeBox is an area for the time with the faces fitted to it.
type timeBox struct {
	r     image.Rectangle
	faces [numTpl]*bigFace
	tplW  [numTpl]int
}

func newTimeBox(r image.Rectangle) timeBox {
	b := timeBox{r: r.Canon()}
	for i, t := range templates {
		f := fitFace(t, b.r.Dx(), b.r.Dy())
		b.faces[i] = f
		b.tplW[i] = f.width([]byte(t))
	}
	return b
}

// flagForm is how the flag mark draws one flag word: the pennant ph
// pixels high (0: none), then the word in face.
type flagForm struct {
	ph     int
	filled bool
	text   []byte
	face   *bigFace
	w      int
}

// The flag mark's words, by word kind, and whether their pennant is
// filled.
var flagMarks = [3]struct {
	text   []byte
	filled bool
}{
	wordFlag:    {[]byte("FLAG"), true},
	wordFlag1st: {[]byte("1ST"), true},
	wordFlag2nd: {[]byte("2ND"), false},
}

type sideLayout struct {
	header image.Rectangle
	band   bool            // the header is a band: filled when running (low panels)
	zone   image.Rectangle // under the time: the running bar and the game's words (tall panels)
	block  image.Rectangle // left of the time: the running block and the pennant (low one-side panels)
	time   timeBox

	flag    image.Rectangle // the flag mark (tall panels); empty: none
	flagged timeBox         // the time above the flag mark
	forms   [3]flagForm
}

// NewPixelScreen returns a screen for a display of the given bounds (any
// size; 128x64 and 128x32 are what the layouts are made for) in role (an
// unknown role is taken as Both), for a panel of the common size for its
// pixels (PixelOpts). It renders the digit faces it needs.
func NewPixelScreen(bounds image.Rectangle, role Role) *PixelScreen {
	return NewPixelScreenOpts(bounds, role, nil)
}

// NewPixelScreenOpts is NewPixelScreen for a panel whose physical size
// opts gives (nil: the common size); the marks seen from afar are sized
// from it.
func NewPixelScreenOpts(bounds image.Rectangle, role Role, opts *PixelOpts) *PixelScreen {
	s := &PixelScreen{w: max(bounds.Dx(), 0), h: max(bounds.Dy(), 0), role: role}
	if role > Both {
		s.role = Both
	}
	s.compact = s.h < 48
	s.marks = panelMarks(opts, s.w, s.h)
	if s.role == Both {
		s.nsides = 2
		half := s.w / 2
		s.layoutSide(&s.sides[0], 0, half-1)
		s.layoutSide(&s.sides[1], half+1, s.w)
		if !s.compact {
			z := s.sides[0].zone
			s.global = image.Rect(0, z.Min.Y, s.w, z.Max.Y)
		}
	} else {
		s.nsides = 1
		s.layoutSide(&s.sides[0], 0, s.w)
	}
	return s
}

func (s *PixelScreen) layoutSide(l *sideLayout, x0, x1 int) {
	h, m := s.h, s.marks
	if s.compact {
		l.header = image.Rect(x0, 0, x1, 9)
		l.band = true
		tx := x0 + 1
		if s.role != Both {
			// The block: one minute of arc wide and the room to move.
			bw := min(m.runCols+barShift, (x1-x0)/4)
			l.block = image.Rect(x0, 9, x0+bw, h)
			tx = l.block.Max.X + 2
		}
		l.time = newTimeBox(image.Rect(tx, 10, x1-1, h))
		return
	}
	l.header = image.Rect(x0, 0, x1, 9)
	room := h - 10
	z := min(m.runRows+barShift, room*2/5)
	l.zone = image.Rect(x0, h-z, x1, h)
	l.time = newTimeBox(image.Rect(x0+2, 10, x1-2, h-z-1))
	f := min(m.letter+2, room/2)
	l.flag = image.Rect(x0, h-f, x1, h)
	l.flagged = newTimeBox(image.Rect(x0+2, 10, x1-2, h-f-1))
	// Each flag word: pennant and word at the mark's height if they fit,
	// else the word alone, made smaller if it must.
	avail, fh := l.flag.Dx()-4, l.flag.Dy()-1
	for i, fm := range flagMarks {
		face := fitWord(fm.text, 1<<20, fh)
		_, ph := face.wordRows()
		form := flagForm{ph: ph, filled: fm.filled, text: fm.text, face: face}
		form.w = pennantW(ph) + pennantGap(face) + face.inkWidth(form.text)
		if form.w > avail {
			form.ph = 0
			form.face = fitWord(fm.text, avail, fh)
			form.w = form.face.inkWidth(form.text)
		}
		l.forms[i] = form
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
		if !s.global.Empty() && !s.flagMark(&g.Left) && !s.flagMark(&g.Right) {
			// Across the bars' row, or in the place of the side
			// whose bar is neither lit nor outlined.
			// (A banner too long for that place goes across.)
			r := s.global
			switch {
			case busy(&g.Left) && !busy(&g.Right):
				r = s.sides[1].zone
			case busy(&g.Right) && !busy(&g.Left):
				r = s.sides[0].zone
			}
			if an := s.an; g.Banner != "" {
				t := s.bannerToken(g.Banner, g.BannerShort)
				if t.width() > r.Dx()-2*linePad {
					r = s.global
				}
				s.an = an
			}
			s.gameWords(r, &g.Left, &g.Right, g)
		} else if g.Banner != "" {
			// The banner across the middle of the header row.
			t := s.bannerToken(g.Banner, g.BannerShort)
			w := min(t.width()+2*linePad, s.w)
			x := (s.w - w) / 2
			r := image.Rect(x, 0, x+w, s.sides[0].header.Max.Y)
			s.c.fill(r, false)
			s.toks[0] = t
			s.flow(r, s.toks[:1], false, true)
		}
	}
}

// flagMark reports whether p's side shows the flag mark: a fallen flag on
// a tall panel.
func (s *PixelScreen) flagMark(p *Player) bool {
	return p.Flag && !s.sides[0].flag.Empty()
}

// busy reports whether p's bar is lit or outlined.
func busy(p *Player) bool { return p.Running || p.ToMove }

// gameWords draws the game's words (the banner, PAUSED) centred in r, on a
// dark ground cut out of whatever is there.
func (s *PixelScreen) gameWords(r image.Rectangle, p, o *Player, g *Game) {
	n := s.addWords(0, gameWords, p, o, g)
	if n == 0 {
		return
	}
	s.flowLine(r, s.toks[:n], false, true, true)
}

// drawSide draws player p (the other side is o) in layout l.
func (s *PixelScreen) drawSide(l *sideLayout, p, o *Player, g *Game) {
	label, short := txtBlack, txtB
	if p.White {
		label, short = txtWhite, txtW
	}
	s.toks[0] = token{long: label, short: short}

	if l.band {
		s.drawLowSide(l, p, o, g)
		return
	}
	flag := s.flagMark(p)
	own := sideWords | counterWords
	if flag && s.markHasPennant(l, p, o, g) {
		// The flag mark says it all; without its pennant ("1ST" on a
		// narrow side) the header keeps the small flag word too.
		own &^= flagWords
	}
	switch {
	case s.role != Both && flag:
		// The flag mark takes the game words' place.
		own |= gameWords
	case s.role == Both && (flag || s.flagMark(o)):
		// The banner goes across the header row, PAUSED into it.
		own |= 1 << wordPaused
	}
	n := s.addWords(1, own, p, o, g)
	s.flow(l.header, s.toks[:n], false, false)

	if flag {
		s.drawTime(&l.flagged, p, g.TenthsBelow)
		s.drawFlagMark(l, p, o, g)
		return
	}
	s.drawTime(&l.time, p, g.TenthsBelow)
	switch {
	case p.Running:
		y := l.zone.Min.Y + barOffset(p.Ms)
		s.c.fill(image.Rect(l.zone.Min.X, y, l.zone.Max.X, min(y+l.zone.Dy()-barShift, l.zone.Max.Y)), true)
	case p.ToMove:
		s.c.outline(l.zone, 1, true)
	}
	if s.role != Both {
		s.gameWords(l.zone, p, o, g)
	}
}

// drawFlagMark draws the flag mark of p in l.flag: on the running side
// (time added after the flag) cut out of a filled area.
func (s *PixelScreen) drawFlagMark(l *sideLayout, p, o *Player, g *Game) {
	var buf [1]word
	ws := statusWords(buf[:0], flagWords, p, o, g)
	if len(ws) == 0 {
		return
	}
	on := true
	if p.Running {
		s.c.fill(l.flag, true)
		on = false
	}
	f := &l.forms[ws[0].kind-wordFlag]
	x := l.flag.Min.X + (l.flag.Dx()-f.w)/2
	top, wh := f.face.wordRows()
	y := l.flag.Min.Y + (l.flag.Dy()-wh)/2
	if f.ph > 0 {
		x = s.c.pennant(x, y, f.ph, f.filled, on) + pennantGap(f.face)
	}
	s.drawBig(f.face, x, y-top, f.text, true, on)
}

// markHasPennant reports whether p's flag mark shows the pennant.
func (s *PixelScreen) markHasPennant(l *sideLayout, p, o *Player, g *Game) bool {
	var buf [1]word
	ws := statusWords(buf[:0], flagWords, p, o, g)
	return len(ws) > 0 && l.forms[ws[0].kind-wordFlag].ph > 0
}

// pennantGap is the space between the flag mark's pennant and its word.
func pennantGap(f *bigFace) int { return max(f.gap*3, 3) }

// drawLowSide draws p on a low panel: the header band with every word,
// the block beside the time and the time.
func (s *PixelScreen) drawLowSide(l *sideLayout, p, o *Player, g *Game) {
	filled := p.Running
	if filled {
		s.c.fill(l.header, true)
	} else if p.ToMove {
		s.c.outline(l.header, 1, true)
	}
	own := allWords
	if s.role == Both {
		// The banner goes across the middle of the header row.
		own &^= 1 << wordBanner
	}
	n := s.addWords(1, own, p, o, g)
	s.flow(l.header, s.toks[:n], filled, false)
	if !l.block.Empty() {
		b := l.block
		on := true
		if p.Running {
			x := b.Min.X + barOffset(p.Ms)
			s.c.fill(image.Rect(x, b.Min.Y, min(x+b.Dx()-barShift, b.Max.X), b.Max.Y), true)
			on = false
		}
		if p.Flag {
			bw := b.Dx() - barShift
			ph := min(b.Dy()-2, bw*5/4)
			x := b.Min.X + (bw-pennantW(ph))/2
			if p.Running {
				x += barOffset(p.Ms)
			}
			s.c.pennant(x, b.Min.Y+(b.Dy()-ph)/2, ph, p.FirstFlag, on)
		}
	}
	s.drawTime(&l.time, p, g.TenthsBelow)
}

// addWords puts the status words of set into s.toks from n on and
// returns the new count.
func (s *PixelScreen) addWords(n int, set wordSet, p, o *Player, g *Game) int {
	for _, w := range statusWords(s.words[:0], set, p, o, g) {
		if n == len(s.toks) {
			break
		}
		if w.kind == wordBanner {
			s.toks[n] = s.bannerToken(w.text, w.alt)
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

// bannerToken is the banner b as a token, with its shorter form short
// ("" for none) where the line is short of room.
func (s *PixelScreen) bannerToken(b, short string) token {
	t := s.arenaText(b)
	ts := t
	if short != "" {
		ts = s.arenaText(short)
	}
	return token{long: t, short: ts, boxed: true}
}

// arenaText copies up to 32 bytes of b to the arena.
func (s *PixelScreen) arenaText(b string) []byte {
	start := s.an
	for i := 0; i < len(b) && i < 32 && s.an < len(s.arena); i++ {
		s.arena[s.an] = b[i]
		s.an++
	}
	return s.arena[start:s.an:s.an]
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
// template's box centred in b.
func (s *PixelScreen) drawTime(b *timeBox, p *Player, tenthsBelow int64) {
	t := AppendTime(s.tbuf[:0], p.Ms, tenthsBelow, p.CountUp)
	tpl := timeTemplate(t)
	f := b.faces[tpl]
	w := f.width(t)
	if w > b.r.Dx() {
		// Longer than any template (hundreds of hours): the smallest
		// face, clipped on the right if even that is too wide.
		f = b.faces[tplHour3]
		for _, g := range b.faces {
			if g.h < f.h {
				f = g
			}
		}
		w = f.width(t)
	}
	boxW := max(b.tplW[tpl], w)
	x := b.r.Min.X + (b.r.Dx()-boxW)/2 + boxW - w
	x = max(x, b.r.Min.X)
	y := b.r.Min.Y + (b.r.Dy()-f.h)/2
	s.drawBig(f, x, y, t, false, true)
}

// drawBig draws text in face f from (x, y): in digit cells, or each
// character as wide as its ink (proportional).
func (s *PixelScreen) drawBig(f *bigFace, x, y int, t []byte, proportional, on bool) {
	for i, c := range t {
		if i > 0 {
			x += f.gap
		}
		k := bigIndex(c)
		if k >= 0 {
			g := &f.glyphs[k]
			dx, dy := g.dx, 0
			if proportional {
				dx = 0
			}
			if k >= 12 {
				dy = f.lOff
			}
			for cx, col := range g.cols {
				s.c.column(x+dx+cx, y+dy, col, on)
			}
		}
		if proportional {
			x += f.inkW(c)
		} else {
			x += f.cellW(c)
		}
	}
}

var (
	txtWhite = []byte("WHITE")
	txtBlack = []byte("BLACK")
	txtW     = []byte("W")
	txtB     = []byte("B")
)
