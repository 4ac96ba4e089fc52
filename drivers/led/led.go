package led

import (
	"fmt"
	"sync"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/host/v3"
)

// LED is one indicator lamp.
type LED interface {
	// String names the LED, e.g. "led left on GPIO12".
	String() string
	// Set switches the LED on or off. Setting the state it already has
	// does nothing.
	Set(on bool) error
	// Close switches the LED off and releases it.
	Close() error
}

// Opts configures an LED.
type Opts struct {
	// Name is what the LED is called in errors and String, e.g. "left".
	Name string
	// ActiveLow means the LED is lit when its line is low.
	ActiveLow bool
}

// DefaultOpts is an unnamed LED lit when its line is high.
var DefaultOpts = Opts{}

// Dev is an LED on a GPIO line. It is safe for concurrent use.
type Dev struct {
	name      string
	p         gpio.PinOut
	activeLow bool

	mu     sync.Mutex
	on     bool
	known  bool // on is the line's state: false after a failed write
	closed bool
}

var _ LED = (*Dev)(nil)

// New returns the LED switched by p, and switches it off. opts nil means
// DefaultOpts.
func New(p gpio.PinOut, opts *Opts) (*Dev, error) {
	if opts == nil {
		opts = &DefaultOpts
	}
	if p == nil {
		return nil, fmt.Errorf("led: %s: no pin", nameOr(opts.Name))
	}
	name := "led " + p.Name()
	if opts.Name != "" {
		name = "led " + opts.Name + " on " + p.Name()
	}
	d := &Dev{name: name, p: p, activeLow: opts.ActiveLow}
	if err := d.Set(false); err != nil {
		return nil, err
	}
	return d, nil
}

// Open initializes periph and returns the LED on the GPIO line named line,
// such as "GPIO12", switched off.
func Open(line string, opts *Opts) (*Dev, error) {
	if opts == nil {
		opts = &DefaultOpts
	}
	if _, err := host.Init(); err != nil {
		return nil, fmt.Errorf("led: %s: initializing periph: %w", nameOr(opts.Name), err)
	}
	p := gpioreg.ByName(line)
	if p == nil {
		return nil, fmt.Errorf("led: %s: no GPIO line named %s on this machine", nameOr(opts.Name), line)
	}
	return New(p, opts)
}

func nameOr(s string) string {
	if s == "" {
		return "(unnamed)"
	}
	return s
}

// String implements LED.
func (d *Dev) String() string { return d.name }

// Set implements LED.
func (d *Dev) Set(on bool) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return fmt.Errorf("%s: closed", d.name)
	}
	return d.write(on)
}

// write drives the line; d.mu is held.
func (d *Dev) write(on bool) error {
	if d.known && d.on == on {
		return nil
	}
	if err := d.p.Out(gpio.Level(on != d.activeLow)); err != nil {
		d.known = false
		return fmt.Errorf("%s: %w", d.name, err)
	}
	d.on, d.known = on, true
	return nil
}

// Close implements LED: the LED goes off. Later calls to Set fail.
func (d *Dev) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return nil
	}
	d.closed = true
	return d.write(false)
}
