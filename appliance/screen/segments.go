package screen

// 7-segment displays: the layouts behind TextScreen with kind Segments.

import (
	"strings"

	"github.com/zeitnot/zeitnot/drivers/display/sevenseg"
)

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
//	mm:ss   below an hour (a blank for a leading zero), and from one
//	        hour with seconds set: the minutes and seconds of the hour
//	ss.t    below tenthsBelow and below a minute, the fourth digit blank
//
// The colon, or the point of ss.t, follows the second digit: where a
// 4-digit clock module has its colon (wired as that digit's point; it has
// no other point).
func time4(ms, tenthsBelow int64, countUp, seconds bool) [4]segCell {
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
		// The point where the colon is: 4-digit clock modules wire the
		// colon to the second digit's point and no other point.
		c = [4]segCell{lead(sec / 10), d(sec), d(ms / 100), {c: ' '}}
		c[1].dp = true
	case h > 0 && seconds:
		c = [4]segCell{d(m / 10), d(m), d(sec / 10), d(sec)}
		c[1].colon = true
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

// runMark is the running side's mark in a blank first digit: segment D,
// a bar along the bottom, which no digit or sign is made of alone.
const runMark = '_'

// side4 is one player on four digits: the time, or the flag's segAlone
// form (FLAG, FL 2) once the flag fell with nothing left. The running
// side lights the last point and puts the bar of runMark in a blank digit
// (the last in ss.t, else the first): 4-digit TM1637 clock modules wire
// no point but the colon, the bar is what they show. A flag that fell
// before time was added lights the first point.
func side4(p, o *Player, g *Game) [4]segCell {
	var c [4]segCell
	if p.Flag && !p.CountUp && p.Ms <= 0 {
		var buf [1]word
		if w := statusWords(buf[:0], flagWords, p, o, g); len(w) > 0 {
			copy(c[:], textCells(w[0].form().segAlone, 4))
			return c
		}
	}
	c = time4(p.Ms, g.TenthsBelow, p.CountUp, p.Seconds)
	if p.Flag {
		c[0].dp = true
	}
	if p.Running {
		c[3].dp = true
		switch {
		case c[3].c == ' ':
			c[3].c = runMark // ss.t
		case c[0].c == ' ':
			c[0].c = runMark
		}
	}
	return c
}

func (s *TextScreen) segments(v *View) segLine {
	l := newSegLine(s.cols)
	n := s.cols
	switch v.Kind {
	case KindMenu:
		s.segMenu(&l, &v.Menu)
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
// full time and before it the first status word whose segment form fits,
// else four digits.
func (s *TextScreen) segSide(l *segLine, p, o *Player, g *Game) {
	n := l.n
	if n < 6 {
		c := side4(p, o, g)
		cells := c[:]
		if n < 4 && (c[3].c == ' ' || c[3].c == runMark) {
			// ss.t on fewer digits: the blank (or the bar) goes.
			cells = c[:3]
			cells[2].dp = cells[2].dp || c[3].dp
		}
		l.put(n-len(cells), cells)
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
	var buf [numWordKinds]word
	for _, w := range statusWords(buf[:0], allWords, p, o, g) {
		text := w.seg()
		if text == "" || len(text) > room {
			continue
		}
		c := textCells(text, room)
		l.put(room-len(c), c)
		break
	}
}
