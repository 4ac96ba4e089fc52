package screen

import (
	"image"
	"strings"
)

// clampField returns the byte range of item that is being edited, clamped
// to the item; a > b never happens, a == b means no field.
func clampField(f [2]int, n int) (a, b int) {
	a = max(0, min(f[0], n))
	b = max(a, min(f[1], n))
	return a, b
}

// clampCursor returns m.Cursor within the items, or -1 when there are none.
func clampCursor(m *Menu) int {
	if len(m.Items) == 0 {
		return -1
	}
	return max(0, min(m.Cursor, len(m.Items)-1))
}

func (s *PixelScreen) drawMenu(m *Menu) {
	rowH, titleH, hintH := 9, 10, 9
	if s.compact {
		rowH, titleH, hintH = 8, 8, 8
	}
	// Title and its rule.
	drawText(&s.c, 2, 0+boolInt(!s.compact), fitText(m.Title, s.w-4), true)
	s.c.fill(image.Rect(0, titleH-1, s.w, titleH), true)
	hintTop := s.h - hintH
	if m.Hint != "" {
		if !s.compact {
			s.c.fill(image.Rect(0, hintTop, s.w, hintTop+1), true)
		}
		drawText(&s.c, 2, s.h-smallH, fitText(m.Hint, s.w-4), true)
	} else {
		hintTop = s.h
	}
	cur := clampCursor(m)
	if cur < 0 {
		return
	}
	if m.Cursor < 0 {
		cur = -1 // a page of choices, each picked by its own button: no selection
	}
	if s.role == Right && cur >= 0 {
		s.drawMenuZoom(m, cur, image.Rect(0, titleH, s.w, hintTop))
		return
	}
	rows := max((hintTop-titleH)/rowH, 0)
	if rows == 0 {
		return
	}
	first := max(0, min(cur-rows/2, len(m.Items)-rows))
	if cur < 0 {
		first = 0
	}
	for i := 0; i < rows && first+i < len(m.Items); i++ {
		k := first + i
		r := image.Rect(0, titleH+i*rowH, s.w, titleH+(i+1)*rowH)
		ty := r.Min.Y + (rowH-smallH)/2
		item := fitText(m.Items[k], s.w-12)
		if k != cur {
			drawText(&s.c, 4, ty, item, true)
			continue
		}
		if !m.Editing {
			s.c.fill(r, true)
			drawText(&s.c, 4, ty, item, false)
			continue
		}
		// Editing: a pointer, the item, and the field in reverse video.
		s.c.icon(0, ty, iconRight, true)
		drawText(&s.c, 4, ty, item, true)
		a, b := clampField(m.Field, len(item))
		if a < b {
			x0 := 4 + textW(item[:a])
			if a > 0 {
				x0++
			}
			x1 := 4 + textW(item[:b])
			s.c.invert(image.Rect(x0-1, r.Min.Y, x1+1, r.Max.Y))
		}
	}
	// More above or below.
	if first > 0 {
		s.c.icon(s.w-7, titleH+(rowH-smallH)/2, iconUp, first != cur || m.Editing)
	}
	if first+rows < len(m.Items) {
		last := first + rows - 1
		s.c.icon(s.w-7, titleH+(rows-1)*rowH+(rowH-smallH)/2, iconDown, last != cur || m.Editing)
	}
}

// drawMenuZoom draws the cursor item enlarged in r, its field reversed
// while editing (only the value, when the whole item is too wide).
func (s *PixelScreen) drawMenuZoom(m *Menu, cur int, r image.Rectangle) {
	item := m.Items[cur]
	field := m.Field
	if textW(item)*2 > s.w-4 && m.Editing {
		// Too wide to enlarge: keep the value being edited, without the
		// words before it.
		a, _ := clampField(field, len(item))
		if sp := strings.LastIndexByte(item[:a], ' '); sp >= 0 {
			item = item[sp+1:]
			field[0], field[1] = field[0]-sp-1, field[1]-sp-1
		}
	}
	scale := 2
	if textW(item)*2 > s.w-4 || r.Dy() < 2*smallH+2 {
		scale = 1
		item = fitText(item, s.w-4)
	}
	w := textW(item) * scale
	x := (s.w - w) / 2
	y := r.Min.Y + (r.Dy()-smallH*scale)/2
	drawTextScaled(&s.c, x, y, item, true, scale)
	if !m.Editing {
		return
	}
	a, b := clampField(field, len(item))
	if a < b {
		x0 := x + textW(item[:a])*scale
		if a > 0 {
			x0 += scale
		}
		x1 := x + textW(item[:b])*scale
		s.c.invert(image.Rect(x0-1, y-2, x1+1, y+smallH*scale+2))
	} else {
		s.c.fill(image.Rect(x, y+(smallH+1)*scale, x+w, y+(smallH+1)*scale+1), true)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// drawMessage word-wraps lines to the panel and centres them.
func (s *PixelScreen) drawMessage(lines []string) {
	rowH := 9
	if s.compact {
		rowH = 8
	}
	maxW := s.w - 4
	n := 0
	for _, l := range lines {
		n += wrapCount(l, maxW)
	}
	rows := min(n, max(s.h/rowH, 1))
	y := (s.h - rows*rowH) / 2
	y = max(y, 0) + (rowH-smallH)/2
	row := 0
	for _, l := range lines {
		for {
			part, rest := wrapNext(l, maxW)
			if row >= rows {
				return
			}
			drawText(&s.c, (s.w-textW(part))/2, y+row*rowH, part, true)
			row++
			if rest == "" {
				break
			}
			l = rest
		}
	}
}

// wrapNext returns the first line of s wrapped at width w (breaking at a
// space when it can, inside a word when it must) and the rest, its leading
// spaces removed.
func wrapNext(s string, w int) (line, rest string) {
	fit := fitText(s, w)
	if len(fit) == len(s) {
		return s, ""
	}
	cut := len(fit)
	if s[cut] != ' ' {
		for i := cut - 1; i > 0; i-- {
			if fit[i] == ' ' {
				cut = i
				break
			}
		}
	}
	if cut == 0 {
		cut = 1 // wider than the panel: one character per line
	}
	line, rest = s[:cut], s[cut:]
	for len(line) > 0 && line[len(line)-1] == ' ' {
		line = line[:len(line)-1]
	}
	for len(rest) > 0 && rest[0] == ' ' {
		rest = rest[1:]
	}
	return line, rest
}

// wrapCount is how many lines s takes wrapped at width w (an empty s
// takes one).
func wrapCount(s string, w int) int {
	n := 0
	for {
		_, s = wrapNext(s, w)
		n++
		if s == "" {
			return n
		}
	}
}
