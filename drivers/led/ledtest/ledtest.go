// Package ledtest has a led.LED for tests that records every change of
// state and can be made to fail: the simulator's LED (simled) with a memory.
package ledtest

import (
	"fmt"
	"slices"
	"sync"

	"github.com/zeitnot/zeitnot/drivers/led"
)

// Recorder is a led.LED that records each change of its state. Like a
// led.Dev it does nothing when set to the state it has. It is safe for
// concurrent use; its zero value is an unnamed LED, off.
type Recorder struct {
	Name string // shown by String; set it before use

	mu      sync.Mutex
	on      bool
	changes []bool
	fail    error
	closed  bool
}

var _ led.LED = (*Recorder)(nil)

// String implements led.LED: "ledtest NAME".
func (r *Recorder) String() string { return "ledtest " + r.Name }

// Set implements led.LED. It fails with the error given to FailNext, once.
func (r *Recorder) Set(on bool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return fmt.Errorf("%s: closed", r)
	}
	if err := r.fail; err != nil {
		r.fail = nil
		return fmt.Errorf("%s: %w", r, err)
	}
	if on != r.on {
		r.on = on
		r.changes = append(r.changes, on)
	}
	return nil
}

// FailNext makes the next Set fail with err, leaving the state as it is.
func (r *Recorder) FailNext(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.fail = err
}

// On reports whether the LED is lit.
func (r *Recorder) On() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.on
}

// Changes returns every state the LED was switched to, in order.
func (r *Recorder) Changes() []bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.changes)
}

// Closed reports whether Close was called.
func (r *Recorder) Closed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.closed
}

// Close implements led.LED: the LED goes off; later calls to Set fail.
func (r *Recorder) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.on {
		r.on = false
		r.changes = append(r.changes, false)
	}
	r.closed = true
	return nil
}
