package timecontrol

import (
	"strconv"
	"strings"
)

// Human writes c as arbiters write controls on a pairing sheet, short
// enough for a display line: minutes marked ', seconds marked ", periods
// joined by + and a move quota after a slash:
//
//	40/5400+30:1800+30   90/40+30'+30"       (the increment of every period, once)
//	40/7200:20/3600:900+30 120/40+60/20+15'+30"
//	900+10               15'+10"
//	300+3@61             5'+3" from 61          (increment from move 61)
//	5400d5               90' d5"             (simple delay)
//	1500b5               25' b5"             (Bronstein)
//	3600~5x30            60'+5x30"           (byo-yomi)
//	1800~20/300          30'+20/5'           (Canadian overtime)
//	*60                  hourglass 1'
//	^                    count-up
//
// A last period with a quota repeats, as in the notation. Human is for
// people only: Format is the notation that Parse reads back.
func Human(c Control) string {
	switch {
	case len(c) == 0:
		return ""
	case c.IsCountUp():
		return "count-up"
	case c.IsHourglass():
		return "hourglass " + human(c[0].Time)
	}
	// One increment or delay common to every period is written once at
	// the end, as FIDE writes its classical control.
	common := len(c) > 1 && commonExtension(c)
	var b strings.Builder
	for i, p := range c {
		if i > 0 {
			b.WriteByte('+')
		}
		if p.Moves > 0 {
			b.WriteString(minutes(p.Time))
			b.WriteByte('/')
			b.WriteString(strconv.Itoa(p.Moves))
		} else {
			b.WriteString(human(p.Time))
		}
		if !common || i == len(c)-1 {
			b.WriteString(extension(p))
		}
	}
	return b.String()
}

// HumanPair is Human for both players, "WWHITE BBLACK" when they differ:
// W5' B4'. (Not the notation's "|": on a 5x7 display "5'|4'" reads as
// "5'l4'".) Different times with one increment from a later move, as FIDE
// Armageddon, are written with the increment once, for both: W5' B4' +2"
// from 61.
func HumanPair(p Pair) string {
	if p.White.Equal(p.Black) {
		return Human(p.White)
	}
	if w, b := p.White, p.Black; len(w) == 1 && len(b) == 1 && w[0].Moves == 0 && b[0].Moves == 0 &&
		w[0].Mode == Fischer && b[0].Mode == Fischer && w[0].From > 1 && w[0].From == b[0].From && w[0].Extra == b[0].Extra {
		return "W" + human(w[0].Time) + " B" + human(b[0].Time) + " " + extension(w[0])
	}
	return "W" + Human(p.White) + " B" + Human(p.Black)
}

// commonExtension reports whether every period of c has the first's
// increment or delay (and no overtime), to be written once at the end.
func commonExtension(c Control) bool {
	for _, p := range c[1:] {
		if p.Mode != c[0].Mode || p.Extra != c[0].Extra || p.From != c[0].From || p.OvertimeCount != 0 {
			return false
		}
	}
	return true
}

func extension(p Period) string {
	switch p.Mode {
	case Fischer:
		if p.From > 1 {
			return "+" + human(p.Extra) + " from " + strconv.Itoa(p.From)
		}
		return "+" + human(p.Extra)
	case Delay:
		return " d" + human(p.Extra)
	case Bronstein:
		return " b" + human(p.Extra)
	case ByoYomi:
		return "+" + strconv.Itoa(p.OvertimeCount) + "x" + human(p.Extra)
	case Canadian:
		return "+" + strconv.Itoa(p.OvertimeCount) + "/" + human(p.Extra)
	}
	return ""
}

// human writes a duration in ms as minutes (90'), seconds (30") or both
// (1'30").
func human(ms int64) string {
	s := ms / 1000
	switch {
	case s%60 == 0 && s > 0:
		return strconv.FormatInt(s/60, 10) + "'"
	case s < 60:
		return strconv.FormatInt(s, 10) + `"`
	}
	return strconv.FormatInt(s/60, 10) + "'" + strconv.FormatInt(s%60, 10) + `"`
}

// minutes writes a quota period's time as FIDE does, in bare minutes
// (90/40), or as human when it is not a whole number of minutes.
func minutes(ms int64) string {
	if s := ms / 1000; s%60 == 0 && s > 0 {
		return strconv.FormatInt(s/60, 10)
	}
	return human(ms)
}
