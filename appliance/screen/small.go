package screen

import (
	"image"
	"strings"

	"github.com/zeitnot/zeitnot/drivers/display"
	"github.com/zeitnot/zeitnot/drivers/display/bitfont"
)

// The small font for labels, menus and messages is the drivers' 5x7 bitmap
// font (bitfont), copied into a table at start-up so text can be drawn in
// either colour, plus the punctuation menus need that bitfont lacks.

const smallH = bitfont.Height // 7 rows

type smallGlyph struct {
	cols [5]byte // bit 0 is the top row
	w    uint8
}

var small [128]smallGlyph

// extras are drawn like bitfont's shapes: rows top to bottom, '#' lit.
var extras = map[byte]string{
	'!':  "# # # # # . #",
	'?':  ".###. #...# ....# ...#. ..#.. ..... ..#..",
	',':  ".. .. .. .. .. .# #.",
	';':  ".. ## ## .. ## .# #.",
	'\'': "# # . . . . .",
	'"':  "#.# #.# ... ... ... ... ...",
	'(':  ".# #. #. #. #. #. .#",
	')':  "#. .# .# .# .# .# #.",
	'[':  "## #. #. #. #. #. ##",
	']':  "## .# .# .# .# .# ##",
	'<':  "...# ..#. .#.. #... .#.. ..#. ...#",
	'>':  "#... .#.. ..#. ...# ..#. .#.. #...",
	'=':  ".... .... #### .... #### .... ....",
	'_':  "..... ..... ..... ..... ..... ..... #####",
	'%':  "##..# ##.#. ...#. ..#.. .#... .#.## #..##",
	'*':  "..... #.#.# .###. ##### .###. #.#.# .....",
	'#':  ".#.#. ##### .#.#. .#.#. .#.#. ##### .#.#.",
	'&':  ".##.. #..#. .##.. .#... #.#.# #..#. .##.#",
	'@':  ".###. #...# #.### #.#.# #.### #.... .###.",
	'~':  "..... ..... .#..# #.##. ..... ..... .....",
	'|':  "# # # # # # #",
	'\\': "#.... #.... .#... ..#.. ...#. ....# ....#",
	'^':  "..#.. .#.#. #...# ..... ..... ..... .....",
	'$':  "..#.. .#### #.#.. .###. ..#.# ####. ..#..",
	'`':  "#. .# .. .. .. .. ..",
	'{':  "..# .#. .#. #.. .#. .#. ..#",
	'}':  "#.. .#. .#. ..# .#. .#. #..",
}

func init() {
	scratch := display.NewFrame(image.Rect(0, 0, 8, 8))
	for c := byte(' '); c < 127; c++ {
		if s, ok := extras[c]; ok {
			small[c] = parseShape(s)
			continue
		}
		for i := range scratch.Pix {
			scratch.Pix[i] = 0
		}
		str := string([]byte{c})
		bitfont.Draw(scratch, 0, 0, str, 1)
		g := smallGlyph{w: uint8(min(bitfont.Width(str, 1), 5))}
		for x := 0; x < int(g.w); x++ {
			for y := 0; y < smallH; y++ {
				if scratch.BitAt(x, y) {
					g.cols[x] |= 1 << y
				}
			}
		}
		small[c] = g
	}
}

func parseShape(s string) smallGlyph {
	rows := strings.Fields(s)
	g := smallGlyph{w: uint8(min(len(rows[0]), 5))}
	for y, row := range rows {
		for x := 0; x < len(row) && x < 5; x++ {
			if row[x] == '#' {
				g.cols[x] |= 1 << y
			}
		}
	}
	return g
}

func smallGlyphOf(c byte) *smallGlyph {
	if c < 128 && small[c].w != 0 {
		return &small[c]
	}
	return &small[' ']
}

// textW is the width of s in the small font, with one blank column between
// glyphs.
func textW[T ~string | ~[]byte](s T) int {
	w := 0
	for i := 0; i < len(s); i++ {
		if i > 0 {
			w++
		}
		w += int(smallGlyphOf(s[i]).w)
	}
	return w
}

// text draws s with its top left corner at (x, y) in the small font and
// returns the x after it. Bytes outside ASCII are drawn as spaces.
func drawText[T ~string | ~[]byte](c *canvas, x, y int, s T, on bool) int {
	return drawTextScaled(c, x, y, s, on, 1)
}

// drawTextScaled is drawText with each font pixel a scale x scale square.
func drawTextScaled[T ~string | ~[]byte](c *canvas, x, y int, s T, on bool, scale int) int {
	scale = max(1, scale)
	for i := 0; i < len(s); i++ {
		if i > 0 {
			x += scale
		}
		g := smallGlyphOf(s[i])
		for cx := 0; cx < int(g.w); cx++ {
			if scale == 1 {
				c.column(x+cx, y, uint64(g.cols[cx]), on)
				continue
			}
			for cy := 0; cy < smallH; cy++ {
				if g.cols[cx]&(1<<cy) != 0 {
					c.fill(image.Rect(x+cx*scale, y+cy*scale, x+(cx+1)*scale, y+(cy+1)*scale), on)
				}
			}
		}
		x += int(g.w) * scale
	}
	return x
}

// fitText returns the longest prefix of s whose width is at most w.
func fitText[T ~string | ~[]byte](s T, w int) T {
	x := 0
	for i := 0; i < len(s); i++ {
		gw := int(smallGlyphOf(s[i]).w)
		if i > 0 {
			gw++
		}
		if x+gw > w {
			return s[:i]
		}
		x += gw
	}
	return s
}
