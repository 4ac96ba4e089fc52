// Package bitfont is the 5x7 bitmap font of zeitnot's pixel displays:
// clock times, labels, menus and messages, at any integer scale.
//
// It covers every printable ASCII character, space to '~', and ½ (a drawn
// game's result, ½-½); lower case is drawn as upper case (a 5x7 cell has
// no room for descenders) and any other character as a space. Digits are all 5 columns wide so a running clock
// does not shift sideways; punctuation is as narrow as its ink ('!' and
// '|' one column, ':' two).
//
// Draw and Width serve drivers and tests that draw text onto a frame;
// Lookup gives the bitmap of one character, for code that draws it its own
// way (appliance/screen draws it in either colour). Nothing allocates and
// nothing panics: pixels outside the frame are dropped.
package bitfont

import (
	"strings"

	"periph.io/x/devices/v3/ssd1306/image1bit"
)

// Height is the height of a glyph in pixels at scale 1.
const Height = 7

// Spacing is the gap between two glyphs in pixels at scale 1.
const Spacing = 1

// MaxWidth is the width in pixels of the widest glyph at scale 1.
const MaxWidth = 5

// Glyph is one character's bitmap at scale 1.
type Glyph struct {
	Cols [MaxWidth]uint8 // column x of the glyph; bit y is row y, bit 0 the top row
	W    int             // width in columns, 1 to MaxWidth
}

var glyphs [256]Glyph

// shapes are drawn row by row, top to bottom, '#' for a lit pixel; every
// row of a glyph has the glyph's width.
var shapes = map[byte]string{
	' ':  "... ... ... ... ... ... ...",
	':':  ".. ## ## .. ## ## ..",
	'.':  ".. .. .. .. .. ## ##",
	'-':  ".... .... .... #### .... .... ....",
	'+':  "..... ..#.. ..#.. ##### ..#.. ..#.. .....",
	'/':  "....# ....# ...#. ..#.. .#... #.... #....",
	'0':  ".###. #...# #..## #.#.# ##..# #...# .###.",
	'1':  "..#.. .##.. ..#.. ..#.. ..#.. ..#.. .###.",
	'2':  ".###. #...# ....# ...#. ..#.. .#... #####",
	'3':  "##### ...#. ..#.. ...#. ....# #...# .###.",
	'4':  "...#. ..##. .#.#. #..#. ##### ...#. ...#.",
	'5':  "##### #.... ####. ....# ....# #...# .###.",
	'6':  "..##. .#... #.... ####. #...# #...# .###.",
	'7':  "##### ....# ...#. ..#.. .#... .#... .#...",
	'8':  ".###. #...# #...# .###. #...# #...# .###.",
	'9':  ".###. #...# #...# .#### ....# ...#. .##..",
	'A':  ".###. #...# #...# ##### #...# #...# #...#",
	'B':  "####. #...# #...# ####. #...# #...# ####.",
	'C':  ".###. #...# #.... #.... #.... #...# .###.",
	'D':  "####. #...# #...# #...# #...# #...# ####.",
	'E':  "##### #.... #.... ####. #.... #.... #####",
	'F':  "##### #.... #.... ####. #.... #.... #....",
	'G':  ".###. #...# #.... #.### #...# #...# .####",
	'H':  "#...# #...# #...# ##### #...# #...# #...#",
	'I':  ".###. ..#.. ..#.. ..#.. ..#.. ..#.. .###.",
	'J':  "..### ...#. ...#. ...#. ...#. #..#. .##..",
	'K':  "#...# #..#. #.#.. ##... #.#.. #..#. #...#",
	'L':  "#.... #.... #.... #.... #.... #.... #####",
	'M':  "#...# ##.## #.#.# #.#.# #...# #...# #...#",
	'N':  "#...# #...# ##..# #.#.# #..## #...# #...#",
	'O':  ".###. #...# #...# #...# #...# #...# .###.",
	'P':  "####. #...# #...# ####. #.... #.... #....",
	'Q':  ".###. #...# #...# #...# #.#.# #..#. .##.#",
	'R':  "####. #...# #...# ####. #.#.. #..#. #...#",
	'S':  ".#### #.... #.... .###. ....# ....# ####.",
	'T':  "##### ..#.. ..#.. ..#.. ..#.. ..#.. ..#..",
	'U':  "#...# #...# #...# #...# #...# #...# .###.",
	'V':  "#...# #...# #...# #...# #...# .#.#. ..#..",
	'W':  "#...# #...# #...# #.#.# #.#.# #.#.# .#.#.",
	'X':  "#...# #...# .#.#. ..#.. .#.#. #...# #...#",
	'Y':  "#...# #...# .#.#. ..#.. ..#.. ..#.. ..#..",
	'Z':  "##### ....# ...#. ..#.. .#... #.... #####",
	'!':  "# # # # # . #",
	'"':  "#.# #.# ... ... ... ... ...",
	'#':  ".#.#. ##### .#.#. .#.#. .#.#. ##### .#.#.",
	'$':  "..#.. .#### #.#.. .###. ..#.# ####. ..#..",
	'%':  "##..# ##.#. ...#. ..#.. .#... .#.## #..##",
	'&':  ".##.. #..#. .##.. .#... #.#.# #..#. .##.#",
	'\'': "# # . . . . .",
	'(':  ".# #. #. #. #. #. .#",
	')':  "#. .# .# .# .# .# #.",
	'*':  "..... #.#.# .###. ##### .###. #.#.# .....",
	',':  ".. .. .. .. .. .# #.",
	';':  ".. ## ## .. ## .# #.",
	'<':  "...# ..#. .#.. #... .#.. ..#. ...#",
	'=':  ".... .... #### .... #### .... ....",
	'>':  "#... .#.. ..#. ...# ..#. .#.. #...",
	'?':  ".###. #...# ....# ...#. ..#.. ..... ..#..",
	'@':  ".###. #...# #.### #.#.# #.### #.... .###.",
	'[':  "## #. #. #. #. #. ##",
	'\\': "#.... #.... .#... ..#.. ...#. ....# ....#",
	']':  "## .# .# .# .# .# ##",
	'^':  "..#.. .#.#. #...# ..... ..... ..... .....",
	'_':  "..... ..... ..... ..... ..... ..... #####",
	'`':  "#. .# .. .. .. .. ..",
	'{':  "..# .#. .#. #.. .#. .#. ..#",
	'|':  "# # # # # # #",
	'}':  "#.. .#. .#. ..# .#. .#. #..",
	'~':  "..... ..... .#..# #.##. ..... ..... .....",
	// ½, Latin-1's one half: a drawn game's ½-½ in results.
	0xBD: ".#... ##... .#... ..##. ....# ...#. ..###",
}

func init() {
	for c, s := range shapes {
		rows := strings.Fields(s)
		if len(rows) != Height {
			panic("bitfont: glyph " + string(c) + " has the wrong height")
		}
		g := Glyph{W: len(rows[0])}
		if g.W > MaxWidth {
			panic("bitfont: glyph " + string(c) + " is too wide")
		}
		for y, row := range rows {
			if len(row) != g.W {
				panic("bitfont: glyph " + string(c) + " has ragged rows")
			}
			for x := range len(row) {
				if row[x] == '#' {
					g.Cols[x] |= 1 << y
				}
			}
		}
		glyphs[c] = g
	}
	for c := 'a'; c <= 'z'; c++ {
		glyphs[c] = glyphs[c-'a'+'A']
	}
}

func lookup(r rune) *Glyph {
	if Has(r) {
		return &glyphs[r]
	}
	return &glyphs[' ']
}

// Has reports whether r has a glyph: a printable ASCII character, or ½.
// Draw shows any other character as a space.
func Has(r rune) bool {
	return r >= 0 && r < rune(len(glyphs)) && glyphs[r].W != 0
}

// Lookup returns r's glyph: a lower case letter gets the upper case one, a
// character without a glyph (see Has) the space's.
func Lookup(r rune) Glyph {
	return *lookup(r)
}

func clampScale(scale int) int {
	return max(1, min(scale, 64))
}

// Width returns the width in pixels of s drawn at scale (clamped to
// [1, 64]), with Spacing between glyphs and none after the last.
func Width(s string, scale int) int {
	scale = clampScale(scale)
	w, n := 0, 0
	for _, r := range s {
		w += lookup(r).W
		n++
	}
	if n > 1 {
		w += (n - 1) * Spacing
	}
	return w * scale
}

// Draw draws s with its top left corner at (x, y), each font pixel a
// scale x scale square (scale clamped to [1, 64]). It only lights pixels:
// clear the frame first. It returns the x after the last glyph.
func Draw(dst *image1bit.VerticalLSB, x, y int, s string, scale int) int {
	scale = clampScale(scale)
	first := true
	for _, r := range s {
		if !first {
			x += Spacing * scale
		}
		first = false
		g := lookup(r)
		for cx := 0; cx < g.W; cx++ {
			col := g.Cols[cx]
			for cy := 0; cy < Height; cy++ {
				if col&(1<<cy) == 0 {
					continue
				}
				fillSquare(dst, x+cx*scale, y+cy*scale, scale)
			}
		}
		x += g.W * scale
	}
	return x
}

func fillSquare(dst *image1bit.VerticalLSB, x0, y0, s int) {
	for y := y0; y < y0+s; y++ {
		for x := x0; x < x0+s; x++ {
			dst.SetBit(x, y, image1bit.On)
		}
	}
}
