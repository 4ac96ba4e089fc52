package screen

import (
	"strings"
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
		{"running", "_1:29.", "58:12", "12 1:29:05.", "_1:29.58:12"},
		{"period", "45:05", "30:30.", " 41 45:05", "45:0530:30."},
		{"tenths", " 9.7_.", " 3:12", "    0:09.7.", " 9.7_. 3:12"},
		{"flags", "FLAG", "FL 2", " F1 0:00.0", "FLAGFL 2"},
		{"flag", " 3:04", "FLAG", "     3:04", " 3:04FLAG"},
		{"overstep", "30:12.", "40:50", " oP 30:12.", "30:12.40:50"},
		{"delay", "_4:59.", " 5:12", "  d4 4:59.", "_4:59. 5:12"},
		{"byoyomi", "_0:28.", "10:00", "  o3 0:28.", "_0:28.10:00"},
		{"paused", " 1:29", "58:12", "PA 1:29:05", " 1:2958:12"},
		{"menu", "bLit", " 5 3", "bLit 5 3", "bLit 5 3"},
		{"edit", "tinE", "  30", "tinE  30", "tinE  30"},
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

// Menu items on two 4-digit displays: the label on one, the value on the
// other (on the side the item names), every letter one a digit shows.
func TestSegmentMenu(t *testing.T) {
	cases := []struct {
		item        string
		field       [2]int // editing this byte range when not empty
		left, right string
	}{
		{"Time < 1:30:00", [2]int{}, " 1:30", "tinE"},
		{"Time > 0:05:00", [2]int{}, "tinE", " 5:00"},
		{"Moves < 12", [2]int{}, "  12", "noUE"},
		{"Period > 2", [2]int{}, "PEr", "   2"},
		{"+2:00 <", [2]int{}, " 2:00", "Add"},
		{"To move < white", [2]int{}, "UHIt", "turn"},
		{"Clear overstep <", [2]int{}, "CLr", ""},
		{"Clear overstep >", [2]int{}, "", "CLr"},
		{"End game", [2]int{}, "End", "End"},
		{"Settings", [2]int{}, "SEtS", "SEtS"},
		{"Sound on", [2]int{}, "Snd", "  on"},
		{"Press beep off", [2]int{}, "bEEP", " oFF"},
		{"Low time 10s", [2]int{}, "Lo t", "  10"},
		{"Brightness 50%", [2]int{}, "brt", "  50"},
		{"Tenths <20s", [2]int{}, "10th", "  20"},
		{"Moves shown", [2]int{}, "noUE", "  on"},
		{"White left", [2]int{}, "UHIt", "LEFt"},
		{"Lock now", [2]int{}, "LOC", "LOC"},
		{"Saved presets 3", [2]int{}, "SAUd", "   3"},
		{"Black same", [2]int{}, "bLAC", "SAnE"},
		{"Period on flag", [2]int{}, "P on", "FLAG"},
		{"hours 1", [2]int{6, 7}, "hr", "   1"},
		{"minutes 30", [2]int{8, 10}, "nin", "  30"},
		{"Custom control", [2]int{}, "CuSt", "CuSt"},
		{"Rapid 15+10", [2]int{}, "rAPd", "15 1"},
		{"Armageddon", [2]int{}, "ArnA", "ArnA"},
		{"Zeitnot", [2]int{}, "2Eit", "2Eit"}, // not in the table: the letters a digit shows
		// The round and the time of day (Setup), in whole words on the
		// panels: minutes and hours as a time, a time of day without its
		// source, a time of day not known as --:--.
		{"Round start none", [2]int{}, "rnd", "nonE"},
		{"Round start 18:30", [2]int{}, "rnd", "18:30"},
		{"Default time 0 min", [2]int{}, "dEF", " 0:00"},
		{"Default time 15 min", [2]int{}, "dEF", " 0:15"},
		{"Default time 1 h", [2]int{}, "dEF", " 1:00"},
		{"Time of day 18:30 NTP", [2]int{}, "dAy", "18:30"},
		{"Time of day not set", [2]int{}, "dAy", "--:--"},
	}
	for _, tc := range cases {
		m := Menu{Title: "Arbiter", Items: []string{tc.item}, Editing: tc.field[1] > 0, Field: tc.field}
		v := View{Kind: KindMenu, Menu: m}
		for _, d := range []struct {
			role Role
			want string
		}{{Left, tc.left}, {Right, tc.right}} {
			want := sevenseg.Parse(d.want, 4)
			got := NewTextScreen(Segments, 4, 1, d.role).Render(&v)
			if sevenseg.Parse(got, 4) != want {
				t.Errorf("%q on the %v display: %q, want %q", tc.item, d.role, got, d.want)
			}
			for _, r := range strings.ReplaceAll(strings.ReplaceAll(got, ".", ""), ":", "") {
				if r != ' ' && sevenseg.Glyph(r) == 0 {
					t.Errorf("%q on the %v display: %q has %q, which a digit cannot show", tc.item, d.role, got, r)
				}
			}
		}
	}
}

// On 8 digits a menu item is its label and its value side by side.
func TestSegmentMenu8(t *testing.T) {
	cases := []struct {
		item  string
		field [2]int
		want  string
	}{
		{"Time < 1:30:00", [2]int{}, "tinE 1:30"},
		{"Time > 0:05:00", [2]int{}, "tinE 5:00"},
		{"hours 1", [2]int{6, 7}, "hr     1"},
		{"Sound on", [2]int{}, "Snd   on"},
		{"Custom control", [2]int{}, "CuSt"},
		{"Moves < 123", [2]int{}, "noUE 123"},
	}
	for _, tc := range cases {
		v := View{Kind: KindMenu, Menu: Menu{Title: "Arbiter", Items: []string{tc.item}, Editing: tc.field[1] > 0, Field: tc.field}}
		for _, role := range []Role{Left, Both} {
			got := NewTextScreen(Segments, 8, 1, role).Render(&v)
			if sevenseg.Parse(got, 8) != sevenseg.Parse(tc.want, 8) {
				t.Errorf("%q on 8 digits, %v: %q, want %q", tc.item, role, got, tc.want)
			}
		}
	}
}

// Every form in the table takes at most four digits, each one a digit
// shows, and no point (clock modules have none).
func TestSegForms(t *testing.T) {
	for k, f := range segForms {
		if len(f) > 4 || f == "" {
			t.Errorf("%q: %q is not 1 to 4 digits", k, f)
		}
		for _, r := range f {
			if r != ' ' && sevenseg.Glyph(r) == 0 {
				t.Errorf("%q: %q has %q, which a digit cannot show", k, f, r)
			}
		}
	}
}

// A page of picks (no cursor) on two 4-digit displays: each shows what
// its lever picks; one display shows the title.
func TestSegmentPicks(t *testing.T) {
	v := View{Kind: KindMenu, Menu: Menu{Title: "Menu", Items: []string{"< Blitz >", "> Rapid >", "- Classic >", "+ Setup"}, Cursor: -1}}
	for _, c := range []struct {
		role Role
		want string
	}{{Left, "bLit"}, {Right, "rAPd"}, {Both, "nEnu"}} {
		if got := NewTextScreen(Segments, 4, 1, c.role).Render(&v); got != c.want {
			t.Errorf("%v: %q, want %q", c.role, got, c.want)
		}
	}
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
		{Player{Ms: 5345000, Running: true}, 5, " _1:29."},
		// The seconds of a time from one hour, asked for: 1:30:30 after
		// the first increment.
		{Player{Ms: 5430000, Seconds: true}, 4, "30:30"},
		{Player{Ms: 5430000, Seconds: true, Running: true}, 4, "30:30."},
		{Player{Ms: 37745000, Seconds: true}, 4, "29:05"},
		{Player{Ms: 3492000, Seconds: true}, 4, "58:12"},
		{Player{Ms: 5430000, Seconds: true}, 8, "   1:30:30"},
		{Player{Ms: 3492000, Running: true}, 4, "58:12."}, // all four digits hold the time: its seconds move
		{Player{Ms: 599000, Running: true}, 4, "_9:59."},
		{Player{Ms: 19700, Running: true}, 4, "19.7_."},
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
		{19999, false, "20.0 "},
		{19700, false, "19.7 "},
		{9700, false, " 9.7 "},
		{1, false, " 0.1 "},
		{0, false, " 0.0 "},
		{-5000, false, " 0.0 "},
		{9700, true, " 0:09"},
	}
	for _, tc := range cases {
		c := time4(tc.ms, DefaultTenthsBelow, tc.countUp, false)
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

// Any menu item, field and title gives a line of at most the display's
// digits, on every role, without a panic.
func FuzzSegmentMenu(f *testing.F) {
	f.Add("Time < 1:30:00", "Arbiter", 7, 9, true)
	f.Add("+2:00 >", "Time > White", 0, 0, false)
	f.Add("< Blitz >", "", -1, 3, false)
	f.Fuzz(func(t *testing.T, item, title string, a, b int, editing bool) {
		for _, cur := range []int{0, -1} {
			v := View{Kind: KindMenu, Menu: Menu{Title: title, Items: []string{item, title}, Cursor: cur, Editing: editing, Field: [2]int{a, b}}}
			for _, n := range []int{4, 6, 8} {
				for _, role := range []Role{Left, Right, Both} {
					got := NewTextScreen(Segments, n, 1, role).Render(&v)
					if l := sevenseg.Parse(got, sevenseg.MaxCells); countCells(l) > n {
						t.Fatalf("%q %q on %d digits, %v: %q takes more", item, title, n, role, got)
					}
				}
			}
		}
	})
}
