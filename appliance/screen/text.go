package screen

import (
	"slices"
	"strings"

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
		l := s.segments(halves(v, segHalf))
		return l.String()
	}
	return s.lcd(halves(v, lcdHalf))
}

// How text displays write ½, which they cannot draw: an LCD's character
// ROM (HD44780 A00) has none, so ½-½ is 1/2-1/2 there; seven segments
// have neither ½ nor a slash, and = is the draw of chess notation: =-=.
const (
	lcdHalf = "1/2"
	segHalf = "="
)

// halves is v with each ½ of its texts written as form: a copy when it
// has one, else v. A value being edited keeps its bytes (its field is a
// byte range).
func halves(v *View, form string) *View {
	has := strings.Contains(v.Game.Banner, "½") || strings.Contains(v.Game.BannerShort, "½") ||
		strings.Contains(v.Menu.Title, "½") || strings.Contains(v.Menu.Hint, "½") ||
		slices.ContainsFunc(v.Menu.Items, func(s string) bool { return strings.Contains(s, "½") }) ||
		slices.ContainsFunc(v.Message, func(s string) bool { return strings.Contains(s, "½") })
	if !has {
		return v
	}
	w := *v
	r := func(s string) string { return strings.ReplaceAll(s, "½", form) }
	w.Game.Banner, w.Game.BannerShort = r(v.Game.Banner), r(v.Game.BannerShort)
	w.Menu.Title, w.Menu.Hint = r(v.Menu.Title), r(v.Menu.Hint)
	w.Menu.Items = make([]string, len(v.Menu.Items))
	for i, it := range v.Menu.Items {
		if v.Menu.Editing && i == v.Menu.Cursor {
			w.Menu.Items[i] = it
			continue
		}
		w.Menu.Items[i] = r(it)
	}
	if v.Message != nil {
		w.Message = make([]string, len(v.Message))
		for i, m := range v.Message {
			w.Message[i] = r(m)
		}
	}
	return &w
}
