package ui

import (
	"errors"
	"image"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/screen"
	"github.com/zeitnot/zeitnot/appliance/session"
	"github.com/zeitnot/zeitnot/drivers/display"
	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
)

// t0 is the time of day at monotonic 0 in these tests: 18:29 in Paris.
var t0 = time.Date(2026, 3, 7, 18, 29, 0, 0, time.FixedZone("CET", 3600)).UnixMilli()

const minute = 60000

// TestRoundAt: the countdown, the start and the DEFAULT marks as the time
// of day goes (FIDE 6.5, 6.6), from the round's settings alone.
func TestRoundAt(t *testing.T) {
	start := t0 + minute
	r := Round{StartMs: start, DefaultMs: 30 * minute, Game: "g1"}
	waiting := roundGame{id: "g1", armed: true}
	running := func(w, b int) roundGame { return roundGame{id: "g1", started: true, moves: [2]int{w, b}} }
	for _, tc := range []struct {
		name string
		r    Round
		wall int64
		g    roundGame
		want roundView
	}{
		{"no round", Round{}, start, waiting, roundView{}},
		{"a minute before", r, start - minute, waiting, roundView{waiting: true, startsIn: minute, next: start - minute + 1000}},
		{"2.5 s before: shows 3, next at 2 s", r, start - 2500, waiting, roundView{waiting: true, startsIn: 2500, next: start - 2000}},
		{"1 ms before: next is the start", r, start - 1, waiting, roundView{waiting: true, startsIn: 1, next: start}},
		{"at the start: due", r, start, waiting, roundView{due: true}},
		{"after the start, still waiting (the loop was late): due", r, start + 40, waiting, roundView{due: true}},
		{"not seen waiting before the start: nothing", r, start + 40, roundGame{id: "g1"}, roundView{}},
		{"not seen waiting, before the start: nothing", r, start - 40, roundGame{id: "g1"}, roundView{}},
		{"started, before the default time", r, start + 30*minute - 1, running(0, 0), roundView{next: start + 30*minute}},
		// Black cannot complete a move before White has: not DEFAULT while it waits (Black is not late while White has not moved).
		{"default time passed: nobody moved", r, start + 30*minute, running(0, 0), roundView{def: [2]bool{true, false}}},
		{"default time passed: white moved", r, start + 30*minute, running(1, 0), roundView{def: [2]bool{false, true}}},
		{"default time passed: both moved", r, start + 31*minute, running(1, 1), roundView{}},
		{"another game: no marks", r, start + 31*minute, roundGame{id: "g2", started: true}, roundView{}},
		{"default 0: marked at the start", Round{StartMs: start, Game: "g1"}, start, running(0, 0), roundView{def: [2]bool{true, false}}},
		{"the game's own schedule, not the next round's", Round{StartMs: start + 300*minute, DefaultMs: 60 * minute, Game: "g1", GameStartMs: start, GameDefaultMs: 30 * minute}, start + 30*minute, running(1, 0), roundView{def: [2]bool{false, true}}},
		{"default 0: before the start", Round{StartMs: start, Game: "g1"}, start - 1, running(0, 0), roundView{next: start}},
	} {
		if got := roundAt(tc.r, tc.wall, tc.g); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
	for _, tc := range []struct {
		ms   int64
		want string
	}{{minute, "1:00"}, {minute - 1, "1:00"}, {59001, "1:00"}, {59000, "0:59"}, {1, "0:01"}, {0, "0:00"}, {3600000 + 1, "1:00:01"}} {
		if got := countdown(tc.ms); got != tc.want {
			t.Errorf("countdown(%d) = %q, want %q", tc.ms, got, tc.want)
		}
	}
}

// scheduled is a core whose time of day is t0 at monotonic 0, from NTP.
func scheduled(t *testing.T, opts Opts) *driver {
	d := newDriver(t, opts)
	d.c.SetTimeOfDay(TimeOfDay{Mono: 0, UnixMs: t0, Source: SourceNTP})
	return d
}

// TestScheduledStart: a round set a minute ahead shows its countdown and
// starts White's clock at the start's millisecond, on the loop's own
// wake-ups.
func TestScheduledStart(t *testing.T) {
	dir := t.TempDir()
	d := scheduled(t, Opts{StateDir: dir})
	if _, err := d.c.SetRound(d.now, Round{StartMs: t0 + minute, DefaultMs: 30 * minute}, "hall"); err != nil {
		t.Fatal(err)
	}
	d.wait(time.Second)
	if g := d.c.View(d.now).Game; g.Banner != "17:30 IN 0:59 NTP" || g.BannerShort != "17:30 0:59" {
		t.Errorf("banner %q (%q), want the countdown", g.Banner, g.BannerShort)
	}
	if st := d.status(); st.Round == nil || st.Round.StartsIn == nil || *st.Round.StartsIn != 59000 || st.TimeSource != "ntp" || st.Started {
		t.Errorf("status %+v %+v", st, st.Round)
	}
	d.wait(58*time.Second + 999*ms)
	if st := d.status(); st.Started || d.c.View(d.now).Game.Banner != "17:30 IN 0:01 NTP" {
		t.Fatalf("1 ms before the start: %+v, banner %q", st, d.c.View(d.now).Game.Banner)
	}
	d.c.push(d.c.setupMenu()) // the arbiter left the menu open
	if next, ok := d.c.NextWake(d.now); !ok || next != time.Minute {
		t.Errorf("next wake %v %v, want the start, 1m", next, ok)
	}
	d.wait(10 * time.Second) // the driver wakes when the core asks
	st := d.status()
	if st.Screen != "game" {
		t.Errorf("screen %s after the start, want the game", st.Screen)
	}
	if !st.Started || st.Running != "white" || st.White.Ms != 5430000-(d.now-time.Minute).Milliseconds() {
		t.Fatalf("after the start: %+v", st)
	}
	lines, _, _ := d.c.Session().LogLines(d.c.Session().GameID(), 1, 100, 1<<20)
	if len(lines) < 6 || !strings.HasPrefix(lines[5], "60000 start ") {
		t.Errorf("the journal's start: %q, want at 60000 ms, the round's start", lines)
	}
	if st.Round.Game != d.c.Session().GameID() {
		t.Errorf("round %+v: the game it started is not named", st.Round)
	}
	if _, c := comments(t, dir); !slices.ContainsFunc(c, func(s string) bool {
		return strings.Contains(s, "round: White's clock started at the scheduled start 2026-03-07T17:30:00.000Z (FIDE 6.5); default time 30m0s")
	}) {
		t.Errorf("journal comments %q", c)
	}
}

func comments(t *testing.T, dir string) (lines, comments []string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "game.log"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(strings.TrimRight(string(data), "\x00"), "\n") {
		if strings.HasPrefix(l, "#") {
			comments = append(comments, l)
		} else if l != "" {
			lines = append(lines, l)
		}
	}
	return lines, comments
}

// TestDefaultTime: once the default time has passed since the scheduled
// start, a side that has not completed a move is marked DEFAULT on its
// display, in the status and the journal, until it moves; the clock goes
// on (the arbiter decides).
func TestDefaultTime(t *testing.T) {
	dir := t.TempDir()
	d := scheduled(t, Opts{StateDir: dir})
	d.c.SetRound(d.now, Round{StartMs: t0 + minute, DefaultMs: 30 * minute}, "hall")
	var evs []session.Event
	d.c.Session().Subscribe(func(e session.Event) { evs = append(evs, e) })
	d.wait(31*time.Minute - ms)
	if st := d.status(); len(st.Default) != 0 || !st.Started {
		t.Fatalf("before the default time: %+v", st)
	}
	d.wait(ms)
	v := d.c.View(d.now).Game
	// White has not moved; Black could not yet, so only White defaults.
	if st := d.status(); !slices.Equal(st.Default, []string{"white"}) || !v.Left.Default || v.Right.Default || st.Running != "white" {
		t.Errorf("at the default time: %v, view %v %v", st.Default, v.Left.Default, v.Right.Default)
	}
	d.press(Left) // White's move
	if st := d.status(); !slices.Equal(st.Default, []string{"black"}) || d.c.View(d.now).Game.Left.Default {
		t.Errorf("after White's move: %v", st.Default)
	}
	// The next round's schedule, sent during this game, leaves its mark
	// (a round sent during a game must not clear that game's marks).
	if _, err := d.c.SetRound(d.now, Round{StartMs: d.c.wall(d.now) + 60*minute, DefaultMs: 30 * minute}, "hall"); err != nil {
		t.Fatal(err)
	}
	if st := d.status(); !slices.Equal(st.Default, []string{"black"}) {
		t.Errorf("after the next round was sent: %v", st.Default)
	}
	d.press(Right)
	if st := d.status(); len(st.Default) != 0 {
		t.Errorf("after Black's move: %v", st.Default)
	}
	var def []string
	for _, e := range evs {
		if e.Kind == session.Default {
			def = append(def, e.Side.String())
		}
	}
	if !slices.Equal(def, []string{"white", "black"}) {
		t.Errorf("default events %v", def)
	}
	if _, c := comments(t, dir); len(slices.DeleteFunc(c, func(s string) bool { return !strings.Contains(s, "marked DEFAULT") })) != 2 {
		t.Errorf("journal comments %q: want one DEFAULT note per side", c)
	}
	if !strings.Contains(d.c.StatusLine(d.now), "white running") {
		t.Errorf("status line %q", d.c.StatusLine(d.now))
	}
}

// TestScheduleNeedsTimeOfDay: a start is refused while the clock has no
// time of day it trusts; no start (0) is always taken.
func TestScheduleNeedsTimeOfDay(t *testing.T) {
	d := newDriver(t, Opts{})
	_, err := d.c.SetRound(d.now, Round{StartMs: t0}, "hall")
	if err == nil || !strings.Contains(err.Error(), "does not know the time of day") {
		t.Errorf("no time of day: %v", err)
	}
	d.c.SetTimeOfDay(TimeOfDay{Mono: 0, UnixMs: t0, Source: SourceNone})
	if _, err := d.c.SetRound(d.now, Round{StartMs: t0 + minute}, "hall"); err == nil {
		t.Error("a system clock not to be trusted took a start")
	}
	if _, err := d.c.SetRound(d.now, Round{DefaultMs: 15 * minute}, "hall"); err != nil {
		t.Errorf("no start: %v", err)
	}
	if _, err := d.c.SetRound(d.now, Round{DefaultMs: 25 * 3600000}, "hall"); err == nil {
		t.Error("a default time of 25 hours taken")
	}
	d.c.SetTimeOfDay(TimeOfDay{Mono: 0, UnixMs: t0, Source: SourceRTC})
	if _, err := d.c.SetRound(d.now, Round{StartMs: t0 + 400*24*3600000}, "hall"); err == nil || !strings.Contains(err.Error(), "more than a year from the clock's time of day") {
		t.Errorf("a start 400 days ahead: %v", err)
	}
}

// TestNoStartAfterTheFact: a clock that did not wait for the start (a
// start already passed, a game set up after it) does not start by itself.
func TestNoStartAfterTheFact(t *testing.T) {
	d := scheduled(t, Opts{})
	detail, err := d.c.SetRound(d.now, Round{StartMs: t0 - minute}, "hall")
	if err != nil || detail != "the start has passed: the clock does not start by itself" {
		t.Errorf("a passed start: %q %v", detail, err)
	}
	d.wait(time.Minute)
	if d.status().Started {
		t.Error("started after the fact")
	}
	// Waiting, then a new game after the start: that one waits for nobody.
	d.c.SetRound(d.now, Round{StartMs: t0 + 2*minute}, "hall")
	d.wait(2 * time.Minute)
	if !d.status().Started {
		t.Fatal("the waiting game did not start")
	}
	d.c.againSameControl(d.now)
	d.wait(time.Minute)
	if d.status().Started {
		t.Error("the next game started by itself")
	}
}

// TestStartAfterTimeJump: a time of day that jumps past the start (the
// system clock set) starts White's clock no earlier than the loop's
// previous turn, when the game still waited.
func TestStartAfterTimeJump(t *testing.T) {
	d := scheduled(t, Opts{})
	d.c.SetRound(d.now, Round{StartMs: t0 + 3600000}, "hall")
	d.wait(10 * time.Second)
	d.c.SetTimeOfDay(TimeOfDay{Mono: 10500 * ms, UnixMs: t0 + 2*3600000, Source: SourceNTP})
	d.now = 10500 * ms
	d.c.Tick(d.now)
	st := d.status()
	if !st.Started || st.White.Ms != 5430000-500 {
		t.Errorf("after the jump: %+v, want White's clock started at the last turn, 10 s", st)
	}
}

// TestHallCommands: next-game, pause, players and takeover as the hall
// gives them, and what none of them may do to a running game.
func TestHallCommands(t *testing.T) {
	dir := t.TempDir()
	d := scheduled(t, Opts{StateDir: dir, Store: &MemStore{}})
	first := d.c.Session().GameID()
	changed, err := d.c.NextGame(d.now, "fide-rapid-15", map[string]string{"after-flag": "continue"}, "hall")
	if err != nil || !changed {
		t.Fatal(changed, err)
	}
	st := d.status()
	if st.Control != "900+10" || st.Options["after-flag"] != "continue" || st.Game == first {
		t.Errorf("unstarted game after next-game: %s %v %s", st.Control, st.Options, st.Game)
	}
	if _, err := d.c.NextGame(d.now, "fide-rapid-16", nil, "hall"); err == nil {
		t.Error("an unknown preset taken")
	}
	if _, err := d.c.NextGame(d.now, "300+2", map[string]string{"after-flag": "melt"}, "hall"); err == nil {
		t.Error("a bad option taken")
	}
	d.press(Right) // start
	d.wait(2 * time.Second)
	before := d.status()
	if changed, err := d.c.NextGame(d.now, "300+2", nil, "hall"); err != nil || changed {
		t.Fatal(changed, err)
	}
	if st := d.status(); st.Control != before.Control || st.White.Ms != before.White.Ms || d.c.Settings().Control != "300+2" {
		t.Errorf("next-game during a game changed it: %s %d; the next control %s", st.Control, st.White.Ms, d.c.Settings().Control)
	}
	// A takeover is refused while the game is in progress.
	tk := session.Takeover{Controls: timecontrol.Same(timecontrol.Control{{Time: 600000}}), Options: clock.DefaultOptions, ToMove: clock.Black}
	tk.Side[clock.White] = clocklog.SideClock{Ms: 400000, Moves: 12, Period: 1}
	tk.Side[clock.Black] = clocklog.SideClock{Ms: 380000, Moves: 11, Period: 1}
	if err := d.c.TakeOver(d.now, tk, "hall"); !errors.Is(err, ErrInProgress) {
		t.Errorf("takeover during a game: %v", err)
	}
	if !d.c.HallPause(d.now, "hall") || !d.status().Paused {
		t.Error("pause of a running clock")
	}
	if d.c.HallPause(d.now, "hall") {
		t.Error("pause of a paused clock said it paused")
	}
	// Paused is still in progress.
	if err := d.c.TakeOver(d.now, tk, "hall"); !errors.Is(err, ErrInProgress) {
		t.Errorf("takeover of a paused game: %v", err)
	}
	w, b := "Carlsen, Magnus", "Caruana, Fabiano"
	d.c.SetPlayers(d.now, &w, &b, "hall")
	empty := ""
	d.c.SetPlayers(d.now, nil, &empty, "hall")
	if p := d.status().Players; p == nil || p.White != w || p.Black != "" {
		t.Errorf("players %+v", p)
	}
	// After the game: the takeover comes up paused, marked.
	d.c.againSameControl(d.now)
	if err := d.c.TakeOver(d.now, tk, "hall"); err != nil {
		t.Fatal(err)
	}
	d.wait(3 * time.Second) // the NEW GAME notice goes
	st = d.status()
	if !st.Paused || !st.TakenOver || st.ToMove != "black" || st.White.Ms != 400000 || st.Black.Moves != 11 || d.c.View(d.now).Game.Banner != "TAKEN OVER" {
		t.Errorf("taken over: %+v, banner %q", st, d.c.View(d.now).Game.Banner)
	}
	d.press(Pause) // the arbiter resumes
	if st := d.status(); st.TakenOver || st.Running != "black" || d.c.View(d.now).Game.Banner != "" {
		t.Errorf("resumed: %+v", st)
	}
	// The commands are in the journal of the game they came during.
	var c []string
	archived, _ := filepath.Glob(filepath.Join(dir, "games", "*.log"))
	for _, path := range append(archived, filepath.Join(dir, "game.log")) {
		data, _ := os.ReadFile(path)
		for _, l := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(l, "#") {
				c = append(c, l)
			}
		}
	}
	for _, want := range []string{"hall: next-game 300+2: for the next game", "hall: pause", "hall: pause: no clock was running", `hall: players white "Carlsen, Magnus", black ""`} {
		if !slices.ContainsFunc(c, func(s string) bool { return strings.HasPrefix(s, "# "+want+" *") }) {
			t.Errorf("no %q in the journal's comments %q", want, c)
		}
	}
}

// TestTimeOfDayMenu: the arbiter sets the time of day in the setup menu
// (the daemon keeps it); a round's start set in the menu then counts down.
func TestTimeOfDayMenu(t *testing.T) {
	var setAt time.Duration
	var setMs int64
	d := newDriver(t, Opts{SetTime: func(at time.Duration, ms int64) error { setAt, setMs = at, ms; return nil }})
	d.c.SetTimeOfDay(TimeOfDay{Mono: 0, UnixMs: time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli(), Source: SourceNone, Zone: time.UTC})
	d.hold(OK)
	d.press(Plus) // Setup
	d.press(Minus, Minus, Minus, Minus, Minus)
	if m := d.c.View(d.now).Menu; m.Items[m.Cursor] != "Time of day not set" {
		t.Fatalf("menu %q at %d", m.Items, m.Cursor)
	}
	d.c.SetTimeOfDay(TimeOfDay{Mono: d.now, UnixMs: time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli(), Source: SourceNone, Zone: time.UTC})
	d.press(OK)
	// 2026-03-07 17:29:30: year +26 (two levers, six pluses), month +2,
	// day +6, hours +17, minutes +29, seconds +30.
	d.press(Right, Right, Plus, Plus, Plus, Plus, Plus, Plus, OK)
	d.press(Plus, Plus, OK)
	d.press(Plus, Plus, Plus, Plus, Plus, Plus, OK)
	d.press(Right, Plus, Plus, Plus, Plus, Plus, Plus, Plus, OK)
	d.press(Right, Right, Plus, Plus, Plus, Plus, Plus, Plus, Plus, Plus, Plus, OK)
	d.press(Right, Right, Right, OK)
	want := time.Date(2026, 3, 7, 17, 29, 30, 0, time.UTC).UnixMilli()
	if setMs != want || setAt != d.now-200*ms {
		t.Fatalf("set %d at %v, want %d at %v", setMs, setAt, want, d.now-200*ms)
	}
	if st := d.status(); st.TimeSource != "arbiter" {
		t.Errorf("source %q", st.TimeSource)
	}
	// Round start at 18:30 today, from the menu: the form offers the
	// next hour, 18:29.
	d.press(Plus, Plus) // up to Round start
	d.press(OK)         // the form: start none
	d.press(Plus, OK)   // at
	d.press(OK)         // 18 hours
	d.press(Plus, OK)   // 30 minutes
	r := d.c.Round()
	if r.StartMs != time.Date(2026, 3, 7, 18, 30, 0, 0, time.UTC).UnixMilli() {
		t.Errorf("round start %v", time.UnixMilli(r.StartMs).UTC())
	}
	for len(d.c.pages) > 0 {
		d.press(Pause) // out of the menu
	}
	if b := d.c.View(d.now).Game.Banner; !strings.HasPrefix(b, "18:30 IN 1:00:") || !strings.HasSuffix(b, " ARB") {
		t.Errorf("banner %q, want the countdown on the arbiter's time", b)
	}
}

// The hall's resume lifts only the hall's pause, never one the arbiter
// made at the board: a resume of all boards must not resume a game the
// arbiter stopped there.
func TestHallResume(t *testing.T) {
	d := newDriver(t, Opts{})
	d.press(Right) // White's clock runs
	d.wait(2 * time.Second)
	if ok, err := d.c.HallResume(d.now, "hall"); ok || err != nil {
		t.Errorf("resume of a running game: %v, %v; want nothing done, no error", ok, err)
	}
	if !d.c.HallPause(d.now, "hall") {
		t.Fatal("the hall's pause")
	}
	if st := d.status(); !st.Paused || st.PausedBy != "hall" {
		t.Errorf("after the hall's pause: paused %v by %q", st.Paused, st.PausedBy)
	}
	ms := d.status().White.Ms
	d.wait(5 * time.Second)
	if ok, err := d.c.HallResume(d.now, "hall"); !ok || err != nil {
		t.Fatalf("the hall resumes its own pause: %v, %v", ok, err)
	}
	if st := d.status(); st.Paused || st.Running != "white" || st.White.Ms != ms || st.PausedBy != "" {
		t.Errorf("after the hall's resume: paused %v, running %s, white %d (was %d), by %q", st.Paused, st.Running, st.White.Ms, ms, st.PausedBy)
	}
	// The arbiter pauses at the board: the hall cannot resume it.
	d.press(Pause)
	if ok, err := d.c.HallResume(d.now, "hall"); ok || !errors.Is(err, ErrNotHallPause) || !d.status().Paused {
		t.Errorf("the hall's resume of the arbiter's pause: %v, %v, paused %v", ok, err, d.status().Paused)
	}
	// The hall pauses a game the arbiter paused: still the arbiter's.
	d.c.HallPause(d.now, "hall")
	if _, err := d.c.HallResume(d.now, "hall"); !errors.Is(err, ErrNotHallPause) {
		t.Errorf("a pause of a paused game made it the hall's: %v", err)
	}
	// The hall pauses, the arbiter resumes and pauses at the board: the
	// pause is the arbiter's.
	d.press(Pause) // resume
	d.c.HallPause(d.now, "hall")
	d.press(Pause) // the arbiter resumes at the board
	d.press(Pause) // and pauses
	if _, err := d.c.HallResume(d.now, "hall"); !errors.Is(err, ErrNotHallPause) {
		t.Errorf("the arbiter's pause after the hall's: %v", err)
	}
}

// TestSetupWordsFit: the setup list's words for the round and the time of
// day are whole words (not "Round off", "Default 0", "Time 18:30 NO
// TIME", which a reader cannot decode), and every one, in each of its states, is
// drawn whole on a 128-pixel panel's menu line: without its last
// character the line changes.
func TestSetupWordsFit(t *testing.T) {
	d := newDriver(t, Opts{})
	noon := time.Date(2026, 3, 7, 18, 30, 0, 0, time.UTC).UnixMilli()
	var got []string
	look := func() {
		t.Helper()
		v := d.c.setupList().(*listPage)
		for _, it := range v.items(d.c)[3:6] {
			got = append(got, it.label())
		}
	}
	look()
	for _, src := range []string{SourceNTP, SourceRTC, SourceArbiter, SourceSim} {
		d.c.SetTimeOfDay(TimeOfDay{Mono: d.now, UnixMs: noon, Source: src, Zone: time.UTC})
		look()
	}
	for _, def := range defaultTimes {
		if _, err := d.c.SetRound(d.now, Round{StartMs: noon + 3600000, DefaultMs: def}, "arbiter"); err != nil {
			t.Fatal(err)
		}
		look()
	}
	for _, want := range []string{"Round start none", "Default time 0 min", "Time of day not set", "Time of day 18:30 NTP", "Time of day 18:30 ARB", "Round start 19:30", "Default time 15 min", "Default time 1 h"} {
		if !slices.Contains(got, want) {
			t.Errorf("no %q among %q", want, got)
		}
	}
	s := screen.NewPixelScreen(image.Rect(0, 0, 128, 64), screen.Left)
	draw := func(item string) string {
		v := screen.View{Kind: screen.KindMenu, Menu: screen.Menu{Title: "Setup", Items: []string{item}, Hint: "+ up  - down  ok"}}
		f := display.NewFrame(image.Rect(0, 0, 128, 64))
		s.Draw(&v, f)
		return string(f.Pix)
	}
	for _, item := range got {
		if draw(item) == draw(item[:len(item)-1]) {
			t.Errorf("%q is cut on a 128-pixel panel", item)
		}
	}
	for _, long := range []string{"Time of day 18:30 NTP and more"} {
		if draw(long) != draw(long[:len(long)-1]) {
			t.Errorf("%q is not cut: the check cannot fail", long)
		}
	}
}
