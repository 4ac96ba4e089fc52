// Package sim is the simulator: the daemon's own code on simulated devices,
// either in a terminal (displays drawn with block characters, keys for the
// buttons) or headless, driven by a script on a virtual clock, so a two-hour
// game runs in well under a second.
package sim

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/zeitnot/zeitnot/appliance/daemon"
	"github.com/zeitnot/zeitnot/appliance/ui"
	"github.com/zeitnot/zeitnot/drivers/audio"
	"github.com/zeitnot/zeitnot/drivers/button"
	"github.com/zeitnot/zeitnot/drivers/buzzer/simbuzzer"
	"github.com/zeitnot/zeitnot/drivers/profile"
	"github.com/zeitnot/zeitnot/internal/wallclock"
)

// ScriptOpts configure a headless run.
type ScriptOpts struct {
	Profile    string    // hardware profile; default "sim"
	ConfigPath string    // club config; default none
	StateDir   string    // state files; "" makes a fresh temporary directory
	Shots      string    // where shot writes its files; default the current directory
	Out        io.Writer // state lines go here
	Log        io.Writer // the daemon's log; nil drops it
	// TimeOfDay, if set, is the time of day at virtual time zero: the
	// virtual clock then has a time of day (source "sim") that runs with
	// it, for scheduled starts. Zero: the clock has no time of day
	// (source "none") until one is set in the menu.
	TimeOfDay time.Time
	// Audio, if set, is where each announcement of the spoken clock is
	// written as a stereo WAV file (audio.go); Synth makes its speech
	// (nil: espeak-ng).
	Audio string
	Synth audio.Synth
}

// Directive is one line of a script.
type Directive struct {
	Line int
	At   time.Duration
	Verb string // press, release, hold, tap, shot, state, power-cut, round, request
	Arg  string
}

// Press carries out a directive that works the buttons (press, release,
// hold, tap) at the current instant, and reports whether d was one; the
// other verbs are the caller's.
func (v *Virtual) Press(d Directive) bool {
	switch d.Verb {
	case "press":
		v.Button(d.Arg, button.Press)
	case "release":
		v.Button(d.Arg, button.Release)
	case "hold":
		v.Button(d.Arg, button.Hold)
	case "tap":
		v.Button(d.Arg, button.Press)
		v.Button(d.Arg, button.Release)
	default:
		return false
	}
	return true
}

// ParseScript reads a simulator script: one directive per line,
//
//	MS press|release|hold|tap BUTTON   (left, right, pause, plus, minus, ok, announce-left, announce-right)
//	MS shot NAME
//	MS state
//	MS power-cut
//	MS round START [DEFAULT]
//	MS request COMMAND [ARG]
//
// with instants in milliseconds from the start, never decreasing; '#'
// starts a comment. round sets the round as the hall does: START is an
// RFC 3339 time of day ("2026-03-07T18:30:00+01:00") or "none", DEFAULT the
// default time ("30m"; default 0s). request sends one control request as
// the hall link does (request players {"white":"Carlsen"}) and prints the
// answer.
func ParseScript(name string, r io.Reader) ([]Directive, error) {
	var out []Directive
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), 4096)
	line := 0
	var last int64
	for sc.Scan() {
		line++
		text := sc.Text()
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		f := strings.Fields(text)
		if len(f) == 0 {
			continue
		}
		bad := func(format string, args ...any) error {
			return fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, args...))
		}
		ms, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil || ms < 0 || ms > 1<<40 {
			return nil, bad("instant %q: want milliseconds from the start", f[0])
		}
		if ms < last {
			return nil, bad("instant %d is before the previous one, %d", ms, last)
		}
		last = ms
		if len(f) < 2 {
			return nil, bad("no directive after the instant")
		}
		d := Directive{Line: line, At: time.Duration(ms) * time.Millisecond, Verb: f[1]}
		switch f[1] {
		case "press", "release", "hold", "tap":
			if len(f) != 3 {
				return nil, bad("%s takes a button name", f[1])
			}
			if !isButton(f[2]) {
				return nil, bad("no button %q, want one of %s", f[2], strings.Join(ui.Buttons, ", "))
			}
			d.Arg = f[2]
		case "shot":
			if len(f) != 3 || strings.ContainsAny(f[2], `/\`) {
				return nil, bad("shot takes a name (no slashes)")
			}
			d.Arg = f[2]
		case "state", "power-cut":
			if len(f) != 2 {
				return nil, bad("%s takes no argument", f[1])
			}
		case "round":
			if len(f) < 3 || len(f) > 4 {
				return nil, bad("round takes a start (RFC 3339, or none) and a default time (\"30m\")")
			}
			arg, err := roundRequest(f[2:])
			if err != nil {
				return nil, bad("round: %v", err)
			}
			d.Arg = arg
		case "request":
			if len(f) < 3 {
				return nil, bad("request takes a control request: COMMAND [ARG]")
			}
			// The request as written after the directive.
			_, rest, _ := strings.Cut(text, "request")
			d.Arg = strings.TrimSpace(rest)
		default:
			return nil, bad("unknown directive %q, want press, release, hold, tap, shot, state, power-cut, round or request", f[1])
		}
		out = append(out, d)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %v", name, line+1, err)
	}
	return out, nil
}

// roundRequest makes the round request's argument of a script's round
// directive: START [DEFAULT].
func roundRequest(args []string) (string, error) {
	var start int64
	if args[0] != "none" {
		t, err := time.Parse(time.RFC3339, args[0])
		if err != nil {
			return "", fmt.Errorf("start %q: want an RFC 3339 time like 2026-03-07T18:30:00+01:00, or none", args[0])
		}
		start = t.UnixMilli()
	}
	var def time.Duration
	if len(args) > 1 {
		d, err := time.ParseDuration(args[1])
		if err != nil || d < 0 || d > ui.MaxDefault {
			return "", fmt.Errorf("default time %q: want a duration from 0s to 24h, like 30m", args[1])
		}
		def = d
	}
	return fmt.Sprintf(`{"start_ms":%d,"default_ms":%d}`, start, def.Milliseconds()), nil
}

func isButton(s string) bool {
	for _, b := range ui.Buttons {
		if b == s {
			return true
		}
	}
	return false
}

// Virtual is a simulated clock on simulated devices, in virtual time.
type Virtual struct {
	opts    ScriptOpts
	now     time.Duration
	M       *daemon.Machine
	Devs    *profile.Devices
	Wakes   int // loop wake-ups so far
	next    time.Duration
	wake    bool // next is set: the loop wakes then
	cleanup func()

	// Said is everything the spoken clock said, in order (audio.go).
	Said      []Spoken
	announced []Spoken // since the last state line
	files     int      // WAV files written
	audioErr  error    // the first announcement that could not be written
}

// Start boots the simulated clock at virtual time zero.
func Start(o ScriptOpts) (*Virtual, error) {
	if o.Profile == "" {
		o.Profile = "sim"
	}
	v := &Virtual{opts: o, now: 0}
	p, err := daemon.LookupProfile(o.Profile)
	if err != nil {
		return nil, err
	}
	for _, d := range p.Displays {
		if !d.Simulated() {
			return nil, fmt.Errorf("profile %s: display %q is real hardware (%s); the simulator needs simulated displays", o.Profile, d.Name, d.Type)
		}
	}
	if v.opts.StateDir == "" {
		dir, err := os.MkdirTemp("", "zeitnot-sim-")
		if err != nil {
			return nil, err
		}
		v.opts.StateDir = dir
		v.cleanup = func() { os.RemoveAll(dir) }
	}
	v.boot()
	return v, nil
}

func (v *Virtual) logf(s string) {
	if v.opts.Log != nil {
		fmt.Fprintln(v.opts.Log, s)
	}
}

// noTimeOfDay is the virtual clock's system clock at virtual time zero
// when the run has no time of day: a clock that is not to be trusted.
var noTimeOfDay = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

func (v *Virtual) boot() {
	tod := v.opts.TimeOfDay
	to := daemon.TimeOpts{SyncedFile: "-", BootID: "sim", Zone: time.UTC}
	if tod.IsZero() {
		tod = noTimeOfDay
	} else {
		to.Trusted, to.Zone = ui.SourceSim, tod.Location()
	}
	// The virtual time is the run's one clock: the loop's instants, and
	// the time of day moving with them. Advance does the loop's waits.
	v.M, v.Devs = daemon.Setup(daemon.Opts{
		ConfigPath:      v.opts.ConfigPath,
		StateDir:        v.opts.StateDir,
		Profile:         v.opts.Profile,
		FallbackProfile: "sim",
		Now:             func() time.Duration { return v.now },
		Clock:           wallclock.NowFunc(func() time.Time { return tod.Add(v.now) }),
		Time:            to,
	}, v.logf)
	v.M.Speak = v.speak
	if bz, ok := v.Devs.Buzzer.(*simbuzzer.Buzzer); ok {
		bz.Clock = v.Now // the buzzer plays in virtual time too
	}
	v.next, v.wake = v.M.Step(v.now)
}

// Now is the virtual time.
func (v *Virtual) Now() time.Duration { return v.now }

// Advance runs the loop up to t: every wake-up the loop asks for, each a
// Step as in the daemon.
func (v *Virtual) Advance(t time.Duration) {
	for v.wake && v.next <= t {
		v.now = max(v.now, v.next)
		v.Wakes++
		v.next, v.wake = v.M.Step(v.now)
	}
	if t > v.now {
		v.now = t
	}
}

// Button feeds one event at the current virtual time, as the daemon's loop
// does with a button event.
func (v *Virtual) Button(name string, k button.Kind) {
	v.next, v.wake = v.M.Input(button.Event{Button: name, Kind: k, At: v.now}, v.now)
}

// Request sends one control request at the current virtual time, as the
// daemon's loop does with one from its socket, and returns the answer.
func (v *Virtual) Request(cmd, arg string) string {
	answer, ok := v.M.Control(cmd, arg, v.now)
	if !ok {
		answer = fmt.Sprintf("error: unknown command %q", cmd)
	}
	v.next, v.wake = v.M.Step(v.now)
	return answer
}

// PowerCut drops everything in memory and boots again from the files.
func (v *Virtual) PowerCut() {
	v.Devs.Close()
	v.boot()
}

// State returns the status JSON line.
func (v *Virtual) State() string {
	b, _ := json.Marshal(v.M.Status(v.now))
	return string(b)
}

// Close ends the run, removing a temporary state directory.
func (v *Virtual) Close() {
	v.M.Core.Close()
	v.Devs.Close()
	if v.cleanup != nil {
		v.cleanup()
	}
}

// RunScript plays a script.
func RunScript(o ScriptOpts, name string, r io.Reader) error {
	ds, err := ParseScript(name, r)
	if err != nil {
		return err
	}
	v, err := Start(o)
	if err != nil {
		return err
	}
	defer v.Close()
	for _, d := range ds {
		v.Advance(d.At)
		if v.Press(d) {
			continue
		}
		switch d.Verb {
		case "state":
			if o.Out != nil {
				fmt.Fprintln(o.Out, v.withAnnounced(v.State()))
			}
		case "power-cut":
			v.PowerCut()
		case "round":
			if a := v.Request("round", d.Arg); strings.HasPrefix(a, "error: ") {
				return fmt.Errorf("%s:%d: round: %s", name, d.Line, strings.TrimPrefix(a, "error: "))
			}
		case "request":
			cmd, arg, _ := strings.Cut(d.Arg, " ")
			a := v.Request(cmd, strings.TrimSpace(arg))
			if o.Out != nil {
				fmt.Fprintln(o.Out, a)
			}
		case "shot":
			dir := o.Shots
			if dir == "" {
				dir = "."
			}
			if err := v.Shot(filepath.Join(dir, d.Arg)); err != nil {
				return fmt.Errorf("%s:%d: shot: %w", name, d.Line, err)
			}
		}
	}
	if v.audioErr != nil {
		return fmt.Errorf("%s: --audio: %w", name, v.audioErr)
	}
	return nil
}
