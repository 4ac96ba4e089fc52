package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/engine/clock"
)

// TestResultPressBudget: a result the players confirm, after the usual
// ends of a game, within the menu's budget: the player who enters it
// presses at most 4 times (minus, at most one move, ok, their own lever),
// the other player once (their lever).
func TestResultPressBudget(t *testing.T) {
	cases := []struct {
		name    string
		flag    bool     // White's flag falls; else the clock is paused
		choose  []string // the moves from the proposal
		want    string
		entered int // the entering player's presses
	}{
		{"flag, loss proposed", true, nil, "0-1", 3},
		{"flag, 6.9 draw", true, []string{Plus}, "1/2-1/2", 4},
		{"flag, 1-0 (the arbiter would)", true, []string{Minus}, "1-0", 4},
		{"draw agreed", false, nil, "1/2-1/2", 3},
		{"Black resigns", false, []string{Plus}, "1-0", 4},
		{"White resigns", false, []string{Minus}, "0-1", 4},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := newDriver(t, oneMinute(clock.Freeze))
			d.press(Right)
			if tc.flag {
				d.wait(61 * time.Second)
			} else {
				d.wait(10 * time.Second)
				d.press(Pause) // the clock stopped for the game's end
			}
			d.presses = 0
			d.press(Minus)
			d.press(tc.choose...)
			d.press(OK)
			if st := d.status(); st.Result != "" {
				t.Fatalf("a result before the levers: %q", st.Result)
			}
			d.press(Right) // Black's lever: the one who entered it
			if d.presses != tc.entered {
				t.Errorf("%d presses for the entering player, want %d", d.presses, tc.entered)
			}
			if d.presses > 4 {
				t.Errorf("%d presses: over the budget of 4", d.presses)
			}
			if st := d.status(); st.Result != "" {
				t.Fatalf("one confirmation made a result: %q", st.Result)
			}
			d.presses = 0
			d.press(Left) // White's confirmation
			if d.presses != 1 {
				t.Errorf("%d presses for the other player", d.presses)
			}
			st := d.status()
			if st.Result != tc.want || st.ResultBy != "players" {
				t.Errorf("result %q by %q, want %s by players", st.Result, st.ResultBy, tc.want)
			}
			if st.Screen != "game" {
				t.Errorf("screen %s after the result", st.Screen)
			}
			t.Logf("%s: %d presses to enter and confirm, 1 to confirm", tc.name, tc.entered)
		})
	}
}

// TestResultProposal: after a flag the menu proposes the flagged side's
// loss and says 6.9 may make it a draw; before a flag it proposes a draw;
// a running clock has no result menu.
func TestResultProposal(t *testing.T) {
	d := newDriver(t, oneMinute(clock.Freeze))
	d.press(Right)
	d.wait(5 * time.Second)
	d.press(Minus)
	if s := d.status().Screen; s != "game" {
		t.Fatalf("minus while a clock runs opened %s", s)
	}
	d.wait(57 * time.Second)
	d.press(Minus)
	m := d.c.View(d.now).Menu
	if m.Title != "Result?" || m.Items[m.Cursor] != "0-1" || !strings.Contains(m.Hint, "6.9: draw?") {
		t.Fatalf("result menu after White's flag: %+v", m)
	}
	d.press(Pause)
	if s := d.status().Screen; s != "game" {
		t.Fatalf("pause did not go back: %s", s)
	}
	if p, note := proposal(clock.State{Player: [2]clock.PlayerState{{Flag: true}, {Flag: true}}, FirstFlag: clock.NoSide}); !strings.Contains(note, "6.11") || p.String() != "1/2-1/2" {
		t.Errorf("both flags, no order: %v %q", p, note)
	}
}

// TestResultLocked: on a locked clock the players enter a result while
// there is none, then cannot change it; the arbiter corrects it after the
// PIN, journaled as the arbiter's, and it is still there after a restart.
func TestResultLocked(t *testing.T) {
	store := &MemStore{}
	d := lockedClock(t, store)
	d.press(Right)
	d.wait(61 * time.Second)
	d.press(Minus, OK, Right, Left)
	if st := d.status(); st.Result != "0-1" || st.ResultBy != "players" {
		t.Fatalf("players' result on a locked clock: %q %q", st.Result, st.ResultBy)
	}
	d.press(Minus)
	if st := d.status(); st.Screen != "game" || d.c.View(d.now).Game.Banner != "LOCKED 0-1" {
		t.Fatalf("a player opened the result of a locked clock: %s %q", st.Screen, d.c.View(d.now).Game.Banner)
	}
	// The arbiter: hold ok, the PIN, Setup (plus), Result (plus: the last), ok, the
	// draw (plus from 0-1), ok.
	d.hold(OK)
	d.enterPIN("4711")
	d.press(Plus, Plus, OK, Plus, OK)
	st := d.status()
	if st.Result != "1/2-1/2" || st.ResultBy != "arbiter" {
		t.Fatalf("arbiter's correction: %q %q (screen %s)", st.Result, st.ResultBy, st.Screen)
	}
	journal, _ := filepath.Glob(filepath.Join(d.dir, "*"))
	found := false
	for _, f := range journal {
		b, _ := os.ReadFile(f)
		found = found || strings.Contains(string(b), " result 1/2-1/2 arbiter ")
	}
	if !found {
		t.Errorf("no arbiter's result line in %v", journal)
	}
	d.c.Close()
	o := oneMinute(clock.Freeze)
	o.StateDir, o.Store = d.dir, store
	o.Settings.Locked, o.Settings.PINHash = true, d.c.set.PINHash
	d2 := newDriver(t, o)
	if st := d2.status(); st.Result != "1/2-1/2" || st.ResultBy != "arbiter" {
		t.Errorf("after a restart: %q %q", st.Result, st.ResultBy)
	}
}

// TestHallResultStopsARunningGame: the hall's result for a game whose
// clock runs is the arbiter's decision: the clock stops, the result is
// journaled as the arbiter's; taking back a result of a running game is
// refused.
func TestHallResultStopsARunningGame(t *testing.T) {
	store := &MemStore{}
	o := oneMinute(clock.Freeze)
	o.Store, o.StateDir = store, t.TempDir()
	d := newDriver(t, o)
	d.press(Right) // White's clock runs
	d.wait(5 * time.Second)
	if err := d.c.HallResult(d.now, "*"); err == nil {
		t.Error("a running game's result taken back")
	}
	if !d.status().Started || d.status().Paused {
		t.Fatal("the refused take-back stopped the game")
	}
	if err := d.c.HallResult(d.now, "1-0"); err != nil {
		t.Fatalf("the hall's result of a running game: %v", err)
	}
	st := d.status()
	if st.Result != "1-0" || st.ResultBy != "arbiter" {
		t.Errorf("result %q by %q, want 1-0 by the arbiter", st.Result, st.ResultBy)
	}
	if d.c.game.State(d.now).Running != clock.NoSide && !d.c.game.State(d.now).Paused {
		t.Error("the clock still runs after the hall's result")
	}
	ms := d.c.game.State(d.now).Player[clock.White].Ms
	d.wait(10 * time.Second)
	if got := d.c.game.State(d.now).Player[clock.White].Ms; got != ms {
		t.Errorf("White's time went on after the result: %d, was %d", got, ms)
	}
	journal, _ := filepath.Glob(filepath.Join(o.StateDir, "*"))
	var all string
	for _, f := range journal {
		b, _ := os.ReadFile(f)
		all += string(b)
	}
	if !strings.Contains(all, " result 1-0 arbiter") || !strings.Contains(all, "the arbiter's result stops the game") {
		t.Errorf("the journal lacks the stop and the arbiter's result:\n%s", all)
	}
}
