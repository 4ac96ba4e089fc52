package sim

import (
	"encoding/json"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/session"
	"github.com/zeitnot/zeitnot/appliance/ui"
	"github.com/zeitnot/zeitnot/drivers/button"
	"github.com/zeitnot/zeitnot/drivers/display/displaytest"
	"github.com/zeitnot/zeitnot/engine/preset"
)

var update = flag.Bool("update", false, "rewrite the golden PNGs in testdata")

// clockT drives a virtual clock the way fingers do and counts the presses.
type clockT struct {
	t       *testing.T
	v       *Virtual
	presses int
}

func start(t *testing.T, o ScriptOpts) *clockT {
	t.Helper()
	if o.StateDir == "" {
		o.StateDir = t.TempDir()
	}
	v, err := Start(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(v.Close)
	return &clockT{t: t, v: v}
}

func (c *clockT) wait(d time.Duration) { c.v.Advance(c.v.Now() + d) }

func (c *clockT) tap(names ...string) {
	for _, n := range names {
		c.presses++
		c.v.Button(n, button.Press)
		c.wait(80 * time.Millisecond)
		c.v.Button(n, button.Release)
		c.wait(150 * time.Millisecond)
	}
}

func (c *clockT) hold(name string) {
	c.presses++
	c.v.Button(name, button.Press)
	c.wait(1500 * time.Millisecond)
	c.v.Button(name, button.Hold)
	c.wait(100 * time.Millisecond)
	c.v.Button(name, button.Release)
	c.wait(150 * time.Millisecond)
}

func (c *clockT) state() ui.Status { return c.v.M.Core.Status(c.v.Now()) }

// choose starts a game with preset p from the menu: hold ok, then the
// picks the menu's preset tree asks for.
func (c *clockT) choose(p preset.Preset) {
	path, ok := c.v.M.Core.PresetPath(p.Key)
	if !ok {
		c.t.Fatalf("preset %s not in the menu", p.Key)
	}
	c.hold(ui.OK)
	c.tap(path...)
}

func TestPresetToFlag(t *testing.T) {
	c := start(t, ScriptOpts{})
	p, _ := preset.ByKey("online-3-2")
	c.choose(p)
	if c.presses > 4 {
		t.Errorf("%s took %d presses", p.Name, c.presses)
	}
	st := c.state()
	if st.Control != "180+2" || st.White.Ms != 182000 || st.Started {
		t.Fatalf("after choosing %s: %+v", p.Name, st)
	}
	c.tap(ui.Right) // Black's lever starts White's clock
	for i := 0; i < 10; i++ {
		c.wait(5 * time.Second)
		c.tap(ui.Left)
		c.wait(3 * time.Second)
		c.tap(ui.Right)
	}
	c.wait(10 * time.Minute)
	st = c.state()
	if st.FirstFlag != "white" || !st.White.Flag || st.White.Ms != 0 {
		t.Fatalf("no flag: %+v", st)
	}
	if st.White.Moves != 10 || st.Black.Moves != 10 {
		t.Errorf("moves %d/%d", st.White.Moves, st.Black.Moves)
	}
	// Every preset stops the clock at the flag: no side runs, and one ok
	// starts the next game on the same control.
	if !st.Stopped || st.Running != "none" {
		t.Errorf("after the flag: stopped %v, %s runs", st.Stopped, st.Running)
	}
	c.presses = 0
	c.tap(ui.OK)
	if st := c.state(); st.Started || st.Control != "180+2" || st.White.Ms != 182000 || c.presses != 1 {
		t.Errorf("next game after the flag, %d presses: %+v", c.presses, st)
	}
}

// TestCustomFromScratch enters the FIDE classical control (90 min for 40
// moves, then 30 min, 30 s a move from move 1) with the menu, from a clock
// set to plain 5 minutes.
func TestCustomFromScratch(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "zeitnot.toml")
	os.WriteFile(cfg, []byte("[game]\ncontrol = \"300\"\n"), 0o644)
	c := start(t, ScriptOpts{ConfigPath: cfg})
	if c.state().Control != "300" {
		t.Fatalf("control %q", c.state().Control)
	}
	R, P, OK := ui.Right, ui.Plus, ui.OK
	c.hold(OK)
	c.tap(P)                       // Setup
	c.tap(OK)                      // Custom control
	c.tap(OK)                      // White's periods
	c.tap(OK)                      // period 1
	c.tap(R, R, R, R, OK)          // 40 moves
	c.tap(P, OK)                   // 1 hour
	c.tap(R, R, P, P, P, P, P, OK) // 30 minutes
	c.tap(OK)                      // 00 seconds
	c.tap(P, OK)                   // Fischer
	c.tap(R, R, R, OK)             // 30 s
	c.tap(ui.Minus, OK)            // down to "add period": 30 min, Fischer 30 s, copied
	c.tap(OK, OK, OK, OK, OK, OK)
	M := ui.Minus
	c.tap(M, M, M, OK)       // down to done
	c.tap(M, M, M, M, M, OK) // down to start game
	st := c.state()
	if st.Control != "40/5400+30:1800+30" || st.White.Ms != 5430000 || st.Black.Ms != 5430000 {
		t.Fatalf("built %q, white %d: %+v", st.Control, st.White.Ms, st)
	}
	t.Logf("90/40 + 30 + 30 s from scratch: %d presses", c.presses)
}

func TestPauseCorrectResume(t *testing.T) {
	c := start(t, ScriptOpts{})
	c.tap(ui.Right)
	c.wait(90 * time.Second)
	c.presses = 0
	c.tap(ui.Pause)
	c.hold(ui.OK)
	c.tap(ui.OK)                       // Time of the left player (White)
	c.tap(ui.OK)                       // hours stay 1
	c.tap(ui.Left, ui.Minus, ui.Minus) // 29 -> 19 -> 17 minutes
	c.tap(ui.OK)
	c.tap(ui.OK) // seconds stay
	c.tap(ui.Pause, ui.Pause)
	st := c.state()
	if st.Paused || st.Running != "white" {
		t.Fatalf("not resumed: %+v", st)
	}
	// White showed 1:29:00 when paused; the form set 1:17:00.
	if got := (st.White.Ms + 999) / 1000; got != 3600+17*60 {
		t.Errorf("white %d s after setting 1:17:00", got)
	}
	t.Logf("pause, set a time, resume: %d presses", c.presses)
}

func TestScriptAndPowerCut(t *testing.T) {
	dir := t.TempDir()
	script := `# start, two moves, a power cut, recovery
0 tap right
12000 tap left
20500 state
20500 power-cut
20500 state
25000 tap pause
26000 state
`
	var out strings.Builder
	err := RunScript(ScriptOpts{StateDir: dir, Shots: dir, Out: &out}, "game.sim", strings.NewReader(script))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("want 3 state lines, got %q", out.String())
	}
	var before, after, resumed ui.Status
	json.Unmarshal([]byte(lines[0]), &before)
	json.Unmarshal([]byte(lines[1]), &after)
	json.Unmarshal([]byte(lines[2]), &resumed)
	if !after.Recovered || !after.Paused || after.Screen != "game" {
		t.Errorf("after the cut: %+v", after)
	}
	if after.White.Ms != before.White.Ms {
		t.Errorf("white (not running) changed: %d -> %d", before.White.Ms, after.White.Ms)
	}
	if d := after.Black.Ms - before.Black.Ms; d < 0 || d > 1000 {
		t.Errorf("black (running) off by %d ms", d)
	}
	if resumed.Recovered || resumed.Running != "black" {
		t.Errorf("after resume: %+v", resumed)
	}
}

func TestScriptErrors(t *testing.T) {
	cases := []struct{ script, want string }{
		{"0 tap nose\n", "s.sim:1: no button \"nose\""},
		{"10 state\n5 state\n", "s.sim:2: instant 5 is before the previous one, 10"},
		{"x state\n", "s.sim:1: instant \"x\""},
		{"0 dance\n", "s.sim:1: unknown directive \"dance\""},
		{"0 shot a/b\n", "s.sim:1: shot takes a name"},
	}
	for _, tc := range cases {
		_, err := ParseScript("s.sim", strings.NewReader(tc.script))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.script, err, tc.want)
		}
	}
	if _, err := Start(ScriptOpts{Profile: "two-ssd1306-i2c"}); err == nil || !strings.Contains(err.Error(), "real hardware") {
		t.Errorf("real profile in the simulator: %v", err)
	}
}

// TestDisplayFamilies plays the same game on every display family and
// compares each display with its golden picture.
func TestDisplayFamilies(t *testing.T) {
	families := []struct{ name, profile string }{
		{"two-128x64", "sim"},
		{"one-128x64-both", "testdata/both.toml"},
		{"two-128x32", "testdata/small.toml"},
		{"two-4-digit", "sim-segment"},
		{"two-8-digit", "testdata/eight.toml"},
		{"lcd-16x2", "testdata/lcd.toml"},
	}
	for _, f := range families {
		t.Run(f.name, func(t *testing.T) {
			c := start(t, ScriptOpts{Profile: f.profile})
			c.tap(ui.Right)
			c.wait(7 * time.Second)
			c.tap(ui.Left)
			c.wait(2 * time.Second)
			shot := filepath.Join(t.TempDir(), "game")
			if err := c.v.Shot(shot); err != nil {
				t.Fatal(err)
			}
			for _, o := range c.v.M.Outputs {
				got := shot + "-" + o.Name + ".png"
				want := filepath.Join("testdata", f.name+"-"+o.Name+".png")
				frame, err := displaytest.LoadPNG(got, Scale)
				if err != nil {
					t.Fatal(err)
				}
				if err := displaytest.Golden(want, frame, Scale, *update); err != nil {
					t.Error(err)
				}
			}
			txt, _ := os.ReadFile(shot + ".txt")
			if !strings.Contains(string(txt), "display ") {
				t.Errorf("shot text: %q", txt)
			}
		})
	}
}

// cuts is how many power cuts TestPowerCutTorture makes: a quick run in
// make test, ZEITNOT_TORTURE_CUTS=1000 in make torture.
func cuts() int {
	if n, err := strconv.Atoi(os.Getenv("ZEITNOT_TORTURE_CUTS")); err == nil && n > 0 {
		return n
	}
	return 60
}

// TestPowerCutTorture cuts the power at random instants of games in every
// mode (every preset) and checks that recovery gives the game back paused,
// with every count exact, the waiting side's time exact and the running
// side's within a second of the uninterrupted run.
func TestPowerCutTorture(t *testing.T) {
	if testing.Short() {
		t.Skip("power-cut torture: not with -short")
	}
	rng := rand.New(rand.NewPCG(7, 11))
	worst := int64(0)
	n := cuts()
	for k := 0; k < n; k++ {
		p := preset.All[k%len(preset.All)]
		dir := t.TempDir()
		cfg := filepath.Join(dir, "zeitnot.toml")
		os.WriteFile(cfg, []byte("[game]\ncontrol = \""+p.Key+"\"\n"), 0o644)
		c := start(t, ScriptOpts{ConfigPath: cfg, StateDir: filepath.Join(dir, "state")})
		c.tap(ui.Right)
		moves := rng.IntN(12)
		for m := 0; m < moves; m++ {
			c.wait(time.Duration(rng.IntN(20000)) * time.Millisecond)
			if rng.IntN(8) == 0 { // an arbiter's pause now and then
				c.tap(ui.Pause)
				c.wait(time.Duration(rng.IntN(5000)) * time.Millisecond)
				c.tap(ui.Pause)
			}
			c.tap([]string{ui.Left, ui.Right}[m%2])
		}
		c.wait(time.Duration(rng.IntN(3000)) * time.Millisecond)
		truth := c.state()
		c.v.PowerCut()
		got := c.state()
		if truth.Running != "none" && (!got.Recovered || !got.Paused) {
			t.Errorf("%s cut %d: not recovered paused: %+v", p.Key, k, got)
		}
		for _, side := range []string{"white", "black"} {
			tp, gp := truth.White, got.White
			if side == "black" {
				tp, gp = truth.Black, got.Black
			}
			if gp.Moves != tp.Moves || gp.Period != tp.Period || gp.Flag != tp.Flag || gp.Overstep != tp.Overstep {
				t.Errorf("%s cut %d %s: %+v, truth %+v", p.Key, k, side, gp, tp)
			}
			d := gp.Ms - tp.Ms
			if p.Key == "count-up" {
				d = -d // counting up, the recovered clock shows less
			}
			lo, hi := int64(0), int64(0)
			if side == truth.Running {
				hi = 1000
			} else if strings.HasPrefix(p.Key, "hourglass") && truth.Running != "none" {
				lo = -1000 // in hourglass the waiting side gains what the running side loses
			}
			if d < lo || d > hi {
				t.Errorf("%s cut %d %s: off by %d ms (allowed %d to %d)", p.Key, k, side, d, lo, hi)
			}
			worst = max(worst, abs(d))
		}
	}
	t.Logf("%d power cuts; worst difference after recovery: %d ms", n, worst)
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestWriteBudget plays an hour of a classical game (a move every 30 s on
// average) and counts what the journal writes, for the SD card's sake.
func TestWriteBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("an hour of play: not with -short")
	}
	c := start(t, ScriptOpts{})
	c.tap(ui.Right)
	levers := []string{ui.Left, ui.Right}
	moves := 0
	for ; c.v.Now() < time.Hour; moves++ {
		c.wait(time.Duration(15+(moves*13)%30) * time.Second)
		c.tap(levers[moves%2])
	}
	st := c.v.M.Core.Stats()
	// A line per move, and a checkpoint whenever the due time passed
	// without one (CheckpointEvery less the slack for late wake-ups).
	due := int64(session.CheckpointEvery - session.CheckpointSlack)
	// A checkpoint repeats the game's header (about 100 bytes), so that a
	// damaged header can be rebuilt; the flash cost is per sync, not per
	// byte (appliance/journal).
	if want := time.Hour.Milliseconds()/due + int64(moves) + 10; st.Syncs > want || st.Bytes > 600_000 {
		t.Errorf("an hour of play wrote %d bytes in %d fsyncs", st.Bytes, st.Syncs)
	}
	t.Logf("one hour of play: %d bytes, %d fsyncs", st.Bytes, st.Syncs)
}
