// Package daemon runs the clock: it loads the config, opens the hardware
// profile's devices, and drives the core from one event loop (button events
// with their edge instants, the control socket, display refreshes, the
// systemd watchdog). The simulator runs the same Machine on its simulated
// devices.
//
// The control socket answers status, watch, press and hold, and the hall
// link's requests (hall.go, docs/hall-protocol.md): the journal's lines
// (log), next-game, round, players, pause and takeover. The loop is the one
// place that reads the time of day (timeofday.go): NTP's, the arbiter's,
// the real-time clock's, or none.
//
// Two clocks, one rule (internal/wallclock's): the loop's instants — a
// press, a flag, a checkpoint, a battery reading — are on the monotonic
// base (Opts.Now, drivers/monotonic in production, which the buttons and
// the DGT driver stamp their events on), and its waits — the timer until
// the next instant, the watchdog's ticker, the battery's poll — are on the
// program's one wallclock.Clock (Opts.Clock), which is also the time of
// day. A wait is a duration from Now to an instant, never an instant of
// the time of day. A test gives both from one fake (wallclocktest.Clock
// and its Mono).
//
// The hardware profile (drivers/profile) says which devices a build has;
// CheckProfile holds it to what the clock needs: a display per side or one
// for both, and the two levers.
package daemon

import (
	"fmt"
	"slices"
	"time"

	"periph.io/x/devices/v3/ssd1306/image1bit"

	"github.com/zeitnot/zeitnot/appliance/control"
	"github.com/zeitnot/zeitnot/appliance/screen"
	"github.com/zeitnot/zeitnot/appliance/session"
	"github.com/zeitnot/zeitnot/appliance/speech"
	"github.com/zeitnot/zeitnot/appliance/ui"
	"github.com/zeitnot/zeitnot/drivers/button"
	"github.com/zeitnot/zeitnot/drivers/buzzer"
	"github.com/zeitnot/zeitnot/drivers/display"
	"github.com/zeitnot/zeitnot/drivers/profile"
	"github.com/zeitnot/zeitnot/protocol"
)

// Pusher is a button source that software can push events into: the
// simulator's buttons (simbutton). The simulator's keys push into it, and
// the control socket's press and hold are refused without one, so they
// cannot fake a lever on a real clock.
type Pusher interface {
	button.Source
	Push(button.Event)
}

// LookupProfile returns the builtin hardware profile or the profile file
// called name (profile.Lookup), checked by CheckProfile.
func LookupProfile(name string) (*profile.Profile, error) {
	p, err := profile.Lookup(name)
	if err != nil {
		return nil, err
	}
	if err := CheckProfile(p); err != nil {
		return nil, err
	}
	return p, nil
}

// CheckProfile reports what the clock needs of a hardware profile and p
// does not give it: a display for each side (roles left and right) or one
// for both (role both), no two displays in one role, and the left and right
// levers among the buttons. Like the profile's own checks, the problems come
// as profile.Errors, each with the file and line, ordered by line with
// those of the whole file last. The daemon and `zeitnot hardware check` run
// it after reading a profile.
func CheckProfile(p *profile.Profile) error {
	var errs profile.Errors
	errAt := func(line int, format string, args ...any) {
		errs = append(errs, &profile.Error{File: p.Source, Line: line, Msg: fmt.Sprintf(format, args...)})
	}
	if len(p.Displays) == 0 {
		// profile.Parse refuses such a file already; this is for a
		// profile made in code.
		errAt(0, "no display: add a [display.left] and a [display.right], or a [display.both]")
	}
	roles := map[string]string{}
	for _, d := range p.Displays {
		who := fmt.Sprintf("display %q", d.Name)
		switch d.Role {
		case "left", "right", "both":
			if other, ok := roles[d.Role]; ok {
				errAt(d.RoleLine, "%s: role %s is already taken by display %q", who, d.Role, other)
			}
			roles[d.Role] = d.Name
		case "":
			errAt(d.Line, "%s: missing required field role (left, right or both)", who)
		default:
			errAt(d.RoleLine, "%s: role %q is not left, right or both", who, d.Role)
		}
	}
	_, both := roles["both"]
	_, left := roles["left"]
	_, right := roles["right"]
	switch {
	case both && (left || right):
		errAt(0, "a display with role both and one with role left or right: use one or the other")
	case left != right && !both:
		missing := "right"
		if right {
			missing = "left"
		}
		errAt(0, "no display with role %s", missing)
	}
	for _, need := range []string{ui.Left, ui.Right} {
		if !slices.ContainsFunc(p.Buttons, func(b button.Line) bool { return b.Name == need }) {
			errAt(p.ButtonsLine, "missing required button %s in [buttons]", need)
		}
	}
	if len(errs) == 0 {
		return nil
	}
	// By line; problems of the whole file (line 0) last.
	slices.SortStableFunc(errs, func(a, b *profile.Error) int {
		if (a.Line == 0) != (b.Line == 0) {
			return b.Line - a.Line
		}
		return a.Line - b.Line
	})
	return errs
}

// Output is one display with the screen that draws on it.
type Output struct {
	Name  string
	Role  screen.Role
	Pixel display.Pixel // one of Pixel and Text is set
	Text  display.Text

	ps     *screen.PixelScreen
	ts     *screen.TextScreen
	frame  *image1bit.VerticalLSB
	failed error // the last draw failed; retried at every render
	level  int   // brightness set, percent; -1 before the first
}

func roleOf(s string) screen.Role {
	switch s {
	case "left":
		return screen.Left
	case "right":
		return screen.Right
	}
	return screen.Both
}

// panelOpts gives the screen the physical size of a panel, so its running
// and flag marks are sized to be seen from afar; nil lets the screen
// assume the common 0.96" (0.91" at 32 rows).
func panelOpts(diagonal float64) *screen.PixelOpts {
	switch diagonal {
	case 1.3:
		return &screen.OLED130
	case 0.91:
		return &screen.OLED091
	case 0.96:
		return &screen.OLED096
	}
	return nil
}

// NewOutputs makes the outputs of the displays a profile opened.
func NewOutputs(ds []profile.OpenDisplay) []*Output {
	var outs []*Output
	for _, d := range ds {
		o := &Output{Name: d.Name, Role: roleOf(d.Role), Pixel: d.Pixel, Text: d.Text, level: -1}
		switch {
		case d.Pixel != nil:
			o.ps = screen.NewPixelScreenOpts(d.Pixel.Bounds(), o.Role, panelOpts(d.Diagonal()))
			o.frame = display.NewFrame(d.Pixel.Bounds())
		case d.Text != nil:
			cols, lines := d.Text.Size()
			kind := screen.Segments
			if d.Family() == display.Characters {
				kind = screen.Characters
			}
			o.ts = screen.NewTextScreen(kind, cols, lines, o.Role)
		default:
			continue
		}
		outs = append(outs, o)
	}
	return outs
}

func (o *Output) device() string {
	if o.Pixel != nil {
		return o.Pixel.String()
	}
	return o.Text.String()
}

// render draws v on the output. A failure is kept and retried next time.
func (o *Output) render(v *screen.View, brightness int) error {
	var err error
	if brightness != o.level {
		lvl := uint8(min(max(brightness, 0), 100) * 255 / 100)
		if o.Pixel != nil {
			err = o.Pixel.SetBrightness(lvl)
		} else {
			err = o.Text.SetBrightness(lvl)
		}
		if err == nil {
			o.level = brightness
		}
	}
	if err == nil {
		if o.Pixel != nil {
			o.ps.Draw(v, o.frame)
			err = o.Pixel.Draw(o.frame)
		} else {
			err = o.Text.Show(o.ts.Render(v))
		}
	}
	o.failed = err
	return err
}

// Machine is the clock: the core and its displays, driven by Step.
type Machine struct {
	Core    *ui.Core
	Outputs []*Output
	Buzzer  buzzer.Buzzer // nil when the profile has none
	// StateDir is the daemon's state directory, where a config from a
	// USB stick is imported.
	StateDir string
	Log      func(string)
	// AfterRender, if set, is called after every render (the simulator
	// draws the terminal from there).
	AfterRender func(now time.Duration)
	devWarn     string // the warning the machine set for failing displays

	// Lights are the LEDs lit on the side whose clock runs, set at every
	// Step (AttachPower makes them from the profile).
	Lights []*Light
	// OnPowerLoss, if set, is called in the event loop when the power-loss
	// input says the external supply has just failed, with the loop's
	// instant.
	OnPowerLoss func(now time.Duration)
	leds        LEDStatus  // what the Lights show
	power       powerState // battery and supply, see power.go

	watchers []*control.Watch // `zeitnot watch` clients
	pending  []session.Event  // events of this turn, for the watchers

	// MonoNs gives a press's instant to the watchers as CLOCK_MONOTONIC
	// nanoseconds (protocol.Event.MonoNs); nil leaves it out (the
	// scripted simulator's virtual time is on no kernel clock). Run sets
	// monotonic.ToKernel.
	MonoNs func(time.Duration) int64
	eboard eboardPeer // the e-board process (eboard.go)

	// Time reads the time of day for the core at every Step
	// (timeofday.go); nil: the core has none.
	Time *TimeSource

	// Speak, if set, takes what the clock has to say at every Step
	// (appliance/ui's TakeSpeech); it must not block: the daemon's hands
	// it to a player on a goroutine of its own (speech.go).
	Speak   func(now time.Duration, as []speech.Announcement)
	profile *profile.Profile // the hardware profile Setup opened

	imports   chan ImportDone // imports done beside the loop (usb.go)
	importing bool            // an import is under way
	// importFile is config.Import; tests hold it up.
	importFile func(src, stateDir string) ([]error, bool, error)

	first *firstFrame // the first frame a display showed (firstframe.go)

	// UpdateRequest hands a request to the installer (update.go,
	// RequestFile); nil: the clock has none, and refuses offers.
	UpdateRequest func(protocol.UpdateRequest) error
	// Slot is the running slot, A or B (UpdateSlot); "" none.
	Slot   string
	update updater // the update under way (update.go)
}

// Render draws the view at now on every display. A display that fails is
// reported once, shown as a warning on the others, and retried at every
// render until it works again; the clock keeps time regardless.
func (m *Machine) Render(now time.Duration) {
	v := m.Core.View(now)
	bright := m.Core.Settings().Brightness
	var bad string
	for _, o := range m.Outputs {
		was := o.failed
		if err := o.render(&v, bright); err != nil {
			bad = "DISPLAY " + o.Name
			if was == nil && m.Log != nil {
				m.Log(fmt.Sprintf("display %q (%s): %v", o.Name, o.device(), err))
			}
		} else {
			m.framed(now, "the clock")
			if was != nil && m.Log != nil {
				m.Log(fmt.Sprintf("display %q (%s): back", o.Name, o.device()))
			}
		}
	}
	if bad != m.devWarn {
		// Only clear a warning this machine set; storage warnings stay.
		m.Core.SetDeviceWarning(bad)
		m.devWarn = bad
	}
}
