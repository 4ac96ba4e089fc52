package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/config"
	"github.com/zeitnot/zeitnot/drivers/button"
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

// TestControlViewWhileRunning: holding ok while a clock runs shows the
// control and options, changes nothing, and never gets in the players'
// way: a lever still completes the move.
func TestControlViewWhileRunning(t *testing.T) {
	d := newDriver(t, Opts{})
	d.press(Right)
	d.hold(OK)
	st := d.status()
	if st.Screen != "menu:control" || st.Running != "white" {
		t.Fatalf("hold ok while running: screen %s running %s", st.Screen, st.Running)
	}
	v := d.c.View(d.now)
	if got := strings.Join(v.Menu.Items, "|"); !strings.Contains(got, `90/40+30'+30"`) || strings.Contains(got, "5400") || !strings.Contains(got, "after-flag freeze") {
		t.Errorf("view shows %q", got)
	}
	d.press(Left) // White completes a move while the view is up
	if st := d.status(); st.Screen != "game" || st.White.Moves != 1 || st.Running != "black" {
		t.Errorf("lever under the view: %+v", st)
	}
	d.hold(OK)
	d.wait(11 * time.Second)
	if st := d.status(); st.Screen != "game" {
		t.Errorf("view still up after 11 s: %s", st.Screen)
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
