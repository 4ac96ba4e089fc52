package screen

import (
	"image"

	"github.com/zeitnot/zeitnot/drivers/display/bitfont"
)

// The small text (labels, status words, menus, messages) is the drivers'
// 5x7 bitmap font, bitfont, drawn here in either colour onto the canvas.
// Strings are taken byte by byte, as menu fields are byte ranges: a byte
// outside printable ASCII is drawn as a space.

const smallH = bitfont.Height // 7 rows

func glyphOf(c byte) bitfont.Glyph { return bitfont.Lookup(rune(c)) }

// textW is the width of s in the small font, with one blank column between
// glyphs.
func textW[T ~string | ~[]byte](s T) int {
	w := 0
	for i := 0; i < len(s); i++ {
		if i > 0 {
			w += bitfont.Spacing
		}
		w += glyphOf(s[i]).W
	}
	return w
}

// drawText draws s with its top left corner at (x, y) in the small font and
// returns the x after it.
func drawText[T ~string | ~[]byte](c *canvas, x, y int, s T, on bool) int {
	return drawTextScaled(c, x, y, s, on, 1)
}

// drawTextScaled is drawText with each font pixel a scale x scale square.
func drawTextScaled[T ~string | ~[]byte](c *canvas, x, y int, s T, on bool, scale int) int {
	scale = max(1, scale)
	for i := 0; i < len(s); i++ {
		if i > 0 {
			x += bitfont.Spacing * scale
		}
		g := glyphOf(s[i])
		for cx := 0; cx < g.W; cx++ {
			if scale == 1 {
				c.column(x+cx, y, uint64(g.Cols[cx]), on)
				continue
			}
			for cy := 0; cy < smallH; cy++ {
				if g.Cols[cx]&(1<<cy) != 0 {
					c.fill(image.Rect(x+cx*scale, y+cy*scale, x+(cx+1)*scale, y+(cy+1)*scale), on)
				}
			}
		}
		x += g.W * scale
	}
	return x
}

// fitText returns the longest prefix of s whose width is at most w.
func fitText[T ~string | ~[]byte](s T, w int) T {
	x := 0
	for i := 0; i < len(s); i++ {
		gw := glyphOf(s[i]).W
		if i > 0 {
			gw += bitfont.Spacing
		}
		if x+gw > w {
			return s[:i]
		}
		x += gw
	}
	return s
}
