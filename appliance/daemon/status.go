package daemon

import (
	"time"

	"github.com/zeitnot/zeitnot/appliance/ui"
)

// Status is the clock's state for `zeitnot status`, `zeitnot watch` and
// the simulator's state lines: the core's, and what the daemon adds.
type Status struct {
	ui.Status
	LEDs      *LEDStatus `json:"leds,omitempty"`       // the profile has LEDs
	Battery   *Battery   `json:"battery,omitempty"`    // the profile has a gauge and it has been read
	PowerLost bool       `json:"power_lost,omitempty"` // the power-loss input says the supply is lost
}

// Status reports the state at now.
func (m *Machine) Status(now time.Duration) Status {
	s := Status{Status: m.Core.Status(now), PowerLost: m.power.lost}
	if l, ok := m.LEDs(); ok {
		s.LEDs = &l
	}
	if b, ok := m.Battery(); ok {
		s.Battery = &b
	}
	return s
}
