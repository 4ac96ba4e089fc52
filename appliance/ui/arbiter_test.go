package ui

import (
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/config"
	"github.com/zeitnot/zeitnot/appliance/screen"
	"github.com/zeitnot/zeitnot/drivers/button"
	"github.com/zeitnot/zeitnot/drivers/display"
	"github.com/zeitnot/zeitnot/engine/clock"
)

// oneMinute is a setting for a game whose flag falls quickly.
func oneMinute(after clock.AfterFlag) Opts {
	s := DefaultSettings
	s.Control = "60"
	s.Options.AfterFlag = after
	return Opts{Settings: s}
}

// TestLockNowKeepsAFlaggedGame: "Lock now" on a finished game locks the
// settings and nothing else; the ok that chose it does not go on to start
// a new game when the menu closes.
func TestLockNowKeepsAFlaggedGame(t *testing.T) {
	o := oneMinute(clock.Freeze)
	o.Settings.PINHash = config.HashPIN("1234")
	d := newDriver(t, o)
	d.press(Right)
	d.wait(61 * time.Second)
	if st := d.status(); st.FirstFlag != "white" {
		t.Fatalf("no flag after a minute: %+v", st)
	}
	d.hold(OK)              // the setup menu
	d.press(Plus)           // Setup
	d.press(Minus, OK)      // down to Settings
	d.press(Plus, Plus, OK) // up (wrapping, past Set PIN) to Lock now
	st := d.status()
	if !st.Locked {
		t.Fatalf("not locked: %+v", st)
	}
	if st.FirstFlag != "white" || !st.Started || st.White.Ms != 0 {
		t.Errorf("the flagged game was replaced: %+v", st)
	}
}

// TestNextGameAfterFlag: after a flag, one ok starts the next game on the
// same control (freeze), or the first ok stops the clock and the second
// starts the next game (continue); the display says which.
func TestNextGameAfterFlag(t *testing.T) {
	for _, c := range []struct {
		after  clock.AfterFlag
		oks    int
		banner []string // after the flag, after each ok but the last
	}{
		{clock.Freeze, 1, []string{"OK: NEW GAME"}},
		{clock.Continue, 2, []string{"OK: STOP CLOCK", "OK: NEW GAME"}},
	} {
		d := newDriver(t, oneMinute(c.after))
		d.press(Right)
		d.wait(61 * time.Second)
		st := d.status()
		if st.FirstFlag != "white" {
			t.Fatalf("%v: no flag: %+v", c.after, st)
		}
		if c.after == clock.Freeze && st.Running != "none" {
			t.Errorf("freeze: %s still shown running after the flag", st.Running)
		}
		d.presses = 0
		for i := 0; i < c.oks; i++ {
			if b := d.c.View(d.now).Game.Banner; b != c.banner[i] {
				t.Errorf("%v: banner %q before ok %d, want %q", c.after, b, i+1, c.banner[i])
			}
			d.press(OK)
		}
		st = d.status()
		if st.Started || st.White.Ms != 60000 || st.FirstFlag != "none" {
			t.Errorf("%v: after %d oks no new game: %+v", c.after, d.presses, st)
		}
		if d.presses != c.oks {
			t.Errorf("%v: %d presses", c.after, d.presses)
		}
	}
}

// TestWhiteSideAsksDuringAGame: swapping which lever plays White during a
// game asks first, and says what changed.
func TestWhiteSideAsksDuringAGame(t *testing.T) {
	d := newDriver(t, Opts{})
	d.press(Right)
	d.press(Pause)
	d.hold(OK)                // the arbiter's menu
	d.press(Plus, OK)         // up (wrapping) to Settings
	d.press(Plus, Plus, Plus) // up (wrapping, past Set PIN and Lock now) to "White left"
	d.press(Right)            // change it
	if st := d.status(); st.Left != "white" || !strings.HasPrefix(st.Screen, "menu:white-to-the-right") {
		t.Fatalf("changed without asking: left %s, screen %s", st.Left, st.Screen)
	}
	d.press(OK) // yes
	if st := d.status(); st.Left != "black" {
		t.Fatalf("after yes: left plays %s", st.Left)
	}
	d.press(Right, Pause) // and back: asked again; no
	if st := d.status(); st.Left != "black" {
		t.Errorf("after no: left plays %s", st.Left)
	}
	d.press(Pause, Pause) // leave the menus
	if b := d.c.View(d.now).Game.Banner; b != "RECOVERED" && !strings.Contains(d.status().Screen, "game") {
		t.Errorf("not back on the game screen: %s %q", d.status().Screen, b)
	}
}

// TestWhiteSideBeforeAGame: with no game under way there is nothing to
// confirm.
func TestWhiteSideBeforeAGame(t *testing.T) {
	d := newDriver(t, Opts{})
	d.hold(OK)
	d.press(Plus)             // Setup
	d.press(Minus, OK)        // Settings
	d.press(Plus, Plus, Plus) // up (wrapping) to "White left"
	d.press(Right)
	if st := d.status(); st.Left != "black" || st.Screen != "menu:settings" {
		t.Errorf("left %s screen %s", st.Left, st.Screen)
	}
}

// TestWhoRunsOnResume: after a pause the arbiter picks the clock that runs
// on resume in two presses: hold ok, that side's lever.
func TestWhoRunsOnResume(t *testing.T) {
	d := newDriver(t, Opts{})
	d.press(Right)
	d.wait(5 * time.Second)
	d.press(Left) // White moved: Black runs
	d.press(Pause)
	d.presses = 0
	d.hold(OK)
	d.press(Left) // White's clock runs next
	if d.presses != 2 {
		t.Fatalf("%d presses", d.presses)
	}
	d.press(Pause, Pause) // leave the menu, resume
	if st := d.status(); st.Running != "white" {
		t.Errorf("after resume %s runs, want white", st.Running)
	}
}

// displayKinds are the layouts the displays put a game on (appliance/screen):
// the pixel panels in every role and size, the segment displays and the
// character LCD.
var displayKinds = []struct {
	name  string
	draw  func(v *screen.View) string // what the display shows of v
	sides []string                    // whose time it shows: "left", "right"
}{
	{"128x64 left", pixelKind(128, 64, screen.Left, nil), []string{"left"}},
	{"128x64 right", pixelKind(128, 64, screen.Right, nil), []string{"right"}},
	{"128x64 both", pixelKind(128, 64, screen.Both, nil), []string{"left", "right"}},
	{"128x64 1.3in left", pixelKind(128, 64, screen.Left, &screen.OLED130), []string{"left"}},
	{"128x32 left", pixelKind(128, 32, screen.Left, nil), []string{"left"}},
	{"128x32 both", pixelKind(128, 32, screen.Both, nil), []string{"left", "right"}},
	{"4 digits left", textKind(screen.Segments, 4, 1, screen.Left), []string{"left"}},
	{"4 digits right", textKind(screen.Segments, 4, 1, screen.Right), []string{"right"}},
	{"8 digits left", textKind(screen.Segments, 8, 1, screen.Left), []string{"left"}},
	{"8 digits right", textKind(screen.Segments, 8, 1, screen.Right), []string{"right"}},
	{"8 digits both", textKind(screen.Segments, 8, 1, screen.Both), []string{"left", "right"}},
	{"16x2 LCD left", textKind(screen.Characters, 16, 2, screen.Left), []string{"left"}},
	{"16x2 LCD right", textKind(screen.Characters, 16, 2, screen.Right), []string{"right"}},
	{"16x2 LCD both", textKind(screen.Characters, 16, 2, screen.Both), []string{"left", "right"}},
}

func pixelKind(w, h int, role screen.Role, opts *screen.PixelOpts) func(v *screen.View) string {
	s := screen.NewPixelScreenOpts(image.Rect(0, 0, w, h), role, opts)
	return func(v *screen.View) string {
		f := display.NewFrame(image.Rect(0, 0, w, h))
		s.Draw(v, f)
		return string(f.Pix)
	}
}

func textKind(kind screen.TextKind, cols, lines int, role screen.Role) func(v *screen.View) string {
	s := screen.NewTextScreen(kind, cols, lines, role)
	return func(v *screen.View) string { return s.Render(v) }
}

// timesShown reports, for each display kind, the sides whose time the
// display does not show in v: changing that side's time (by ten minutes,
// which every layout shows) changes nothing on it.
func timesHidden(v screen.View) []string {
	var hidden []string
	for _, k := range displayKinds {
		was := k.draw(&v)
		for _, side := range k.sides {
			w := v
			if side == "left" {
				w.Game.Left.Ms += 600000
			} else {
				w.Game.Right.Ms += 600000
			}
			if k.draw(&w) == was {
				hidden = append(hidden, k.name+": "+side)
			}
		}
	}
	return hidden
}

// TestTimesShownWhileOKHeld: holding ok while a clock runs leaves both
// times on every display, locked or not, while it is held and after; the
// control shows beneath them for ControlShown. A player must always see
// both times while a clock runs.
func TestTimesShownWhileOKHeld(t *testing.T) {
	for _, locked := range []bool{false, true} {
		o := Opts{Settings: DefaultSettings}
		if locked {
			o.Settings.PINHash, o.Settings.Locked = config.HashPIN("1234"), true
		}
		d := newDriver(t, o)
		d.press(Right)
		d.wait(3 * time.Second)
		check := func(when string) {
			t.Helper()
			v := d.c.View(d.now)
			if hidden := timesHidden(v); len(hidden) > 0 {
				t.Errorf("locked %v, %s: times hidden on %q", locked, when, hidden)
			}
			if v.Game.Banner != "FIDE 90/40+30" {
				t.Errorf("locked %v, %s: banner %q, want the control", locked, when, v.Game.Banner)
			}
		}
		d.ev(OK, button.Press)
		d.wait(1500 * ms)
		d.ev(OK, button.Hold)
		check("ok held")
		d.wait(100 * ms)
		d.ev(OK, button.Release)
		d.wait(100 * ms)
		check("after the hold")
		if st := d.status(); st.Screen != "game" || st.Running != "white" {
			t.Errorf("locked %v: hold ok while running: screen %s, running %s", locked, st.Screen, st.Running)
		}
		d.press(Left) // White completes a move under the notice
		if st := d.status(); st.White.Moves != 1 || st.Running != "black" {
			t.Errorf("locked %v: lever under the notice: %+v", locked, st)
		}
		d.wait(ControlShown)
		if v := d.c.View(d.now); v.Game.Banner != "" {
			t.Errorf("locked %v: banner %q still up after %v", locked, v.Game.Banner, ControlShown)
		}
	}
}

// TestControlViewWhilePaused: the full Control view is for a paused clock:
// the arbiter's menu opens it, it changes nothing, and any button goes
// back to the menu.
func TestControlViewWhilePaused(t *testing.T) {
	d := newDriver(t, Opts{})
	d.press(Right)
	d.wait(3 * time.Second)
	d.press(Pause)
	d.hold(OK)                      // the arbiter's menu
	d.press(Plus, Plus, Plus, Plus) // up from the top: Settings, End game, the result, Control
	if v := d.c.View(d.now).Menu; v.Title != "Arbiter" || v.Items[v.Cursor] != "Control" {
		t.Fatalf("arbiter's menu: %q, cursor on %d", v.Items, v.Cursor)
	}
	d.press(OK)
	v := d.c.View(d.now)
	if got := strings.Join(v.Menu.Items, "|"); v.Menu.Title != "Control" || !strings.Contains(got, `90/40+30'+30"`) || strings.Contains(got, "5400") || !strings.Contains(got, "after-flag freeze") {
		t.Errorf("view %q shows %q", v.Menu.Title, got)
	}
	d.wait(time.Minute) // stays for the arbiter to read
	d.press(Left)       // any button: back, and the lever changes nothing
	if st := d.status(); st.Screen != "menu:arbiter" || st.Running != "none" || st.ToMove != "white" {
		t.Errorf("after a lever on the view: screen %s, running %s, to move %s", st.Screen, st.Running, st.ToMove)
	}
}

// TestSecondsShown: after a press the side's seconds show for a few
// seconds (1:30:30 checks the increment on a 4-digit display), and while
// minus is held; the loop wakes when the window ends.
func TestSecondsShown(t *testing.T) {
	d := newDriver(t, Opts{})
	d.press(Right)
	d.wait(2 * time.Second)
	d.c.Button(button.Event{Button: Left, Kind: button.Press, At: d.now})
	if v := d.c.View(d.now).Game; !v.Left.Seconds || v.Right.Seconds {
		t.Fatalf("after White's press: seconds left %v right %v", v.Left.Seconds, v.Right.Seconds)
	}
	end := d.now + SecondsShown
	if next, ok := d.c.NextWake(end - 10*time.Millisecond); !ok || next > end {
		t.Errorf("next wake %v, want at most %v", next, end)
	}
	d.c.Button(button.Event{Button: Left, Kind: button.Release, At: d.now})
	d.wait(SecondsShown)
	if v := d.c.View(d.now).Game; v.Left.Seconds {
		t.Error("seconds still shown after the window")
	}
	d.c.Button(button.Event{Button: Minus, Kind: button.Press, At: d.now})
	if v := d.c.View(d.now).Game; !v.Left.Seconds || !v.Right.Seconds {
		t.Error("minus held: seconds not shown")
	}
	d.c.Button(button.Event{Button: Minus, Kind: button.Release, At: d.now})
	if v := d.c.View(d.now).Game; v.Left.Seconds || v.Right.Seconds {
		t.Error("minus released: seconds still shown")
	}
}

// TestOverrunShown: when the kernel drops button edges, the displays say a
// press may be lost, the journal records it, and nothing else changes.
func TestOverrunShown(t *testing.T) {
	dir := t.TempDir()
	d := newDriver(t, Opts{StateDir: dir})
	d.press(Right)
	before := d.status()
	d.c.Button(button.Event{Button: Left, Kind: button.Overrun, At: d.now, Lost: 3})
	if b := d.c.View(d.now).Game.Banner; b != "PRESS LOST?" {
		t.Errorf("banner %q", b)
	}
	if st := d.status(); st.Running != before.Running || st.White.Moves != before.White.Moves {
		t.Errorf("an overrun changed the game: %+v", st)
	}
	d.wait(11 * time.Second)
	if b := d.c.View(d.now).Game.Banner; b == "PRESS LOST?" {
		t.Error("the warning never goes")
	}
	d.c.Close()
	if data, _ := os.ReadFile(filepath.Join(dir, "game.log")); !strings.Contains(string(data), "kernel dropped 3 edges of left") {
		t.Error("the journal does not record the overrun")
	}
}
