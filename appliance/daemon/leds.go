package daemon

import (
	"github.com/zeitnot/zeitnot/protocol"

	"fmt"
	"time"

	"github.com/zeitnot/zeitnot/drivers/led"
	"github.com/zeitnot/zeitnot/drivers/profile"
	"github.com/zeitnot/zeitnot/engine/clock"
)

// Light is one LED of the clock, lit while its side's clock runs: the LED
// in a lever, or a panel LED beside a display (FIDE: which clock runs must
// be visible from 10 m).
type Light struct {
	Name string
	Role string // left or right
	LED  led.LED

	failed error // the last Set failed; retried at every step
}

// NewLights makes the lights of the LEDs a profile opened.
func NewLights(ls []profile.OpenLED) []*Light {
	var out []*Light
	for _, l := range ls {
		out = append(out, &Light{Name: l.Name, Role: l.Role, LED: l.Dev})
	}
	return out
}

// LEDStatus is what the LEDs show, in the status JSON.
type LEDStatus = protocol.LEDs

// runningSides reports which lever's clock runs at now: at most one of
// left and right, none before the start, while paused and after a flag
// stopped the clock.
func (m *Machine) runningSides(now time.Duration) (left, right bool) {
	st := m.Core.Session().State(now)
	if st.Running == clock.NoSide {
		return false, false
	}
	left = (st.Running == clock.White) == m.Core.Settings().WhiteLeft
	return left, !left
}

// light sets every LED from the game state at now. A failing LED is
// logged once and retried at every step; the clock keeps time regardless.
func (m *Machine) light(now time.Duration) {
	if len(m.Lights) == 0 {
		return
	}
	left, right := m.runningSides(now)
	m.leds = LEDStatus{Left: left, Right: right}
	for _, l := range m.Lights {
		on := (l.Role == "left" && left) || (l.Role == "right" && right)
		was := l.failed
		l.failed = l.LED.Set(on)
		if m.Log == nil {
			continue
		}
		switch {
		case l.failed != nil && was == nil:
			m.Log(fmt.Sprintf("led %q: %v", l.Name, l.failed))
		case l.failed == nil && was != nil:
			m.Log(fmt.Sprintf("led %q (%s): back", l.Name, l.LED))
		}
	}
}

// LEDs returns what the LEDs show after the last step; ok is false when
// the profile has none.
func (m *Machine) LEDs() (s LEDStatus, ok bool) {
	return m.leds, len(m.Lights) > 0
}
