package screen

import (
	"math"
	"strings"
	"testing"
	"unicode/utf8"

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
