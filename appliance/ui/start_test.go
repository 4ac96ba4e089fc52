package ui

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/drivers/button"
	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/fen"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
	"github.com/zeitnot/zeitnot/protocol"
)

// waitingClock is a locked clock (PIN 4711, one minute a side) whose game
// waits for a round start 129 s ahead, 18:31:09 in Paris, with a default
// time of 30 minutes.
func waitingClock(t *testing.T) *driver {
	d := lockedClock(t, &MemStore{})
	d.c.SetTimeOfDay(TimeOfDay{Mono: 0, UnixMs: t0, Source: SourceNTP, Zone: time.FixedZone("CET", 3600)})
	if _, err := d.c.SetRound(d.now, Round{StartMs: t0 + 129000, DefaultMs: 30 * minute}, "hall"); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestLeversWaitForTheRound: while the game waits for the round's
// scheduled start (FIDE 6.5) no lever nor pause starts it: Black's lever
// started White's clock early. A press says when the round starts; the
// display shows the start's time of day and the countdown; the clock
// starts at the start by itself.
func TestLeversWaitForTheRound(t *testing.T) {
	d := waitingClock(t)
	if g := d.c.View(d.now).Game; g.Banner != "18:31 IN 2:09 NTP" || g.BannerShort != "18:31 2:09" {
		t.Errorf("waiting: banner %q (%q), want the start and the countdown", g.Banner, g.BannerShort)
	}
	if l := d.c.StatusLine(d.now); !strings.HasPrefix(l, "ready, start 18:31 in 2:09;") {
		t.Errorf("status line %q, want the start and the countdown", l)
	}
	for _, b := range []string{Right, Left, Pause} {
		d.ev(b, button.Press)
		if st := d.status(); st.Started {
			t.Fatalf("%s started the game before the round's start: %+v", b, st)
		}
		if g := d.c.View(d.now).Game; g.Banner != "ROUND 18:31" {
			t.Errorf("after %s: banner %q, want ROUND 18:31", b, g.Banner)
		}
		d.ev(b, button.Release)
		d.wait(3 * time.Second)
	}
	// An hour and more ahead, the short form (a two-player LCD line)
	// has room for the start only.
	if _, err := d.c.SetRound(d.now, Round{StartMs: d.c.wall(d.now) + 61*minute, DefaultMs: 30 * minute}, "hall"); err != nil {
		t.Fatal(err)
	}
	if g := d.c.View(d.now).Game; g.Banner != "19:30 IN 1:01:00 NTP" || g.BannerShort != "START 19:30" {
		t.Errorf("an hour ahead: banner %q (%q)", g.Banner, g.BannerShort)
	}
	if _, err := d.c.SetRound(d.now, Round{StartMs: t0 + 129000, DefaultMs: 30 * minute}, "hall"); err != nil {
		t.Fatal(err)
	}
	d.wait(129*time.Second - d.now - time.Millisecond)
	if st := d.status(); st.Started {
		t.Fatalf("started before the start: %+v", st)
	}
	d.wait(time.Millisecond)
	if st := d.status(); !st.Started || st.Running != "white" {
		t.Errorf("not started at the round's start: %+v", st)
	}
}

// TestHallStart: the hall's start starts a game that waits for the round,
// on a locked clock, without the PIN; the journal says the hall started
// it early, and the default time still counts from the scheduled start
// (FIDE 6.6). A game that has started or ended is refused.
func TestHallStart(t *testing.T) {
	d := waitingClock(t)
	d.c.hall.Round.DefaultMs = minute / 2 // White marked DEFAULT 30 s after the scheduled start
	detail, err := d.c.HallStart(d.now, "hall")
	if err != nil {
		t.Fatal(err)
	}
	if detail != "early: 2:09 before the round's start" {
		t.Errorf("detail %q", detail)
	}
	st := d.status()
	if !st.Started || st.Running != "white" || !st.Locked || st.Round.Game != st.Game {
		t.Errorf("after the hall's start: %+v %+v", st, st.Round)
	}
	_, c := comments(t, d.dir)
	if !slices.ContainsFunc(c, func(s string) bool {
		return strings.HasPrefix(s, "# hall: start: White's clock started early, 2:09 before the round's scheduled start 2026-03-07T17:31:09.000Z; the default time 30s counts from the scheduled start (FIDE 6.6) *")
	}) {
		t.Errorf("journal comments %q", c)
	}
	if _, err := d.c.HallStart(d.now, "hall"); !errors.Is(err, ErrStarted) {
		t.Errorf("second start: %v, want %v", err, ErrStarted)
	}
	// White's one minute runs out 60 s after the early start: the
	// default time (30 s after the scheduled start, 159 s from now)
	// has not come.
	d.wait(59 * time.Second)
	if st := d.status(); len(st.Default) != 0 {
		t.Errorf("marked DEFAULT from the early start: %v", st.Default)
	}
	d.press(Left)
	d.wait(60*time.Second + 100*time.Millisecond) // Black's flag
	if _, err := d.c.HallStart(d.now, "hall"); !errors.Is(err, ErrEnded) {
		t.Errorf("start after a flag: %v, want %v", err, ErrEnded)
	}
}

// TestHallStartDefault: after an early start, a side that has not moved
// is marked DEFAULT once the default time has passed since the scheduled
// start, not since the early start.
func TestHallStartDefault(t *testing.T) {
	d := scheduled(t, Opts{Settings: withControl("600")})
	if _, err := d.c.SetRound(d.now, Round{StartMs: t0 + minute, DefaultMs: minute}, "hall"); err != nil {
		t.Fatal(err)
	}
	if _, err := d.c.HallStart(d.now, "hall"); err != nil {
		t.Fatal(err)
	}
	d.wait(2*time.Minute - time.Millisecond)
	if st := d.status(); len(st.Default) != 0 {
		t.Errorf("before the default time from the scheduled start: %v", st.Default)
	}
	d.wait(time.Millisecond)
	if st := d.status(); !slices.Equal(st.Default, []string{"white"}) {
		t.Errorf("the default time from the scheduled start passed: %v", st.Default)
	}
}

// TestStartNowMenu: on a locked clock the arbiter starts a waiting game
// early from the menu, behind the PIN: hold ok, the PIN, plus (Setup),
// ok on Start now, ok to confirm.
func TestStartNowMenu(t *testing.T) {
	d := waitingClock(t)
	d.hold(OK)
	d.enterPIN("4711")
	d.press(Plus)
	if m := d.c.View(d.now).Menu; m.Title != "Setup" || len(m.Items) == 0 || m.Items[0] != "Start now" {
		t.Fatalf("setup menu %+v", m)
	}
	d.press(OK)
	if m := d.c.View(d.now).Menu; m.Title != "Start before 18:31?" {
		t.Fatalf("confirm %+v", m)
	}
	d.press(OK)
	st := d.status()
	if !st.Started || st.Running != "white" || st.Screen != "game" || !d.c.Locked() {
		t.Errorf("after Start now: %+v, locked %v", st, d.c.Locked())
	}
	if _, c := comments(t, d.dir); !slices.ContainsFunc(c, func(s string) bool { return strings.HasPrefix(s, "# arbiter: start: White's clock started early") }) {
		t.Errorf("journal comments %q", c)
	}
}

// TestPressAtTheStart: a lever pressed just after the round's scheduled
// start, before the loop woke for it, does not make the start its own:
// White's clock starts at the scheduled start and the game is the
// round's, so the default time applies to it.
func TestPressAtTheStart(t *testing.T) {
	d := waitingClock(t)
	d.wait(129*time.Second - time.Millisecond)
	d.now += 5 * time.Millisecond // no wake-up at the start
	d.ev(Right, button.Press)
	st := d.status()
	if !st.Started || st.Running != "white" || st.Round.Game != st.Game {
		t.Fatalf("after the press: %+v %+v", st, st.Round)
	}
	lines, _ := comments(t, d.dir)
	if !slices.ContainsFunc(lines, func(s string) bool { return strings.HasPrefix(s, "129000 start ") }) {
		t.Errorf("the journal's start %q, want at 129000 ms, the round's start", lines)
	}
}

// TestStartPosition: with an e-board, the arbiter chooses the game's
// start before it begins (Setup, Start position): the initial position,
// or the board's set-up for a composed start. The choice is the game's,
// journaled, and a new game starts from the initial position again.
func TestStartPosition(t *testing.T) {
	o := oneMinute(clock.Freeze)
	o.Store, o.StateDir = &MemStore{}, t.TempDir()
	d := newDriver(t, o)
	d.dir = o.StateDir
	setup := func() []string {
		t.Helper()
		d.c.closeMenu()
		d.hold(OK)
		d.press(Plus)
		m := d.c.View(d.now).Menu
		if m.Title != "Setup" {
			t.Fatalf("menu %+v", m)
		}
		return m.Items
	}
	if items := setup(); slices.Contains(items, "Start pos std") {
		t.Errorf("the start position offered without a board: %q", items)
	}
	d.c.SetBoard(&protocol.BoardStatus{State: protocol.BoardMismatch, FEN: fen.StartFEN})
	items := setup()
	i := slices.Index(items, "Start pos std")
	if i < 0 {
		t.Fatalf("Setup %q: no start position with a board", items)
	}
	for range i {
		d.press(Minus) // down the list
	}
	d.press(OK)
	if !d.c.SetUpStart() {
		t.Fatal("the board's set-up not chosen")
	}
	if d.c.banner != "START POS BOARD" {
		t.Errorf("banner %q", d.c.banner)
	}
	if _, c := comments(t, d.dir); !slices.ContainsFunc(c, func(s string) bool {
		return strings.HasPrefix(s, "# arbiter: the game starts from the e-board's set-up")
	}) {
		t.Errorf("journal comments %q", c)
	}
	pair, err := timecontrol.ParsePair("300+2")
	if err != nil {
		t.Fatal(err)
	}
	if err := d.c.Session().NewGame(d.now, pair, clock.DefaultOptions, ""); err != nil {
		t.Fatal(err)
	}
	if d.c.SetUpStart() {
		t.Error("a new game keeps the last game's set-up start")
	}
}
