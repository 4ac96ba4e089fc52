package sevenseg

import (
	"testing"
)

func TestGlyphDigits(t *testing.T) {
	// The well known hexadecimal encodings of 0-9.
	want := []byte{0x3F, 0x06, 0x5B, 0x4F, 0x66, 0x6D, 0x7D, 0x07, 0x7F, 0x6F}
	for i, w := range want {
		if g := Glyph(rune('0' + i)); g != w {
			t.Errorf("Glyph(%q) = %#02x, want %#02x", rune('0'+i), g, w)
		}
	}
}

func TestGlyphLettersAndBlanks(t *testing.T) {
	for _, r := range "PAUSEFLbdrnotHPpaus-" {
		if Glyph(r) == 0 {
			t.Errorf("Glyph(%q) is blank", r)
		}
	}
	for _, r := range []rune{' ', 'K', 'm', 'W', 'x', 'Z', '€', -1, 0x10FFFF, '\x00', 127} {
		if g := Glyph(r); g != 0 {
			t.Errorf("Glyph(%q) = %#02x, want blank", r, g)
		}
	}
	if Glyph('B') != Glyph('b') || Glyph('a') != Glyph('A') {
		t.Error("letter cases differ")
	}
}

func TestParse(t *testing.T) {
	d := func(r rune) byte { return Glyph(r) }
	tests := []struct {
		text   string
		n      int
		cells  []byte
		colons uint16
	}{
		{"1:29", 4, []byte{d('1'), d('2'), d('9'), 0}, 1 << 0},
		{"12:34", 4, []byte{d('1'), d('2'), d('3'), d('4')}, 1 << 1},
		{"0:09.7", 4, []byte{d('0'), d('0'), d('9') | DP, d('7')}, 1 << 0},
		{"1:29:05", 8, []byte{d('1'), d('2'), d('9'), d('0'), d('5'), 0, 0, 0}, 1<<0 | 1<<2},
		{"PAUS", 4, []byte{d('P'), d('A'), d('U'), d('S')}, 0},
		{"FLAG!", 4, []byte{d('F'), d('L'), d('A'), d('G')}, 0},
		{"123456", 4, []byte{d('1'), d('2'), d('3'), d('4')}, 0},
		{"1234.", 4, []byte{d('1'), d('2'), d('3'), d('4') | DP}, 0},
		{"1234:", 4, []byte{d('1'), d('2'), d('3'), d('4')}, 0},
		{".5", 4, []byte{DP, d('5'), 0, 0}, 0},
		{"1..2", 4, []byte{d('1') | DP, DP, d('2'), 0}, 0},
		{":12", 4, []byte{d('1'), d('2'), 0, 0}, 0},
		{"a\nb", 4, []byte{d('A'), 0, 0, 0}, 0},
		{"", 4, []byte{0, 0, 0, 0}, 0},
		{"x\xff€7", 4, []byte{0, 0, 0, d('7')}, 0},
		{"12", 0, nil, 0},
		{"12:3", -3, nil, 0},
	}
	for _, tt := range tests {
		l := Parse(tt.text, tt.n)
		if l.N != len(tt.cells) {
			t.Errorf("Parse(%q, %d).N = %d, want %d", tt.text, tt.n, l.N, len(tt.cells))
			continue
		}
		for i, c := range tt.cells {
			if l.Cells[i] != c {
				t.Errorf("Parse(%q, %d) cell %d = %#02x, want %#02x", tt.text, tt.n, i, l.Cells[i], c)
			}
		}
		for i := l.N; i < MaxCells; i++ {
			if l.Cells[i] != 0 {
				t.Errorf("Parse(%q, %d) cell %d beyond N is %#02x", tt.text, tt.n, i, l.Cells[i])
			}
		}
		if l.Colons != tt.colons {
			t.Errorf("Parse(%q, %d).Colons = %b, want %b", tt.text, tt.n, l.Colons, tt.colons)
		}
	}
}

func TestParseClampsCells(t *testing.T) {
	l := Parse("0123456789ABCDEFGH", 40)
	if l.N != MaxCells || l.Cells[MaxCells-1] != Glyph('F') {
		t.Errorf("Parse with 40 cells: N=%d last=%#02x", l.N, l.Cells[MaxCells-1])
	}
}

func TestFoldColons(t *testing.T) {
	l := Parse("0:09.7", 4)
	l.FoldColons(1 << 1) // a colon only between cells 1 and 2
	if l.Colons != 0 {
		t.Errorf("Colons = %b, want 0", l.Colons)
	}
	if l.Cells[0] != Glyph('0')|DP {
		t.Errorf("cell 0 = %#02x, want the 0 with its point lit", l.Cells[0])
	}
	l = Parse("12:34", 4)
	l.FoldColons(1 << 1)
	if l.Colons != 1<<1 || l.Cells[1]&DP != 0 {
		t.Errorf("a colon the display has was folded: %+v", l)
	}
}

func TestToMAX7219(t *testing.T) {
	tests := map[byte]byte{
		A: 0x40, B: 0x20, C: 0x10, D: 0x08, E: 0x04, F: 0x02, G: 0x01, DP: 0x80,
		Glyph('0'): 0x7E, Glyph('1'): 0x30, Glyph('8') | DP: 0xFF, 0: 0,
	}
	for in, want := range tests {
		if got := ToMAX7219(in); got != want {
			t.Errorf("ToMAX7219(%#02x) = %#02x, want %#02x", in, got, want)
		}
	}
}

func TestParseAllocs(t *testing.T) {
	n := testing.AllocsPerRun(100, func() { _ = Parse("1:29:05.3", 8) })
	if n != 0 {
		t.Errorf("Parse allocates %v times", n)
	}
}
