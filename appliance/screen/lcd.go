package screen

// Character LCDs: the layouts behind TextScreen with kind Characters.

import (
	"strings"
	"unicode/utf8"
)

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
// order, each in its long form if long is set and it fits, else in its
// short form, skipping any that would not fit. Counters always take the
// short form: on a one-player LCD the running side's bar needs the room.
func fitWords(width int, words []word, long bool) string {
	var b strings.Builder
	n := 0
	fits := func(text string) bool {
		need := runes(text)
		if n > 0 {
			need++
		}
		return text != "" && n+need <= width
	}
	for _, w := range words {
		text := ""
		if long && !w.form().counter {
			text = w.long()
		}
		if !fits(text) {
			text = w.short()
		}
		if !fits(text) {
			continue
		}
		if n > 0 {
			b.WriteByte(' ')
			n++
		}
		b.WriteString(text)
		n += runes(text)
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

// lcdSide: one player on the whole LCD. Line 1: colour, time, move count.
// Line 2: the status words, long where they fit, and on the running side
// a bar of '='.
func (s *TextScreen) lcdSide(lines []lcdLine, p, o *Player, g *Game) {
	l := lines[0]
	x := l.at(0, colourLetter(p)+" "+FormatTime(p.Ms, g.TenthsBelow, p.CountUp))
	var buf [numWordKinds]word
	for _, w := range statusWords(buf[:0], 1<<wordMoves, p, o, g) {
		if m := w.short(); x+1+runes(m) <= s.cols {
			l.right(s.cols, m)
		}
	}
	if len(lines) < 2 {
		return
	}
	words := fitWords(s.cols, statusWords(buf[:0], allWords&^(1<<wordMoves), p, o, g), true)
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
// and each side's words in short form, or the game's words (the banner,
// PAUSED) in the middle.
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
	var buf [numWordKinds]word
	if game := statusWords(buf[:0], gameWords, &g.Left, &g.Right, g); len(game) > 0 {
		w := fitWords(s.cols-4, game, true)
		l2.at((s.cols-runes(w))/2, w)
		return
	}
	side := func(p, o *Player) string {
		return fitWords(half-3, statusWords(buf[:0], sideWords|counterWords, p, o, g), false)
	}
	l2.at(2, side(&g.Left, &g.Right))
	l2.right(s.cols-2, side(&g.Right, &g.Left))
}

// lcdMenu: the title, then the cursor item after '>' and the items after
// it; while editing the field is bracketed. A page without a cursor (each
// item picked by its own button) lists its items from the first, without
// the '>'. On the Right role: the cursor item, then the hint.
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
		if k == cur && m.Cursor >= 0 {
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
	if len(lines) > 1 && cur >= 0 && m.Cursor >= 0 && !m.Editing && runes(item(cur)) > s.cols {
		// An item too long for its line ("Time of day 18:30 NTP") takes
		// the title's line too, its name over its value (as segment
		// displays cut it): "> Time of day" over "  18:30 NTP".
		for i, part := range s.nameOverValue(m.Items[cur], s.cols-2) {
			if i >= len(lines) {
				break
			}
			mark := "  "
			if i == 0 {
				mark = "> "
			}
			lines[i].at(0, mark+part)
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

// nameOverValue cuts item before the first word of its value (a number, a
// time, a state: isValue) when both parts fit in cols, else wraps it.
func (s *TextScreen) nameOverValue(item string, cols int) []string {
	words := strings.Fields(item)
	for k := 1; k < len(words); k++ {
		if isValue(words[k]) {
			name, value := strings.Join(words[:k], " "), strings.Join(words[k:], " ")
			if runes(name) <= cols && runes(value) <= cols {
				return []string{name, value}
			}
			break
		}
	}
	return s.wrapTo(item, cols)
}

// wrap breaks text into lines of at most cols runes, at spaces where it
// can.
func (s *TextScreen) wrap(text string) []string { return s.wrapTo(text, s.cols) }

// wrapTo breaks text into lines of at most cols runes, at spaces where it
// can.
func (s *TextScreen) wrapTo(text string, cols int) []string {
	cols = max(cols, 1)
	var out []string
	words := strings.Fields(text)
	cur := ""
	for _, w := range words {
		for runes(w) > cols {
			if cur != "" {
				out = append(out, cur)
				cur = ""
			}
			r := []rune(w)
			out = append(out, string(r[:cols]))
			w = string(r[cols:])
		}
		switch {
		case cur == "":
			cur = w
		case runes(cur)+1+runes(w) <= cols:
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
