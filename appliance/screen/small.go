package screen

import (
	"image"
	"unicode/utf8"

	"github.com/zeitnot/zeitnot/drivers/display/bitfont"
)

// The small text (labels, status words, menus, messages) is the drivers'
// 5x7 bitmap font, bitfont, drawn here in either colour onto the canvas.
// Strings are UTF-8 taken a character at a time, though menu fields are
// byte ranges: a two-byte character is decoded (the font has ½ for a
// drawn game's ½-½), anything else outside printable ASCII is one
// character drawn as a space. Nothing here allocates.

const smallH = bitfont.Height // 7 rows

// charAt is the character at s[i] and its length in bytes.
func charAt[T ~string | ~[]byte](s T, i int) (rune, int) {
	c := s[i]
	if c < utf8.RuneSelf {
		return rune(c), 1
	}
	n := 1
	for i+n < len(s) && n < utf8.UTFMax && s[i+n]&0xC0 == 0x80 {
		n++
	}
	if c&0xE0 == 0xC0 && n == 2 {
		return rune(c&0x1F)<<6 | rune(s[i+1]&0x3F), 2
	}
	return utf8.RuneError, n
}

// textW is the width of s in the small font, with one blank column between
// glyphs.
func textW[T ~string | ~[]byte](s T) int {
	w := 0
	for i := 0; i < len(s); {
		r, n := charAt(s, i)
		if i > 0 {
			w += bitfont.Spacing
		}
		w += bitfont.Lookup(r).W
		i += n
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
	for i := 0; i < len(s); {
		r, n := charAt(s, i)
		if i > 0 {
			x += bitfont.Spacing * scale
		}
		i += n
		g := bitfont.Lookup(r)
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

// fitText returns the longest prefix of s whose width is at most w; it
// does not cut a character.
func fitText[T ~string | ~[]byte](s T, w int) T {
	x := 0
	for i := 0; i < len(s); {
		r, n := charAt(s, i)
		gw := bitfont.Lookup(r).W
		if i > 0 {
			gw += bitfont.Spacing
		}
		if x+gw > w {
			return s[:i]
		}
		x += gw
		i += n
	}
	return s
}
