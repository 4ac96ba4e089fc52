// Package sevenseg is the 7-segment font and text layout shared by the
// segment display drivers (tm1637, max7219, ht16k33).
//
// A cell is one byte of segments in the order most chips use, bit 0 for
// segment A up to bit 6 for segment G, and bit 7 for the decimal point:
//
//	 -A-
//	F   B
//	 -G-
//	E   C
//	 -D-  DP
//
// Parse turns a string such as "1:29" or "0:09.7" into cells: ':' and '.'
// never take a cell of their own; a '.' lights the decimal point of the cell
// before it and a ':' records a colon between the cells around it. Chips
// that have no colon where the text wants one call FoldColons to show it as
// the decimal point of the cell before.
package sevenseg

// Segment bits of a cell.
const (
	A  byte = 1 << iota // top
	B                   // top right
	C                   // bottom right
	D                   // bottom
	E                   // bottom left
	F                   // top left
	G                   // middle
	DP                  // decimal point
)

// MaxCells is the largest number of cells Parse lays out.
const MaxCells = 16

// glyphs maps printable ASCII to segments; characters a 7-segment digit
// cannot show recognisably are blank.
var glyphs = [128]byte{
	'0':  A | B | C | D | E | F,
	'1':  B | C,
	'2':  A | B | D | E | G,
	'3':  A | B | C | D | G,
	'4':  B | C | F | G,
	'5':  A | C | D | F | G,
	'6':  A | C | D | E | F | G,
	'7':  A | B | C,
	'8':  A | B | C | D | E | F | G,
	'9':  A | B | C | D | F | G,
	'-':  G,
	'_':  D,
	'=':  D | G,
	'\'': B,
	'"':  B | F,
	'[':  A | D | E | F,
	']':  A | B | C | D,
	'A':  A | B | C | E | F | G,
	'b':  C | D | E | F | G,
	'C':  A | D | E | F,
	'c':  D | E | G,
	'd':  B | C | D | E | G,
	'E':  A | D | E | F | G,
	'F':  A | E | F | G,
	'G':  A | C | D | E | F,
	'H':  B | C | E | F | G,
	'h':  C | E | F | G,
	'I':  B | C,
	'i':  C,
	'J':  B | C | D | E,
	'L':  D | E | F,
	'n':  C | E | G,
	'O':  A | B | C | D | E | F,
	'o':  C | D | E | G,
	'P':  A | B | E | F | G,
	'q':  A | B | C | F | G,
	'r':  E | G,
	'S':  A | C | D | F | G,
	't':  D | E | F | G,
	'U':  B | C | D | E | F,
	'u':  C | D | E,
	'y':  B | C | D | F | G,
}

func init() {
	// Each letter has one form; the other case falls back to it.
	for c := 'a'; c <= 'z'; c++ {
		up := c - 'a' + 'A'
		switch {
		case glyphs[c] == 0:
			glyphs[c] = glyphs[up]
		case glyphs[up] == 0:
			glyphs[up] = glyphs[c]
		}
	}
}

// Glyph returns the segments for r, or 0 (blank) for a character a 7-segment
// digit cannot show. Letters have one form each: 'b' and 'B' both give the
// lower-case b, 'A' and 'a' the upper-case A, and so on. K, M, V, W, X and Z
// are blank.
func Glyph(r rune) byte {
	if r < 0 || r >= 128 {
		return 0
	}
	return glyphs[r]
}

// Line is one line of text laid out on segment cells.
type Line struct {
	// Cells are the segments of each cell, left to right; unused cells are
	// blank.
	Cells [MaxCells]byte
	// N is the number of cells laid out (the display's width).
	N int
	// Colons has bit i set when a ':' stood between cell i and cell i+1.
	Colons uint16
}

// Parse lays out the first line of text (up to the first '\n') on n cells,
// n clamped to [0, MaxCells]. Each character takes a cell except ':' and
// '.': a '.' lights the decimal point of the cell before it (or takes a blank
// cell of its own when there is none, or when that cell's point is already
// lit), and a ':' sets the colon bit after the cell before it (a ':' before
// any cell is dropped). Text longer than n cells is cut on the right; a '.'
// or ':' right after the last cell still applies to it. Characters Glyph
// cannot show are blank cells. Parse never allocates.
func Parse(text string, n int) Line {
	n = max(0, min(n, MaxCells))
	l := Line{N: n}
	used := 0
	for _, r := range text {
		if r == '\n' {
			break
		}
		switch r {
		case ':':
			if used > 0 {
				l.Colons |= 1 << (used - 1)
			}
			continue
		case '.':
			if used > 0 && l.Cells[used-1]&DP == 0 {
				l.Cells[used-1] |= DP
				continue
			}
			if used < n {
				l.Cells[used] = DP
				used++
			}
			continue
		}
		if used >= n {
			// Only a trailing '.' or ':' can still change anything.
			continue
		}
		l.Cells[used] = Glyph(r)
		used++
	}
	// A ':' after the last laid out cell cannot be shown between two cells.
	if n > 1 {
		l.Colons &= 1<<(n-1) - 1
	} else {
		l.Colons = 0
	}
	return l
}

// FoldColons keeps only the colons in have (bit i: the display has a colon
// between cell i and cell i+1) and shows every other colon as the decimal
// point of the cell before it.
func (l *Line) FoldColons(have uint16) {
	other := l.Colons &^ have
	for i := 0; i < l.N; i++ {
		if other&(1<<i) != 0 {
			l.Cells[i] |= DP
		}
	}
	l.Colons &= have
}

// ToMAX7219 reorders a cell's segments for the MAX7219 in no-decode mode,
// which wants DP,A,B,C,D,E,F,G from bit 7 down to bit 0.
func ToMAX7219(seg byte) byte {
	var out byte
	if seg&DP != 0 {
		out |= 0x80
	}
	for i := 0; i < 7; i++ { // A..G to bits 6..0
		if seg&(1<<i) != 0 {
			out |= 0x40 >> i
		}
	}
	return out
}
