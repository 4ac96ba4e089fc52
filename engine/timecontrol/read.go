package timecontrol

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Reading is a control as ReadHuman understood what a person wrote.
type Reading struct {
	Pair Pair
	// Notation: the text was not a human form and was read as the
	// notation (Parse, ParsePair): 5400+30, 40/5400+30:1800+30, 300|240.
	Notation bool
	// Unitless: the first period's time was a bare number. ReadHuman
	// reads it as minutes up to MaxBareMinutes (arbiters write 90+30 for
	// 90'+30"), as seconds above (the notation's 5400+30).
	Unitless bool
	// Other is the other reading of a unitless time (90+30 as 90 s +
	// 30 s), for a confirmation to name; nil if there is none.
	Other *Pair
}

// MaxBareMinutes is the largest bare number ReadHuman reads as minutes:
// no FIDE-rated control has a first period over 3 hours.
const MaxBareMinutes = 180

// Confirm reports whether a person should confirm the reading before it
// is used: a first period written without a unit that comes to under 10
// minutes (5+3: 5 min or 5 s?) or over 2 hours (180+2: 3 hours, or the
// notation's 3 min?).
func (r Reading) Confirm() bool {
	if !r.Unitless {
		return false
	}
	t := r.Pair.White[0].Time
	return t < 10*60*secondMilli || t > 2*3600*secondMilli
}

// Unusual reports a reading a person should confirm however it was
// written: an increment of a minute or more (90'+30' is 30 minutes a
// move).
func (r Reading) Unusual() bool {
	for _, c := range []Control{r.Pair.White, r.Pair.Black} {
		for _, p := range c {
			if p.Mode == Fischer && p.Extra >= 60*secondMilli {
				return true
			}
		}
	}
	return false
}

// Words says the reading in words, for a person to check: "90 min + 30 s
// a move", "90 min for 40 moves, then 30 min, + 30 s a move".
func (r Reading) Words() string {
	if !r.Pair.White.Equal(r.Pair.Black) {
		return "White " + words(r.Pair.White) + "; Black " + words(r.Pair.Black)
	}
	return words(r.Pair.White)
}

func words(c Control) string {
	switch {
	case len(c) == 0:
		return ""
	case c.IsCountUp():
		return "counting up"
	case c.IsHourglass():
		return "hourglass, " + spoken(c[0].Time) + " each"
	}
	common := commonExtension(c)
	var b strings.Builder
	for i, p := range c {
		if i > 0 {
			b.WriteString(", then ")
		}
		b.WriteString(spoken(p.Time))
		if p.Moves > 0 {
			fmt.Fprintf(&b, " for %d moves", p.Moves)
		}
		if !common || i == len(c)-1 {
			b.WriteString(spokenExtension(p))
		}
	}
	return b.String()
}

func spokenExtension(p Period) string {
	switch p.Mode {
	case Fischer:
		if p.Extra == 0 {
			return ""
		}
		if p.From > 1 {
			return fmt.Sprintf(" + %s a move from move %d", spoken(p.Extra), p.From)
		}
		return " + " + spoken(p.Extra) + " a move"
	case Delay:
		return ", delay " + spoken(p.Extra) + " a move"
	case Bronstein:
		return ", Bronstein delay " + spoken(p.Extra) + " a move"
	case ByoYomi:
		return fmt.Sprintf(", then %d byo-yomi periods of %s", p.OvertimeCount, spoken(p.Extra))
	case Canadian:
		return fmt.Sprintf(", then %d moves in each %s", p.OvertimeCount, spoken(p.Extra))
	}
	return ""
}

// spoken says a duration in ms as arbiters say it: minutes below 3
// hours (90 min, 1 min 30 s, 30 s), hours from there (3 h 30 min).
func spoken(ms int64) string {
	s := ms / secondMilli
	if s == 0 {
		return "0 s"
	}
	var parts []string
	if s >= 3*3600 {
		parts = append(parts, strconv.FormatInt(s/3600, 10)+" h")
		s %= 3600
	}
	if m := s / 60; m > 0 {
		parts = append(parts, strconv.FormatInt(m, 10)+" min")
	}
	if s%60 != 0 {
		parts = append(parts, strconv.FormatInt(s%60, 10)+" s")
	}
	return strings.Join(parts, " ")
}

// unitWords are the words and marks ReadHuman takes for units, longest
// first so that "min" is not read as "m" + "in".
var unitWords = []struct{ word, unit string }{
	{"minutes", "'"}, {"minute", "'"}, {"mins", "'"}, {"min", "'"}, {"m", "'"}, {"′", "'"}, {"’", "'"},
	{"seconds", `"`}, {"second", `"`}, {"secs", `"`}, {"sec", `"`}, {"s", `"`}, {"″", `"`}, {"”", `"`}, {"''", `"`},
	{"hours", "h"}, {"hour", "h"}, {"h", "h"},
}

// noise are words people add that change nothing: "+ 30 s a move".
var noise = []string{"per move", "a move", "/move", "increment", "inc", "each move"}

// ReadHuman reads a control as a person writes it: the human form Human
// writes (90'+30", 90/40+30'+30", 5'+3" from 61, hourglass 1'), the same
// in words (90 min + 30 s, 1 h 30 min + 30 s a move), bare numbers as
// arbiters write them (90+30: minutes, then seconds a move; see
// MaxBareMinutes and Reading.Confirm), or else the notation (Parse,
// ParsePair). The increment is seconds when it has no unit, and is that
// of every period, as FIDE writes its classical control. Errors say what
// was not understood.
func ReadHuman(s string) (Reading, error) {
	in := strings.TrimSpace(s)
	if in == "" {
		return Reading{}, errors.New("timecontrol: no control given")
	}
	if len(in) > 200 {
		return Reading{}, fmt.Errorf("timecontrol: %q...: too long for a control", in[:40])
	}
	c, bare, err := readHuman(strings.ToLower(in))
	if err == nil {
		if err := c.Validate(); err != nil {
			return Reading{}, fmt.Errorf("%w (in %q)", err, in)
		}
		r := Reading{Pair: Same(c), Unitless: bare != unitsGiven}
		if r.Unitless {
			o := c.clone()
			if bare == bareMinutes {
				o[0].Time /= 60 // minutes were read: the other reading is seconds
			} else {
				o[0].Time *= 60
			}
			if o.Validate() == nil && o[0].Time > 0 {
				p := Same(o)
				r.Other = &p
			}
		}
		return r, nil
	}
	p, nerr := ParsePair(in)
	if nerr == nil {
		return Reading{Pair: p, Notation: true}, nil
	}
	return Reading{}, fmt.Errorf("timecontrol: %q is not a control: write it as 90'+30\", 90 min + 30 s, or the notation 5400+30 (%v)", in, err)
}

func (c Control) clone() Control { return append(Control(nil), c...) }

// How the first period's time was written.
const (
	unitsGiven = iota
	bareMinutes
	bareSeconds
)

// readHuman reads the human forms of a lower-case text; bare says how the
// first period's time was written.
func readHuman(s string) (c Control, bare int, err error) {
	switch {
	case s == "count-up" || s == "count up" || s == "^":
		return Control{{Mode: CountUp}}, 0, nil
	case strings.HasPrefix(s, "hourglass"):
		t, unitless, err := duration(strings.TrimSpace(strings.TrimPrefix(s, "hourglass")), "")
		if err != nil {
			return nil, 0, err
		}
		if unitless {
			return nil, 0, errors.New("hourglass: give the unit (hourglass 1')")
		}
		return Control{{Time: t, Mode: Hourglass}}, 0, nil
	}
	for _, n := range noise {
		s = strings.ReplaceAll(s, n, " ")
	}
	// an increment from a later move: 5'+3" from 61, or 300+3@61
	from := 0
	if i := strings.LastIndex(s, "from"); i >= 0 {
		n, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s[i+4:]), "move")))
		if err != nil || n < 2 || n > MaxMoves {
			return nil, 0, fmt.Errorf("%q: want a move number (from 61)", strings.TrimSpace(s[i:]))
		}
		s, from = s[:i], n
	} else if i := strings.LastIndex(s, "@"); i >= 0 {
		n, err := strconv.Atoi(strings.TrimSpace(s[i+1:]))
		if err != nil || n < 2 || n > MaxMoves {
			return nil, 0, fmt.Errorf("%q: want a move number (@61)", s[i:])
		}
		s, from = s[:i], n
	}
	terms := strings.Split(s, "+")
	for i := range terms {
		terms[i] = strings.TrimSpace(terms[i])
		if terms[i] == "" {
			return nil, 0, errors.New("a + with nothing on one side")
		}
	}
	// The last term is the increment when there are two or more and it
	// is in seconds or has no unit (90'+30", 90+30), or follows a period
	// without a quota (5'+1'30"); otherwise every term is a period
	// (90'/40+30', 90'/40+1'30").
	var inc int64
	hasInc := false
	if len(terms) > 1 {
		last := terms[len(terms)-1]
		seconds := !strings.ContainsAny(normalize(last), "'h")
		afterLast := !strings.Contains(terms[len(terms)-2], "/") // the term before has no quota: it was the last period
		if t, _, err := duration(last, `"`); err == nil && (seconds || afterLast) {
			inc, hasInc = t, true
			terms = terms[:len(terms)-1]
		}
	}
	if from > 0 && !hasInc {
		return nil, 0, errors.New("from: no increment to start at that move")
	}
	if len(terms) > MaxPeriods {
		return nil, 0, fmt.Errorf("%d periods, at most %d", len(terms), MaxPeriods)
	}
	for i, t := range terms {
		p := Period{Mode: SuddenDeath}
		if inc > 0 {
			p = Period{Mode: Fischer, Extra: inc, From: from}
		} else if from > 0 {
			return nil, 0, errors.New("from: an increment of 0 starts at no move")
		}
		tm, moves, found := strings.Cut(t, "/")
		if found {
			n, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(moves), "moves")))
			if err != nil || n < 1 || n > MaxMoves {
				return nil, 0, fmt.Errorf("%q: want a time and a number of moves (90'/40)", t)
			}
			p.Moves = n
		}
		d, isBare, err := duration(tm, "")
		if err != nil {
			return nil, 0, err
		}
		if isBare {
			how := bareSeconds
			if d/secondMilli <= MaxBareMinutes || p.Moves > 0 {
				d *= 60 // minutes, as arbiters write them
				how = bareMinutes
			}
			if i == 0 {
				bare = how
			}
		}
		if i < len(terms)-1 && p.Moves == 0 {
			return nil, 0, fmt.Errorf("%q: a period before the last needs its moves (90'/40)", t)
		}
		p.Time = d
		c = append(c, p)
	}
	if from > 0 && len(c) > 1 {
		return nil, 0, errors.New("from: an increment from a later move needs a single period")
	}
	return c, bare, nil
}

// normalize writes a duration's unit words as marks: "1 h 30 min" as
// "1h30'".
func normalize(s string) string {
	s = strings.ReplaceAll(s, " ", "")
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] >= '0' && s[i] <= '9' || s[i] == '\'' || s[i] == '"' {
			b.WriteByte(s[i])
			i++
			continue
		}
		matched := false
		for _, u := range unitWords {
			if strings.HasPrefix(s[i:], u.word) {
				b.WriteString(u.unit)
				i += len(u.word)
				matched = true
				break
			}
		}
		if !matched {
			b.WriteByte(s[i])
			i++
		}
	}
	return b.String()
}

// duration reads 90', 1'30", 1h30', 90 min, 30 s or a bare number (in
// seconds; bare reports it). bareUnit, when not "", is the unit a bare
// number takes ("'" or `"`), and bare is then false.
func duration(s, bareUnit string) (ms int64, bare bool, err error) {
	n := normalize(s)
	if n == "" {
		return 0, false, errors.New("no time given")
	}
	var total int64
	units := 0
	for i := 0; i < len(n); {
		j := i
		for j < len(n) && n[j] >= '0' && n[j] <= '9' {
			j++
		}
		if j == i || j-i > 6 {
			return 0, false, fmt.Errorf("%q: want a number of hours, minutes or seconds (90', 30\")", strings.TrimSpace(s))
		}
		v, _ := strconv.ParseInt(n[i:j], 10, 64)
		unit := ""
		if j < len(n) {
			unit = string(n[j])
		}
		switch unit {
		case "h":
			total += v * 3600
		case "'":
			total += v * 60
		case `"`:
			total += v
		case "":
			if units > 0 {
				// 1h30 or 1'30: the next unit down
				if n[i-1] == 'h' {
					total += v * 60
				} else {
					total += v
				}
				return total * secondMilli, false, nil
			}
			switch bareUnit {
			case "'":
				return v * 60 * secondMilli, false, nil
			case `"`:
				return v * secondMilli, false, nil
			}
			return v * secondMilli, true, nil
		default:
			return 0, false, fmt.Errorf("%q: %q is no unit (h, ' or min, \" or s)", strings.TrimSpace(s), unit)
		}
		units++
		i = j + 1
		if total > MaxSeconds {
			return 0, false, fmt.Errorf("%q: longer than %d hours", strings.TrimSpace(s), MaxSeconds/3600)
		}
	}
	return total * secondMilli, false, nil
}
