package daemon

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/config"
	"github.com/zeitnot/zeitnot/appliance/screen"
	"github.com/zeitnot/zeitnot/appliance/ui"
	"github.com/zeitnot/zeitnot/drivers/display"
	"github.com/zeitnot/zeitnot/drivers/display/simdisplay"
	"github.com/zeitnot/zeitnot/drivers/profile"
)

// drawnAs is what a display of the sim profile shows when it draws v.
func drawnAs(od profile.OpenDisplay, v screen.View) []byte {
	frame := display.NewFrame(od.Pixel.Bounds())
	screen.NewPixelScreenOpts(od.Pixel.Bounds(), roleOf(od.Role), panelOpts(od.Diagonal())).Draw(&v, frame)
	return frame.Pix
}

func shown(t *testing.T, od profile.OpenDisplay) []byte {
	t.Helper()
	p, ok := od.Pixel.(*simdisplay.Pixel)
	if !ok {
		t.Fatalf("display %q is a %T, not a simulated pixel display", od.Name, od.Pixel)
	}
	return p.Snapshot().Pix
}

// TestFirstFrameIsTheNameThenTheRecoveredTimes: a restarted daemon shows
// the clock's name as soon as its displays are open, and no time until the
// game recovered from the journal is drawn at the first Step, with the
// times the journal justifies.
func TestFirstFrameIsTheNameThenTheRecoveredTimes(t *testing.T) {
	dir := t.TempDir()
	now := time.Duration(0)
	o := Opts{StateDir: dir, ConfigPath: filepath.Join(dir, "none.toml"), Profile: "sim", FallbackProfile: config.SimProfile,
		Now: func() time.Duration { return now }, Name: "zeitnot-7a3f"}

	// A game: White's clock runs for 4 s, then the daemon stops.
	m, devs := Setup(o, func(string) {})
	m.Input(pressAt(ui.Right, 0), 0)
	now = 4 * time.Second
	m.Step(now)
	m.Core.Session().Checkpoint(now)
	m.Core.Close()
	devs.Close()

	// Started again: before any Step, every display shows the name.
	now = 0
	m, devs = Setup(o, func(string) {})
	defer devs.Close()
	defer m.Core.Close()
	if len(devs.Displays) == 0 {
		t.Fatal("the sim profile opened no display")
	}
	for _, od := range devs.Displays {
		if got, want := shown(t, od), drawnAs(od, NameView("zeitnot-7a3f")); !bytes.Equal(got, want) {
			t.Errorf("display %q before the first Step: not the name frame", od.Name)
		}
	}
	at, what, ok := m.FirstFrame()
	if !ok || at != 0 || what != `the name "zeitnot-7a3f"` {
		t.Errorf("FirstFrame() = %v, %q, %v; want 0, the name, true", at, what, ok)
	}

	// The first Step draws the recovered game: paused, White's 4 s gone.
	now = 10 * time.Millisecond
	m.Step(now)
	st := m.Core.Session().State(now)
	if !m.Core.Session().Recovered() || !st.Paused {
		t.Fatalf("not recovered, paused: recovered %v, state %+v", m.Core.Session().Recovered(), st)
	}
	v := m.Core.View(now)
	if v.Kind != screen.KindGame {
		t.Fatalf("view after the first Step: kind %v, want the game", v.Kind)
	}
	for _, od := range devs.Displays {
		if got, want := shown(t, od), drawnAs(od, v); !bytes.Equal(got, want) {
			t.Errorf("display %q after the first Step: not the recovered game", od.Name)
		}
		if bytes.Equal(shown(t, od), drawnAs(od, NameView("zeitnot-7a3f"))) {
			t.Errorf("display %q still shows the name after the first Step", od.Name)
		}
	}
	if _, what, _ := m.FirstFrame(); !strings.HasPrefix(what, "the name") {
		t.Errorf("FirstFrame() after a Step: %q, want the name frame still", what)
	}
}

// TestFirstFrameWithoutNameFrame: when the name could not be drawn, the
// first frame is the first render that worked.
func TestFirstFrameWithoutNameFrame(t *testing.T) {
	m := &Machine{}
	if _, _, ok := m.FirstFrame(); ok {
		t.Fatal("a first frame before any was drawn")
	}
	m.framed(3*time.Second, "the clock")
	m.framed(5*time.Second, "the name \"x\"")
	if at, what, ok := m.FirstFrame(); !ok || at != 3*time.Second || what != "the clock" {
		t.Errorf("FirstFrame() = %v, %q, %v; want the first one kept", at, what, ok)
	}
}

func TestFirstFrameLine(t *testing.T) {
	line := FirstFrameLine(12_345_678_901, `the name "zeitnot-7a3f"`)
	if want := `first frame at 12.345678 s after boot: the name "zeitnot-7a3f"`; line != want {
		t.Fatalf("FirstFrameLine = %q, want %q", line, want)
	}
	at, what, err := ParseFirstFrame(line)
	if err != nil || at != 12_345_678*time.Microsecond || what != `the name "zeitnot-7a3f"` {
		t.Fatalf("ParseFirstFrame(%q) = %v, %q, %v", line, at, what, err)
	}
	for _, bad := range []string{
		"",
		"zeitnot running: paused",
		"first frame at ",
		"first frame at twelve s after boot: x",
		"first frame at -1.5 s after boot: x",
		"first frame at 1.5 s: x",
	} {
		if _, _, err := ParseFirstFrame(bad); err == nil {
			t.Errorf("ParseFirstFrame(%q): no error", bad)
		}
	}
}

func FuzzParseFirstFrame(f *testing.F) {
	f.Add(FirstFrameLine(1_500_000_000, "the clock"))
	f.Add("first frame at 1e3 s after boot: x")
	f.Fuzz(func(t *testing.T, line string) {
		at, _, err := ParseFirstFrame(line)
		if err == nil && at < 0 {
			t.Fatalf("ParseFirstFrame(%q) = %v: a negative instant", line, at)
		}
	})
}
