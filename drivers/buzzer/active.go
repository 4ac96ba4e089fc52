package buzzer

import (
	"fmt"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/host/v3"
)

// NewActive returns an active buzzer (one with its own oscillator, which
// sounds while powered) switched by p, and silences it. opts nil means
// DefaultOpts; only ActiveLow is used.
func NewActive(p gpio.PinOut, opts *Opts) (*Dev, error) {
	if p == nil {
		return nil, fmt.Errorf("buzzer: no pin")
	}
	if opts == nil {
		opts = &DefaultOpts
	}
	a := &activeOut{p: p, activeLow: opts.ActiveLow}
	if err := a.set(false); err != nil {
		return nil, err
	}
	return newDev("active buzzer on "+p.Name(), a), nil
}

// OpenActive initializes periph and returns the active buzzer on the GPIO
// line named line, such as "GPIO18".
func OpenActive(line string, opts *Opts) (*Dev, error) {
	if _, err := host.Init(); err != nil {
		return nil, fmt.Errorf("buzzer: initializing periph: %w", err)
	}
	p := gpioreg.ByName(line)
	if p == nil {
		return nil, fmt.Errorf("buzzer: no GPIO line named %s on this machine", line)
	}
	return NewActive(p, opts)
}

type activeOut struct {
	p         gpio.PinOut
	activeLow bool
}

func (a *activeOut) set(on bool) error {
	if err := a.p.Out(gpio.Level(on != a.activeLow)); err != nil {
		return fmt.Errorf("buzzer: %s: %w", a.p.Name(), err)
	}
	return nil
}

func (a *activeOut) close() error { return nil }
