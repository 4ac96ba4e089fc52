// Package bitfont is a small 5x7 bitmap font for drawing clock times and
// short messages onto 1-bit frames, at any integer scale.
//
// It covers the digits, A to Z (lower case is drawn as upper case), space,
// ':', '.', '-', '+' and '/'. Digits are all 5 columns wide so a running
// clock does not shift sideways. Other characters are drawn as a space.
// Drawing never allocates and never panics: pixels outside the frame are
// dropped.
package bitfont

import (
	"strings"

	"periph.io/x/devices/v3/ssd1306/image1bit"
)

// Height is the height of a glyph in pixels at scale 1.
const Height = 7

// Spacing is the gap between two glyphs in pixels at scale 1.
const Spacing = 1

type glyph struct {
	cols [5]byte // bit 0 is the top row
	w    uint8
}

var glyphs [128]glyph

// shapes are drawn row by row, '#' for a lit pixel; every row of a glyph has
// the glyph's width.
var shapes = map[byte]string{
	' ': "... ... ... ... ... ... ...",
	':': ".. ## ## .. ## ## ..",
	'.': ".. .. .. .. .. ## ##",
	'-': ".... .... .... #### .... .... ....",
	'+': "..... ..#.. ..#.. ##### ..#.. ..#.. .....",
	'/': "....# ....# ...#. ..#.. .#... #.... #....",
	'0': ".###. #...# #..## #.#.# ##..# #...# .###.",
	'1': "..#.. .##.. ..#.. ..#.. ..#.. ..#.. .###.",
	'2': ".###. #...# ....# ...#. ..#.. .#... #####",
	'3': "##### ...#. ..#.. ...#. ....# #...# .###.",
	'4': "...#. ..##. .#.#. #..#. ##### ...#. ...#.",
	'5': "##### #.... ####. ....# ....# #...# .###.",
	'6': "..##. .#... #.... ####. #...# #...# .###.",
	'7': "##### ....# ...#. ..#.. .#... .#... .#...",
	'8': ".###. #...# #...# .###. #...# #...# .###.",
	'9': ".###. #...# #...# .#### ....# ...#. .##..",
	'A': ".###. #...# #...# ##### #...# #...# #...#",
	'B': "####. #...# #...# ####. #...# #...# ####.",
	'C': ".###. #...# #.... #.... #.... #...# .###.",
	'D': "####. #...# #...# #...# #...# #...# ####.",
	'E': "##### #.... #.... ####. #.... #.... #####",
	'F': "##### #.... #.... ####. #.... #.... #....",
	'G': ".###. #...# #.... #.### #...# #...# .####",
	'H': "#...# #...# #...# ##### #...# #...# #...#",
	'I': ".###. ..#.. ..#.. ..#.. ..#.. ..#.. .###.",
	'J': "..### ...#. ...#. ...#. ...#. #..#. .##..",
	'K': "#...# #..#. #.#.. ##... #.#.. #..#. #...#",
	'L': "#.... #.... #.... #.... #.... #.... #####",
	'M': "#...# ##.## #.#.# #.#.# #...# #...# #...#",
	'N': "#...# #...# ##..# #.#.# #..## #...# #...#",
	'O': ".###. #...# #...# #...# #...# #...# .###.",
	'P': "####. #...# #...# ####. #.... #.... #....",
	'Q': ".###. #...# #...# #...# #.#.# #..#. .##.#",
	'R': "####. #...# #...# ####. #.#.. #..#. #...#",
	'S': ".#### #.... #.... .###. ....# ....# ####.",
	'T': "##### ..#.. ..#.. ..#.. ..#.. ..#.. ..#..",
	'U': "#...# #...# #...# #...# #...# #...# .###.",
	'V': "#...# #...# #...# #...# #...# .#.#. ..#..",
	'W': "#...# #...# #...# #.#.# #.#.# #.#.# .#.#.",
	'X': "#...# #...# .#.#. ..#.. .#.#. #...# #...#",
	'Y': "#...# #...# .#.#. ..#.. ..#.. ..#.. ..#..",
	'Z': "##### ....# ...#. ..#.. .#... #.... #####",
}

func init() {
	for c, s := range shapes {
		rows := strings.Fields(s)
		if len(rows) != Height {
			panic("bitfont: glyph " + string(c) + " has the wrong height")
		}
		g := glyph{w: uint8(len(rows[0]))}
		for y, row := range rows {
			if len(row) != int(g.w) {
				panic("bitfont: glyph " + string(c) + " has ragged rows")
			}
			for x := range len(row) {
				if row[x] == '#' {
					g.cols[x] |= 1 << y
				}
			}
		}
		glyphs[c] = g
	}
	for c := 'a'; c <= 'z'; c++ {
		glyphs[c] = glyphs[c-'a'+'A']
	}
}

func lookup(r rune) *glyph {
	if r >= 0 && r < 128 && glyphs[r].w != 0 {
		return &glyphs[r]
	}
	return &glyphs[' ']
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
		w += int(lookup(r).w)
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
		for cx := 0; cx < int(g.w); cx++ {
			col := g.cols[cx]
			for cy := 0; cy < Height; cy++ {
				if col&(1<<cy) == 0 {
					continue
				}
				fillSquare(dst, x+cx*scale, y+cy*scale, scale)
			}
		}
		x += int(g.w) * scale
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
