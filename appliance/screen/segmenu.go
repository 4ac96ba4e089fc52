package screen

// Menus on segment displays: an item is cut into its label ("Time",
// "Sound") and its value ("1:30:00", "on"), each written in the letters a
// 7-segment digit can show (no K, M, V, W, X or Z), four digits at most.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/zeitnot/zeitnot/drivers/display/sevenseg"
)

// segForms are the segment forms of the menus' words and phrases, by their
// lower case text, without points (4-digit clock modules have none). A
// word missing here is written by segGuess.
var segForms = map[string]string{
	// Phrases first: they are looked up before their words.
	"custom control": "CuSt",
	"saved presets":  "SAUd",
	"press beep":     "bEEP",
	"low time":       "Lo t",
	"flag alarm":     "ALAr",
	"lock now":       "LOC",
	"to move":        "turn",
	"clear overstep": "CLr",
	"end game":       "End",
	"start game":     "Strt",
	"save preset":    "SAUE",
	"add period":     "AddP",
	"remove last":    "dEL",
	"period on":      "P on",
	"first inc":      "1inC",
	"after flag":     "AFtr",
	"extra s":        "EtrA",
	"round start":    "rnd",
	"default time":   "dEF",
	"time of day":    "dAy", // three digits: 8 digits keep room for 18:30

	"add":        "Add",
	"after":      "AFtr",
	"again":      "AGAn",
	"alarm":      "ALAr",
	"arbiter":    "Arb",
	"armageddon": "ArnA",
	"beep":       "bEEP",
	"black":      "bLAC",
	"blitz":      "bLit",
	"brightness": "brt",
	"bullet":     "buLt",
	"byo-yomi":   "byo",
	"canadian":   "CAn",
	"classic":    "CLAS",
	"classical":  "CLAS",
	"count-up":   "uP",
	"custom":     "CuSt",
	"delay":      "dLAy",
	"delete":     "dEL",
	"done":       "donE",
	"end":        "End",
	"fischer":    "Fish",
	"flag":       "FLAG",
	"game":       "GAnE",
	"hidden":     "oFF",
	"hourglass":  "HrGL",
	"hours":      "hr",
	"inc":        "inC",
	"increment":  "inC",
	"left":       "LEFt",
	"lock":       "LOC",
	"menu":       "nEnu",
	"minutes":    "nin",
	"mode":       "nodE",
	"move":       "noUE",
	"moves":      "noUE",
	"no":         "no",
	"none":       "nonE",
	"off":        "oFF",
	"on":         "on",
	"overtime":   "ot",
	"pause":      "PAUS",
	"period":     "PEr",
	"periods":    "PEr",
	"play":       "PLAy",
	"preset":     "PrSt",
	"presets":    "PrSt",
	"rapid":      "rAPd",
	"ready":      "rEdy",
	"rest":       "rESt",
	"right":      "rGht",
	"same":       "SAnE",
	"save":       "SAUE",
	"saved":      "SAUd",
	"seconds":    "SEC",
	"settings":   "SEtS",
	"setup":      "SEtu",
	"shown":      "on",
	"sound":      "Snd",
	"start":      "Strt",
	"sudden":     "Sudn",
	"tenths":     "10th",
	"time":       "tinE",
	"white":      "UHIt",
	"yes":        "yES",
}

// segValues are the segment forms of whole values that are phrases.
var segValues = map[string]string{
	"not set": "--:--", // the time of day is not known
}

// segSubst writes the letters a 7-segment digit cannot show as the nearest
// one that it can (tIME is written tinE, WHITE UHItE).
var segSubst = map[byte]byte{'m': 'n', 'w': 'U', 'v': 'U', 'k': 'H', 'x': 'H', 'z': '2'}

// segGuess writes a word the table lacks: its letters, the missing ones
// replaced, the first n that a digit shows.
func segGuess(w string, n int) string {
	var b strings.Builder
	for i := 0; i < len(w) && segDigits(b.String()) < n; i++ {
		c := w[i]
		if r, ok := segSubst[c|0x20]; ok && c >= 'A' {
			c = r
		}
		if c == '.' || c == ':' || sevenseg.Glyph(rune(c)) != 0 {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// segDigits is how many digits text takes ('.' and ':' take none).
func segDigits(text string) int {
	n := 0
	for i := 0; i < len(text); i++ {
		if text[i] != '.' && text[i] != ':' {
			n++
		}
	}
	return n
}

// segWord is the segment form of one word.
func segWord(w string, n int) string {
	if f, ok := segForms[strings.ToLower(w)]; ok {
		return f
	}
	return segGuess(w, n)
}

// isValue reports whether w starts an item's value: a number, a time, a
// setting's state.
func isValue(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] >= '0' && w[i] <= '9' {
			return true
		}
	}
	switch strings.ToLower(w) {
	case "on", "off", "shown", "hidden", "left", "right", "same", "rest", "white", "black", "flag", "moves", "now", "none", "not":
		return true
	}
	return false
}

// segItem is a menu item cut for segment displays: its label and value in
// segment form, and the side it names (Left, Right, or Both for none).
type segItem struct {
	label, value string
	side         Role
}

// cutItem cuts item; with editing, value is the field [a, b) of item and
// the label the words before it.
func cutItem(item string, editing bool, a, b int) segItem {
	it := segItem{side: Both}
	var valueText string
	if editing && a < b {
		valueText = item[a:b]
		item = item[:a]
	}
	var words []string
	for _, w := range strings.Fields(item) {
		switch {
		case w == "<":
			it.side = Left
		case w == ">":
			it.side = Right
		default:
			words = append(words, w)
		}
	}
	// The label: the longest phrase of the table, else the words before
	// the value.
	k := 0
	for j := min(len(words), 3); j >= 2; j-- {
		if f, ok := segForms[strings.ToLower(strings.Join(words[:j], " "))]; ok {
			it.label, k = f, j
			break
		}
	}
	if k == 0 {
		for k < len(words) && (k == 0 || !isValue(words[k])) {
			if k == 0 && isValue(words[0]) {
				break
			}
			k++
		}
		if k > 0 {
			it.label = segWord(words[0], 4)
		}
	}
	rest := words[k:]
	if !editing || a >= b {
		valueText = strings.Join(rest, " ")
	}
	if it.label == "" && strings.HasPrefix(valueText, "+") {
		it.label = "Add" // "+2:00"
	}
	it.value = segValue(valueText)
	if it.label == "" && !editing {
		// An item that is all value ("1 90+30"): its first word labels it.
		if first, more, ok := strings.Cut(valueText, " "); ok {
			it.label, it.value = segValue(first), segValue(more)
		}
	}
	return it
}

// segValue writes a value in segment form: a phrase or words by the table,
// units left out ("10s" is 10, "50%" 50), minutes and hours as a time
// ("15 min" is 0:15, "1 h" 1:00), and a time of day without the words
// after it ("18:30 NTP" is 18:30).
func segValue(v string) string {
	if f, ok := segValues[strings.ToLower(v)]; ok {
		return f
	}
	words := strings.Fields(v)
	if len(words) == 2 && isNumber(words[0]) && (words[1] == "min" || words[1] == "h") {
		n, _ := strconv.Atoi(words[0])
		if words[1] == "h" {
			n *= 60
		}
		return fmt.Sprintf("%d:%02d", n/60, n%60)
	}
	if len(words) > 1 && strings.Count(words[0], ":") == 1 && isNumber(strings.Replace(words[0], ":", "", 1)) {
		words = words[:1]
	}
	var parts []string
	for _, w := range words {
		if f, ok := segForms[strings.ToLower(w)]; ok && !isNumber(w) {
			parts = append(parts, f)
			continue
		}
		w = strings.TrimLeft(w, "+<>")
		if len(w) > 1 && (w[len(w)-1] == 's' || w[len(w)-1] == '%') && w[len(w)-2] >= '0' && w[len(w)-2] <= '9' {
			w = w[:len(w)-1]
		}
		parts = append(parts, w)
	}
	return strings.Join(parts, " ")
}

func isNumber(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < '0' || w[i] > '9' {
			return false
		}
	}
	return w != ""
}

// fitTime shortens a time written h:mm:ss to n digits: leading zero hours
// and a leading zero go first ("0:05:00" is 5:00), then the seconds
// ("1:30:00" is 1:30).
func fitTime(v string, n int) string {
	if strings.Count(v, ":") == 0 || segDigits(v) <= n {
		return v
	}
	for segDigits(v) > n && strings.HasPrefix(v, "0:") {
		v = v[2:]
	}
	if len(v) > 2 && v[0] == '0' && v[1] >= '0' && v[1] <= '9' {
		v = v[1:] // 05:00 is 5:00, as on the clock
	}
	for segDigits(v) > n && strings.Count(v, ":") > 0 {
		v = v[:strings.LastIndexByte(v, ':')]
	}
	return v
}

// segMenu lays out a menu on a segment line l.
func (s *TextScreen) segMenu(l *segLine, m *Menu) {
	n := l.n
	cur := clampCursor(m)
	if cur < 0 || m.Cursor < 0 {
		// Nothing selected: a page of picks, one per button. Two
		// displays show what each lever picks, one display the title.
		if s.role != Both && cur >= 0 {
			for _, item := range m.Items {
				w, rest, _ := strings.Cut(item, " ")
				if w == "<" && s.role == Left || w == ">" && s.role == Right {
					l.put(0, textCells(s.segLabel(rest, n), n))
					return
				}
			}
		}
		l.put(0, textCells(s.segLabel(m.Title, n), n))
		return
	}
	item := m.Items[cur]
	a, b := clampField(m.Field, len(item))
	editing := m.Editing && a < b
	it := cutItem(item, editing, a, b)
	if editing && it.side == Both {
		it.side = titleSide(m.Title)
	}
	label := it.label
	if n >= 6 {
		// Label and value side by side, the value right-aligned and
		// shortened to the room left; while editing the value wins.
		lc := textCells(label, 4)
		room := n - len(lc) - 1
		vc := textCells(fitTime(it.value, room), n)
		switch {
		case len(vc) == 0:
			l.put(0, textCells(label, n))
		case len(lc) == 0 || len(vc) > room && editing:
			l.put(n-len(vc), vc)
		default:
			vc = vc[:min(len(vc), room)]
			l.put(0, lc)
			l.put(n-len(vc), vc)
		}
		return
	}
	value := fitTime(it.value, n)
	if label == "" {
		label = value
	}
	put := func(text string, right bool) {
		c := textCells(text, n)
		at := 0
		if right {
			at = n - len(c)
		}
		l.put(at, c)
	}
	// Four digits. One display: the value being edited, else the label.
	// Two: the label on one, the value on the other: on the display of the
	// side the item names ("Time < 1:30:00": the left), else on the right
	// one. An item without a value shows its label on both, or only on the
	// side's display when it names one.
	if s.role == Both {
		if editing {
			put(value, true)
		} else {
			put(label, false)
		}
		return
	}
	valueOn := Right
	if it.side != Both {
		valueOn = it.side
	}
	switch {
	case value == "" && it.side != Both && s.role != it.side:
	case value == "":
		put(label, false)
	case s.role == valueOn:
		put(value, true)
	default:
		put(label, false)
	}
}

// segLabel is the segment form of a free text (a title, a pick): its
// phrase or first word.
func (s *TextScreen) segLabel(text string, n int) string {
	it := cutItem(text, false, 0, 0)
	if it.label == "" {
		return fitTime(it.value, n)
	}
	return it.label
}

// titleSide is the side a title names with "<" or ">" (an editor's
// "Time < White"), or Both.
func titleSide(title string) Role {
	for _, w := range strings.Fields(title) {
		switch w {
		case "<":
			return Left
		case ">":
			return Right
		}
	}
	return Both
}
