package screen

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/zeitnot/zeitnot/drivers/display/bitfont"
	"github.com/zeitnot/zeitnot/drivers/display/sevenseg"
)

func sceneView(t *testing.T, name string) View {
	t.Helper()
	for _, sc := range scenes() {
		if sc.name == name {
			return sc.v
		}
	}
	t.Fatalf("no scene %q", name)
	return View{}
}

// Nothing panics and the shape of the text is always right.
func TestTextAnything(t *testing.T) {
	views := []*View{
		nil,
		{},
		{Kind: Kind(9)},
		{Game: Game{Left: Player{Ms: math.MaxInt64, ShowMoves: true, Moves: math.MinInt, Periods: true, Period: math.MaxInt}, Right: Player{Ms: math.MinInt64, Delay: true, ToMove: true, DelayMs: math.MaxInt64, Running: true}, TenthsBelow: math.MaxInt64, Banner: strings.Repeat("ä", 100), Paused: true}},
		{Game: Game{Left: Player{Flag: true, Overtime: true, OTLeft: -7, Overstep: true, Running: true, Delay: true, ToMove: true, DelayMs: -1}, Right: Player{Flag: true, FirstFlag: true, CountUp: true, Ms: 1e15}}},
		{Kind: KindMenu},
		{Kind: KindMenu, Menu: Menu{Items: []string{"", "\x00\xff:..::"}, Cursor: 99, Editing: true, Field: [2]int{1, -1}}},
		{Kind: KindMenu, Menu: Menu{Items: []string{"ab"}, Cursor: -9, Editing: true, Field: [2]int{-5, 50}, Hint: strings.Repeat("verylongword", 20)}},
		{Kind: KindMessage},
		{Kind: KindMessage, Message: []string{"", "...", "::::", "a\nb", strings.Repeat("x", 300)}},
	}
	for _, kind := range []TextKind{Segments, Characters, TextKind(7)} {
		for _, size := range [][2]int{{4, 1}, {8, 1}, {6, 1}, {1, 1}, {0, 0}, {-3, -3}, {16, 2}, {20, 4}, {99, 99}, {2, 1}} {
			for _, role := range []Role{Left, Right, Both, Role(200)} {
				s := NewTextScreen(kind, size[0], size[1], role)
				for _, v := range views {
					got := s.Render(v)
					if s.kind == Segments {
						if l := sevenseg.Parse(got, sevenseg.MaxCells); countCells(l) > s.cols {
							t.Errorf("%v %v: %q takes more than %d digits", size, role, got, s.cols)
						}
						continue
					}
					lines := strings.Split(got, "\n")
					if len(lines) != s.lines {
						t.Fatalf("%v %v: %d lines, want %d: %q", size, role, len(lines), s.lines, got)
					}
					for _, l := range lines {
						if utf8.RuneCountInString(l) != s.cols {
							t.Fatalf("%v %v: line %q is not %d wide", size, role, l, s.cols)
						}
					}
				}
			}
		}
	}
}

// textViews are the scenes plus game views with every combination of
// flags, counters and states, for tests that look at every text layout.
func textViews() []View {
	var views []View
	for _, sc := range scenes() {
		views = append(views, sc.v)
	}
	r := rand.New(rand.NewPCG(3, 5))
	banners := []string{"", "RECOVERED", "LOCKED", "FIDE 90/40+30"}
	for range 400 {
		p := func() Player {
			b := func() bool { return r.IntN(3) == 0 }
			return Player{
				Ms: []int64{0, 9700, 184000, 5345000, 37745000}[r.IntN(5)], CountUp: r.IntN(8) == 0,
				Running: b(), ToMove: b(), White: b(), Moves: r.IntN(130), ShowMoves: b(),
				Period: 1 + r.IntN(3), Periods: b(), Flag: b(), FirstFlag: b(), Overstep: b(),
				Delay: b(), DelayMs: r.Int64N(30000), Overtime: b(), OTLeft: r.IntN(12),
			}
		}
		views = append(views, View{Game: Game{Left: p(), Right: p(), Started: true, Paused: r.IntN(3) == 0,
			TenthsBelow: DefaultTenthsBelow, Banner: banners[r.IntN(len(banners))]}})
	}
	return views
}

// Every character the segment and LCD layouts put out has a bitmap in
// bitfont, the font the simulator draws text displays with (a character
// without one would come out as a space: the '<' and '>' of the running
// side once did).
func TestTextGlyphs(t *testing.T) {
	views := textViews()
	for _, kind := range []TextKind{Segments, Characters} {
		for _, size := range [][2]int{{4, 1}, {6, 1}, {8, 1}, {16, 2}, {20, 4}, {8, 2}} {
			for _, role := range []Role{Left, Right, Both} {
				s := NewTextScreen(kind, size[0], size[1], role)
				for i := range views {
					got := s.Render(&views[i])
					for _, r := range got {
						if r != '\n' && !bitfont.Has(r) {
							t.Errorf("%v %dx%d %v: %q has %q, which bitfont lacks", kind, size[0], size[1], role, got, r)
						}
					}
				}
			}
		}
	}
}

// TestDrawnResult: ½-½ is a result every display family shows: pixel
// panels draw the font's ½; an LCD, whose character ROM has no ½, writes
// 1/2-1/2; seven segments, with neither ½ nor a slash, =-=. The ½ was
// drawn as blanks: "  -  " on the panels, " - " on LCDs, "-" on segments.
func TestDrawnResult(t *testing.T) {
	draw, result := sceneView(t, "draw"), sceneView(t, "result")
	for _, tc := range []struct {
		kind        TextKind
		cols, lines int
		role        Role
		v           View
		want        string
	}{
		{Characters, 16, 2, Left, draw, "RESULT 1/2-1/2"},
		{Characters, 16, 2, Both, draw, " 1/2-1/2 "},
		{Characters, 20, 4, Both, draw, "RESULT 1/2-1/2"},
		{Characters, 16, 2, Both, result, "> 1/2-1/2"},
		{Segments, 4, 1, Left, result, "=-="},
		{Segments, 8, 1, Both, result, "=-="},
	} {
		got := NewTextScreen(tc.kind, tc.cols, tc.lines, tc.role).Render(&tc.v)
		if !strings.Contains(got, tc.want) || strings.Contains(got, "½") {
			t.Errorf("%v %dx%d %v: %q, want %q in it", tc.kind, tc.cols, tc.lines, tc.role, got, tc.want)
		}
	}
	if w := textW("½-½"); w != 2*bitfont.Lookup('½').W+bitfont.Lookup('-').W+2*bitfont.Spacing || !bitfont.Has('½') {
		t.Errorf("½-½ is %d pixels wide on a panel, want the font's ½ twice", w)
	}
	if fitText("½-½", 5) != "½" || fitText("½-½", 4) != "" {
		t.Errorf("fitText cuts ½: %q %q", fitText("½-½", 5), fitText("½-½", 4))
	}
}
