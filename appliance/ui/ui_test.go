package ui

import (
	"os/exec"

	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/journal"

	"github.com/zeitnot/zeitnot/appliance/screen"
	"github.com/zeitnot/zeitnot/drivers/button"
	"github.com/zeitnot/zeitnot/drivers/buzzer"
	"github.com/zeitnot/zeitnot/drivers/buzzer/buzzertest"
	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/preset"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
)

const ms = time.Millisecond

// driver plays button presses into a core on a virtual clock and counts
// them, as an arbiter's fingers would.
type driver struct {
	t       *testing.T
	c       *Core
	now     time.Duration
	presses int
	wakes   int
	dir     string // the state directory, if any
}

func newDriver(t *testing.T, opts Opts) *driver {
	if opts.Settings.Control == "" {
		opts.Settings = DefaultSettings
	}
	return &driver{t: t, c: New(opts)}
}

// wait lets d of time pass, waking the core when it asks.
func (d *driver) wait(dur time.Duration) {
	end := d.now + dur
	for {
		next, ok := d.c.NextWake(d.now)
		if !ok || next > end {
			break
		}
		d.now = next
		d.wakes++
		d.c.Tick(d.now)
	}
	d.now = end
	d.c.Tick(d.now)
}

func (d *driver) ev(name string, k button.Kind) {
	d.c.Button(button.Event{Button: name, Kind: k, At: d.now})
}

// press is a short press: down, 80 ms, up, 120 ms.
func (d *driver) press(names ...string) {
	for _, n := range names {
		d.presses++
		d.ev(n, button.Press)
		d.wait(80 * ms)
		d.ev(n, button.Release)
		d.wait(120 * ms)
	}
}

// hold is a long press: down, hold after 1.5 s, up.
func (d *driver) hold(name string) {
	d.presses++
	d.ev(name, button.Press)
	d.wait(1500 * ms)
	d.ev(name, button.Hold)
	d.wait(100 * ms)
	d.ev(name, button.Release)
	d.wait(100 * ms)
}

func (d *driver) status() Status { return d.c.Status(d.now) }

func TestPowerUpAndPlay(t *testing.T) {
	d := newDriver(t, Opts{})
	v := d.c.View(0)
	if v.Kind != screen.KindGame || v.Game.Left.Ms != 5430000 || !v.Game.Left.White || v.Game.Right.White {
		t.Fatalf("power-up view %+v", v.Game)
	}
	if v.Game.Banner != "FIDE 90/40+30" {
		t.Errorf("banner %q, want the control's name", v.Game.Banner)
	}
	d.press(Left) // White's lever before the start: nothing
	if d.status().Started {
		t.Fatal("White's lever started the clock")
	}
	d.press(Right) // Black's lever starts White's clock
	st := d.status()
	if !st.Started || st.Running != "white" {
		t.Fatalf("after Black's lever: %+v", st)
	}
	d.wait(10 * time.Second)
	d.press(Left)
	st = d.status()
	if st.Running != "black" || st.White.Moves != 1 {
		t.Fatalf("after White's move: running %s moves %d", st.Running, st.White.Moves)
	}
	// White's clock ran from the start press to this press: 10 s plus the
	// 200 ms the starting press took in this script.
	if want := int64(5430000 - 10000 - 200 + 30000); st.White.Ms != want {
		t.Errorf("white %d ms, want %d", st.White.Ms, want)
	}
}

func TestLeverInstantIsTheEdge(t *testing.T) {
	d := newDriver(t, Opts{})
	d.press(Right)
	start := d.now - 200*ms
	// The loop gets to the event 30 ms late; the engine must use the edge.
	d.wait(5 * time.Second)
	edge := d.now
	d.wait(30 * ms)
	d.c.Button(button.Event{Button: Left, Kind: button.Press, At: edge})
	st := d.status()
	used := (edge - start).Milliseconds()
	if want := 5430000 - used + 30000; st.White.Ms != want {
		t.Errorf("white %d, want %d (press at its edge)", st.White.Ms, want)
	}
}

func TestPauseAndPlusTwo(t *testing.T) {
	d := newDriver(t, Opts{})
	d.press(Right)
	d.wait(3 * time.Second)
	d.presses = 0
	d.press(Pause)
	if !d.status().Paused {
		t.Fatal("pause did not pause")
	}
	before := d.status().Black.Ms
	d.press(Plus)
	if d.c.ScreenName() != "menu:+2:00-to?" {
		t.Fatalf("screen %q after plus", d.c.ScreenName())
	}
	d.press(Right) // Black's lever: Black gets +2:00
	if got := d.status().Black.Ms; got != before+120000 {
		t.Errorf("black %d, want %d", got, before+120000)
	}
	d.press(Pause)
	if d.presses > 5 {
		t.Errorf("+2:00 took %d presses from a running clock, want at most 5", d.presses)
	}
	if st := d.status(); st.Paused || st.Running != "white" {
		t.Errorf("not resumed: %+v", st)
	}
	t.Logf("+2:00: %d presses (pause, plus, lever, resume)", d.presses)
}

func TestSetTimePresses(t *testing.T) {
	d := newDriver(t, Opts{})
	d.press(Right)
	d.wait(time.Second)
	d.presses = 0
	d.press(Pause)
	d.hold(OK)
	if d.c.ScreenName() != "menu:arbiter" {
		t.Fatalf("screen %q", d.c.ScreenName())
	}
	d.press(OK)                               // Time < (White): 1:30:29
	d.press(OK)                               // hours stay 1
	d.press(Left, Minus, Minus, Minus, Minus) // minutes 30 -> 20 -> 16
	d.press(OK)
	d.press(Right, Right) // seconds 29 -> 49
	d.press(OK)
	if d.c.ScreenName() != "menu:arbiter" {
		t.Fatalf("screen %q after the form", d.c.ScreenName())
	}
	d.press(Pause) // leave the menu
	d.press(Pause) // resume
	if got := d.status().White.Ms; (got+999)/1000 != 3600+16*60+49 {
		t.Errorf("white %d ms, want 1:16:49", got)
	}
	if d.presses > 20 {
		t.Errorf("set a time took %d presses", d.presses)
	}
	t.Logf("set a time (1:30:29 -> 1:16:49) and resume: %d presses", d.presses)
}

// TestEveryPresetWithinFourPresses walks every path of the menu's preset
// tree: hold ok, then up to three picks. Every preset's control must be
// reached.
func TestEveryPresetWithinFourPresses(t *testing.T) {
	reached := map[string]int{}
	keys := []string{Left, Right, Minus}
	var walk func(path []string)
	walk = func(path []string) {
		d := newDriver(t, Opts{Settings: withControl("^")})
		d.hold(OK)
		d.press(path...)
		if d.c.ScreenName() == "game" {
			clk := d.c.game.Clock()
			name := sameAs(preset.Preset{Spec: timecontrol.FormatPair(clk.Controls()), Options: clk.Options()})
			if reached[name] == 0 || reached[name] > d.presses {
				reached[name] = d.presses
			}
			return
		}
		if len(path) == 3 {
			return
		}
		for _, k := range append(keys, Plus) {
			walk(append(path[:len(path):len(path)], k))
		}
	}
	for _, k := range keys {
		walk([]string{k})
	}
	d := newDriver(t, Opts{})
	for _, p := range d.c.allPresets() {
		// A preset that equals another (online-3-2 is fide-blitz-3) is
		// reached as that one.
		n, ok := reached[sameAs(p)]
		if !ok {
			t.Errorf("preset %q not reachable within four presses", p.Name)
		} else if n > 4 {
			t.Errorf("preset %q takes %d presses", p.Name, n)
		}
	}
}

func withControl(spec string) Settings {
	s := DefaultSettings
	s.Control = spec
	return s
}

func TestRecoveryAfterPowerCut(t *testing.T) {
	dir := t.TempDir()
	d := newDriver(t, Opts{StateDir: dir})
	d.press(Right)
	d.wait(20 * time.Second)
	d.press(Left)
	d.wait(7*time.Second + 400*ms)
	truth := d.status()
	// Power cut: the core is gone without a word. A new boot starts its
	// monotonic clock from zero.
	d2 := newDriver(t, Opts{StateDir: dir})
	st := d2.status()
	if !st.Recovered || !st.Paused || st.Running != "none" {
		t.Fatalf("recovered state %+v", st)
	}
	if st.White.Ms != truth.White.Ms || st.White.Moves != 1 {
		t.Errorf("white %d/%d, truth %d/1", st.White.Ms, st.White.Moves, truth.White.Ms)
	}
	if diff := st.Black.Ms - truth.Black.Ms; diff < 0 || diff > 1000 {
		t.Errorf("running side off by %d ms, want 0 to 1000", diff)
	}
	if v := d2.c.View(d2.now); v.Game.Banner != "RECOVERED" {
		t.Errorf("banner %q", v.Game.Banner)
	}
	d2.wait(time.Minute) // stays paused
	if d2.status().Black.Ms != st.Black.Ms {
		t.Error("recovered clock runs before the arbiter resumes")
	}
	d2.press(Pause)
	if s := d2.status(); s.Recovered || s.Running != "black" {
		t.Errorf("after resume: %+v", s)
	}
	d2.wait(2 * time.Second)
	d2.press(Right)
	// And a second cut recovers the resumed game, move included.
	d3 := newDriver(t, Opts{StateDir: dir})
	if s := d3.status(); s.Black.Moves != 1 || !s.Recovered {
		t.Errorf("second recovery: %+v", s)
	}
}

func TestFlagAlarmAndGameOver(t *testing.T) {
	rec := &buzzertest.Recorder{}
	d := newDriver(t, Opts{Settings: withControl("bullet-1"), Sound: rec})
	d.press(Right)
	d.wait(61 * time.Second)
	st := d.status()
	if st.FirstFlag != "white" || !st.White.Flag {
		t.Fatalf("no flag: %+v", st)
	}
	pats := rec.Patterns()
	if len(pats) < 2 || pats[len(pats)-1] != buzzer.Alarm || pats[len(pats)-2] != buzzer.DoubleBeep {
		t.Errorf("sounds %v, want the low-time warning then the alarm", pats)
	}
	// The clock stopped at the flag (every preset freezes): a short ok is
	// a new game on the same control.
	d.press(OK)
	if st := d.status(); st.Started || st.White.Ms != 60000 {
		t.Errorf("ok after the game: %+v", st)
	}
}

func TestWhiteOnTheRight(t *testing.T) {
	s := DefaultSettings
	s.WhiteLeft = false
	d := newDriver(t, Opts{Settings: s})
	d.press(Left) // Black's lever is now the left one
	if st := d.status(); st.Running != "white" || st.Left != "black" {
		t.Fatalf("%+v", st)
	}
	v := d.c.View(d.now)
	if !v.Game.Right.White || !v.Game.Right.Running {
		t.Errorf("right display should show White running: %+v", v.Game.Right)
	}
}

// TestWakeUps counts the loop's wake-ups while a clock runs: whole seconds
// shown (at most 2 a second, checkpoints included), then tenths.
func TestWakeUps(t *testing.T) {
	d := newDriver(t, Opts{Settings: withControl("300"), StateDir: t.TempDir()})
	d.press(Right)
	d.wakes = 0
	d.wait(60 * time.Second)
	if perSec := float64(d.wakes) / 60; perSec > 2 {
		t.Errorf("%.2f wake-ups per second with whole seconds shown", perSec)
	} else {
		t.Logf("whole seconds: %.2f wake-ups per second", perSec)
	}
	d.wait(220 * time.Second) // down to 20 s
	d.wakes = 0
	d.wait(10 * time.Second)
	if perSec := float64(d.wakes) / 10; perSec > 11 {
		t.Errorf("%.2f wake-ups per second in tenths", perSec)
	}
	// A clock that is not running sleeps until input.
	d.press(Pause)
	if _, ok := d.c.NextWake(d.now + 3*time.Second); ok {
		t.Error("paused clock still wants to wake")
	}
}

func TestCorrectionsLogged(t *testing.T) {
	dir := t.TempDir()
	d := newDriver(t, Opts{StateDir: dir})
	d.press(Right)
	d.wait(time.Second)
	d.press(Pause, Plus, Left, Pause)
	data, _ := os.ReadFile(filepath.Join(dir, "game.log"))
	if !strings.Contains(string(data), " add white +120000 *") {
		t.Errorf("journal lacks the correction:\n%s", data)
	}
}

// TestBothLeversAtOnce: the first edge wins and the twin press is ignored,
// whichever order they arrive in, and a lever held or hammered never
// switches the clock back.
func TestBothLeversAtOnce(t *testing.T) {
	d := newDriver(t, Opts{})
	// Before the start: both at the same instant. Black's lever starts
	// White's clock; White's lever in the same instant must not end
	// White's first move.
	d.ev(Right, button.Press)
	d.ev(Left, button.Press)
	d.wait(50 * ms)
	d.ev(Left, button.Release)
	d.ev(Right, button.Release)
	if st := d.status(); st.Running != "white" || st.White.Moves != 0 {
		t.Fatalf("both levers before the start: %+v", st)
	}
	d.wait(5 * time.Second)
	// White moves; Black's lever 3 ms later is the same slap.
	d.ev(Left, button.Press)
	d.wait(3 * ms)
	d.ev(Right, button.Press)
	if st := d.status(); st.Running != "black" || st.Black.Moves != 0 || st.White.Moves != 1 {
		t.Fatalf("both levers in play: %+v", st)
	}
	d.ev(Left, button.Release)
	d.ev(Right, button.Release)
	// 50 presses a second on White's lever, and White's lever held for
	// minutes: Black's clock runs on.
	for i := 0; i < 50; i++ {
		d.wait(10 * ms)
		d.ev(Left, button.Press)
		d.wait(10 * ms)
		d.ev(Left, button.Release)
	}
	d.ev(Left, button.Press)
	d.wait(500 * ms)
	d.ev(Left, button.Hold)
	d.wait(3 * time.Minute)
	d.ev(Left, button.Release)
	if st := d.status(); st.Running != "black" || st.White.Moves != 1 || st.Black.Moves != 0 {
		t.Fatalf("hammered and held lever: %+v", st)
	}
	// A real reply, a normal time later, counts.
	d.wait(time.Second)
	d.press(Right)
	if st := d.status(); st.Running != "white" || st.Black.Moves != 1 {
		t.Errorf("Black's move: %+v", st)
	}
}

func mountTmpfs(t *testing.T, opts string) string {
	dir := t.TempDir()
	if err := exec.Command("mount", "-t", "tmpfs", "-o", opts, "tmpfs", dir).Run(); err != nil {
		t.Skip("cannot mount a tmpfs here (needs root):", err)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	return dir
}

// TestReadOnlyStateDir starts the clock on a read-only state directory (a
// card the kernel remounted read-only): it keeps time and says so.
func TestReadOnlyStateDir(t *testing.T) {
	dir := mountTmpfs(t, "size=1m,ro")
	d := newDriver(t, Opts{StateDir: dir})
	d.press(Right)
	d.wait(2 * time.Second)
	d.press(Left)
	st := d.status()
	if st.White.Moves != 1 || st.Running != "black" {
		t.Errorf("clock stopped keeping time: %+v", st)
	}
	if st.Warning != "READ-ONLY" {
		t.Errorf("warning %q", st.Warning)
	}
}

// TestDiskFullMidGame fills the state directory's file system mid-game:
// the clock keeps time, warns, and the journal written so far recovers.
func TestDiskFullMidGame(t *testing.T) {
	dir := mountTmpfs(t, "size=64k")
	d := newDriver(t, Opts{StateDir: dir})
	d.press(Right)
	d.wait(2 * time.Second)
	d.press(Left)
	filler, _ := os.Create(filepath.Join(dir, "filler"))
	filler.Write(make([]byte, 128<<10)) // as much as fits
	filler.Close()
	// The journal's preallocated end still has room: the disk is full
	// once an hour of checkpoints has filled it.
	d.wait(75 * time.Minute)
	d.press(Right)
	st := d.status()
	if st.Black.Moves != 1 || st.Running != "white" {
		t.Errorf("clock stopped keeping time: %+v", st)
	}
	if st.Warning != "DISK FULL" {
		t.Errorf("warning %q", st.Warning)
	}
	r, err := journal.Recover(filepath.Join(dir, journal.File))
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Clock.State(r.Last).Player[clock.White].Moves; got != 1 {
		t.Errorf("durable journal has white moves %d, want 1", got)
	}
}

func TestCorrectMovesPeriodAndTurn(t *testing.T) {
	d := newDriver(t, Opts{})
	d.press(Right)
	d.wait(time.Second)
	d.press(Pause)
	d.hold(OK)
	d.press(Minus, Minus, Minus, Minus) // down to Moves <
	d.press(OK, Right, Plus, OK)        // 0 -> 10 -> 11
	d.press(Minus, Minus)               // down to Period <
	d.press(OK, Plus, OK)               // 1 -> 2
	d.press(Minus, Minus)               // down to To move
	d.press(OK)                         // Black to move on resume
	d.press(Pause, Pause)               // leave the menu, resume
	st := d.status()
	if st.White.Moves != 11 || st.White.Period != 2 || st.Running != "black" {
		t.Errorf("after corrections: moves %d period %d running %s", st.White.Moves, st.White.Period, st.Running)
	}
}
