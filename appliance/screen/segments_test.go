package screen

import (
	"testing"

	"github.com/zeitnot/zeitnot/drivers/display/sevenseg"
)

// What the segment displays show for the main screens: four digits per
// player (Left, Right), eight digits for one player, eight for both.
func TestSegments(t *testing.T) {
	cases := []struct {
		scene                    string
		left4, right4, left8, b8 string
	}{
		{"start", " 1:30", " 1:30", " 0 1:30:30", " 1:30 1:30"},
		{"running", " 1:29.", "58:12", "12 1:29:05.", " 1:29.58:12"},
		{"period", "45:05", "30:30.", " 41 45:05", "45:0530:30."},
		{"tenths", "  9.7.", " 3:12", "    0:09.7.", "  9.7. 3:12"},
		{"flags", "FLAG", "FL 2", " F1 0:00.0", "FLAGFL 2"},
		{"flag", " 3:04", "FLAG", "     3:04", " 3:04FLAG"},
		{"overstep", "30:12.", "40:50", " oP 30:12.", "30:12.40:50"},
		{"delay", " 4:59.", " 5:12", "  d4 4:59.", " 4:59. 5:12"},
		{"byoyomi", " 0:28.", "10:00", "  o3 0:28.", " 0:28.10:00"},
		{"paused", " 1:29", "58:12", "PA 1:29:05", " 1:2958:12"},
		{"menu", "Blit", " 3-7", "Blit 5 3", "Blit 5 3"},
		{"edit", "  30", "Ti e", "      30", "      30"},
		{"message", "eitn", "Usin", "eitnot.to", "eitnot.to"},
	}
	for _, tc := range cases {
		v := sceneView(t, tc.scene)
		for _, c := range []struct {
			cells int
			role  Role
			want  string
		}{{4, Left, tc.left4}, {4, Right, tc.right4}, {8, Left, tc.left8}, {8, Both, tc.b8}} {
			got := NewTextScreen(Segments, c.cells, 1, c.role).Render(&v)
			if got != c.want {
				t.Errorf("%s on %d digits, %v: %q, want %q", tc.scene, c.cells, c.role, got, c.want)
			}
			if l := sevenseg.Parse(got, sevenseg.MaxCells); countCells(l) > c.cells {
				t.Errorf("%s on %d digits, %v: %q takes more than %d digits", tc.scene, c.cells, c.role, got, c.cells)
			}
		}
	}
}

// countCells is how many digits Parse used (the last one not blank).
func countCells(l sevenseg.Line) int {
	n := 0
	for i := 0; i < l.N; i++ {
		if l.Cells[i] != 0 {
			n = i + 1
		}
	}
	return n
}

func TestSegmentsMore(t *testing.T) {
	cases := []struct {
		p     Player
		cells int
		want  string
	}{
		{Player{Ms: 184000, Flag: true, FirstFlag: true}, 4, " .3:04"}, // time added after the flag
		{Player{Ms: 3492000, ShowMoves: true, Moves: 12}, 8, " 12 58:12"},
		{Player{Ms: 3492000, ShowMoves: true, Moves: 123}, 8, "123 58:12"},
		{Player{Ms: 5345000, ShowMoves: true, Moves: 123, Periods: true, Period: 2}, 8, "P2 1:29:05"},
		{Player{Ms: 37745000, Periods: true, Period: 2}, 8, "  10:29:05"},
		{Player{Ms: 37745000}, 4, "10:29"},
		{Player{Ms: 5345000, Running: true}, 6, " 1:29:05."},
		{Player{Ms: 5345000, Running: true}, 5, "  1:29."},
		{Player{Ms: 9700, Running: true}, 2, "9.7."},
	}
	for _, tc := range cases {
		v := View{Game: Game{Left: tc.p, TenthsBelow: DefaultTenthsBelow}}
		if got := NewTextScreen(Segments, tc.cells, 1, Left).Render(&v); got != tc.want {
			t.Errorf("%+v on %d digits: %q, want %q", tc.p, tc.cells, got, tc.want)
		}
	}
}

func TestTime4(t *testing.T) {
	cases := []struct {
		ms      int64
		countUp bool
		want    string
	}{
		{5345000, false, " 1:29"},
		{36000000, false, "10:00"},
		{999 * 3600000, false, "99:59"},
		{3599001, false, " 1:00"},
		{3599000, false, "59:59"},
		{599000, false, " 9:59"},
		{60000, false, " 1:00"},
		{59950, false, " 1:00"},
		{59000, false, " 0:59"},
		{20000, false, " 0:20"},
		{19999, false, " 20.0"},
		{19700, false, " 19.7"},
		{9700, false, "  9.7"},
		{1, false, "  0.1"},
		{0, false, "  0.0"},
		{-5000, false, "  0.0"},
		{9700, true, " 0:09"},
	}
	for _, tc := range cases {
		c := time4(tc.ms, DefaultTenthsBelow, tc.countUp)
		l := newSegLine(4)
		l.put(0, c[:])
		if got := l.String(); got != tc.want {
			t.Errorf("time4(%d, countUp=%v) = %q, want %q", tc.ms, tc.countUp, got, tc.want)
		}
	}
}

func BenchmarkRenderSegments8(b *testing.B) {
	s := NewTextScreen(Segments, 8, 1, Left)
	v := runningView()
	b.ReportAllocs()
	for b.Loop() {
		v.Game.Left.Ms -= 1000
		s.Render(&v)
	}
}
