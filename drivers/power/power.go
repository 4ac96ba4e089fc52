package power

import (
	"fmt"
	"slices"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/physic"

	"github.com/zeitnot/zeitnot/drivers/button"
)

// Reading is one reading of a battery gauge.
type Reading struct {
	// Voltage is the battery's voltage: the pack's, for cells in series.
	Voltage physic.ElectricPotential
	// Current is the current through the gauge's shunt, as the chip signs
	// it (see the gauge's package); valid only if HasCurrent.
	Current    physic.ElectricCurrent
	HasCurrent bool
	// Percent is the estimated state of charge, 0 to 100.
	Percent float64
}

func (r Reading) String() string {
	s := fmt.Sprintf("%.0f%% %s", r.Percent, r.Voltage)
	if r.HasCurrent {
		s += " " + r.Current.String()
	}
	return s
}

// Gauge reads a battery.
type Gauge interface {
	// String names the gauge, e.g. "ina219 on I2C1@0x42".
	String() string
	// Read reads the battery now. It may block for the time of a few bus
	// transfers (about a millisecond on I²C), so callers on a latency
	// sensitive path read it from a goroutine of their own.
	Read() (Reading, error)
}

// CurvePoint is a point of a Curve: the state of charge of a cell at a
// voltage.
type CurvePoint struct {
	V       physic.ElectricPotential
	Percent float64
}

// Curve maps the voltage of one cell to its state of charge. Its points are
// in order of rising voltage; between them the state of charge is
// interpolated linearly, below the first it is the first point's, above the
// last the last point's.
type Curve []CurvePoint

// LiIon is a typical discharge curve of one Li-ion cell at a light load:
// full at 4.2 V, empty at 3.0 V, most of its charge between 3.6 and 4.0 V.
var LiIon = Curve{
	{3000 * physic.MilliVolt, 0},
	{3450 * physic.MilliVolt, 5},
	{3680 * physic.MilliVolt, 10},
	{3740 * physic.MilliVolt, 20},
	{3770 * physic.MilliVolt, 30},
	{3800 * physic.MilliVolt, 40},
	{3840 * physic.MilliVolt, 50},
	{3880 * physic.MilliVolt, 60},
	{3950 * physic.MilliVolt, 70},
	{4020 * physic.MilliVolt, 80},
	{4100 * physic.MilliVolt, 90},
	{4200 * physic.MilliVolt, 100},
}

// Check reports what is wrong with c: fewer than two points, a voltage not
// above the one before, a state of charge outside 0 to 100 or lower than
// the one before.
func (c Curve) Check() error {
	if len(c) < 2 {
		return fmt.Errorf("a curve needs at least two points, got %d", len(c))
	}
	for i, p := range c {
		if p.Percent < 0 || p.Percent > 100 {
			return fmt.Errorf("point %d (%s): %g%% is not between 0 and 100", i+1, p.V, p.Percent)
		}
		if i > 0 && p.V <= c[i-1].V {
			return fmt.Errorf("point %d: %s is not above the voltage before it, %s", i+1, p.V, c[i-1].V)
		}
		if i > 0 && p.Percent < c[i-1].Percent {
			return fmt.Errorf("point %d (%s): %g%% is below the %g%% before it", i+1, p.V, p.Percent, c[i-1].Percent)
		}
	}
	return nil
}

// Percent returns the state of charge of a cell at voltage v.
func (c Curve) Percent(v physic.ElectricPotential) float64 {
	if len(c) == 0 {
		return 0
	}
	i, _ := slices.BinarySearchFunc(c, v, func(p CurvePoint, v physic.ElectricPotential) int {
		switch {
		case p.V < v:
			return -1
		case p.V > v:
			return 1
		}
		return 0
	})
	switch {
	case i == 0:
		return c[0].Percent
	case i == len(c):
		return c[len(c)-1].Percent
	}
	lo, hi := c[i-1], c[i]
	return lo.Percent + (hi.Percent-lo.Percent)*float64(v-lo.V)/float64(hi.V-lo.V)
}

// LossEvent is a change of the power-loss input.
type LossEvent struct {
	Lost bool          // true: the external supply failed; false: it is back
	At   time.Duration // monotonic instant of the line's first edge
}

// LossInput tells when the external supply fails and comes back.
type LossInput interface {
	// String names the input, e.g. "power-loss input on GPIO6".
	String() string
	// Events returns the channel changes arrive on, in order. It is
	// closed after Close, or early if watching the line fails.
	Events() <-chan LossEvent
	// Close stops watching and releases the line.
	Close() error
}

// LossOpts configures a power-loss input.
type LossOpts struct {
	// ActiveLow means the line is low while the external supply is lost,
	// as with an open-drain "power fail" output and a pull-up.
	ActiveLow bool
	// Pull is the bias asked of the line.
	Pull gpio.Pull
	// Debounce is how long a change must last to count.
	Debounce time.Duration
	// Clock stamps the events; nil means the button package's default,
	// monotonic.Now.
	Clock func() time.Duration
}

// DefaultLossOpts suits an open-drain output that pulls the line low when
// the supply fails: active low, pull-up, 20 ms debounce.
var DefaultLossOpts = LossOpts{ActiveLow: true, Pull: gpio.PullUp, Debounce: 20 * time.Millisecond}

// Loss is a LossInput fed by a button.Source on one line: a press is the
// supply failing, a release its return.
type Loss struct {
	name   string
	src    button.Source
	events chan LossEvent
	done   chan struct{}
}

var _ LossInput = (*Loss)(nil)

// NewLoss returns the LossInput that src's presses and releases stand for,
// called name. It owns src: Close closes it.
func NewLoss(name string, src button.Source) *Loss {
	l := &Loss{name: name, src: src, events: make(chan LossEvent, 4), done: make(chan struct{})}
	go func() {
		defer close(l.done)
		defer close(l.events)
		for e := range src.Events() {
			switch e.Kind {
			case button.Press:
				l.events <- LossEvent{Lost: true, At: e.At}
			case button.Release:
				l.events <- LossEvent{Lost: false, At: e.At}
			}
		}
	}()
	return l
}

// OpenLoss watches the GPIO line named line (e.g. "GPIO6") for the loss of
// the external supply. opts nil means DefaultLossOpts.
func OpenLoss(line string, opts *LossOpts) (*Loss, error) {
	if opts == nil {
		opts = &DefaultLossOpts
	}
	bo := button.DefaultOpts
	bo.ActiveLow, bo.Pull, bo.Debounce, bo.HoldAfter = opts.ActiveLow, opts.Pull, opts.Debounce, 0
	if opts.Clock != nil {
		bo.Clock = opts.Clock
	}
	src, err := button.Open([]button.Line{{Name: "power-loss", Line: line}}, &bo)
	if err != nil {
		return nil, fmt.Errorf("power: power-loss input on %s: %w", line, err)
	}
	return NewLoss("power-loss input on "+line, src), nil
}

// String implements LossInput.
func (l *Loss) String() string { return l.name }

// Events implements LossInput.
func (l *Loss) Events() <-chan LossEvent { return l.events }

// Close implements LossInput. Events not yet read are dropped.
func (l *Loss) Close() error {
	err := l.src.Close()
	for {
		select {
		case _, ok := <-l.events:
			if !ok {
				return err
			}
		case <-l.done:
			return err
		}
	}
}
