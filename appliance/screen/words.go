package screen

import "strconv"

// The status words: what the game screen says beside a time, on every
// display family. There is one list, in order of importance (README.md,
// "Status words", gives the reasons):
//
//	flag, overstep, default, banner, paused, delay, overtime, moves, period
//
// Every renderer takes the words it has room for from statusWords, in that
// order, and writes them in the forms below: a pixel panel shortens the
// least important first and then leaves them out, an LCD line writes those
// that fit, a segment display the first that fits. The player's colour is
// not a status word: each layout has its own place for it.

// wordKind is a status word; the constants are in order of importance.
type wordKind uint8

const (
	wordFlag     wordKind = iota // the flag fell, the other did not
	wordFlag1st                  // both fell, this one first
	wordFlag2nd                  // both fell, this one second
	wordOverstep                 // entered a period short of its move quota
	wordDefault                  // no move made when the default time passed (FIDE 6.6)
	wordBanner                   // Game.Banner: RECOVERED, LOCKED, a warning...
	wordPaused                   // the clocks are paused
	wordDelay                    // seconds of delay still to come
	wordOvertime                 // byo-yomi periods or Canadian moves left
	wordMoves                    // moves made
	wordPeriod                   // the period being played
	numWordKinds
)

// wordForm is how one word is written. A numbered word is its form followed
// by the number ("DELAY " 5, "D" 5, "d" 5).
type wordForm struct {
	long  string // where there is room: a pixel status line, a one-player LCD
	short string // on a crowded line: a pixel header, a two-player LCD

	// seg comes before the time on a segment display (2 or 3 digits, in
	// letters a 7-segment digit can show); "" for a word segments do not
	// show. segAlone replaces the time on 4 digits (fallen flags).
	seg, segAlone string

	// Pixel panels draw icon before the long form; where shortIcon is set
	// their short form is shortIcon and mark instead of short.
	icon, shortIcon icon
	mark            string

	numbered bool
	counter  bool // a count: right-aligned in a pixel header, short on an LCD
}

var wordForms = [numWordKinds]wordForm{
	wordFlag:     {long: "FLAG", short: "FLAG", seg: "FL", segAlone: "FLAG", icon: iconFlag, shortIcon: iconFlag},
	wordFlag1st:  {long: "FLAG 1ST", short: "FLG1", seg: "F1", segAlone: "FLAG", icon: iconFlag, shortIcon: iconFlag, mark: "1ST"},
	wordFlag2nd:  {long: "FLAG 2ND", short: "FLG2", seg: "F2", segAlone: "FL 2", icon: iconFlagHollow, shortIcon: iconFlagHollow, mark: "2ND"},
	wordOverstep: {long: "OVERSTEP", short: "OS", seg: "oP"},
	wordDefault:  {long: "DEFAULT", short: "DEF", seg: "dF"},
	wordBanner:   {}, // the banner's own text, in reverse video on pixel panels; not on segments
	wordPaused:   {long: "PAUSED", short: "PAUSED", seg: "PA", shortIcon: iconPause},
	wordDelay:    {long: "DELAY ", short: "D", seg: "d", numbered: true},
	wordOvertime: {long: "OVERTIME ", short: "OT", seg: "o", numbered: true},
	wordMoves:    {long: "MOVES ", short: "M", seg: "", numbered: true, counter: true},
	wordPeriod:   {long: "PERIOD ", short: "P", seg: "P", numbered: true, counter: true},
}

// maxWordLen is the longest form of a status word but the banner:
// "OVERTIME " and 20 digits.
const maxWordLen = 32

// word is one status word as shown now.
type word struct {
	kind wordKind
	n    int64  // the number of a numbered word
	text string // the banner's text
	alt  string // the banner's shorter text, "" for none
}

func (w word) form() *wordForm { return &wordForms[w.kind] }

func (w word) appendForm(b []byte, prefix string) []byte {
	if w.kind == wordBanner {
		return append(b, w.text...)
	}
	b = append(b, prefix...)
	if w.form().numbered {
		b = strconv.AppendInt(b, w.n, 10)
	}
	return b
}

func (w word) appendLong(b []byte) []byte { return w.appendForm(b, w.form().long) }
func (w word) appendShort(b []byte) []byte {
	if w.kind == wordBanner && w.alt != "" {
		return append(b, w.alt...)
	}
	return w.appendForm(b, w.form().short)
}

// appendMark appends the text of the pixel short form: the mark beside
// shortIcon, or the short form.
func (w word) appendMark(b []byte) []byte {
	if w.form().shortIcon != iconNone {
		return append(b, w.form().mark...)
	}
	return w.appendShort(b)
}

func (w word) long() string {
	if w.kind == wordBanner {
		return w.text
	}
	var buf [maxWordLen]byte
	return string(w.appendLong(buf[:0]))
}

func (w word) short() string {
	if w.kind == wordBanner {
		if w.alt != "" {
			return w.alt
		}
		return w.text
	}
	var buf [maxWordLen]byte
	return string(w.appendShort(buf[:0]))
}

// seg is the segment form, "" where segments do not show the word.
func (w word) seg() string {
	if w.kind == wordBanner {
		return ""
	}
	var buf [maxWordLen]byte
	return string(w.appendForm(buf[:0], w.form().seg))
}

// wordSet is a set of word kinds.
type wordSet uint16

func (s wordSet) has(k wordKind) bool { return s&(1<<k) != 0 }

const (
	flagWords    wordSet = 1<<wordFlag | 1<<wordFlag1st | 1<<wordFlag2nd
	sideWords            = flagWords | 1<<wordOverstep | 1<<wordDefault | 1<<wordDelay | 1<<wordOvertime // one side's state
	gameWords    wordSet = 1<<wordBanner | 1<<wordPaused                                                 // the game's state
	counterWords wordSet = 1<<wordMoves | 1<<wordPeriod
	allWords             = sideWords | gameWords | counterWords
)

// statusWords appends to dst the words of set that side p (o is the other
// side) shows in game g, in order of importance. It does not allocate when
// dst has room for numWordKinds words.
func statusWords(dst []word, set wordSet, p, o *Player, g *Game) []word {
	for k := range numWordKinds {
		if !set.has(k) {
			continue
		}
		w := word{kind: k}
		var shown bool
		switch k {
		case wordFlag:
			shown = p.Flag && p.FirstFlag && !o.Flag
		case wordFlag1st:
			shown = p.Flag && p.FirstFlag && o.Flag
		case wordFlag2nd:
			shown = p.Flag && !p.FirstFlag
		case wordOverstep:
			shown = p.Overstep
		case wordDefault:
			shown = p.Default
		case wordBanner:
			shown, w.text, w.alt = g.Banner != "", g.Banner, g.BannerShort
		case wordPaused:
			shown = g.Paused
		case wordDelay:
			shown, w.n = p.Delay && p.ToMove, ceilSeconds(p.DelayMs)
		case wordOvertime:
			shown, w.n = p.Overtime, int64(p.OTLeft)
		case wordMoves:
			shown, w.n = p.ShowMoves, int64(p.Moves)
		case wordPeriod:
			shown, w.n = p.Periods, int64(p.Period)
		}
		if shown {
			dst = append(dst, w)
		}
	}
	return dst
}

// ceilSeconds is ms in whole seconds, rounded up; 0 for ms <= 0.
func ceilSeconds(ms int64) int64 {
	if ms <= 0 {
		return 0
	}
	return (ms-1)/1000 + 1
}
