package daemon

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"periph.io/x/conn/v3/physic"

	"github.com/zeitnot/zeitnot/appliance/ui"
	"github.com/zeitnot/zeitnot/drivers/button"
	"github.com/zeitnot/zeitnot/drivers/led/ledtest"
	"github.com/zeitnot/zeitnot/drivers/power"
	"github.com/zeitnot/zeitnot/drivers/power/powertest"
	"github.com/zeitnot/zeitnot/drivers/profile"
	"github.com/zeitnot/zeitnot/internal/wallclock/wallclocktest"
)

func ledMachine(t testing.TB, set ui.Settings) (*Machine, *ledtest.Recorder, *ledtest.Recorder, *[]string) {
	t.Helper()
	left, right := &ledtest.Recorder{Name: "left"}, &ledtest.Recorder{Name: "right"}
	var logged []string
	m := &Machine{
		Core: ui.New(ui.Opts{Settings: set}),
		Log:  func(s string) { logged = append(logged, s) },
	}
	m.AttachPower(&profile.Profile{Battery: profile.Battery{Type: "none", LowPercent: 20}}, &profile.Devices{LEDs: []profile.OpenLED{
		{LED: profile.LED{Name: "left", Role: "left"}, Dev: left},
		{LED: profile.LED{Name: "right", Role: "right"}, Dev: right},
	}})
	return m, left, right, &logged
}

func tap(m *Machine, name string, at time.Duration) {
	m.Input(button.Event{Button: name, Kind: button.Press, At: at}, at)
	m.Input(button.Event{Button: name, Kind: button.Release, At: at}, at)
}

// TestLEDsFollowTheRunningClock: the LED of the side whose clock runs is
// lit, the other not; none before the start, while paused, after a flag.
func TestLEDsFollowTheRunningClock(t *testing.T) {
	for _, whiteLeft := range []bool{true, false} {
		set := ui.DefaultSettings
		set.WhiteLeft = whiteLeft
		m, left, right, _ := ledMachine(t, set)
		check := func(what string, l, r bool) {
			t.Helper()
			if left.On() != l || right.On() != r {
				t.Errorf("white left %v, %s: left %v right %v, want %v %v", whiteLeft, what, left.On(), right.On(), l, r)
			}
			if s, ok := m.LEDs(); !ok || s != (LEDStatus{Left: l, Right: r}) {
				t.Errorf("white left %v, %s: LEDs() %+v", whiteLeft, what, s)
			}
		}
		m.Step(0)
		check("before the start", false, false)
		// Black's lever starts White's clock.
		black := "right"
		if !whiteLeft {
			black = "left"
		}
		tap(m, black, time.Second)
		check("White to move", whiteLeft, !whiteLeft)
		white := map[string]string{"left": "right", "right": "left"}[black]
		tap(m, white, 3*time.Second)
		check("Black to move", !whiteLeft, whiteLeft)
		tap(m, "pause", 4*time.Second)
		check("paused", false, false)
		tap(m, "pause", 5*time.Second)
		check("resumed", !whiteLeft, whiteLeft)
		// Black's clock runs down: the flag stops the clock.
		m.Step(3 * time.Hour)
		check("after the flag", false, false)
	}
}

func TestLEDFailureIsLoggedOnce(t *testing.T) {
	m, left, _, logged := ledMachine(t, ui.DefaultSettings)
	tap(m, "right", time.Second)
	tap(m, "left", 2*time.Second) // Black's clock runs: the left LED goes off
	gone := errors.New("gpioioctl: no such device")
	for i := range 3 {
		left.FailNext(gone)
		m.Step(time.Duration(3+i) * time.Second)
	}
	if len(*logged) != 1 || !strings.Contains((*logged)[0], `led "left": ledtest left: gpioioctl: no such device`) {
		t.Fatalf("log %q", *logged)
	}
	tap(m, "right", 10*time.Second)
	if !left.On() || len(*logged) != 2 || !strings.Contains((*logged)[1], `led "left" (ledtest left): back`) {
		t.Fatalf("after the failures: lit %v, log %q", left.On(), *logged)
	}
}

func reading(pct float64, mv int64) PowerEvent {
	return PowerEvent{reading: power.Reading{Voltage: physic.ElectricPotential(mv) * physic.MilliVolt, Percent: pct}}
}

// TestBatteryLow: the low flag rises at the threshold and falls only 5
// points above it; a failed read keeps the last values with the error;
// each change is logged once.
func TestBatteryLow(t *testing.T) {
	m, _, _, logged := ledMachine(t, ui.DefaultSettings)
	if _, ok := m.Battery(); ok {
		t.Fatal("a battery before any reading")
	}
	steps := []struct {
		e    PowerEvent
		low  bool
		pct  float64
		err  string
		logs int
	}{
		{reading(23.04, 3745), false, 23, "", 1},
		{reading(20, 3740), true, 20, "", 2},
		{reading(22, 3742), true, 22, "", 2},
		{PowerEvent{err: errors.New("ina219 on I2C1@0x42: read register 0x00: remote I/O error")}, true, 22, "ina219 on I2C1@0x42: read register 0x00: remote I/O error", 3},
		{PowerEvent{err: errors.New("again")}, true, 22, "again", 3},
		{reading(25, 3750), true, 25, "", 4},
		{reading(25.1, 3751), false, 25.1, "", 5},
	}
	for i, s := range steps {
		m.HandlePower(s.e, time.Duration(i)*time.Second)
		b, ok := m.Battery()
		if !ok || b.Low != s.low || b.Percent != s.pct || b.Error != s.err || len(*logged) != s.logs {
			t.Fatalf("step %d: %+v, %d log lines %q", i, b, len(*logged), *logged)
		}
	}
	for i, want := range []string{"battery: 23% 3.745V", "battery: low: 20% 3.740V, the warning is at 20%", "battery: ina219 on I2C1@0x42", "battery: back", "battery: no longer low: 25% 3.751V"} {
		if !strings.HasPrefix((*logged)[i], want) {
			t.Errorf("log line %d: %q, want %q", i, (*logged)[i], want)
		}
	}
}

// TestStatusJSON: the status has the LEDs, the battery and the supply
// beside the core's fields; none of them for a profile without them.
func TestStatusJSON(t *testing.T) {
	m, _, _, _ := ledMachine(t, ui.DefaultSettings)
	tap(m, "right", time.Second)
	e := PowerEvent{reading: power.Reading{Voltage: 3712 * physic.MilliVolt, Current: -512 * physic.MilliAmpere, HasCurrent: true, Percent: 15.44}}
	m.HandlePower(e, 2*time.Second)
	m.HandlePower(PowerEvent{loss: &power.LossEvent{Lost: true, At: 3 * time.Second}}, 3*time.Second)
	b, err := json.Marshal(m.Status(3 * time.Second))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"running":"white"`, `"leds":{"left":true,"right":false}`, `"battery":{"percent":15.4,"volts":3.712,"amps":-0.512,"low":true}`, `"power_lost":true`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("no %s in %s", want, b)
		}
	}
	plain := &Machine{Core: ui.New(ui.Opts{Settings: ui.DefaultSettings})}
	plain.Step(0)
	b, _ = json.Marshal(plain.Status(0))
	for _, no := range []string{"leds", "battery", "power_lost"} {
		if strings.Contains(string(b), no) {
			t.Errorf("%s in %s", no, b)
		}
	}
}

// TestWatchPower: the goroutines read the gauge at once and every poll of
// the injected clock, stamped on the loop's base, forward the power-loss
// input's changes, and HandlePower calls OnPowerLoss once per loss with
// the loop's instant.
func TestWatchPower(t *testing.T) {
	g := &powertest.Gauge{Name: "ups"}
	g.Set(power.Reading{Voltage: 4 * physic.Volt, Percent: 80})
	loss := powertest.NewLoss()
	defer loss.Close()
	var logged []string
	m := &Machine{Core: ui.New(ui.Opts{Settings: ui.DefaultSettings}), Log: func(s string) { logged = append(logged, s) }}
	m.AttachPower(&profile.Profile{Battery: profile.Battery{Type: "ina219", LowPercent: 20}}, &profile.Devices{Battery: g, PowerLoss: loss})
	var calls []time.Duration
	m.OnPowerLoss = func(now time.Duration) { calls = append(calls, now) }
	clk := wallclocktest.New(time.Date(2026, 3, 7, 18, 0, 0, 0, time.UTC))
	const poll = 5 * time.Second
	w := m.WatchPower(poll, clk, func() time.Duration { return 42*time.Second + clk.Mono() })
	defer w.Stop()
	next := func() PowerEvent {
		t.Helper()
		select {
		case e := <-w.Events:
			return e
		case <-time.After(10 * time.Second):
			t.Fatal("no power event")
		}
		return PowerEvent{}
	}
	e := next()
	if e.loss != nil || e.at != 42*time.Second || e.reading.Percent != 80 {
		t.Fatalf("first event %+v", e)
	}
	m.HandlePower(e, 50*time.Second)
	if b, _ := m.Battery(); b.Percent != 80 || b.At != 42*time.Second {
		t.Fatalf("battery %+v", b)
	}
	loss.Push(true, 51*time.Second)
	loss.Push(true, 52*time.Second) // no change: not a second loss
	loss.Push(false, 53*time.Second)
	var changes []bool
	for len(changes) < 3 {
		e := next()
		if e.loss == nil {
			continue // a reading
		}
		m.HandlePower(e, e.at+time.Millisecond)
		changes = append(changes, e.loss.Lost)
	}
	if !slices.Equal(changes, []bool{true, true, false}) || !slices.Equal(calls, []time.Duration{51*time.Second + time.Millisecond}) || m.PowerLost() {
		t.Fatalf("changes %v, OnPowerLoss at %v, lost %v", changes, calls, m.PowerLost())
	}
	if !slices.ContainsFunc(logged, func(s string) bool {
		return strings.HasPrefix(s, "power: the external supply is lost (powertest loss, edge at 51s)")
	}) {
		t.Errorf("log %q", logged)
	}
	// No poll has passed: the gauge was read once. Each poll of the
	// clock reads it again, stamped on the loop's base.
	if n := g.Reads(); n != 1 {
		t.Errorf("%d reads before the first poll, want 1", n)
	}
	clk.WaitArmed(t, 1) // the poll's ticker
	for i := 1; i <= 2; i++ {
		clk.Advance(poll)
		e := next()
		if e.loss != nil || e.at != 42*time.Second+time.Duration(i)*poll {
			t.Fatalf("poll %d: event %+v", i, e)
		}
	}
	if n := g.Reads(); n != 3 {
		t.Errorf("%d reads after two polls, want 3", n)
	}
	w.Stop()
	w.Stop()
	// Stop has waited for the goroutines: the ticker is stopped, and
	// polls passing read nothing.
	if n := clk.Armed(); n != 0 {
		t.Errorf("%d timers armed after Stop", n)
	}
	clk.Advance(10 * poll)
	if n := g.Reads(); n != 3 {
		t.Errorf("the gauge is still read after Stop: %d reads", n)
	}
	// Nothing to watch: no goroutines and a nil channel, which a select
	// never takes.
	if w := (&Machine{}).WatchPower(0, nil, nil); w.Events != nil {
		t.Error("events without a gauge or an input")
	}
}

// BenchmarkStepWithLEDs is a turn of the loop with two LEDs to set: the
// LEDs' share is the difference with BenchmarkStepNoLEDs.
func BenchmarkStepWithLEDs(b *testing.B) {
	m, _, _, _ := ledMachine(b, ui.DefaultSettings)
	tap(m, "right", time.Second)
	for i := 0; b.Loop(); i++ {
		m.Step(time.Second + time.Duration(i)*time.Millisecond)
	}
}

func BenchmarkStepNoLEDs(b *testing.B) {
	m := &Machine{Core: ui.New(ui.Opts{Settings: ui.DefaultSettings})}
	tap(m, "right", time.Second)
	for i := 0; b.Loop(); i++ {
		m.Step(time.Second + time.Duration(i)*time.Millisecond)
	}
}

// TestPowerLossCheckpointAndWarning: through Setup's wiring, a power-loss
// edge writes a checkpoint at once (the running side's time so far is on
// the card before the battery runs out), and the displays say the clock
// runs on the battery, and when the battery is low.
func TestPowerLossCheckpointAndWarning(t *testing.T) {
	dir := t.TempDir()
	m, devs := Setup(Opts{StateDir: dir, ConfigPath: filepath.Join(dir, "none.toml"), Profile: "sim", FallbackProfile: "sim", Now: func() time.Duration { return 0 }}, func(string) {})
	defer devs.Close()
	defer m.Core.Close()
	m.AttachPower(&profile.Profile{Battery: profile.Battery{Type: "ina219", LowPercent: 20}}, &profile.Devices{})
	m.Input(button.Event{Button: ui.Right, Kind: button.Press, At: 0}, 0) // White's clock runs
	m.Step(300 * time.Millisecond)
	lines := func() int {
		data, _ := os.ReadFile(filepath.Join(dir, "game.log"))
		return strings.Count(string(bytes.TrimRight(data, "\x00")), "checkpoint")
	}
	before := lines()
	m.HandlePower(PowerEvent{loss: &power.LossEvent{Lost: true, At: 400 * time.Millisecond}}, 400*time.Millisecond)
	if lines() != before+1 {
		t.Errorf("checkpoints %d -> %d: none written at the power loss", before, lines())
	}
	if b := m.Core.View(400 * time.Millisecond).Game.Banner; b != "ON BATTERY" {
		t.Errorf("banner %q", b)
	}
	m.HandlePower(PowerEvent{reading: power.Reading{Voltage: 3500 * physic.MilliVolt, Percent: 12}, at: time.Second}, time.Second)
	if b := m.Core.View(time.Second).Game.Banner; b != "ON BATTERY, LOW" {
		t.Errorf("banner %q", b)
	}
	// The level, in the Control view of the arbiter's menu (pause, hold
	// ok, up four entries: Settings, End game, Result, Control; ok).
	at := time.Second
	tap := func(name string) {
		m.Input(button.Event{Button: name, Kind: button.Press, At: at}, at)
		at += 100 * time.Millisecond
		m.Input(button.Event{Button: name, Kind: button.Release, At: at}, at)
		at += 100 * time.Millisecond
	}
	tap(ui.Pause)
	m.Input(button.Event{Button: ui.OK, Kind: button.Press, At: at}, at)
	at += 1500 * time.Millisecond
	m.Input(button.Event{Button: ui.OK, Kind: button.Hold, At: at}, at)
	m.Input(button.Event{Button: ui.OK, Kind: button.Release, At: at}, at)
	for range 4 {
		tap(ui.Plus)
	}
	tap(ui.OK)
	if v := m.Core.View(at).Menu; v.Title != "Control" || !strings.Contains(strings.Join(v.Items, "|"), "battery 12%") {
		t.Errorf("control view %q %q lacks the battery level", v.Title, v.Items)
	}
}
