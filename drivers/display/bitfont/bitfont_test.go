package bitfont

import (
	"fmt"
	"image"
	"strings"
	"testing"

	"periph.io/x/devices/v3/ssd1306/image1bit"
)

// ascii renders a frame as rows of '#' and '.'.
func ascii(f *image1bit.VerticalLSB) string {
	var b strings.Builder
	for y := f.Rect.Min.Y; y < f.Rect.Max.Y; y++ {
		for x := f.Rect.Min.X; x < f.Rect.Max.X; x++ {
			if f.BitAt(x, y) {
				b.WriteByte('#')
			} else {
				b.WriteByte('.')
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func TestDraw(t *testing.T) {
	f := image1bit.NewVerticalLSB(image.Rect(0, 0, 10, 7))
	end := Draw(f, 0, 0, "1:", 1)
	if end != 8 {
		t.Errorf("Draw returned x=%d, want 8", end)
	}
	want := "" +
		"..#.......\n" +
		".##...##..\n" +
		"..#...##..\n" +
		"..#.......\n" +
		"..#...##..\n" +
		"..#...##..\n" +
		".###......\n"
	if got := ascii(f); got != want {
		t.Errorf("Draw(\"1:\") =\n%swant\n%s", got, want)
	}
}

func TestDrawScaleAndClip(t *testing.T) {
	f := image1bit.NewVerticalLSB(image.Rect(0, 0, 4, 4))
	// A '-' is row 3 of a 4 wide glyph: at scale 2 an 8x2 bar at
	// y+6..y+7. Far away it draws nothing; at (-2, -5) it spans x -2..5 and
	// y 1..2, clipped to the frame.
	Draw(f, -2, -20, "-", 2)
	Draw(f, 100, 100, "8", 3)
	if strings.Contains(ascii(f), "#") {
		t.Fatalf("pixels drawn outside:\n%s", ascii(f))
	}
	Draw(f, -2, -5, "-", 2)
	want := "....\n####\n####\n....\n"
	if got := ascii(f); got != want {
		t.Errorf("clipped '-' =\n%swant\n%s", got, want)
	}
}

func TestWidth(t *testing.T) {
	tests := []struct {
		s     string
		scale int
		want  int
	}{
		{"", 1, 0},
		{"1", 1, 5},
		{"1:29", 1, 5 + 1 + 2 + 1 + 5 + 1 + 5},
		{"1:29", 3, 3 * 20},
		{"é", 0, 3},
		{"ab", 100, 64 * 11},
	}
	for _, tt := range tests {
		if got := Width(tt.s, tt.scale); got != tt.want {
			t.Errorf("Width(%q, %d) = %d, want %d", tt.s, tt.scale, got, tt.want)
		}
	}
	f := image1bit.NewVerticalLSB(image.Rect(0, 0, 128, 64))
	if end := Draw(f, 3, 0, "1:29:05", 2); end-3 != Width("1:29:05", 2) {
		t.Errorf("Draw advanced %d, Width says %d", end-3, Width("1:29:05", 2))
	}
}

func TestLowerCaseAndUnknown(t *testing.T) {
	a := image1bit.NewVerticalLSB(image.Rect(0, 0, 20, 7))
	b := image1bit.NewVerticalLSB(image.Rect(0, 0, 20, 7))
	Draw(a, 0, 0, "flag", 1)
	Draw(b, 0, 0, "FLAG", 1)
	if ascii(a) != ascii(b) {
		t.Error("lower case differs from upper case")
	}
	c := image1bit.NewVerticalLSB(image.Rect(0, 0, 20, 7))
	Draw(c, 0, 0, "\x00€\xff\x7f\t", 1)
	if strings.Contains(ascii(c), "#") {
		t.Errorf("unknown characters drew pixels:\n%s", ascii(c))
	}
}

func TestDrawAllocs(t *testing.T) {
	f := image1bit.NewVerticalLSB(image.Rect(0, 0, 128, 64))
	if n := testing.AllocsPerRun(20, func() { Draw(f, 0, 10, "1:29:05", 3) }); n != 0 {
		t.Errorf("Draw allocates %v times", n)
	}
}

// Every printable ASCII character has a glyph of its own, within the cell,
// with ink (but the space), and no two look the same.
func TestPrintableASCII(t *testing.T) {
	seen := map[Glyph]rune{}
	for r := rune(' '); r <= '~'; r++ {
		if !Has(r) {
			t.Errorf("%q has no glyph", r)
			continue
		}
		g := Lookup(r)
		if g.W < 1 || g.W > MaxWidth {
			t.Errorf("%q is %d columns wide", r, g.W)
		}
		ink := false
		for x, col := range g.Cols {
			if col>>Height != 0 {
				t.Errorf("%q: column %d has pixels below row %d", r, x, Height)
			}
			if x >= g.W && col != 0 {
				t.Errorf("%q: column %d lit beyond its width %d", r, x, g.W)
			}
			ink = ink || col != 0
		}
		if ink != (r != ' ') {
			t.Errorf("%q: ink %v", r, ink)
		}
		if r >= 'a' && r <= 'z' {
			if g != Lookup(r-'a'+'A') {
				t.Errorf("%q differs from its upper case", r)
			}
			continue
		}
		if o, ok := seen[g]; ok {
			t.Errorf("%q looks the same as %q", r, o)
		}
		seen[g] = r
	}
	for _, r := range []rune{-1, 0, '\t', '\n', 0x7f, 0x80, 'é', '€', 0x10FFFF} {
		if Has(r) {
			t.Errorf("%q has a glyph", r)
		}
		if Lookup(r) != Lookup(' ') {
			t.Errorf("%q is not drawn as a space", r)
		}
	}
}

func ExampleDraw() {
	f := image1bit.NewVerticalLSB(image.Rect(0, 0, 20, Height))
	Draw(f, 0, 0, "<1:2", 1)
	fmt.Print(ascii(f))
	// Output:
	// ...#...#.......###..
	// ..#...##...##.#...#.
	// .#.....#...##.....#.
	// #......#.........#..
	// .#.....#...##...#...
	// ..#....#...##..#....
	// ...#..###.....#####.
}

// TestHalf: ½ has a glyph of its own (a drawn game's ½-½), unlike any
// other, with ink within the cell.
func TestHalf(t *testing.T) {
	if !Has('½') {
		t.Fatal("½ has no glyph")
	}
	g := Lookup('½')
	for r := rune(' '); r <= '~'; r++ {
		if Lookup(r) == g {
			t.Errorf("½ looks the same as %q", r)
		}
	}
	f := image1bit.NewVerticalLSB(image.Rect(0, 0, 20, Height))
	if x := Draw(f, 0, 0, "½-½", 1); x != Width("½-½", 1) || !strings.Contains(ascii(f), "#") {
		t.Errorf("½-½ drawn to x %d, want %d:\n%s", x, Width("½-½", 1), ascii(f))
	}
}
