package core

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestPlusFivePerMoveBoth follows FIDE Guidelines III.4 on a 5-minute game
// without increment: White, to move with under two minutes, asks for an
// extra 5 s per move for both players. The arbiter gives it in three
// presses from the running clock (pause, hold ok: the arbiter's menu opens
// on "+5 s per move, both", ok), back on the paused game, which says so; it
// is journaled, and once pause resumes every move of both sides gets 5 s.
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
	if items := d.c.View(d.now).Menu.Items; len(items) == 0 || items[0] != "+5 s per move, both" {
		t.Fatalf("the arbiter's menu opens on %q", items)
	}
	d.press(OK)
	if d.presses != 3 {
		t.Errorf("+5 s per move took %d presses, want 3", d.presses)
	}
	if v := d.c.View(d.now); d.c.ScreenName() != "game" || v.Game.Banner != "+5s PER MOVE" || !v.Game.Paused {
		t.Errorf("after ok: screen %s, banner %q, paused %v", d.c.ScreenName(), v.Game.Banner, v.Game.Paused)
	}
	d.press(Pause) // resume
	st := d.status()
	if st.Paused || st.Running != "white" {
		t.Fatalf("not resumed: %+v", st)
	}

	// The next moves of both sides get 5 s: a press at the instant of
	// the reading adds exactly that.
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
			if got != ms+5000 {
				t.Errorf("%s's move %d after the correction: %d ms, want %d (+5 s)", side, i+1, got, ms+5000)
			}
		}
	}

	data, _ := os.ReadFile(filepath.Join(dir, "game.log"))
	if !strings.Contains(string(data), " increment both 5000 *") {
		t.Errorf("journal lacks the correction:\n%s", data)
	}
}

// TestPlusFiveInTheList: with two minutes or more for the side to move,
// the arbiter's menu opens on the time, as ever, and "+5 s per move, both"
// sits above End game: hold ok, plus three times, ok.
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
	d.press(Plus, Plus, Plus, OK) // up (wrapping) past Settings and End game
	d.press(Pause)                // resume
	d.wait(2 * time.Second)
	ms := d.status().White.Ms
	d.press(Left)
	if got := d.status().White.Ms; got != ms+5000 {
		t.Errorf("white %d ms after its move, want %d", got, ms+5000)
	}
}

// TestPlusFiveRefused: a control with a delay takes no increment; the
// arbiter is told, and nothing changes.
func TestPlusFiveRefused(t *testing.T) {
	d := newDriver(t, Opts{Settings: withControl("100d5")})
	d.press(Right)
	d.wait(10 * time.Second)
	d.press(Pause)
	before := d.status()
	d.hold(OK)
	d.press(OK)
	st := d.status()
	if b := d.c.View(d.now).Game.Banner; b != "REFUSED" || st.White.Ms != before.White.Ms || !st.Paused {
		t.Errorf("banner %q, white %d ms (was %d), paused %v", b, st.White.Ms, before.White.Ms, st.Paused)
	}
	d.press(Pause)
	d.wait(10 * time.Second)
	ms := d.status().White.Ms
	d.press(Left)
	if got := d.status().White.Ms; got != ms {
		t.Errorf("white %d ms after its move, want %d: no increment", got, ms)
	}
}
