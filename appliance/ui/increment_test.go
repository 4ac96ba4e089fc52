package ui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/screen"
)

// TestPlusFivePerMoveBoth follows FIDE Guidelines III.4 on a 5-minute game
// without increment: White, to move with under two minutes, asks for an
// extra 5 s per move for both players. The arbiter gives it in four
// presses from the running clock (pause, hold ok: the arbiter's menu opens
// on "+5 s per move, both", ok: the clock asks to confirm, naming the
// result, ok), back on the paused game, which says so; it is journaled,
// once pause resumes every move of both sides gets 5 s, and the control
// holding ok shows beneath the times, the status and the hall's state show the control as played. The
// same place in the menu takes it back, confirmed the same way.
func TestPlusFivePerMoveBoth(t *testing.T) {
	dir := t.TempDir()
	d := newDriver(t, Opts{Settings: withControl("300"), StateDir: dir})
	d.press(Right) // Black's lever starts White's clock
	d.wait(190 * time.Second)
	d.press(Left) // White: about 1:50 left
	d.wait(5 * time.Second)
	before := d.status()
	d.press(Right) // Black: no increment
	if got := d.status().Black.Ms; got != before.Black.Ms {
		t.Fatalf("black %d ms after its move, want %d: no increment yet", got, before.Black.Ms)
	}
	d.wait(3 * time.Second)
	if st := d.status(); st.Running != "white" || st.White.Ms >= 120000 {
		t.Fatalf("white should be to move with under two minutes: %+v", st)
	}

	d.presses = 0
	d.press(Pause)
	d.hold(OK)
	if v := d.c.View(d.now).Menu; len(v.Items) == 0 || v.Items[0] != "+5 s per move, both" || v.Cursor != 0 {
		t.Fatalf("the arbiter's menu opens on %d of %q", v.Cursor, v.Items)
	}
	d.press(OK)
	if v := d.c.View(d.now).Menu; v.Title != "both: +5 s per move from now" || d.c.ScreenName() == "game" {
		t.Fatalf("ok asks %q (screen %s), want the confirmation naming the result", v.Title, d.c.ScreenName())
	}
	if st := d.status(); st.White.Increment != 0 {
		t.Fatalf("given before the confirmation: %+v", st.White)
	}
	d.press(OK)
	if d.presses != 4 {
		t.Errorf("+5 s per move took %d presses, want 4", d.presses)
	}
	if v := d.c.View(d.now); d.c.ScreenName() != "game" || v.Game.Banner != "+5s PER MOVE" || !v.Game.Paused {
		t.Errorf("after ok: screen %s, banner %q, paused %v", d.c.ScreenName(), v.Game.Banner, v.Game.Paused)
	}
	st := d.status()
	if st.White.Increment != 5000 || st.Black.Increment != 5000 || st.Control != "300" || st.Played != "300+5@2" {
		t.Errorf("status after +5 s: control %q, played %q, increments %d %d", st.Control, st.Played, st.White.Increment, st.Black.Increment)
	}
	d.press(Pause) // resume
	st = d.status()
	if st.Paused || st.Running != "white" {
		t.Fatalf("not resumed: %+v", st)
	}
	d.hold(OK) // the control beneath the times, while the clock runs
	// Both sides have made one move: the increment is for their moves
	// from the second on.
	if v := d.c.View(d.now); v.Kind != screen.KindGame || v.Game.Banner != `5'+5" from 2` {
		t.Errorf("hold ok while running shows %q", v.Game.Banner)
	}
	d.wait(ControlShown)

	// The next moves of both sides get 5 s: a press at the instant of
	// the reading adds exactly that.
	moves := func(want int64) {
		t.Helper()
		for i := 0; i < 2; i++ {
			for _, lever := range []string{Left, Right} {
				d.wait(2 * time.Second)
				st := d.status()
				side, ms := "white", st.White.Ms
				if lever == Right {
					side, ms = "black", st.Black.Ms
				}
				d.press(lever)
				after := d.status()
				got := after.White.Ms
				if lever == Right {
					got = after.Black.Ms
				}
				if got != ms+want {
					t.Errorf("%s's move %d: %d ms, want %d (+%d ms)", side, i+1, got, ms+want, want)
				}
			}
		}
	}
	moves(5000)

	// Taken back: pause, hold ok, up past Settings and End game, ok, ok.
	d.press(Pause)
	d.hold(OK)
	items := d.c.View(d.now).Menu.Items
	if n := len(items); n < 3 || items[n-3] != "Take back +5 s per move" || slices.Contains(items, "+5 s per move, both") {
		t.Fatalf("with the increment given, the arbiter's menu is %q", items)
	}
	d.press(Plus, Plus, Plus, OK)
	if v := d.c.View(d.now).Menu; v.Title != "both: back to 5'" {
		t.Fatalf("take back asks %q", v.Title)
	}
	d.press(OK)
	if v := d.c.View(d.now); v.Game.Banner != "NO +5s PER MOVE" {
		t.Errorf("banner %q", v.Game.Banner)
	}
	if st := d.status(); st.White.Increment != 0 || st.Played != "" {
		t.Errorf("status after taking it back: played %q, increment %d", st.Played, st.White.Increment)
	}
	d.press(Pause)
	moves(0)

	data, _ := os.ReadFile(filepath.Join(dir, "game.log"))
	if !strings.Contains(string(data), " increment both 5000 *") || !strings.Contains(string(data), " increment both 0 *") {
		t.Errorf("journal lacks the corrections:\n%s", data)
	}
}

// TestPlusFiveInTheList: with two minutes or more for the side to move,
// the arbiter's menu opens on the time, as ever, and "+5 s per move, both"
// sits above End game: hold ok, plus three times, ok, ok.
func TestPlusFiveInTheList(t *testing.T) {
	d := newDriver(t, Opts{Settings: withControl("3600")})
	d.press(Right)
	d.wait(time.Second)
	d.press(Pause)
	d.hold(OK)
	items := d.c.View(d.now).Menu.Items
	n := len(items)
	if n < 3 || !strings.HasPrefix(items[0], "Time ") || items[n-3] != "+5 s per move, both" || items[n-2] != "End game" {
		t.Fatalf("arbiter's menu %q", items)
	}
	d.press(Plus, Plus, Plus, OK, OK) // up (wrapping) past Settings and End game, confirmed
	d.press(Pause)                    // resume
	d.wait(2 * time.Second)
	ms := d.status().White.Ms
	d.press(Left)
	if got := d.status().White.Ms; got != ms+5000 {
		t.Errorf("white %d ms after its move, want %d", got, ms+5000)
	}
}

// TestPlusFiveNotOffered: Guidelines III cover games without increment.
// In a game with an increment or a delay, now or in a later period, the
// arbiter's menu has no "+5 s per move, both", and with under two minutes
// it still opens on the time: 90'+30" keeps its own 30 s and gets no
// 5 s more.
func TestPlusFiveNotOffered(t *testing.T) {
	for _, c := range []struct {
		spec string
		wait time.Duration // White's thinking time: under two minutes left
	}{
		{"5400+30", 5320 * time.Second},
		{"100d5", 10 * time.Second},
		{"120b2", 10 * time.Second},
		{"40/300:1800+30", 190 * time.Second}, // period 1 has none, period 2 has
		{"120~5x30", 10 * time.Second},
	} {
		d := newDriver(t, Opts{Settings: withControl(c.spec)})
		d.press(Right)
		d.wait(c.wait)
		if st := d.status(); st.White.Ms >= 120000 || st.Running != "white" {
			t.Fatalf("%s: white should run with under two minutes: %+v", c.spec, st.White)
		}
		d.press(Pause)
		d.hold(OK)
		v := d.c.View(d.now).Menu
		if v.Title != "Arbiter" || v.Cursor != 0 || !strings.HasPrefix(v.Items[0], "Time ") {
			t.Errorf("%s: the arbiter's menu opens on %d of %q", c.spec, v.Cursor, v.Items)
		}
		for _, it := range v.Items {
			if strings.Contains(it, "+5 s") {
				t.Errorf("%s: the menu offers %q", c.spec, it)
			}
		}
	}
}
