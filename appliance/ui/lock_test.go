package ui

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/config"
	"github.com/zeitnot/zeitnot/drivers/button"
	"github.com/zeitnot/zeitnot/engine/clock"
)

// enterPIN enters pin on the PIN form: for each digit the fewest presses
// of plus and minus (1) and the levers (5) from 0, then ok.
func (d *driver) enterPIN(pin string) {
	for _, r := range pin {
		n := int(r - '0')
		// 0..9 from 0: a lever's 5 first when it saves presses.
		steps := map[int][]string{
			0: nil, 1: {Plus}, 2: {Plus, Plus}, 3: {Right, Minus, Minus}, 4: {Right, Minus},
			5: {Right}, 6: {Right, Plus}, 7: {Right, Plus, Plus}, 8: {Minus, Minus}, 9: {Minus},
		}[n]
		d.press(steps...)
		d.press(OK)
	}
}

// lockedClock is a clock locked with PIN 4711, on a one-minute control.
func lockedClock(t *testing.T, store *MemStore) *driver {
	o := oneMinute(clock.Freeze)
	o.Settings.Locked, o.Settings.PINHash = true, config.HashPIN("4711")
	o.Store = store
	o.StateDir = t.TempDir()
	d := newDriver(t, o)
	d.dir = o.StateDir
	return d
}

// TestLockedFlagKeepsTheGame: on a locked clock, ok after a flag
// does not start a new game: the flag stays on the displays, as evidence,
// until the arbiter enters the PIN and starts the next game.
func TestLockedFlagKeepsTheGame(t *testing.T) {
	d := lockedClock(t, nil)
	d.press(Right)
	d.wait(61 * time.Second)
	if st := d.status(); st.FirstFlag != "white" {
		t.Fatalf("no flag: %+v", st)
	}
	// The screen offers no new game that a short ok would not start.
	if g := d.c.View(d.now).Game; g.Banner != "LOCKED: ARBITER" || g.BannerShort != "LOCKED" {
		t.Errorf("after a flag on a locked clock: banner %q (%q), want the arbiter's, not OK: NEW GAME", g.Banner, g.BannerShort)
	}
	for range 3 {
		d.press(OK)
	}
	if st := d.status(); st.FirstFlag != "white" || !st.Started || d.c.View(d.now).Game.Banner != "LOCKED" {
		t.Fatalf("ok on a locked clock after a flag: %+v, banner %q", st, d.c.View(d.now).Game.Banner)
	}
	// Holding plus and minus together, the old public unlock, does nothing.
	d.ev(Plus, button.Press)
	d.ev(Minus, button.Press)
	d.wait(1500 * ms)
	d.ev(Plus, button.Hold)
	d.ev(Minus, button.Hold)
	d.ev(Plus, button.Release)
	d.ev(Minus, button.Release)
	d.press(OK)
	if st := d.status(); !st.Locked || st.FirstFlag != "white" {
		t.Fatalf("plus and minus held lifted the lock: %+v", st)
	}
	// The arbiter: hold ok, the PIN, ok (again on the same control).
	d.presses = 0
	d.hold(OK)
	if s := d.status().Screen; s != "menu:pin" {
		t.Fatalf("hold ok on a locked clock: screen %s, want the PIN", s)
	}
	d.enterPIN("4711")
	d.press(OK)
	st := d.status()
	if st.Started || st.FirstFlag != "none" || st.White.Ms != 60000 {
		t.Fatalf("no new game after the PIN: %+v", st)
	}
	// 4711: 2+3+1+1 digit presses (a digit takes at most 3), 4 oks, the
	// hold and the last ok. Any PIN takes at most 17 presses with the hold.
	if d.presses > 13 {
		t.Errorf("new game after a flag, locked: %d presses", d.presses)
	}
	t.Logf("new game after a flag on a locked clock: %d presses (hold ok, PIN 4711, ok)", d.presses)
	// The menus closed: locked again.
	if !d.c.Locked() {
		t.Error("the clock stayed open after the menus closed")
	}
	d.press(Right)
	d.wait(61 * time.Second)
	d.press(OK)
	if st := d.status(); st.FirstFlag != "white" {
		t.Errorf("the second game's flag was discarded: %+v", st)
	}
}

// TestWrongPIN: a wrong PIN opens nothing and says so; after three in a
// row the clock takes no PIN for 30 s, then the right one opens the menu.
func TestWrongPIN(t *testing.T) {
	d := lockedClock(t, nil)
	for i := range 3 {
		d.hold(OK)
		d.enterPIN("4712")
		if s, b := d.status().Screen, d.c.View(d.now).Game.Banner; s != "game" || b != "WRONG PIN" {
			t.Fatalf("wrong PIN %d: screen %s banner %q", i+1, s, b)
		}
	}
	d.hold(OK)
	if s, b := d.status().Screen, d.c.View(d.now).Game.Banner; s != "game" || !strings.HasPrefix(b, "PIN: WAIT") {
		t.Fatalf("after 3 wrong PINs: screen %s banner %q", s, b)
	}
	d.wait(30 * time.Second)
	d.hold(OK)
	d.enterPIN("4711")
	if s := d.status().Screen; s != "menu:menu" {
		t.Fatalf("right PIN after the wait: screen %s", s)
	}
	d.press(Pause) // back to the game screen: locked again
	if !d.c.Locked() || !d.status().Locked {
		t.Error("not locked again")
	}
	// The journal notes the wrong PINs, never a PIN.
	d.c.Close()
	var all strings.Builder
	filepath.WalkDir(d.dir, func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			b, _ := os.ReadFile(p)
			all.Write(b)
		}
		return nil
	})
	if j := all.String(); strings.Contains(j, "4711") || strings.Contains(j, "4712") || !strings.Contains(j, "lock: wrong PIN (3 in a row)") {
		t.Errorf("journal:\n%s", j)
	}
}

// TestSetPIN: Setup › Settings › Set PIN, twice the same; the settings
// keep its hash. Then Lock now locks with it, and Unlock (after the PIN)
// lifts the lock.
func TestSetPIN(t *testing.T) {
	store := &MemStore{}
	d := newDriver(t, Opts{Store: store})
	d.hold(OK)
	d.press(Plus)      // Setup
	d.press(Minus, OK) // Settings
	d.press(Plus, OK)  // up (wrapping) to Set PIN
	d.enterPIN("2580") // New PIN
	if s := d.status().Screen; s != "menu:pin-again" {
		t.Fatalf("after the new PIN: %s", s)
	}
	d.enterPIN("2580")
	if b := d.c.View(d.now).Game.Banner; b != "PIN SET" && d.status().Screen != "menu:settings" {
		t.Errorf("banner %q screen %s", b, d.status().Screen)
	}
	if store.Settings.PINHash != config.HashPIN("2580") || strings.Contains(store.Settings.String(), "2580") {
		t.Fatalf("saved settings:\n%s", store.Settings)
	}
	d.press(Plus, OK) // Lock now
	if !d.status().Locked || !store.Settings.Locked || d.status().Screen != "game" {
		t.Fatalf("Lock now: %+v", d.status())
	}
	d.hold(OK)
	d.enterPIN("2580")
	d.press(Plus)      // Setup
	d.press(Minus, OK) // Settings
	d.press(Plus, Plus, OK)
	if d.status().Locked || store.Settings.Locked {
		t.Fatalf("Unlock: %+v", d.status())
	}
	// Two PINs that differ set nothing.
	d.press(Plus, OK)
	d.enterPIN("1111")
	d.enterPIN("1112")
	if store.Settings.PINHash != config.HashPIN("2580") {
		t.Error("a PIN entered two ways was set")
	}
	// Lock now without a PIN asks for one first.
	d2 := newDriver(t, Opts{})
	d2.hold(OK)
	d2.press(Plus)
	d2.press(Minus, OK)
	d2.press(Plus, Plus, OK)
	if s := d2.status().Screen; s != "menu:new-pin" {
		t.Errorf("Lock now without a PIN: %s", s)
	}
}

// TestUnlockedByDefault: a clock as the image ships it (no PIN, not
// locked) says on its ready screen that it is unlocked, in turn with the
// game's name, and wakes to change it; a PIN set on the clock ends the
// notice, locked or not. Nothing of it shows once the game runs.
func TestUnlockedByDefault(t *testing.T) {
	d := newDriver(t, Opts{Store: &MemStore{}})
	banners := map[string]bool{}
	for range 4 {
		g := d.c.View(d.now).Game
		banners[g.Banner+"|"+g.BannerShort] = true
		next, ok := d.c.NextWake(d.now)
		if !ok || next-d.now > unlockedEvery {
			t.Fatalf("at %v: next wake %v (%v), want within %v: the notice would never show", d.now, next, ok, unlockedEvery)
		}
		d.wait(next - d.now)
	}
	want := map[string]bool{"FIDE 90/40+30|": true, "UNLOCKED: SET A PIN|UNLOCKED": true}
	for b := range want {
		if !banners[b] {
			t.Errorf("ready screen never showed %q; showed %v", b, banners)
		}
	}

	d.hold(OK)
	d.press(Plus)      // Setup
	d.press(Minus, OK) // Settings
	d.press(Plus, OK)  // up (wrapping) to Set PIN
	d.enterPIN("2580")
	d.enterPIN("2580")
	for i := 0; len(d.c.pages) > 0; i++ {
		if i == 10 {
			t.Fatalf("pause 10 times: still in the menus (%s)", d.status().Screen)
		}
		d.press(Pause) // back a page
	}
	if d.status().Locked || d.c.set.PINHash == "" {
		t.Fatalf("after Set PIN: locked %v, PIN set %v", d.status().Locked, d.c.set.PINHash != "")
	}
	for range 3 {
		if g := d.c.View(d.now).Game; strings.HasPrefix(g.Banner, "UNLOCKED") {
			t.Fatalf("with a PIN set, the ready screen still says %q", g.Banner)
		}
		d.wait(unlockedEvery)
	}

	// A running game shows no notice, PIN or not.
	d2 := newDriver(t, Opts{})
	d2.press(Right)
	for range 3 {
		if g := d2.c.View(d2.now).Game; strings.HasPrefix(g.Banner, "UNLOCKED") {
			t.Fatalf("a running game shows %q", g.Banner)
		}
		d2.wait(unlockedEvery)
	}
}
