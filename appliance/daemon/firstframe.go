package daemon

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/zeitnot/zeitnot/appliance/boardname"
	"github.com/zeitnot/zeitnot/appliance/screen"
)

// The first frame. As soon as the profile's displays are open, before the
// game is recovered from the journal, Setup shows the clock's name on them
// (NameView). The game's times follow at the first Step, drawn from the
// recovered state, so the displays never show a time that is not yet
// settled: first a name, then times the journal justifies.
//
// Run logs the instant of the first frame any display showed
// (FirstFrameLine), for the boot test's measurement of power-on to
// something on the displays.

// FirstFramePrefix begins the line Run logs about the first frame.
const FirstFramePrefix = "first frame at "

// FirstFrameLine is the line Run logs about the first frame: its instant
// as CLOCK_MONOTONIC nanoseconds (the time since the kernel started) and
// what it showed.
func FirstFrameLine(monoNs int64, what string) string {
	return fmt.Sprintf("%s%d.%06d s after boot: %s", FirstFramePrefix, monoNs/1e9, monoNs%1e9/1e3, what)
}

// ParseFirstFrame reads FirstFrameLine back: the instant since the kernel
// started and what the frame showed.
func ParseFirstFrame(line string) (time.Duration, string, error) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(line), FirstFramePrefix)
	if !ok {
		return 0, "", fmt.Errorf("first frame: %q does not begin with %q", line, FirstFramePrefix)
	}
	secs, what, ok := strings.Cut(rest, " s after boot: ")
	if !ok {
		return 0, "", fmt.Errorf("first frame: %q has no \" s after boot: \"", line)
	}
	f, err := strconv.ParseFloat(secs, 64)
	if err != nil || f < 0 {
		return 0, "", fmt.Errorf("first frame: %q is not a number of seconds", secs)
	}
	return time.Duration(f * float64(time.Second)), what, nil
}

// NameView is the frame shown while the game is recovered: the clock's
// name and nothing else.
func NameView(name string) screen.View {
	return screen.View{Kind: screen.KindMessage, Message: []string{name}}
}

// clockName is the name NameView shows when Opts.Name is empty: the
// clock's, zeitnot-XXXX from its board's serial (appliance/boardname), the
// name zeitnot-hostname.service gives the host. The daemon does not wait
// for that unit, so it derives the name itself.
func clockName() string {
	return boardname.Name(os.DirFS("/"))
}

// firstFrame is the first frame a display showed.
type firstFrame struct {
	at   time.Duration // the Machine's time base
	what string
}

// showName draws NameView(name) on every display at now, before there is
// a game to show.
func (m *Machine) showName(name string, brightness int, now time.Duration) {
	v := NameView(name)
	for _, o := range m.Outputs {
		if err := o.render(&v, brightness); err != nil {
			// Reported once: Render reports a display's failure only
			// when it was working.
			if m.Log != nil {
				m.Log(fmt.Sprintf("display %q (%s): %v", o.Name, o.device(), err))
			}
		} else {
			m.framed(now, "the name "+strconv.Quote(name))
		}
	}
}

// framed notes that a display showed a frame at now; the first is kept.
func (m *Machine) framed(now time.Duration, what string) {
	if m.first == nil {
		m.first = &firstFrame{at: now, what: what}
	}
}

// FirstFrame is when a display first showed a frame, in the Machine's time
// base, and what it showed; false while none has.
func (m *Machine) FirstFrame() (time.Duration, string, bool) {
	if m.first == nil {
		return 0, "", false
	}
	return m.first.at, m.first.what, true
}
