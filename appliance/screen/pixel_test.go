package screen

import (
	"image"
	"math"
	"testing"

	"github.com/zeitnot/zeitnot/drivers/display"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/devices/v3/ssd1306/image1bit"
)

func lit(f *image1bit.VerticalLSB, r image.Rectangle) (on, all int) {
	r = r.Intersect(f.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if f.BitAt(x, y) {
				on++
			}
			all++
		}
	}
	return on, all
}

func drawView(s *PixelScreen, v View) *image1bit.VerticalLSB {
	f := display.NewFrame(s.Bounds())
	s.Draw(&v, f)
	return f
}

func runningView() View {
	v := View{Game: Game{Left: white(5345000), Right: black(3492000), Started: true, TenthsBelow: DefaultTenthsBelow}}
	v.Game.Left.Running, v.Game.Left.ToMove = true, true
	v.Game.Left.ShowMoves, v.Game.Left.Moves = true, 12
	v.Game.Right.ShowMoves, v.Game.Right.Moves = true, 12
	return v
}

// The running side has a solid bar under its time, the other side none:
// that is what shows across the room which clock runs. On a low panel
// the header band and the block beside the time are filled.
func TestRunningSideMark(t *testing.T) {
	v := runningView()
	for _, opts := range []*PixelOpts{nil, &OLED096, &OLED130} {
		ls := NewPixelScreenOpts(image.Rect(0, 0, 128, 64), Left, opts)
		left := drawView(ls, v)
		right := drawView(NewPixelScreenOpts(image.Rect(0, 0, 128, 64), Right, opts), v)
		z := ls.sides[0].zone
		bar := image.Rect(0, z.Min.Y+barShift, 128, z.Max.Y-barShift)
		if on, all := lit(left, bar); on*100 < all*90 {
			t.Errorf("%v: running side: %d of %d bar pixels lit, want at least 90%%", opts, on, all)
		}
		if on, _ := lit(right, z); on != 0 {
			t.Errorf("%v: waiting side: %d pixels lit in the bar's place", opts, on)
		}
	}

	v.Game.Left.Running, v.Game.Left.ToMove = false, false
	v.Game.Right.Running, v.Game.Right.ToMove = true, true
	bs := NewPixelScreen(image.Rect(0, 0, 128, 64), Both)
	both := drawView(bs, v)
	l, _ := lit(both, bs.sides[0].zone)
	r, all := lit(both, bs.sides[1].zone)
	if r*100 < all*80 || l != 0 {
		t.Errorf("both, right running: bar pixels lit left %d, right %d of %d", l, r, all)
	}

	low := NewPixelScreen(image.Rect(0, 0, 128, 32), Right)
	f := drawView(low, v)
	if on, all := lit(f, image.Rect(0, 0, 128, 9)); on*100 < all*75 {
		t.Errorf("128x32 running side: %d of %d header pixels lit, want at least 75%%", on, all)
	}
	b := low.sides[0].block
	if on, all := lit(f, image.Rect(b.Min.X+barShift, b.Min.Y, b.Max.X-barShift, b.Max.Y)); on != all {
		t.Errorf("128x32 running side: %d of %d block pixels lit", on, all)
	}
	if on, _ := lit(drawView(NewPixelScreen(image.Rect(0, 0, 128, 32), Left), v), b); on != 0 {
		t.Errorf("128x32 waiting side: %d pixels lit in the block", on)
	}
}

// The marks seen from afar are as large as the README's figures say, on
// the panels it names.
func TestMarkSizes(t *testing.T) {
	cases := []struct {
		name                    string
		opts                    *PixelOpts
		w, h                    int
		runRows, runCols, lettr int
	}{
		{"0.96in", &OLED096, 128, 64, 18, 18, 26},
		{"default 128x64", nil, 128, 64, 18, 18, 26},
		{"1.3in", &OLED130, 128, 64, 13, 13, 19},
		{"0.91in", &OLED091, 128, 32, 17, 17, 25},
		{"default 128x32", nil, 128, 32, 17, 17, 25},
	}
	for _, tc := range cases {
		m := panelMarks(tc.opts, tc.w, tc.h)
		if m.runRows != tc.runRows || m.runCols != tc.runCols || m.letter != tc.lettr {
			t.Errorf("%s: marks %+v, want run %dx%d, letters %d", tc.name, m, tc.runCols, tc.runRows, tc.lettr)
		}
	}
	// 1 arcmin at 10 m and 5 arcmin at 3 m.
	if d := span(runDistance, runArcmin); d < 2900*physic.MicroMetre || d > 2920*physic.MicroMetre {
		t.Errorf("1' at 10 m: %v", d)
	}
	if d := span(readDistance, letterArcmin); d < 4350*physic.MicroMetre || d > 4370*physic.MicroMetre {
		t.Errorf("5' at 3 m: %v", d)
	}

	// Drawn: the lit bar and the flag mark's letters.
	for _, opts := range []*PixelOpts{&OLED096, &OLED130} {
		s := NewPixelScreenOpts(image.Rect(0, 0, 128, 64), Left, opts)
		v := runningView()
		f := drawView(s, v)
		rows := 0
		for y := 0; y < 64; y++ {
			if on, _ := lit(f, image.Rect(0, y, 128, y+1)); on == 128 {
				rows++
			}
		}
		if rows < s.marks.runRows {
			t.Errorf("%v: running bar %d rows, want %d", *opts, rows, s.marks.runRows)
		}
		v.Game.Left = white(0)
		v.Game.Left.Flag, v.Game.Left.FirstFlag = true, true
		f = drawView(s, v)
		mark := inkBox(f, s.sides[0].flag)
		if mark.Dy() < s.marks.letter {
			t.Errorf("%v: flag mark %d px high, want %d", *opts, mark.Dy(), s.marks.letter)
		}
		if tb := inkBox(f, s.sides[0].flagged.r); tb.Dy() < s.marks.letter-1 {
			t.Errorf("%v: time above the flag mark %d px high, want %d", *opts, tb.Dy(), s.marks.letter)
		}
	}
}

// Burn-in: the running bar moves one row a minute of the running clock
// through three positions and back; within a minute it stands still.
func TestRunningBarMoves(t *testing.T) {
	s := NewPixelScreen(image.Rect(0, 0, 128, 64), Left)
	z := s.sides[0].zone
	top := func(ms int64) int {
		v := runningView()
		v.Game.Left.Ms = ms
		return inkBox(drawView(s, v), z).Min.Y - z.Min.Y
	}
	var got []int
	for m := int64(0); m < 8; m++ {
		a, b := top(m*60000+1000), top(m*60000+59999)
		if a != b {
			t.Errorf("minute %d: the bar moved within the minute (%d, %d)", m, a, b)
		}
		got = append(got, a)
	}
	want := []int{0, 1, 2, 1, 0, 1, 2, 1}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("bar offsets by minute %v, want %v", got, want)
		}
	}
}

// inkBox is the bounding box of the lit pixels of f inside r.
func inkBox(f *image1bit.VerticalLSB, r image.Rectangle) image.Rectangle {
	box := image.Rectangle{}
	first := true
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if !f.BitAt(x, y) {
				continue
			}
			p := image.Rect(x, y, x+1, y+1)
			if first {
				box, first = p, false
			} else {
				box = box.Union(p)
			}
		}
	}
	return box
}

// A running time keeps its place: going from 10:05 to 9:55 the last digit
// does not move, and the digits grow when the last hour starts.
func TestTimeLayoutIsStable(t *testing.T) {
	for _, d := range goldenDisplays {
		s := NewPixelScreenOpts(image.Rect(0, 0, d.w, d.h), d.role, d.opts)
		tb := s.sides[0].time.r
		box := func(ms int64) image.Rectangle {
			v := View{Game: Game{Left: white(ms), Right: white(ms), TenthsBelow: DefaultTenthsBelow}}
			return inkBox(drawView(s, v), tb)
		}
		a, b := box(605000), box(595000)
		if a.Max.X != b.Max.X {
			t.Errorf("%s: 10:05 ends at x=%d, 9:55 at x=%d", d.name, a.Max.X, b.Max.X)
		}
		hour, last := box(3600000), box(3599000)
		if last.Dy() <= hour.Dy() {
			t.Errorf("%s: 59:59 is %d px high, 1:00:00 %d: want larger digits in the last hour", d.name, last.Dy(), hour.Dy())
		}
		if !a.In(tb) || !hour.In(tb) || hour.Dx() > tb.Dx() {
			t.Errorf("%s: time ink %v / %v outside its box %v", d.name, a, hour, tb)
		}
		if d.h == 64 && d.role != Both && last.Dy() < 32 {
			t.Errorf("%s: 59:59 digits only %d px high", d.name, last.Dy())
		}
	}
}

// The two fallen flags look different, and the flag shows at all.
func TestFlagsDiffer(t *testing.T) {
	s := NewPixelScreen(image.Rect(0, 0, 128, 64), Both)
	v := View{Game: Game{Left: white(0), Right: black(0), Started: true}}
	plain := drawView(s, v)
	v.Game.Left.Flag, v.Game.Left.FirstFlag = true, true
	v.Game.Right.Flag = true
	f := drawView(s, v)
	status := s.sides[0].flag
	if on, _ := lit(plain, status); on != 0 {
		t.Fatalf("no flag: %d pixels lit in the flag mark's place", on)
	}
	first := subFrame(f, status)
	second := subFrame(f, s.sides[1].flag)
	if first == second {
		t.Error("the first and the second flag are drawn the same")
	}
	if first == "" {
		t.Error("no flag drawn")
	}
}

// subFrame returns the pixels of r as a string of '#' and '.'.
func subFrame(f *image1bit.VerticalLSB, r image.Rectangle) string {
	b := make([]byte, 0, r.Dx()*r.Dy())
	any := false
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if f.BitAt(x, y) {
				b = append(b, '#')
				any = true
			} else {
				b = append(b, '.')
			}
		}
	}
	if !any {
		return ""
	}
	return string(b)
}

// Draw clears what was there, and keeps to the screen's bounds.
func TestDrawClearsAndClips(t *testing.T) {
	s := NewPixelScreen(image.Rect(0, 0, 128, 32), Left)
	v := runningView()
	want := drawView(s, v)
	dirty := display.NewFrame(image.Rect(0, 0, 128, 32))
	for i := range dirty.Pix {
		dirty.Pix[i] = 0xFF
	}
	s.Draw(&v, dirty)
	for i := range want.Pix {
		if want.Pix[i] != dirty.Pix[i] {
			t.Fatalf("drawing on a dirty frame differs at byte %d", i)
		}
	}
	big := display.NewFrame(image.Rect(0, 0, 200, 100))
	s.Draw(&v, big)
	if on, _ := lit(big, image.Rect(0, 32, 200, 100)); on != 0 {
		t.Errorf("%d pixels lit below a 128x32 screen", on)
	}
	if on, _ := lit(big, image.Rect(128, 0, 200, 32)); on != 0 {
		t.Errorf("%d pixels lit right of a 128x32 screen", on)
	}
}

// Nothing panics, whatever the View, the bounds or the frame.
func TestDrawAnything(t *testing.T) {
	views := []View{
		{},
		{Kind: Kind(99)},
		{Game: Game{Left: Player{Ms: math.MaxInt64, Periods: true, Period: math.MinInt, ShowMoves: true, Moves: math.MaxInt}, Right: Player{Ms: math.MinInt64, Delay: true, ToMove: true, DelayMs: math.MinInt64}, TenthsBelow: math.MaxInt64, Banner: string(make([]byte, 300)), Paused: true}},
		{Game: Game{Left: Player{Ms: -5, Flag: true, FirstFlag: true, Overstep: true, Overtime: true, OTLeft: -1, Delay: true, DelayMs: math.MaxInt64, ToMove: true, Running: true}, Right: Player{Ms: 1, Flag: true, FirstFlag: true, CountUp: true}, Banner: "A VERY LONG WARNING THAT DOES NOT FIT ANYWHERE AT ALL", Paused: true}},
		{Kind: KindMenu},
		{Kind: KindMenu, Menu: Menu{Items: []string{""}, Cursor: -3, Editing: true, Field: [2]int{5, -2}}},
		{Kind: KindMenu, Menu: Menu{Title: "ÄÖÜ ☃ \x00\xff", Items: []string{"a", "b", "ccccccccccccccccccccccccccccccccccccccccccccccc"}, Cursor: 99, Editing: true, Field: [2]int{-9, 99}}},
		{Kind: KindMenu, Menu: Menu{Items: make([]string, 1000), Cursor: 500, Hint: "x"}},
		{Kind: KindMessage},
		{Kind: KindMessage, Message: []string{"", "", "averyveryveryveryveryverylongwordwithoutanyspacesatallinit", "   ", "\n\t"}},
		{Kind: KindMessage, Message: make([]string, 100)},
	}
	sizes := []image.Rectangle{
		image.Rect(0, 0, 128, 64), image.Rect(0, 0, 128, 32), image.Rect(0, 0, 0, 0), image.Rect(0, 0, 1, 1),
		image.Rect(0, 0, 7, 3), image.Rect(0, 0, 96, 16), image.Rect(0, 0, 256, 128), image.Rect(5, 3, 40, 20),
		image.Rect(10, 10, 0, 0),
	}
	for _, b := range sizes {
		for _, role := range []Role{Left, Right, Both, Role(42)} {
			s := NewPixelScreen(b, role)
			for i := range views {
				s.Draw(&views[i], display.NewFrame(b.Canon()))
				s.Draw(&views[i], display.NewFrame(image.Rect(0, 0, 128, 64)))
				s.Draw(&views[i], nil)
				s.Draw(&views[i], &image1bit.VerticalLSB{Rect: image.Rect(0, 0, 128, 64)})
				s.Draw(&views[i], &image1bit.VerticalLSB{Rect: image.Rect(0, 0, 128, 64), Stride: 1, Pix: make([]byte, 8)})
			}
			s.Draw(nil, display.NewFrame(image.Rect(0, 0, 128, 64)))
		}
	}
}

func TestDrawAllocs(t *testing.T) {
	v := runningView()
	v.Game.Left.Periods, v.Game.Left.Period = true, 2
	v.Game.Right.Delay, v.Game.Right.DelayMs = true, 3000
	menu := View{Kind: KindMenu, Menu: Menu{Title: "Start game", Items: []string{"a", "b", "c", "d", "e", "f", "g"}, Cursor: 3, Hint: "+/-"}}
	msg := View{Kind: KindMessage, Message: []string{"zeitnot.toml:12: tenths_below: want a duration", "x"}}
	flags := View{Game: Game{Left: white(0), Right: black(3000), Started: true}}
	flags.Game.Left.Flag, flags.Game.Left.FirstFlag = true, true
	flags.Game.Right.Flag, flags.Game.Right.Running = true, true
	for _, d := range goldenDisplays {
		s := NewPixelScreenOpts(image.Rect(0, 0, d.w, d.h), d.role, d.opts)
		f := display.NewFrame(image.Rect(0, 0, d.w, d.h))
		for _, view := range []*View{&v, &menu, &msg, &flags} {
			if n := testing.AllocsPerRun(20, func() {
				view.Game.Left.Ms -= 100
				view.Game.Paused = !view.Game.Paused
				view.Game.Banner = "RECOVERED"
				s.Draw(view, f)
			}); n != 0 {
				t.Errorf("%s kind %d: %v allocations per frame", d.name, view.Kind, n)
			}
		}
	}
}

func BenchmarkDrawGame128x64(b *testing.B) {
	s := NewPixelScreen(image.Rect(0, 0, 128, 64), Left)
	f := display.NewFrame(image.Rect(0, 0, 128, 64))
	v := runningView()
	v.Game.Left.Periods, v.Game.Left.Period = true, 2
	b.ReportAllocs()
	for b.Loop() {
		v.Game.Left.Ms -= 1000
		if v.Game.Left.Ms < 0 {
			v.Game.Left.Ms = 5400000
		}
		s.Draw(&v, f)
	}
}

func BenchmarkDrawBoth128x64(b *testing.B) {
	s := NewPixelScreen(image.Rect(0, 0, 128, 64), Both)
	f := display.NewFrame(image.Rect(0, 0, 128, 64))
	v := runningView()
	b.ReportAllocs()
	for b.Loop() {
		v.Game.Left.Ms -= 100
		if v.Game.Left.Ms < 0 {
			v.Game.Left.Ms = 5400000
		}
		s.Draw(&v, f)
	}
}

func BenchmarkNewPixelScreen(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		NewPixelScreen(image.Rect(0, 0, 128, 64), Both)
	}
}
