package daemon

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/config"
	"github.com/zeitnot/zeitnot/appliance/ui"
	"github.com/zeitnot/zeitnot/drivers/button"
	"github.com/zeitnot/zeitnot/drivers/profile"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/internal/wallclock"
	"github.com/zeitnot/zeitnot/internal/wallclock/wallclocktest"
	"github.com/zeitnot/zeitnot/protocol"
)

// hallRig is a clock on the simulated hardware with a time of day:
// the time of day is hallT0 at instant 0 and moves with it, and the NTP
// flag file exists while synced is set.
type hallRig struct {
	*rig
	synced string
}

var hallT0 = time.Date(2026, 3, 7, 17, 29, 0, 0, time.UTC)

func bootHall(t *testing.T, club, state string, ntp bool) *hallRig {
	t.Helper()
	h := &hallRig{rig: &rig{t: t}, synced: filepath.Join(t.TempDir(), "synchronized")}
	if ntp {
		os.WriteFile(h.synced, nil, 0o644)
	}
	h.boot(club, state)
	return h
}

func (h *hallRig) boot(club, state string) {
	r := h.rig
	o := Opts{ConfigPath: club, StateDir: state, FallbackProfile: config.SimProfile, Now: func() time.Duration { return r.now },
		Clock: wallclock.NowFunc(func() time.Time { return hallT0.Add(r.now) }),
		Time:  TimeOpts{SyncedFile: h.synced, BootID: "boot-1", Zone: time.UTC}}
	r.m, r.devs = Setup(o, func(s string) { r.log = append(r.log, s) })
	r.t.Cleanup(r.stop)
	r.m.Step(r.now)
}

// ask sends one control request as the socket would, and steps the loop.
func (h *hallRig) ask(cmd, arg string) string {
	h.t.Helper()
	a, ok := h.m.Control(cmd, arg, h.now)
	if !ok {
		h.t.Fatalf("%s not handled", cmd)
	}
	h.m.Step(h.now)
	return a
}

func (h *hallRig) button(name string) {
	h.m.Input(button.Event{Button: name, Kind: button.Press, At: h.now}, h.now)
	h.m.Input(button.Event{Button: name, Kind: button.Release, At: h.now}, h.now)
}

func (h *hallRig) advance(d time.Duration) {
	end := h.now + d
	for {
		next, ok := h.m.Step(h.now)
		if !ok || next > end {
			break
		}
		h.now = next
	}
	h.now = end
	h.m.Step(h.now)
}

func strict(t *testing.T, answer string, v any) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(answer))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: %v", answer, err)
	}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// TestLogRequests: "log" and "log GAME FROM" answer in appliance/link's
// types exactly, numbering the journal's lines; a finished game is served
// from the archive by its id.
func TestLogRequests(t *testing.T) {
	dir := t.TempDir()
	club := filepath.Join(dir, "zeitnot.toml")
	os.WriteFile(club, []byte("profile = \"sim\"\n[game]\ncontrol = \"5\"\n"), 0o644)
	h := bootHall(t, club, filepath.Join(dir, "state"), false)
	var li protocol.LogInfo
	strict(t, h.ask("log", ""), &li)
	if li.Lines != 5 || li.Game == "" {
		t.Fatalf("log: %+v, want the header's 5 lines", li)
	}
	first := li.Game
	h.button("right") // White's clock starts
	h.now += time.Second
	h.button("left")
	strict(t, h.ask("log", ""), &li)
	if li.Lines != 7 || li.Game != first {
		t.Fatalf("log after start and press: %+v", li)
	}
	var ll protocol.LogLines
	strict(t, h.ask("log", first+" 6"), &ll)
	if ll.Game != first || ll.From != 6 || len(ll.Lines) != 2 || !strings.HasPrefix(ll.Lines[0], "0 start *") || !strings.HasPrefix(ll.Lines[1], "1000 press white *") || ll.More || ll.Current != first {
		t.Errorf("log %s 6: %+v", first, ll)
	}
	strict(t, h.ask("log", first+" 100"), &ll)
	if ll.Lines == nil || len(ll.Lines) != 0 || ll.More {
		t.Errorf("past the end: %+v", ll)
	}
	for arg, want := range map[string]string{
		"nosuch 1":     "error: no game nosuch",
		first + " 0":   "error: log " + first + " 0: want log GAME FROM, FROM a line number from 1",
		first + " x":   "error: log " + first + " x: want log GAME FROM, FROM a line number from 1",
		first:          "error: log " + first + ": want log GAME FROM, FROM a line number from 1",
		"../x 1":       "error: no game ../x",
		first + " -10": "error: log " + first + " -10: want log GAME FROM, FROM a line number from 1",
	} {
		if got := h.ask("log", arg); got != want {
			t.Errorf("log %s: %q, want %q", arg, got, want)
		}
	}
	// Black's flag falls (5 s sudden death); ok starts the next game.
	h.advance(6 * time.Second)
	h.button("ok")
	strict(t, h.ask("log", ""), &li)
	if li.Game == first || li.Lines != 5 {
		t.Errorf("the next game: %+v", li)
	}
	strict(t, h.ask("log", first+" 1"), &ll)
	if len(ll.Lines) < 8 || ll.Current != li.Game || ll.More {
		t.Errorf("the archived game: %+v", ll)
	}
}

// TestHallCommandRequests: each hall command as the link sends it (its
// JSON types), what it does, and the refusals.
func TestHallCommandRequests(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	h := bootHall(t, filepath.Join(dir, "none.toml"), state, false)
	str := func(s string) *string { return &s }

	// next-game on an unstarted game: it changes now.
	if a := h.ask("next-game", mustJSON(protocol.NextGameArg{Control: "fide-blitz-3", Options: map[string]string{"after-flag": "continue"}})); a != "ok" {
		t.Fatalf("next-game: %s", a)
	}
	st := h.m.Status(h.now)
	if st.Control != "180+2" || st.Options["after-flag"] != "continue" {
		t.Errorf("after next-game: %s %v", st.Control, st.Options)
	}
	// round: refused without a time of day, taken with one.
	round := mustJSON(protocol.RoundArg{StartMs: new(hallT0.Add(time.Minute).UnixMilli()), DefaultMs: 0})
	if a := h.ask("round", round); !strings.HasPrefix(a, "error: round: the clock does not know the time of day") {
		t.Errorf("round without a time of day: %s", a)
	}
	if a := h.ask("status", ""); !strings.Contains(a, `"time_source":"none"`) {
		t.Errorf("status %s", a)
	}
	os.WriteFile(h.synced, nil, 0o644)
	h.now += syncedEvery // the flag file is looked at every 10 s
	if a := h.ask("round", round); a != "ok" {
		t.Fatalf("round: %s", a)
	}
	st = h.m.Status(h.now)
	if st.TimeSource != "ntp" || st.Round == nil || st.Round.StartsIn == nil || *st.Round.StartsIn != 50000 {
		t.Errorf("status after round: %s %+v", st.TimeSource, st.Round)
	}
	// players.
	if a := h.ask("players", mustJSON(protocol.PlayersArg{White: str("  Carlsen, Magnus "), Black: str("Caruana, Fabiano")})); a != "ok" {
		t.Fatalf("players: %s", a)
	}
	if a := h.ask("players", mustJSON(protocol.PlayersArg{Black: str("")})); a != "ok" {
		t.Fatalf("players: %s", a)
	}
	if p := h.m.Status(h.now).Players; p == nil || *p != (ui.Players{White: "Carlsen, Magnus"}) {
		t.Errorf("players %+v", p)
	}
	// pause: nothing runs; the start comes; pause.
	if a := h.ask("pause", ""); a != "ok not running" {
		t.Errorf("pause before the start: %s", a)
	}
	h.advance(time.Minute)
	if st := h.m.Status(h.now); st.Running != "white" {
		t.Fatalf("after the scheduled start: %+v", st)
	}
	if a := h.ask("pause", ""); a != "ok" || !h.m.Status(h.now).Paused {
		t.Errorf("pause: %s", a)
	}
	// result: the arbiter's, from the hall, on the paused game.
	if a := h.ask("result", `{"result":"1/2-1/2"}`); a != "ok" {
		t.Errorf("result: %s", a)
	}
	if st := h.m.Status(h.now); st.Result != "1/2-1/2" || st.ResultBy != "arbiter" {
		t.Errorf("status after result: %q %q", st.Result, st.ResultBy)
	}
	if a := h.ask("result", `{"result":"2-0"}`); !strings.HasPrefix(a, `error: result: result "2-0": want 1-0, 1/2-1/2, 0-1 or *`) {
		t.Errorf("a bad result: %s", a)
	}
	// takeover: refused while the game is in progress.
	tk := protocol.TakeoverArg{Board: 7, Game: "0042-aaaaaa", Control: "40/5400+30:1800+30", Options: map[string]string{"after-flag": "freeze"}, ToMove: "black",
		White: &clocklog.SideClock{Ms: 4200000, Moves: 21, Period: 1}, Black: &clocklog.SideClock{Ms: 4100500, Moves: 20, Period: 1, Overstep: true},
		At: hallT0.Add(time.Minute).UnixMilli()}
	if a := h.ask("takeover", mustJSON(tk)); a != "error: a game is in progress on this clock" {
		t.Errorf("takeover during a game: %s", a)
	}

	// Refusals, each with why.
	for _, tc := range []struct{ cmd, arg, want string }{
		{"next-game", `{"control":"fide-blitz-3","extra":1}`, `error: next-game: unknown field "extra"`},
		{"next-game", `{"control":"fide-blitz-3"} {}`, "error: next-game: more after the JSON object"},
		{"next-game", `null`, `error: next-game needs a JSON object, got "null"`},
		{"next-game", ``, `error: next-game needs a JSON object, got ""`},
		{"next-game", `{"options":{}}`, "error: next-game: missing field control"},
		{"next-game", `{"control":"90 min"}`, `error: next-game: control "90 min": `},
		{"next-game", `{"control":"300+2","options":{"after-flag":"melt"}}`, "error: next-game: options: "},
		{"next-game", `{"control":5}`, "error: next-game: cannot unmarshal number into Go struct field"},
		{"round", `{"default_ms":0}`, "error: round: missing field start_ms"},
		{"round", `{"start_ms":1,"default_ms":90000000}`, "error: round: default time 90000000 ms: want 0 to 86400000"},
		{"players", `{}`, "error: players: give white, black or both"},
		{"players", `{"white":"` + strings.Repeat("é", 65) + `"}`, "error: players: name of 65 characters, at most 64"},
		{"players", `{"white":"a\u0007b"}`, "error: players: control characters in name"},
		{"pause", `{}`, "error: pause takes no argument"},
		{"takeover", `{"board":0}`, "error: takeover: board 0: want 1 to 9999"},
		{"takeover", `{"board":7,"control":"x","to_move":"black"}`, `error: takeover: control "x": `},
	} {
		if a := h.ask(tc.cmd, tc.arg); !strings.HasPrefix(a, tc.want) {
			t.Errorf("%s %s: %q, want %q...", tc.cmd, tc.arg, a, tc.want)
		}
	}
	if st := h.m.Status(h.now); !st.Paused || st.Control != "180+2" {
		t.Errorf("the refusals changed the game: %+v", st)
	}

	// Every command carried out is in the journal.
	data, _ := os.ReadFile(filepath.Join(state, "game.log"))
	for _, want := range []string{" result 1/2-1/2 arbiter *", "# hall: players white \"Carlsen, Magnus\", black \"Caruana, Fabiano\"", "# hall: round start 2026-03-07T17:30:00.000Z, default time 0s", "# hall: pause *", "# hall: pause: no clock was running"} {
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("no %q in the journal:\n%s", want, bytes.TrimRight(data, "\x00"))
		}
	}

	// The round and the names are kept over a restart.
	h.stop()
	h.boot(filepath.Join(dir, "none.toml"), state)
	st = h.m.Status(h.now)
	if st.Players == nil || st.Players.White != "Carlsen, Magnus" || st.Round == nil || st.Round.StartMs != hallT0.Add(time.Minute).UnixMilli() || st.Round.Game != st.Game {
		t.Errorf("after a restart: players %+v, round %+v, game %s", st.Players, st.Round, st.Game)
	}
}

// TestTakeoverRequest: a takeover on a clock whose game has not started:
// the game comes up paused, marked, with the source's times, and its
// journal says where it comes from and how old the state was.
func TestTakeoverRequest(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	h := bootHall(t, filepath.Join(dir, "none.toml"), state, true)
	h.now += 41200 * time.Millisecond
	tk := protocol.TakeoverArg{Board: 7, Game: "0042-aaaaaa", Control: "40/5400+30:1800+30", Options: map[string]string{"after-flag": "continue"}, ToMove: "black",
		White: &clocklog.SideClock{Ms: 4200000, Moves: 21, Period: 1}, Black: &clocklog.SideClock{Ms: 4100500, Moves: 20, Period: 1, Overstep: true},
		At: hallT0.UnixMilli()}
	// The reply says how old the source was, as the journal does, so
	// the arbiter sees it without reading the journal.
	if a := h.ask("takeover", mustJSON(tk)); a != "ok board 7's state was 41.2s old" {
		t.Fatalf("takeover: %s", a)
	}
	st := h.m.Status(h.now)
	if !st.Started || !st.Paused || !st.TakenOver || st.ToMove != "black" || st.White.Ms != 4200000 || st.Black.Ms != 4100500 ||
		st.White.Moves != 21 || st.Black.Moves != 20 || !st.Black.Overstep || st.Options["after-flag"] != "continue" || st.Control != "40/5400+30:1800+30" {
		t.Errorf("taken over: %+v", st)
	}
	if v := h.m.Core.View(h.now); v.Game.Banner != "TAKEN OVER" {
		t.Errorf("banner %q", v.Game.Banner)
	}
	data, _ := os.ReadFile(filepath.Join(state, "game.log"))
	want := "# hall: takeover of board 7 game 0042-aaaaaa, black to move, white 1:10:00.000 moves 21 period 1, black 1:08:20.500 moves 20 period 1, as its state of 2026-03-07T17:29:00.000Z showed it (41.2s before this takeover, by this clock's ntp time) (FIDE 6.10: the arbiter checks the times before resuming) *"
	if !bytes.Contains(data, []byte(want)) {
		t.Errorf("journal:\n%s\nwant %s", bytes.TrimRight(data, "\x00"), want)
	}
	h.button("pause") // the arbiter resumes
	if st := h.m.Status(h.now); st.Running != "black" || st.TakenOver {
		t.Errorf("resumed: %+v", st)
	}
}

// TestTimeSource: which source the daemon trusts for the time of day,
// and the arbiter's time kept over a restart of the same boot only.
func TestTimeSource(t *testing.T) {
	dir := t.TempDir()
	synced := filepath.Join(dir, "synchronized")
	clk := wallclocktest.New(hallT0)
	o := TimeOpts{SyncedFile: synced, BootID: "boot-1"}
	rtcOK := &profile.Devices{Results: []profile.Result{{Kind: "rtc", Device: "ds3231 on /dev/i2c-1@0x68: 2026-03-07 17:29:00 UTC, time valid, 21.25°C"}}}
	rtcBad := &profile.Devices{Results: []profile.Result{{Kind: "rtc", Device: "ds3231 on /dev/i2c-1@0x68: time NOT valid, oscillator stopped; set the time"}}}

	ts := NewTimeSource(o, clk, dir, rtcBad, nil)
	if r := ts.Read(0); r.Source != "none" || r.UnixMs != hallT0.UnixMilli() {
		t.Errorf("nothing to trust: %+v", r)
	}
	if r := NewTimeSource(o, clk, dir, rtcOK, nil).Read(0); r.Source != "rtc" {
		t.Errorf("a valid RTC: %+v", r)
	}
	// The arbiter sets 17:30:00 while the system clock says 17:29:00.
	if err := ts.Set(time.Second, hallT0.Add(time.Minute).UnixMilli()); err != nil {
		t.Fatal(err)
	}
	clk.Advance(5 * time.Second)
	if r := ts.Read(5 * time.Second); r.Source != "arbiter" || r.UnixMs != hallT0.Add(time.Minute+5*time.Second).UnixMilli() {
		t.Errorf("the arbiter's time: %+v", r)
	}
	// A restart of the daemon in the same boot keeps it, over the RTC.
	if r := NewTimeSource(o, clk, dir, rtcOK, nil).Read(0); r.Source != "arbiter" || r.UnixMs != hallT0.Add(time.Minute+5*time.Second).UnixMilli() {
		t.Errorf("after a restart: %+v", r)
	}
	// Another boot forgets it.
	o2 := o
	o2.BootID = "boot-2"
	if r := NewTimeSource(o2, clk, dir, nil, nil).Read(0); r.Source != "none" {
		t.Errorf("another boot: %+v", r)
	}
	// NTP synchronized: its time, and the arbiter cannot set another.
	os.WriteFile(synced, nil, 0o644)
	ts = NewTimeSource(o, clk, dir, nil, nil)
	if r := ts.Read(0); r.Source != "ntp" || r.UnixMs != clk.Now().UnixMilli() {
		t.Errorf("NTP: %+v", r)
	}
	if err := ts.Set(0, 0); err == nil {
		t.Error("set while NTP rules")
	}
	// The flag file is looked at every 10 s, not at every turn.
	os.Remove(synced)
	if r := ts.Read(9 * time.Second); r.Source != "ntp" {
		t.Errorf("9 s later: %+v", r)
	}
	if r := ts.Read(10 * time.Second); r.Source != "arbiter" {
		t.Errorf("10 s later, no NTP: %+v", r)
	}
}

// A running game taken over is settled to the takeover's instant from
// its state's own time: the running side is charged the state's age
// (unsettled, it came back 2.07 s ahead: the age of the state).
func TestTakeoverSettlesTheRunningSide(t *testing.T) {
	dir := t.TempDir()
	h := bootHall(t, filepath.Join(dir, "none.toml"), filepath.Join(dir, "state"), true)
	h.now += 2070 * time.Millisecond
	tk := protocol.TakeoverArg{Board: 7, Control: "5400+30", ToMove: "black", Running: "black",
		White: &clocklog.SideClock{Ms: 4200000, Moves: 21, Period: 1}, Black: &clocklog.SideClock{Ms: 4100500, Moves: 20, Period: 1},
		At: hallT0.UnixMilli()}
	if a := h.ask("takeover", mustJSON(tk)); a != "ok board 7's state was 2.07s old; black's time settled to the takeover" {
		t.Fatalf("takeover: %s", a)
	}
	st := h.m.Status(h.now)
	if d := st.Black.Ms - (4100500 - 2070); st.White.Ms != 4200000 || d < -1000 || d > 1000 {
		t.Errorf("black %d (off by %d ms from its time at the takeover), white %d", st.Black.Ms, d, st.White.Ms)
	}
	t.Logf("the running side at the takeover: off by %d ms", st.Black.Ms-(4100500-2070))
	if _, _, err := (protocol.TakeoverArg{Board: 7, Control: "300", ToMove: "black", Running: "white", White: tk.White, Black: tk.Black}).Check(); err == nil {
		t.Error("a running side that is not the side to move was taken")
	}
}

// The laptop's clock ("host") is trusted by a demonstration clock only:
// the simulated profile, off the clock's image (without it make hall's
// clocks, with no NTP, could show no scheduled start). On the image, or on real hardware, the
// daemon says so and trusts nothing it was not given.
func TestHostClockOnlyForTheDemo(t *testing.T) {
	dir := t.TempDir()
	debian := filepath.Join(dir, "debian")
	os.WriteFile(debian, []byte("PRETTY_NAME=\"Debian GNU/Linux 13 (trixie)\"\nID=debian\n"), 0o644)
	image := filepath.Join(dir, "image")
	os.WriteFile(image, []byte("ID=debian\nIMAGE_ID=zeitnot\nIMAGE_VERSION=v1.2\n"), 0o644)
	for _, c := range []struct {
		profile, osRelease, err string
	}{
		{"sim", debian, ""},
		{"sim", filepath.Join(dir, "none"), ""}, // no os-release: not the image
		{"sim", image, "not trusted on the clock's image"},
		{"two-ssd1306-i2c", debian, `only by a simulated clock (profile "sim"), not on profile "two-ssd1306-i2c"`},
		{"/tmp/x/sim.toml", debian, "only by a simulated clock"},
	} {
		err := HostClockAllowed(c.profile, c.osRelease)
		if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%s on %s: %v, want %q", c.profile, filepath.Base(c.osRelease), err, c.err)
		}
	}
	// A daemon on the image asked for it: the message, and no time source.
	for _, c := range []struct {
		osRelease, source string
	}{{debian, "host"}, {image, "none"}} {
		var logged []string
		m, devs := Setup(Opts{StateDir: t.TempDir(), Profile: "sim", FallbackProfile: config.SimProfile, Now: func() time.Duration { return 0 },
			Time: TimeOpts{Trusted: ui.SourceHost, OSRelease: c.osRelease, SyncedFile: "-"}}, func(s string) { logged = append(logged, s) })
		m.Core.SetTimeOfDay(m.Time.Read(0))
		if got := m.Status(0).TimeSource; got != c.source {
			t.Errorf("on %s: time source %q, want %q", filepath.Base(c.osRelease), got, c.source)
		}
		if c.source == "none" && !strings.Contains(strings.Join(m.Status(0).Messages, " "), "not trusted on the clock's image") {
			t.Errorf("on the image: no message saying why: %q", m.Status(0).Messages)
		}
		m.Core.Close()
		devs.Close()
	}
}

// TestStartRequest: start, as the hall's link asks it: a game waiting for
// the round's scheduled start starts now, on a locked clock too (the hall
// is the arbiter, no PIN); a game that has started is refused and left
// as it was.
func TestStartRequest(t *testing.T) {
	dir := t.TempDir()
	club := filepath.Join(dir, "zeitnot.toml")
	os.WriteFile(club, []byte("[lock]\nlocked = true\npin = \"4711\"\n"), 0o644)
	h := bootHall(t, club, filepath.Join(dir, "state"), true)
	if !h.m.Status(h.now).Locked {
		t.Fatal("the clock is not locked")
	}
	if a := h.ask("start", "now"); a != "error: start takes no argument" {
		t.Errorf("start with an argument: %s", a)
	}
	round := mustJSON(protocol.RoundArg{StartMs: new(hallT0.Add(129 * time.Second).UnixMilli()), DefaultMs: 1800000})
	if a := h.ask("round", round); a != "ok" {
		t.Fatalf("round: %s", a)
	}
	h.button(ui.Right) // Black's lever: the game waits for the round
	if st := h.m.Status(h.now); st.Started {
		t.Fatalf("a lever started the waiting game: %+v", st)
	}
	if a := h.ask("start", ""); a != "ok early: 2:09 before the round's start" {
		t.Errorf("start: %s", a)
	}
	st := h.m.Status(h.now)
	if !st.Started || st.Running != "white" || st.Round.Game != st.Game {
		t.Errorf("after start: %+v %+v", st, st.Round)
	}
	h.advance(time.Second)
	if a := h.ask("start", ""); a != "error: start: the game has already started" {
		t.Errorf("second start: %s", a)
	}
	if st := h.m.Status(h.now); st.Running != "white" || st.White.Ms != 5430000-1000 {
		t.Errorf("the refused start changed the game: %+v", st)
	}
}
