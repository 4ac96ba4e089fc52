package timecontrol

import (
	"fmt"
	"strconv"
	"strings"
)

// SyntaxError is a notation error at one character.
type SyntaxError struct {
	Input  string // the whole notation
	Column int    // 1-based column of the offending character; len+1 at the end
	Msg    string // what was found and what was expected
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("timecontrol: %q: column %d: %s", e.Input, e.Column, e.Msg)
}

type parser struct {
	s   string
	pos int
}

func (p *parser) errorf(format string, args ...any) error {
	return &SyntaxError{Input: p.s, Column: p.pos + 1, Msg: fmt.Sprintf(format, args...)}
}

// found names the character at the current position for an error message.
func (p *parser) found() string {
	if p.pos >= len(p.s) {
		return "end of text"
	}
	r := p.s[p.pos]
	if r < 0x20 || r >= 0x7f {
		return fmt.Sprintf("byte 0x%02x", r)
	}
	return fmt.Sprintf("%q", rune(r))
}

func (p *parser) peek() byte {
	if p.pos < len(p.s) {
		return p.s[p.pos]
	}
	return 0
}

// number reads a decimal number of at most max. what names it in errors.
func (p *parser) number(what string, max int) (int, error) {
	start := p.pos
	for p.pos < len(p.s) && p.s[p.pos] >= '0' && p.s[p.pos] <= '9' {
		p.pos++
	}
	if start == p.pos {
		return 0, p.errorf("unexpected %s, want %s (a whole number)", p.found(), what)
	}
	digits := p.s[start:p.pos]
	n, err := strconv.Atoi(digits)
	if err != nil || n > max {
		p.pos = start
		return 0, p.errorf("%s %s is too large, at most %d", what, digits, max)
	}
	return n, nil
}

// Parse reads the notation of one player's control.
func Parse(s string) (Control, error) {
	p := &parser{s: s}
	c, err := p.control()
	if err != nil {
		return nil, err
	}
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("%w (in %q)", err, s)
	}
	return c, nil
}

func (p *parser) control() (Control, error) {
	switch p.peek() {
	case 0:
		return nil, p.errorf("empty time control, want e.g. 300+2")
	case '?', '-':
		return nil, p.errorf("%s means an unknown or no time control in PGN; zeitnot needs a real one", p.found())
	case '*':
		p.pos++
		secs, err := p.number("hourglass seconds", MaxSeconds)
		if err != nil {
			return nil, err
		}
		if err := p.end(); err != nil {
			return nil, err
		}
		return Control{{Mode: Hourglass, Time: ms(secs)}}, nil
	case '^':
		p.pos++
		if err := p.end(); err != nil {
			return nil, err
		}
		return Control{{Mode: CountUp}}, nil
	}
	var c Control
	for {
		per, err := p.period()
		if err != nil {
			return nil, err
		}
		c = append(c, per)
		if p.peek() != ':' {
			break
		}
		if len(c) == MaxPeriods {
			return nil, p.errorf("too many periods, at most %d", MaxPeriods)
		}
		p.pos++
	}
	if err := p.end(); err != nil {
		return nil, err
	}
	return c, nil
}

func (p *parser) end() error {
	if p.pos < len(p.s) {
		return p.errorf("unexpected %s, want ':' and another period or the end", p.found())
	}
	return nil
}

func ms(secs int) int64 { return int64(secs) * secondMilli }

func (p *parser) period() (Period, error) {
	var per Period
	first, err := p.number("moves or seconds", MaxSeconds)
	if err != nil {
		return per, err
	}
	secs := first
	if p.peek() == '/' {
		if first == 0 || first > MaxMoves {
			return per, p.errorf("a move quota must be from 1 to %d, got %d", MaxMoves, first)
		}
		per.Moves = first
		p.pos++
		if secs, err = p.number("seconds", MaxSeconds); err != nil {
			return per, err
		}
	}
	per.Time = ms(secs)
	switch c := p.peek(); c {
	case '+', 'd', 'b':
		p.pos++
		extra, err := p.number(map[byte]string{'+': "increment seconds", 'd': "delay seconds", 'b': "Bronstein delay seconds"}[c], MaxExtra)
		if err != nil {
			return per, err
		}
		if p.peek() == '@' {
			if c != '+' {
				return per, p.errorf("unexpected '@': only a Fischer increment (+I) starts from a later move")
			}
			p.pos++
			start := p.pos
			from, err := p.number("the increment's first move", MaxMoves)
			if err != nil {
				return per, err
			}
			if from == 0 {
				p.pos = start
				return per, p.errorf("the increment's first move must be from 1 to %d, got 0", MaxMoves)
			}
			if from > 1 {
				per.From = from // @1 is every move, From 0
			}
		}
		if extra > 0 {
			per.Mode = map[byte]Mode{'+': Fischer, 'd': Delay, 'b': Bronstein}[c]
			per.Extra = ms(extra)
		} else {
			per.From = 0 // no increment: plain sudden death
		}
	case '~':
		p.pos++
		n, err := p.number("overtime count", MaxMoves)
		if err != nil {
			return per, err
		}
		switch p.peek() {
		case 'x':
			per.Mode = ByoYomi
		case '/':
			per.Mode = Canadian
		default:
			return per, p.errorf("unexpected %s, want 'x' (byo-yomi periods) or '/' (Canadian moves)", p.found())
		}
		p.pos++
		t, err := p.number("overtime seconds", MaxExtra)
		if err != nil {
			return per, err
		}
		per.OvertimeCount, per.Extra = n, ms(t)
	case 0, ':':
	default:
		return per, p.errorf("unexpected %s, want '+' (increment), 'd' (delay), 'b' (Bronstein), '~' (overtime), ':' or the end", p.found())
	}
	return per, nil
}

// Format writes c in canonical notation. It formats any Control, valid or
// not; only a valid one is sure to parse back.
func Format(c Control) string {
	if len(c) == 1 {
		switch c[0].Mode {
		case Hourglass:
			return "*" + secs(c[0].Time)
		case CountUp:
			return "^"
		}
	}
	var b strings.Builder
	for i, p := range c {
		if i > 0 {
			b.WriteByte(':')
		}
		if p.Moves > 0 {
			b.WriteString(strconv.Itoa(p.Moves))
			b.WriteByte('/')
		}
		b.WriteString(secs(p.Time))
		switch p.Mode {
		case Fischer:
			b.WriteString("+" + secs(p.Extra))
			if p.From > 1 {
				b.WriteString("@" + strconv.Itoa(p.From))
			}
		case Delay:
			b.WriteString("d" + secs(p.Extra))
		case Bronstein:
			b.WriteString("b" + secs(p.Extra))
		case ByoYomi:
			b.WriteString("~" + strconv.Itoa(p.OvertimeCount) + "x" + secs(p.Extra))
		case Canadian:
			b.WriteString("~" + strconv.Itoa(p.OvertimeCount) + "/" + secs(p.Extra))
		}
	}
	return b.String()
}

func secs(ms int64) string { return strconv.FormatInt(ms/secondMilli, 10) }

// ParsePair reads "SPEC" (both players) or "WHITE|BLACK".
func ParsePair(s string) (Pair, error) {
	w, b, split := strings.Cut(s, "|")
	white, err := Parse(w)
	if err != nil {
		return Pair{}, fmt.Errorf("white: %w", err)
	}
	if !split {
		pr := Same(white)
		return pr, pr.Validate()
	}
	black, err := Parse(b)
	if err != nil {
		var se *SyntaxError
		if asSyntax(err, &se) {
			se.Input = s
			se.Column += len(w) + 1
		}
		return Pair{}, fmt.Errorf("black: %w", err)
	}
	pr := Pair{White: white, Black: black}
	return pr, pr.Validate()
}

func asSyntax(err error, se **SyntaxError) bool {
	s, ok := err.(*SyntaxError)
	if ok {
		*se = s
	}
	return ok
}

// FormatPair writes a pair: one spec when both players have the same
// control, else WHITE|BLACK.
func FormatPair(p Pair) string {
	if p.White.Equal(p.Black) {
		return Format(p.White)
	}
	return Format(p.White) + "|" + Format(p.Black)
}

// FormatPGN writes p as the PGN standard's TimeControl tag (section
// 9.6.1) where the standard has a form for it: "40/5400+30:1800+30",
// "180+2", "300", "*60" (sandclock, zeitnot's hourglass) and "-" (no
// control: count-up). Where it has none it writes "?": a delay
// (5400d5), a Bronstein delay (300b5), overtime (60~3x10, 60~5/30), an
// increment from a later move (300+2@61), and players with different
// controls (300|240), for the tag has no per-side form. The exact
// control is Format's or FormatPair's notation.
func FormatPGN(p Pair) string {
	if !p.White.Equal(p.Black) {
		return "?"
	}
	c := p.White
	if len(c) == 1 && c[0].Mode == CountUp {
		return "-"
	}
	for _, per := range c {
		switch {
		case per.Mode == Hourglass && len(c) == 1:
		case per.Mode == SuddenDeath, per.Mode == Fischer && per.From <= 1:
		default:
			return "?"
		}
	}
	return Format(c)
}
