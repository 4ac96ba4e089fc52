package termdraw

import (
	"image"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"periph.io/x/devices/v3/ssd1306/image1bit"
)

// frameOf makes a frame from rows of '#' (lit) and '.'.
func frameOf(rows ...string) *image1bit.VerticalLSB {
	f := image1bit.NewVerticalLSB(image.Rect(0, 0, len(rows[0]), len(rows)))
	for y, row := range rows {
		for x := range len(row) {
			if row[x] == '#' {
				f.SetBit(x, y, image1bit.On)
			}
		}
	}
	return f
}

func check(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s:\n%s\nwant\n%s", what, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestQuadrantsAllPatterns(t *testing.T) {
	// Cell q holds pattern q: bit 0 top left, 1 top right, 2 bottom left,
	// 3 bottom right.
	f := image1bit.NewVerticalLSB(image.Rect(0, 0, 32, 2))
	for q := range 16 {
		for bit, p := range []image.Point{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
			if q&(1<<bit) != 0 {
				f.SetBit(2*q+p.X, p.Y, image1bit.On)
			}
		}
	}
	check(t, "16 patterns", Quadrants(f), []string{" ▘▝▀▖▌▞▛▗▚▐▜▄▙▟█"})
}

func TestQuadrantsOddSize(t *testing.T) {
	f := frameOf(
		"#.#",
		".#.",
		"###",
	)
	check(t, "3x3", Quadrants(f), []string{"▚▘", "▀▘"})
	check(t, "3x3 half blocks", HalfBlocks(f), []string{"▀▄▀", "▀▀▀"})
	if Quadrants(nil) != nil || HalfBlocks(nil) != nil {
		t.Error("a nil frame gives lines")
	}
}

func TestQuadrantsSize(t *testing.T) {
	lines := Quadrants(image1bit.NewVerticalLSB(image.Rect(0, 0, 128, 64)))
	if len(lines) != 32 {
		t.Fatalf("%d lines for 128x64, want 32", len(lines))
	}
	for _, l := range lines {
		if l != strings.Repeat(" ", 64) {
			t.Fatalf("blank frame line %q", l)
		}
	}
}

func TestSegments(t *testing.T) {
	check(t, "1:2.", Segments("1:2.", 2), []string{
		"      ━━  ",
		"   ┃•   ┃ ",
		"      ━━  ",
		"   ┃•┃    ",
		"      ━━ •",
	})
	check(t, "8 on 1 of 3", Segments("8", 3), []string{
		" ━━            ",
		"┃  ┃           ",
		" ━━            ",
		"┃  ┃           ",
		" ━━            ",
	})
	for _, n := range []int{0, -1} {
		check(t, "no digits", Segments("8888", n), []string{"", "", "", "", ""})
	}
	for _, l := range Segments("12:34:56.7", 8) {
		if utf8.RuneCountInString(l) != 8*DigitWidth {
			t.Errorf("line %q is not %d wide", l, 8*DigitWidth)
		}
	}
}

func TestLCD(t *testing.T) {
	check(t, "8x3", LCD("W 1:29\nPAUSED extra", 8, 3), []string{
		"┌────────┐",
		"│W 1:29  │",
		"│PAUSED e│",
		"│        │",
		"└────────┘",
	})
	check(t, "control characters", LCD("a\tbä\n\n\nx", 4, 2), []string{
		"┌────┐",
		"│a bä│",
		"│    │",
		"└────┘",
	})
	check(t, "clamped", LCD("", 0, 0), []string{"┌─┐", "│ │", "└─┘"})
}
