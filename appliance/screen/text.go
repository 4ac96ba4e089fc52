package screen

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/zeitnot/zeitnot/drivers/display/sevenseg"
)

// TextKind is the family of a text display.
type TextKind uint8

const (
	// Segments is a 7-segment display (TM1637, MAX7219, HT16K33): a ':'
	// lights the colon after the digit before it and a '.' that digit's
	// point; neither takes a digit.
	Segments TextKind = iota
	// Characters is a character LCD (HD44780): every character takes a
	// cell.
	Characters
)

// TextScreen turns Views into the text a display.Text shows. The mapping
// for each family is tabled in README.md.
type TextScreen struct {
	kind        TextKind
	cols, lines int
	role        Role
}

// NewTextScreen returns a screen for a text display of kind, cols cells by
// lines lines (as display.Text's Size reports), in role. Sizes are clamped
// to [1, 16] cells for segments (one line) and [1, 80] x [1, 8] for LCDs;
// an unknown role is taken as Both.
func NewTextScreen(kind TextKind, cols, lines int, role Role) *TextScreen {
	if role > Both {
		role = Both
	}
	s := &TextScreen{kind: kind, role: role}
	if kind == Segments {
		s.cols, s.lines = max(1, min(cols, sevenseg.MaxCells)), 1
	} else {
		s.kind = Characters
		s.cols, s.lines = max(1, min(cols, 80)), max(1, min(lines, 8))
	}
	return s
}

// Render returns what the display shows for v: for segments exactly cols
// digits (':' and '.' taking none), for an LCD lines lines of exactly cols
// characters joined by '\n'. A nil View is blank.
func (s *TextScreen) Render(v *View) string {
	if v == nil {
		v = &View{Kind: KindMessage}
	}
	if s.kind == Segments {
		l := s.segments(v)
		return l.String()
	}
	return s.lcd(v)
}

// --- 7-segment displays ---

// segCell is one digit: its character, its decimal point and whether a
// colon follows it.
type segCell struct {
	c         byte
	dp, colon bool
}

// segLine is a line of digits.
type segLine struct {
	cells [sevenseg.MaxCells]segCell
	n     int
}

func newSegLine(n int) segLine {
	l := segLine{n: n}
	for i := range l.cells {
		l.cells[i].c = ' '
	}
	return l
}

// String writes the line the way display.Text wants it: each digit, then
// '.' for its point and ':' for a colon after it.
func (l *segLine) String() string {
	var b strings.Builder
	for i := 0; i < l.n; i++ {
		c := l.cells[i]
		b.WriteByte(c.c)
		if c.dp {
			b.WriteByte('.')
		}
		if c.colon && i < l.n-1 {
			b.WriteByte(':')
		}
	}
	return b.String()
}

// put copies cells into the line from digit at on, dropping what does not
// fit.
func (l *segLine) put(at int, cells []segCell) {
	for i, c := range cells {
		if at+i >= 0 && at+i < l.n {
			l.cells[at+i] = c
		}
	}
}

// textCells lays out text as digits, the way sevenseg.Parse does, with
// runs of spaces squeezed to one and characters a digit cannot show
// blank; at most n digits.
func textCells(text string, n int) []segCell {
	var out []segCell
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == ':':
			if len(out) > 0 {
				out[len(out)-1].colon = true
			}
			continue
		case c == '.':
			if len(out) > 0 && !out[len(out)-1].dp {
				out[len(out)-1].dp = true
				continue
			}
			c = ' '
			out = append(out, segCell{c: ' ', dp: true})
			continue
		case c >= 0x80 || c < ' ' || (c != ' ' && sevenseg.Glyph(rune(c)) == 0):
			c = ' '
		}
		if c == ' ' && (len(out) == 0 || out[len(out)-1].c == ' ' && !out[len(out)-1].dp) {
			continue
		}
		out = append(out, segCell{c: c})
	}
	for len(out) > 0 && out[len(out)-1].c == ' ' && !out[len(out)-1].dp {
		out = out[:len(out)-1]
	}
	if len(out) > n {
		out = out[:n]
	}
	if len(out) > 0 {
		out[len(out)-1].colon = false
	}
	return out
}

// time4 is a time on four digits:
//
//	h:mm    from one hour (hh:mm from ten hours, 99:59 at most)
//	mm:ss   below an hour (a blank for a leading zero)
//	ss.t    below tenthsBelow and below a minute
//
// The colon, where there is one, follows the second digit.
func time4(ms, tenthsBelow int64, countUp bool) [4]segCell {
	ms = max(ms, 0)
	tenths := !countUp && ms < tenthsBelow && ms <= 59900
	unit := int64(1000)
	if tenths {
		unit = 100
	}
	if !countUp {
		ms = (ms + unit - 1) / unit * unit
	}
	d := func(n int64) segCell { return segCell{c: byte('0' + n%10)} }
	lead := func(n int64) segCell {
		if n == 0 {
			return segCell{c: ' '}
		}
		return d(n)
	}
	var c [4]segCell
	h, m, sec := ms/3600000, ms/60000%60, ms/1000%60
	switch {
	case tenths:
		c = [4]segCell{{c: ' '}, lead(sec / 10), d(sec), d(ms / 100)}
		c[2].dp = true
	case h > 0:
		if h > 99 {
			h, m = 99, 59
		}
		c = [4]segCell{lead(h / 10), d(h), d(m / 10), d(m)}
		c[1].colon = true
	default:
		c = [4]segCell{lead(m / 10), d(m), d(sec / 10), d(sec)}
		c[1].colon = true
	}
	return c
}

var (
	segFlag  = textCells("FLAG", 4)
	segFlag2 = textCells("FL 2", 4)
)

// side4 is one player on four digits: the time, or FLAG / FL 2 once the
// flag fell with nothing left; the running side lights the last point, a
// flag that fell before time was added the first point.
func side4(p, o *Player, g *Game) [4]segCell {
	var c [4]segCell
	if p.Flag && !p.CountUp && p.Ms <= 0 {
		flag := segFlag
		if !p.FirstFlag {
			flag = segFlag2
		}
		copy(c[:], flag)
		return c
	}
	c = time4(p.Ms, g.TenthsBelow, p.CountUp)
	if p.Flag {
		c[0].dp = true
	}
	if p.Running {
		c[3].dp = true
	}
	return c
}

// flagWord is the short word for p's fallen flag: FL when only p's fell,
// F1 and F2 when both did.
func flagWord(p, o *Player) string {
	switch {
	case !p.Flag:
		return ""
	case !p.FirstFlag:
		return "F2"
	case o.Flag:
		return "F1"
	}
	return "FL"
}

func (s *TextScreen) segments(v *View) segLine {
	l := newSegLine(s.cols)
	n := s.cols
	switch v.Kind {
	case KindMenu:
		m := &v.Menu
		cur := clampCursor(m)
		if cur < 0 {
			l.put(0, textCells(m.Title, n))
			return l
		}
		item := m.Items[cur]
		a, b := clampField(m.Field, len(item))
		field := m.Editing && a < b
		switch {
		case s.role == Right && !field:
			pos := strconv.Itoa(cur+1) + "-" + strconv.Itoa(len(m.Items))
			cells := textCells(pos, n)
			l.put(n-len(cells), cells)
		case s.role != Right && field:
			cells := textCells(item[a:b], n)
			l.put(n-len(cells), cells)
		default:
			l.put(0, textCells(item, n))
		}
		return l
	case KindMessage:
		if len(v.Message) == 0 {
			return l
		}
		msg := v.Message[0]
		if s.role == Right && len(v.Message) > 1 {
			msg = v.Message[1]
		}
		l.put(0, textCells(msg, n))
		return l
	}
	g := &v.Game
	switch {
	case s.role == Both && n >= 8:
		half := n / 2
		left, right := side4(&g.Left, &g.Right, g), side4(&g.Right, &g.Left, g)
		l.put(half-4, left[:])
		l.put(n-4, right[:])
	case s.role == Both:
		p, o := &g.Left, &g.Right
		if !p.ToMove && o.ToMove {
			p, o = o, p
		}
		s.segSide(&l, p, o, g)
	case s.role == Right:
		s.segSide(&l, &g.Right, &g.Left, g)
	default:
		s.segSide(&l, &g.Left, &g.Right, g)
	}
	return l
}

// segSide lays out one player on the whole line: on six digits or more the
// full time with a word before it, else four digits.
func (s *TextScreen) segSide(l *segLine, p, o *Player, g *Game) {
	n := l.n
	if n < 6 {
		c := side4(p, o, g)
		l.put(n-4, c[:])
		return
	}
	t := textCells(FormatTime(p.Ms, g.TenthsBelow, p.CountUp), n)
	if len(t) > n-1 {
		c := side4(p, o, g)
		l.put(n-4, c[:])
		return
	}
	if p.Running {
		t[len(t)-1].dp = true
	}
	l.put(n-len(t), t)
	room := n - len(t) - 1
	var words [7]string
	k := 0
	words[k], k = flagWord(p, o), k+1
	if g.Paused {
		words[k], k = "PA", k+1
	}
	if p.Delay && p.ToMove {
		words[k], k = "d"+strconv.FormatInt((max(p.DelayMs, 0)+999)/1000, 10), k+1
	}
	if p.Overtime {
		words[k], k = "o"+strconv.Itoa(p.OTLeft), k+1
	}
	if p.Overstep {
		words[k], k = "oP", k+1
	}
	if p.ShowMoves {
		words[k], k = strconv.Itoa(p.Moves), k+1
	}
	if p.Periods {
		words[k], k = "P"+strconv.Itoa(p.Period), k+1
	}
	for _, w := range words[:k] {
		if w == "" || len(w) > room {
			continue
		}
		c := textCells(w, room)
		l.put(room-len(c), c)
		break
	}
}

// --- character LCDs ---

// lcdLine is one line of an LCD, exactly cols runes.
type lcdLine []rune

func (s *TextScreen) newLine() lcdLine {
	l := make(lcdLine, s.cols)
	for i := range l {
		l[i] = ' '
	}
	return l
}

// at writes text from column x, cut at the end of the line; it returns the
// column after it.
func (l lcdLine) at(x int, text string) int {
	for _, r := range text {
		if x >= 0 && x < len(l) {
			if r < ' ' || r == utf8.RuneError {
				r = ' '
			}
			l[x] = r
		}
		x++
	}
	return x
}

// right writes text so that it ends at column end (exclusive).
func (l lcdLine) right(end int, text string) {
	l.at(end-utf8.RuneCountInString(text), text)
}

func runes(s string) int { return utf8.RuneCountInString(s) }

// fitWords joins words with single spaces while they fit in width, in
// order, skipping any that would not.
func fitWords(width int, words ...string) string {
	var b strings.Builder
	n := 0
	for _, w := range words {
		if w == "" {
			continue
		}
		need := runes(w)
		if n > 0 {
			need++
		}
		if n+need > width {
			continue
		}
		if n > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w)
		n += need
	}
	return b.String()
}

func (s *TextScreen) lcd(v *View) string {
	lines := make([]lcdLine, s.lines)
	for i := range lines {
		lines[i] = s.newLine()
	}
	switch v.Kind {
	case KindMenu:
		s.lcdMenu(lines, &v.Menu)
	case KindMessage:
		s.lcdMessage(lines, v.Message)
	default:
		if s.role == Both {
			s.lcdBoth(lines, &v.Game)
		} else if s.role == Right {
			s.lcdSide(lines, &v.Game.Right, &v.Game.Left, &v.Game)
		} else {
			s.lcdSide(lines, &v.Game.Left, &v.Game.Right, &v.Game)
		}
	}
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(string(l))
	}
	return b.String()
}

func colourLetter(p *Player) string {
	if p.White {
		return "W"
	}
	return "B"
}

func lcdFlag(p, o *Player, long bool) string {
	switch {
	case !p.Flag:
		return ""
	case !p.FirstFlag && long:
		return "FLAG 2ND"
	case !p.FirstFlag:
		return "FLG2"
	case o.Flag && long:
		return "FLAG 1ST"
	case o.Flag:
		return "FLG1"
	}
	return "FLAG"
}

func secs(ms int64) string { return strconv.FormatInt((max(ms, 0)+999)/1000, 10) }

// lcdSide: one player on the whole LCD. Line 1: colour, time, move count.
// Line 2: the state in words, and on the running side a bar of '='.
func (s *TextScreen) lcdSide(lines []lcdLine, p, o *Player, g *Game) {
	l := lines[0]
	x := l.at(0, colourLetter(p)+" "+FormatTime(p.Ms, g.TenthsBelow, p.CountUp))
	if p.ShowMoves {
		m := "M" + strconv.Itoa(p.Moves)
		if x+1+runes(m) <= s.cols {
			l.right(s.cols, m)
		}
	}
	if len(lines) < 2 {
		return
	}
	var delay, ot, period string
	if p.Delay && p.ToMove {
		delay = "DELAY " + secs(p.DelayMs)
	}
	if p.Overtime {
		ot = "OT " + strconv.Itoa(p.OTLeft)
	}
	if p.Periods {
		period = "P" + strconv.Itoa(p.Period)
	}
	paused := ""
	if g.Paused {
		paused = "PAUSED"
	}
	overstep := ""
	if p.Overstep {
		overstep = "OVERSTEP"
	}
	words := fitWords(s.cols, lcdFlag(p, o, true), g.Banner, paused, delay, ot, overstep, period)
	x = lines[1].at(0, words)
	if p.Running {
		if x > 0 {
			x++
		}
		lines[1].at(x, strings.Repeat("=", max(s.cols-x, 0)))
	}
}

// lcdBoth: both players on one LCD. Line 1: the two times, an arrow
// beside the running one pointing at it. Line 2: the colours at the ends
// and each side's state, or the banner and PAUSED in the middle.
func (s *TextScreen) lcdBoth(lines []lcdLine, g *Game) {
	half := s.cols / 2
	l := lines[0]
	l.right(half-1, FormatTime(g.Left.Ms, g.TenthsBelow, g.Left.CountUp))
	l.right(s.cols, FormatTime(g.Right.Ms, g.TenthsBelow, g.Right.CountUp))
	if g.Left.Running {
		l.at(half-1, "<")
	}
	if g.Right.Running {
		l.at(half, ">")
	}
	if len(lines) < 2 {
		return
	}
	l2 := lines[1]
	l2.at(0, colourLetter(&g.Left))
	l2.right(s.cols, colourLetter(&g.Right))
	if g.Banner != "" || g.Paused {
		paused := ""
		if g.Paused {
			paused = "PAUSED"
		}
		w := fitWords(s.cols-4, g.Banner, paused)
		l2.at((s.cols-runes(w))/2, w)
		return
	}
	side := func(p, o *Player) string {
		var delay, ot, over, moves, period string
		if p.Delay && p.ToMove {
			delay = "D" + secs(p.DelayMs)
		}
		if p.Overtime {
			ot = "OT" + strconv.Itoa(p.OTLeft)
		}
		if p.Overstep {
			over = "OS"
		}
		if p.ShowMoves {
			moves = "M" + strconv.Itoa(p.Moves)
		}
		if p.Periods {
			period = "P" + strconv.Itoa(p.Period)
		}
		return fitWords(half-3, lcdFlag(p, o, false), delay, ot, over, moves, period)
	}
	l2.at(2, side(&g.Left, &g.Right))
	l2.right(s.cols-2, side(&g.Right, &g.Left))
}

// lcdMenu: the title, then the cursor item after '>' and the items after
// it; while editing the field is bracketed. On the Right role: the cursor
// item, then the hint.
func (s *TextScreen) lcdMenu(lines []lcdLine, m *Menu) {
	cur := clampCursor(m)
	item := func(k int) string {
		it := m.Items[k]
		if k == cur && m.Editing {
			if a, b := clampField(m.Field, len(it)); a < b {
				it = it[:a] + "[" + it[a:b] + "]" + it[b:]
			}
		}
		mark := "  "
		if k == cur {
			mark = "> "
		}
		return mark + it
	}
	if s.role == Right {
		if cur >= 0 {
			lines[0].at(0, item(cur))
		}
		for i, h := range s.wrap(m.Hint) {
			if i+1 < len(lines) {
				lines[i+1].at(0, h)
			}
		}
		return
	}
	row := 0
	if len(lines) > 1 {
		lines[0].at(0, m.Title)
		row = 1
	}
	for k := cur; k >= 0 && k < len(m.Items) && row < len(lines); k++ {
		lines[row].at(0, item(k))
		row++
	}
}

func (s *TextScreen) lcdMessage(lines []lcdLine, msg []string) {
	row := 0
	for _, m := range msg {
		for _, w := range s.wrap(m) {
			if row >= len(lines) {
				return
			}
			lines[row].at(0, w)
			row++
		}
	}
}

// wrap breaks text into lines of at most cols runes, at spaces where it
// can.
func (s *TextScreen) wrap(text string) []string {
	var out []string
	words := strings.Fields(text)
	cur := ""
	for _, w := range words {
		for runes(w) > s.cols {
			if cur != "" {
				out = append(out, cur)
				cur = ""
			}
			r := []rune(w)
			out = append(out, string(r[:s.cols]))
			w = string(r[s.cols:])
		}
		switch {
		case cur == "":
			cur = w
		case runes(cur)+1+runes(w) <= s.cols:
			cur += " " + w
		default:
			out = append(out, cur)
			cur = w
		}
	}
	if cur != "" {
		out = append(out, cur)
	}
	return out
}
