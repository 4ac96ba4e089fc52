package daemon

import (
	"time"

	"github.com/zeitnot/zeitnot/appliance/ui"
)

// Status is the clock's state for `zeitnot status`, `zeitnot watch` and
// the simulator's state lines: the core's, with the daemon's devices
// (protocol.Status's LEDs, Battery and PowerLost).
type Status = ui.Status

// Status reports the state at now.
func (m *Machine) Status(now time.Duration) Status {
	s := m.Core.Status(now)
	s.PowerLost = m.power.lost
	u := m.UpdateStatus()
	s.Update = &u
	if l, ok := m.LEDs(); ok {
		s.LEDs = &l
	}
	if b, ok := m.Battery(); ok {
		s.Battery = &b.Battery
	}
	return s
}
