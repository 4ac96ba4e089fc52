package daemon

import (
	"github.com/zeitnot/zeitnot/protocol"

	"fmt"
	"math"
	"sync"
	"time"

	"periph.io/x/conn/v3/physic"

	"github.com/zeitnot/zeitnot/drivers/power"
	"github.com/zeitnot/zeitnot/drivers/profile"
	"github.com/zeitnot/zeitnot/internal/wallclock"
)

// BatteryPoll is how often the daemon reads the battery gauge. A battery
// that runs a clock for hours changes by well under a point in that time.
const BatteryPoll = 5 * time.Second

// lowHysteresis is how far above the threshold the state of charge must
// climb (charging) before the low-battery flag clears, so that a reading
// wobbling around the threshold does not flip it.
const lowHysteresis = 5

// Battery is what the machine knows of the battery: the status JSON's
// (protocol.Battery), and when it was read.
type Battery struct {
	protocol.Battery
	At time.Duration // when the values were read
}

// powerState is the machine's view of its supply, changed by HandlePower.
type powerState struct {
	gauge      power.Gauge
	loss       power.LossInput
	lowPercent float64

	battery  Battery
	haveRead bool // a reading has arrived
	readErr  bool // the last read failed
	lost     bool // the external supply is lost
}

// AttachPower gives the machine the LEDs, battery gauge and power-loss
// input that a profile opened, and the profile's low-battery threshold.
// Setup calls it; the gauge and the input are read by WatchPower.
func (m *Machine) AttachPower(p *profile.Profile, devs *profile.Devices) {
	m.Lights = NewLights(devs.LEDs)
	m.power.gauge = devs.Battery
	m.power.loss = devs.PowerLoss
	m.power.lowPercent = p.Battery.LowPercent
}

// Battery returns the last battery reading; ok is false when the profile
// has no gauge or none has been read yet.
func (m *Machine) Battery() (b Battery, ok bool) {
	return m.power.battery, m.power.haveRead
}

// PowerLost reports whether the power-loss input says the external supply
// is lost.
func (m *Machine) PowerLost() bool { return m.power.lost }

// PowerEvent is a battery reading or a change of the power-loss input,
// sent by WatchPower's goroutines to the event loop.
type PowerEvent struct {
	reading power.Reading
	err     error
	at      time.Duration
	loss    *power.LossEvent
}

// PowerWatch reads the battery gauge and the power-loss input in
// goroutines of its own, so that a slow I²C transfer never holds up the
// event loop, and hands what they find to the loop on Events.
type PowerWatch struct {
	Events <-chan PowerEvent // nil when there is nothing to watch

	stop chan struct{}
	wg   sync.WaitGroup
}

// WatchPower starts reading the machine's battery gauge every poll
// (BatteryPoll if 0) of clk (nil is wallclock.Real), the first time at
// once, and forwarding its power-loss input's changes; mono, the loop's
// time base, stamps the readings. The event loop gives each event on
// Events to HandlePower. Stop it before closing the devices.
func (m *Machine) WatchPower(poll time.Duration, clk wallclock.Clock, mono func() time.Duration) *PowerWatch {
	w := &PowerWatch{stop: make(chan struct{})}
	g, loss := m.power.gauge, m.power.loss
	if g == nil && loss == nil {
		return w
	}
	if poll <= 0 {
		poll = BatteryPoll
	}
	clk = wallclock.Or(clk)
	events := make(chan PowerEvent)
	w.Events = events
	send := func(e PowerEvent) bool {
		select {
		case events <- e:
			return true
		case <-w.stop:
			return false
		}
	}
	if g != nil {
		w.wg.Add(1)
		go func() {
			defer w.wg.Done()
			t := clk.NewTicker(poll)
			defer t.Stop()
			for {
				r, err := g.Read()
				if !send(PowerEvent{reading: r, err: err, at: mono()}) {
					return
				}
				select {
				case <-t.C():
				case <-w.stop:
					return
				}
			}
		}()
	}
	if loss != nil {
		w.wg.Add(1)
		go func() {
			defer w.wg.Done()
			for {
				select {
				case e, ok := <-loss.Events():
					if !ok {
						return
					}
					if !send(PowerEvent{loss: &e, at: e.At}) {
						return
					}
				case <-w.stop:
					return
				}
			}
		}()
	}
	return w
}

// Stop stops the goroutines and waits for them. It may be called more
// than once.
func (w *PowerWatch) Stop() {
	select {
	case <-w.stop:
	default:
		close(w.stop)
	}
	w.wg.Wait()
}

// HandlePower takes one event of WatchPower at instant now: a reading
// updates the battery and its low flag, a power-loss change is logged and,
// for a loss, calls OnPowerLoss. Then it steps the loop, as Input does.
func (m *Machine) HandlePower(e PowerEvent, now time.Duration) (time.Duration, bool) {
	if e.loss != nil {
		m.powerLoss(*e.loss, now)
	} else {
		m.batteryReading(e.reading, e.err, e.at)
	}
	level := ""
	if m.power.haveRead {
		level = fmt.Sprintf("battery %.0f%%", m.power.battery.Percent)
	}
	m.Core.SetPower(m.powerWarning(), level)
	return m.Step(now)
}

func (m *Machine) log(s string) {
	if m.Log != nil {
		m.Log(s)
	}
}

func (m *Machine) powerLoss(e power.LossEvent, now time.Duration) {
	if e.Lost == m.power.lost {
		return
	}
	m.power.lost = e.Lost
	if !e.Lost {
		m.log(fmt.Sprintf("power: the external supply is back (%s)", m.power.loss))
		return
	}
	m.log(fmt.Sprintf("power: the external supply is lost (%s, edge at %s): running on the battery", m.power.loss, e.At.Round(time.Millisecond)))
	if m.OnPowerLoss != nil {
		m.OnPowerLoss(now)
	}
}

func (m *Machine) batteryReading(r power.Reading, err error, at time.Duration) {
	p := &m.power
	name := "battery"
	if p.gauge != nil {
		name = fmt.Sprintf("battery (%s)", p.gauge)
	}
	if err != nil {
		if !p.readErr {
			m.log(fmt.Sprintf("battery: %v", err))
		}
		p.readErr = true
		p.battery.Error = err.Error()
		return
	}
	if p.readErr {
		m.log(name + ": back")
	}
	p.readErr = false
	b := Battery{Battery: protocol.Battery{
		Percent: math.Round(r.Percent*10) / 10,
		Volts:   math.Round(float64(r.Voltage)/float64(physic.MilliVolt)) / 1000,
		Low:     p.battery.Low,
	}, At: at}
	if r.HasCurrent {
		a := math.Round(float64(r.Current)/float64(physic.MilliAmpere)) / 1000
		b.Amps = &a
	}
	switch {
	case r.Percent <= p.lowPercent:
		b.Low = true
	case r.Percent > p.lowPercent+lowHysteresis:
		b.Low = false
	}
	if !p.haveRead {
		m.log(fmt.Sprintf("%s: %s", name, r))
	}
	if b.Low != p.battery.Low {
		if b.Low {
			m.log(fmt.Sprintf("battery: low: %s, the warning is at %g%%", r, p.lowPercent))
		} else {
			m.log(fmt.Sprintf("battery: no longer low: %s", r))
		}
	}
	p.battery, p.haveRead = b, true
}

// powerWarning is what the displays say of the supply: on the battery
// after a power loss, and low when the gauge says so (FIDE's standard for
// clocks asks for a low-battery warning with enough charge left to finish
// the game).
func (m *Machine) powerWarning() string {
	low := m.power.haveRead && m.power.battery.Low
	switch {
	case m.power.lost && low:
		return "ON BATTERY, LOW"
	case low:
		return "BATTERY LOW"
	case m.power.lost:
		return "ON BATTERY"
	}
	return ""
}
