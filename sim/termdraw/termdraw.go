// Package termdraw draws the clock's displays in a terminal, for the
// simulator: 1-bit frames with Unicode block characters, segment text as
// large 7-segment figures, and character LCDs as a framed box of text.
//
// Every function is pure: it returns the lines to print, all of the same
// width in terminal columns (no trailing newline, no escape sequences), so
// the caller can place them side by side.
package termdraw

import (
	"strings"
	"unicode/utf8"

	"github.com/zeitnot/zeitnot/drivers/display/sevenseg"
	"periph.io/x/devices/v3/ssd1306/image1bit"
)

// quadrants maps four pixels (bit 0 top left, 1 top right, 2 bottom left,
// 3 bottom right) to the block character that shows them.
var quadrants = [16]rune{' ', '▘', '▝', '▀', '▖', '▌', '▞', '▛', '▗', '▚', '▐', '▜', '▄', '▙', '▟', '█'}

// Quadrants draws frame with one character per 2x2 pixels: a 128x64 frame
// takes 32 lines of 64 columns. Lit pixels are ink; an odd last row or
// column is drawn as if the pixels beyond were dark. A nil frame gives no
// lines.
func Quadrants(frame *image1bit.VerticalLSB) []string {
	if frame == nil {
		return nil
	}
	r := frame.Bounds()
	rows, cols := (r.Dy()+1)/2, (r.Dx()+1)/2
	out := make([]string, 0, max(rows, 0))
	var b strings.Builder
	for cy := 0; cy < rows; cy++ {
		b.Reset()
		y := r.Min.Y + 2*cy
		for cx := 0; cx < cols; cx++ {
			x := r.Min.X + 2*cx
			q := 0
			if frame.BitAt(x, y) {
				q |= 1
			}
			if frame.BitAt(x+1, y) {
				q |= 2
			}
			if frame.BitAt(x, y+1) {
				q |= 4
			}
			if frame.BitAt(x+1, y+1) {
				q |= 8
			}
			b.WriteRune(quadrants[q])
		}
		out = append(out, b.String())
	}
	return out
}

var halves = [4]rune{' ', '▀', '▄', '█'}

// HalfBlocks draws frame with one character per pixel column and two
// pixel rows: a 128x64 frame takes 32 lines of 128 columns. It suits
// terminal fonts that lack the quadrant characters.
func HalfBlocks(frame *image1bit.VerticalLSB) []string {
	if frame == nil {
		return nil
	}
	r := frame.Bounds()
	rows := (r.Dy() + 1) / 2
	out := make([]string, 0, max(rows, 0))
	var b strings.Builder
	for cy := 0; cy < rows; cy++ {
		b.Reset()
		y := r.Min.Y + 2*cy
		for x := r.Min.X; x < r.Max.X; x++ {
			q := 0
			if frame.BitAt(x, y) {
				q |= 1
			}
			if frame.BitAt(x, y+1) {
				q |= 2
			}
			b.WriteRune(halves[q])
		}
		out = append(out, b.String())
	}
	return out
}

// SegmentLines is the height of Segments' figures.
const SegmentLines = 5

// DigitWidth is the width of one digit in Segments, including the column
// for its point and the colon after it.
const DigitWidth = 5

const (
	segOn  = '━'
	segVer = '┃'
	dot    = '•'
)

// Segments draws text the way a segment display of digits digits shows it
// (laid out by sevenseg.Parse: ':' lights a colon between two digits, '.'
// the point of the digit before it; digits clamped to [0,
// sevenseg.MaxCells]). Each digit is 4 columns by SegmentLines lines,
// followed by a column holding the colon (lines 2 and 4) and the point
// (line 5):
//
//	 ━━
//	┃  ┃•
//	 ━━
//	┃  ┃•
//	 ━━ •
func Segments(text string, digits int) []string {
	l := sevenseg.Parse(text, digits)
	var rows [SegmentLines][]rune
	for i := 0; i < l.N; i++ {
		c := l.Cells[i]
		on := func(seg byte, r rune) rune {
			if c&seg != 0 {
				return r
			}
			return ' '
		}
		colon, point := ' ', ' '
		if l.Colons&(1<<i) != 0 {
			colon = dot
		}
		if c&sevenseg.DP != 0 {
			point = dot
		}
		a, g, d := on(sevenseg.A, segOn), on(sevenseg.G, segOn), on(sevenseg.D, segOn)
		rows[0] = append(rows[0], ' ', a, a, ' ', ' ')
		rows[1] = append(rows[1], on(sevenseg.F, segVer), ' ', ' ', on(sevenseg.B, segVer), colon)
		rows[2] = append(rows[2], ' ', g, g, ' ', ' ')
		rows[3] = append(rows[3], on(sevenseg.E, segVer), ' ', ' ', on(sevenseg.C, segVer), colon)
		rows[4] = append(rows[4], ' ', d, d, ' ', point)
	}
	out := make([]string, SegmentLines)
	for i := range rows {
		out[i] = string(rows[i])
	}
	return out
}

// LCD draws the text of a character LCD of cols x lines (each clamped to
// [1, 80]) in a box: lines of text are separated by '\n', each cut or
// padded to cols characters; missing lines are blank. Control characters
// are drawn as spaces.
func LCD(text string, cols, lines int) []string {
	cols, lines = max(1, min(cols, 80)), max(1, min(lines, 80))
	out := make([]string, 0, lines+2)
	bar := strings.Repeat("─", cols)
	out = append(out, "┌"+bar+"┐")
	for i := 0; i < lines; i++ {
		line := ""
		if text != "" || i == 0 {
			line, text, _ = strings.Cut(text, "\n")
		}
		var b strings.Builder
		b.WriteRune('│')
		n := 0
		for _, r := range line {
			if n == cols {
				break
			}
			if r < ' ' || r == 0x7F || r == utf8.RuneError {
				r = ' '
			}
			b.WriteRune(r)
			n++
		}
		b.WriteString(strings.Repeat(" ", cols-n))
		b.WriteRune('│')
		out = append(out, b.String())
	}
	out = append(out, "└"+bar+"┘")
	return out
}
