package daemon

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/journal"
	"github.com/zeitnot/zeitnot/appliance/ui"
	"github.com/zeitnot/zeitnot/drivers/button"
	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/engine/clocklog/clocklogtest"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
)

// player plays a generated game on a Machine on a virtual clock: button
// presses at the game's instants, and the loop stepped at every instant it
// asks to wake at in between (renders, checkpoints, flags), as the daemon's
// loop does.
type player struct {
	t   *testing.T
	m   *Machine
	now time.Duration
	dir string
}

// until runs the loop up to instant end.
func (p *player) until(end time.Duration) {
	for i := 0; i < 1_000_000; i++ {
		next, ok := p.m.Step(p.now)
		if !ok || next > end || next <= p.now {
			break
		}
		p.now = next
	}
	p.now = max(p.now, end)
	p.m.Step(p.now)
}

// press is a short press of a button: down, 80 ms, up, 120 ms.
func (p *player) press(name string) {
	p.m.Input(button.Event{Button: name, Kind: button.Press, At: p.now}, p.now)
	p.until(p.now + 80*time.Millisecond)
	p.m.Input(button.Event{Button: name, Kind: button.Release, At: p.now}, p.now)
	p.until(p.now + 120*time.Millisecond)
}

// hold is a long press: down, held at 1.5 s, up.
func (p *player) hold(name string) {
	p.m.Input(button.Event{Button: name, Kind: button.Press, At: p.now}, p.now)
	p.until(p.now + 1500*time.Millisecond)
	p.m.Input(button.Event{Button: name, Kind: button.Hold, At: p.now}, p.now)
	p.until(p.now + 100*time.Millisecond)
	p.m.Input(button.Event{Button: name, Kind: button.Release, At: p.now}, p.now)
	p.until(p.now + 100*time.Millisecond)
}

// lever is the lever of a side.
func (p *player) lever(s clock.Side) string {
	if (s == clock.White) == p.m.Core.Settings().WhiteLeft {
		return ui.Left
	}
	return ui.Right
}

// check compares the Machine's state with the replay of its own journal,
// the file recovery after a power cut reads.
func (p *player) check(what string) {
	p.t.Helper()
	st := p.m.Core.Status(p.now)
	// The journal's lines, past its zero padding (journal.Unpad), read
	// whole: a journal written in one run has no damage to salvage.
	f, err := os.Open(filepath.Join(p.dir, journal.File))
	if err != nil {
		p.t.Fatal(err)
	}
	defer f.Close()
	l, err := clocklog.Parse(journal.File, journal.Unpad(f))
	if err != nil {
		p.t.Fatalf("%s: the journal does not read: %v", what, err)
	}
	c, err := clocklog.Replay(l, clocklog.Handlers{})
	if err != nil {
		p.t.Fatal(err)
	}
	if c.Now() > st.At {
		p.t.Fatalf("%s: the journal reaches %d ms, past the clock's %d", what, c.Now(), st.At)
	}
	if got := clocklog.ToJSON(c.State(st.At)); got != st.StateJSON {
		p.t.Fatalf("%s, control %s %+v: live and replay differ\nlive   %+v\nreplay %+v", what, l.Controls, l.Options, st.StateJSON, got)
	}
}

// TestLiveEqualsReplay drives the Machine with generated games of every
// mode and option (clocklogtest.Game) and, after every press and pause,
// compares its state with the replay of the journal it wrote. The game's
// corrections become the arbiter's: +2:00 (plus, the lever) and the side
// to move (hold ok, the lever, back) while paused.
func TestLiveEqualsReplay(t *testing.T) {
	games := 40
	if testing.Short() {
		games = 6
	}
	checks := 0
	for seed := 0; seed < games; seed++ {
		src := clocklogtest.FromSeed(uint64(seed), 1<<20)
		// Half an hour at most: the journal syncs a checkpoint every
		// second a clock runs.
		g := clocklogtest.Game(src, clocklogtest.Opts{Events: 60, Span: 30 * 60 * 1000, Corrections: true})
		set := ui.DefaultSettings
		set.Control = timecontrol.FormatPair(g.Controls)
		set.Options = g.Options
		set.WhiteLeft = seed%2 == 0
		dir := t.TempDir()
		p := &player{t: t, dir: dir, m: &Machine{Core: ui.New(ui.Opts{Settings: set, StateDir: dir})}}
		if ctl := p.m.Core.Status(0).Control; ctl != set.Control {
			t.Fatalf("seed %d: the clock plays %s, want %s", seed, ctl, set.Control)
		}
		for i, e := range g.Events {
			p.until(max(p.now, time.Duration(e.At)*time.Millisecond))
			st := p.m.Core.Status(p.now)
			if st.Stopped || st.FirstFlag != "none" && st.Running == "none" && !st.Paused {
				break // the game is over; ok would start the next one
			}
			what := ""
			switch e.Verb {
			case clocklog.Start:
				if !st.Started {
					p.press(p.lever(clock.Black)) // Black's lever starts White's clock
					what = "start"
				}
			case clocklog.Press:
				p.press(p.lever(e.Side))
				what = "press " + e.Side.String()
			case clocklog.Pause:
				if st.Running != "none" {
					p.press(ui.Pause)
					what = "pause"
				}
			case clocklog.Resume:
				if st.Paused {
					p.press(ui.Pause)
					what = "resume"
				}
			case clocklog.SetTurn:
				if st.Paused {
					p.hold(ui.OK)
					p.press(p.lever(e.Side))
					p.press(ui.Pause) // back to the game
					what = "to move " + e.Side.String()
				}
			default:
				if st.Paused && e.Side != clock.NoSide {
					p.press(ui.Plus)
					p.press(p.lever(e.Side))
					what = "+2:00 " + e.Side.String()
				}
			}
			if what != "" {
				checks++
				p.check("seed " + strconv.Itoa(seed) + " event " + strconv.Itoa(i) + " " + what)
			}
		}
		// And once the game has run on by itself for two minutes.
		p.until(p.now + 2*time.Minute)
		p.check("seed " + strconv.Itoa(seed) + " at the end")
	}
	if checks < 10*games {
		t.Errorf("%d checks in %d games: the games hardly play", checks, games)
	}
	t.Logf("%d checks in %d games", checks, games)
}
