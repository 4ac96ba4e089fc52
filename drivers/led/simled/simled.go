// Package simled has the simulator's LEDs: a led.LED that lights nothing
// but keeps its state for a terminal to show. A hardware profile opens it
// for an LED of type "sim".
package simled

import (
	"fmt"
	"sync"

	"github.com/zeitnot/zeitnot/drivers/led"
)

// LED is a simulated led.LED. Its zero value is an unnamed LED, off. It is
// safe for concurrent use: the simulator's terminal reads it while the
// clock sets it.
type LED struct {
	Name string // shown by String; set it before use

	mu     sync.Mutex
	on     bool
	closed bool
}

var _ led.LED = (*LED)(nil)

// String implements led.LED: "simulated led NAME".
func (l *LED) String() string { return "simulated led " + l.Name }

// Set implements led.LED.
func (l *LED) Set(on bool) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return fmt.Errorf("%s: closed", l)
	}
	l.on = on
	return nil
}

// On reports whether the LED is lit.
func (l *LED) On() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.on
}

// Close implements led.LED: the LED goes off; later calls to Set fail.
func (l *LED) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.on, l.closed = false, true
	return nil
}
