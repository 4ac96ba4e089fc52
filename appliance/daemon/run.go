package daemon

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/zeitnot/zeitnot/appliance/config"
	"github.com/zeitnot/zeitnot/appliance/control"
	"github.com/zeitnot/zeitnot/appliance/sdnotify"
	"github.com/zeitnot/zeitnot/appliance/ui"
	"github.com/zeitnot/zeitnot/drivers/button"
	"github.com/zeitnot/zeitnot/drivers/coldplug"
	"github.com/zeitnot/zeitnot/drivers/monotonic"
	"github.com/zeitnot/zeitnot/drivers/profile"
	"github.com/zeitnot/zeitnot/internal/wallclock"
	"github.com/zeitnot/zeitnot/protocol"
)

// Opts configure Run.
type Opts struct {
	ConfigPath string // the club config; default config.DefaultConfigPath
	StateDir   string // default config.DefaultStateDir
	Socket     string // the control socket; "" for none
	Profile    string // overrides the config's profile when set
	// FallbackProfile is used when the configured profile cannot be read.
	FallbackProfile string
	Log             io.Writer // default os.Stderr

	// OnStart, if set, is called once the devices are open (the simulator
	// takes its simulated devices from there).
	OnStart func(m *Machine, devs *profile.Devices)
	// AfterRender, if set, is called after every render.
	AfterRender func(m *Machine, now time.Duration)
	// Now is the time base of the loop's instants (the game's, the
	// events', the battery readings'); default monotonic.Now, the base the
	// buttons and the DGT driver stamp their events on. The scripted
	// simulator passes its virtual time; a test of Run passes a fake
	// clock's Mono with that Clock.
	Now func() time.Duration
	// Clock is the program's one clock: the time of day (timeofday.go)
	// and the loop's waits (its timer until the next instant Now is due,
	// the watchdog's ticker, the battery's poll); nil is wallclock.Real.
	Clock wallclock.Clock
	// TestHooks enables the control command "hang", which stops the event
	// loop for good, to prove that the watchdog restarts a hung daemon.
	TestHooks bool
	// Time says where the time of day comes from (timeofday.go).
	Time TimeOpts
	// Name is what the displays show while the game is recovered
	// (firstframe.go); default the hostname.
	Name string
}

// Setup loads the config and presets and opens the devices, reporting every
// problem but failing on none: the clock always starts.
func Setup(o Opts, logf func(string)) (*Machine, *profile.Devices) {
	if o.Now == nil {
		o.Now = monotonic.Now
	}
	if err := os.MkdirAll(o.StateDir, 0o755); err != nil {
		logf(fmt.Sprintf("state directory: %v (the game will not survive a restart)", err))
	}
	var messages []string
	problem := func(err error) {
		messages = append(messages, err.Error())
	}
	layers, errs := config.LoadLayers(o.ConfigPath, o.StateDir, config.Defaults(o.FallbackProfile))
	for _, err := range errs {
		problem(err)
	}
	if imp, _ := config.ImportErrors(o.StateDir); len(imp) > 0 {
		messages = append(messages, "import refused:")
		messages = append(messages, imp...)
	}
	name := layers.Effective.Profile
	if o.Profile != "" {
		name = o.Profile
	}
	p, err := LookupProfile(name) // through regfile: a pipe or a device is never read
	used := name
	if err != nil {
		used = o.FallbackProfile
		problem(fmt.Errorf("hardware profile %q: %w; using %q", name, err, o.FallbackProfile))
		if p, err = LookupProfile(o.FallbackProfile); err != nil {
			problem(err)
			p, _ = profile.Builtin(config.SimProfile)
		}
	}
	if o.Time.Trusted == ui.SourceHost {
		if err := HostClockAllowed(used, o.Time.OSRelease); err != nil {
			problem(err)
			o.Time.Trusted = ""
		}
	}
	waitDevices(p, logf)
	devs, err := profile.Open(p)
	for _, r := range devs.Results {
		logf(r.String())
	}
	if err != nil {
		messages = append(messages, "hardware: "+err.Error())
	}
	m := &Machine{Log: logf, Buzzer: devs.Buzzer, StateDir: o.StateDir, profile: p}
	// Something on the displays at once: the clock's name, while the
	// game is recovered (firstframe.go).
	m.Outputs = NewOutputs(devs.Displays)
	m.showName(cmp.Or(o.Name, clockName()), layers.Effective.Brightness, o.Now())
	m.Time = NewTimeSource(o.Time, o.Clock, o.StateDir, devs, logf)
	hall, err := loadHall(o.StateDir)
	if err != nil {
		logf(err.Error())
	}
	m.Core = ui.New(ui.Opts{
		Hall:     hall,
		SetTime:  m.Time.Set,
		StateDir: o.StateDir,
		Settings: layers.Effective,
		Presets:  layers.Presets,
		Store:    &fileStore{dir: o.StateDir, club: layers.Club},
		Sound:    devs.Buzzer,
		Log:      logf,
		Messages: messages,
		Now:      o.Now(),
	})
	m.Core.Session().Subscribe(m.listen)
	m.AttachPower(p, devs)
	// The power is going: what the running side used so far goes to the
	// card now, not at the next checkpoint.
	m.OnPowerLoss = func(now time.Duration) { m.Core.Session().Checkpoint(now) }
	if o.AfterRender != nil {
		m.AfterRender = func(now time.Duration) { o.AfterRender(m, now) }
	}
	return m, devs
}

// RunningPrefix begins the line Run logs as its loop starts: the state the
// clock starts in (RunningLine).
const RunningPrefix = "zeitnot running: "

// RunningLine is the line Run logs as its loop starts: RunningPrefix and
// the core's status line at now.
func RunningLine(m *Machine, now time.Duration) string {
	return RunningPrefix + m.Core.StatusLine(now)
}

// ColdplugWait bounds the wait for a profile's device nodes (udev's
// coldplug at boot) before its devices are opened.
const ColdplugWait = 10 * time.Second

// waitDevices waits until the device nodes p opens are there and open to
// the clock (drivers/coldplug): at boot the clock starts beside udev, not
// after it. A simulated profile opens no node and does not wait.
func waitDevices(p *profile.Profile, logf func(string)) {
	nodes := p.Nodes()
	if len(nodes) == 0 {
		return
	}
	from := time.Now()
	pending, err := coldplug.Wait(nodes, ColdplugWait)
	switch {
	case err != nil:
		logf(err.Error())
	case pending != nil:
		logf(fmt.Sprintf("devices not ready after %s, opening them now: %s", ColdplugWait, coldplug.Summary(pending)))
	default:
		if waited := time.Since(from); waited >= 10*time.Millisecond {
			logf(fmt.Sprintf("devices ready after %.2f s: %s", waited.Seconds(), strings.Join(nodes, " ")))
		}
	}
}

// Run runs the clock until ctx is done (SIGTERM). Its instants are on
// o.Now and its waits on o.Clock (wallclock's rule): a wait is the time
// from Now to the instant the loop is next due.
func Run(ctx context.Context, o Opts) error {
	if o.Log == nil {
		o.Log = os.Stderr
	}
	if o.ConfigPath == "" {
		o.ConfigPath = config.DefaultConfigPath
	}
	if o.StateDir == "" {
		o.StateDir = config.DefaultStateDir
	}
	// A press's instant goes to the watchers as CLOCK_MONOTONIC
	// nanoseconds; an injected base (a test's) is taken as the kernel's.
	monoNs := monotonic.ToKernel
	if o.Now == nil {
		o.Now = monotonic.Now
	} else {
		monoNs = func(d time.Duration) int64 { return int64(d) }
	}
	o.Clock = wallclock.Or(o.Clock)
	lg := log.New(o.Log, "", 0)
	logf := func(s string) { lg.Print(s) }
	m, devs := Setup(o, logf)
	m.MonoNs = monoNs
	if pl := m.AttachSpeech(m.profile, m.Core.Settings().SpeechWPM); pl != nil {
		defer pl.Close()
	}
	defer devs.Close()
	defer m.Core.Close()
	if o.OnStart != nil {
		o.OnStart(m, devs)
	}

	notify, err := sdnotify.New()
	if err != nil {
		logf(err.Error())
	}
	defer notify.Close()
	var requests <-chan control.Request
	var pusher Pusher
	if p, ok := devs.Buttons.(Pusher); ok {
		pusher = p
	}
	if cmdline, err := os.ReadFile("/proc/cmdline"); err == nil {
		m.Slot = UpdateSlot(string(cmdline))
	}
	if o.Socket != "" {
		// The installer's request goes beside the socket, in the
		// daemon's runtime directory (zeitnot-installer.path).
		m.UpdateRequest = RequestFile(filepath.Dir(o.Socket))
		srv, err := control.Listen(o.Socket)
		if err != nil {
			logf(err.Error())
		} else {
			defer srv.Close()
			requests = srv.Requests
		}
	}
	var events <-chan button.Event
	if devs.Buttons != nil {
		events = devs.Buttons.Events()
	}
	pw := m.WatchPower(BatteryPoll, o.Clock, o.Now)
	defer pw.Stop()

	now := o.Now()
	next, wake := m.Step(now)
	notify.Ready()
	logf(RunningLine(m, now))
	if at, what, ok := m.FirstFrame(); ok {
		logf(FirstFrameLine(m.MonoNs(at), what))
	} else {
		logf("first frame: none, no display works")
	}

	var wd <-chan time.Time
	if iv := sdnotify.WatchdogInterval(); iv > 0 {
		t := o.Clock.NewTicker(iv)
		defer t.Stop()
		wd = t.C()
		notify.Watchdog()
	}
	timer := o.Clock.NewTimer(time.Hour)
	defer timer.Stop()
	lastStatus := ""
	for {
		if s := m.Core.StatusLine(now); s != lastStatus {
			notify.Status(s)
			lastStatus = s
		}
		timer.Stop()
		if wake {
			timer.Reset(next - o.Now())
		}
		select {
		case ev, ok := <-events:
			now = o.Now()
			if !ok {
				events = nil
				logf("buttons: stopped delivering events")
				m.Core.SetDeviceWarning("BUTTONS")
				next, wake = m.Step(now)
				continue
			}
			next, wake = m.Input(ev, now)
		case <-timer.C():
			now = o.Now()
			next, wake = m.Step(now)
		case e := <-pw.Events:
			now = o.Now()
			next, wake = m.HandlePower(e, now)
		case <-wd:
			notify.Watchdog()
		case req := <-requests:
			if req.Cmd == protocol.ReqHang && o.TestHooks {
				logf("hang requested: the event loop stops here")
				req.Reply("ok")
				select {} // a hung loop, for the watchdog test
			}
			now = o.Now()
			if req.Cmd == protocol.ReqImport {
				m.StartImport(req.Arg, req.Reply)
				continue
			}
			if eboardRequest(req.Cmd) {
				// The e-board process's: a Step only when the clock's
				// state changed, so that a flood costs no render.
				answer, changed := m.EBoard(req.Cmd, req.Arg, now)
				req.Reply(answer)
				if changed {
					next, wake = m.Step(now)
				}
				continue
			}
			req.Reply(handle(m, pusher, req, now))
			next, wake = m.Step(now)
		case d := <-m.Imports():
			now = o.Now()
			next, wake = m.FinishImport(d, now)
		case <-ctx.Done():
			notify.Stopping()
			logf("zeitnot stopping: " + m.Core.StatusLine(o.Now()))
			return nil
		}
	}
}

// handle answers one control request.
func handle(m *Machine, pusher Pusher, req control.Request, now time.Duration) string {
	if answer, ok := m.Control(req.Cmd, req.Arg, now); ok {
		return answer
	}
	if answer, ok := m.stickRequest(req.Cmd, req.Arg, now); ok {
		return answer
	}
	if answer, ok := m.updateRequest(req.Cmd, req.Arg, now); ok {
		return answer
	}
	if eboardRequest(req.Cmd) {
		answer, _ := m.EBoard(req.Cmd, req.Arg, now)
		return answer
	}
	switch req.Cmd {
	case protocol.ReqPress, protocol.ReqHold:
		if pusher == nil {
			return "error: press works with the simulated hardware profile only"
		}
		if !validButton(req.Arg) {
			return fmt.Sprintf("error: no button %q, want one of left, right, pause, plus, minus, ok", req.Arg)
		}
		// Applied here, in the event loop, before the answer: when
		// "ok" comes back the press is in the journal and on the
		// displays.
		m.Core.Button(button.Event{Button: req.Arg, Kind: button.Press, At: now})
		if req.Cmd == protocol.ReqHold {
			m.Core.Button(button.Event{Button: req.Arg, Kind: button.Hold, At: now})
		}
		m.Input(button.Event{Button: req.Arg, Kind: button.Release, At: now}, now)
		return "ok"
	case protocol.ReqWatch:
		if req.Watch == nil {
			return "error: watch needs a stream"
		}
		return m.Watch(req.Watch, now)
	}
	return fmt.Sprintf("error: unknown command %q, want status, watch, press, hold, log, next-game, round, players, pause, resume, takeover, result, usb-message, import, update-offer, update-report or eboard-game, eboard-move, eboard-position, eboard-state", req.Cmd)
}

func validButton(name string) bool {
	for _, b := range ui.Buttons {
		if b == name {
			return true
		}
	}
	return false
}
