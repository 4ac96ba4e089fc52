package daemon

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/screen"
	"github.com/zeitnot/zeitnot/appliance/ui"
	"github.com/zeitnot/zeitnot/drivers/display/displaytest"
	"github.com/zeitnot/zeitnot/drivers/profile"
)

// TestOutputsFollowTheFamily: a text display gets the segment or the
// character layout its type's family says, whatever the type is called.
func TestOutputsFollowTheFamily(t *testing.T) {
	ds := []struct {
		typ  string
		w, h int
		want screen.TextKind
	}{
		{"sim-segment", 4, 1, screen.Segments},
		{"tm1637", 6, 1, screen.Segments},
		{"sim-lcd", 16, 2, screen.Characters},
		{"hd44780-pcf8574", 20, 4, screen.Characters},
		{"hd44780", 8, 1, screen.Characters},
	}
	var open []profile.OpenDisplay
	for _, d := range ds {
		open = append(open, profile.OpenDisplay{
			Display: profile.Display{Name: d.typ, Role: "both", Type: d.typ},
			Text:    displaytest.NewText(d.typ, d.w, d.h),
		})
	}
	outs := NewOutputs(open)
	c := ui.New(ui.Opts{Settings: ui.DefaultSettings})
	v := c.View(0)
	for i, d := range ds {
		got := outs[i].ts.Render(&v)
		if want := screen.NewTextScreen(d.want, d.w, d.h, screen.Both).Render(&v); got != want {
			t.Errorf("%s: shows %q, want %q", d.typ, got, want)
		}
	}
}

// TestDisplayGoneAndBack: a display that stops answering mid-game is
// reported on the other display, in the status and the log; the clock keeps
// time; when the display answers again it gets the whole frame and the
// warning goes.
func TestDisplayGoneAndBack(t *testing.T) {
	left := displaytest.NewPixel("left", 128, 64)
	right := displaytest.NewPixel("right", 128, 64)
	var logged []string
	m := &Machine{
		Core: ui.New(ui.Opts{Settings: ui.DefaultSettings}),
		Outputs: NewOutputs([]profile.OpenDisplay{
			{Display: profile.Display{Name: "left", Role: "left", Type: "sim-oled"}, Pixel: left},
			{Display: profile.Display{Name: "right", Role: "right", Type: "sim-oled"}, Pixel: right},
		}),
		Log: func(s string) { logged = append(logged, s) },
	}
	now := time.Duration(0)
	m.Render(now)
	m.Core.Button(pressAt("right", now))
	gone := errors.New("i2c: remote I/O error")
	for i := 0; i < 5; i++ {
		now += time.Second
		left.FailNext(gone)
		m.Render(now)
	}
	st := m.Core.Status(now)
	if st.Warning != "DISPLAY left" || st.Running != "white" {
		t.Fatalf("status while the display is gone: %+v", st)
	}
	if v := m.Core.View(now); v.Game.Banner != "DISPLAY left" {
		t.Errorf("the other display does not say so: banner %q", v.Game.Banner)
	}
	if len(logged) != 1 || !strings.Contains(logged[0], `display "left"`) || !strings.Contains(logged[0], "remote I/O error") {
		t.Errorf("log %q: want one line naming the display and the error", logged)
	}
	now += time.Second
	m.Render(now) // it answers again
	if st := m.Core.Status(now); st.Warning != "" {
		t.Errorf("warning stays after the display is back: %q", st.Warning)
	}
	if d := displaytest.Diff(left.Snapshot(), right.Snapshot()); d == 0 {
		t.Error("the displays show the same frame; the left one should show White's side")
	}
	if st := m.Core.Status(now); st.White.Ms != 5430000-6000 {
		t.Errorf("the clock lost time while the display was gone: %d", st.White.Ms)
	}
}

// TestPanelSizes: a 1.3" SH1106 gets its marks sized for its larger
// pixels; the reference 0.96" and 0.91" SSD1306 panels for theirs.
func TestPanelSizes(t *testing.T) {
	for _, c := range []struct {
		typ  string
		size profile.Size
		want *screen.PixelOpts
	}{
		{"sh1106", profile.Size{W: 128, H: 64}, &screen.OLED130},
		{"ssd1306", profile.Size{W: 128, H: 64}, &screen.OLED096},
		{"ssd1306", profile.Size{W: 128, H: 32}, &screen.OLED091},
		{"tm1637", profile.Size{W: 4, H: 1}, nil},
	} {
		got := panelOpts(profile.Display{Type: c.typ, Size: c.size}.Diagonal())
		if got != c.want {
			t.Errorf("%s %v: %v, want %v", c.typ, c.size, got, c.want)
		}
	}
}
