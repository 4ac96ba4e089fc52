package button

import "time"

// Kind is what happened to a button.
type Kind uint8

const (
	Press   Kind = iota + 1 // the button went down
	Release                 // the button came up
	Hold                    // the button has been down for Opts.HoldAfter
)

func (k Kind) String() string {
	switch k {
	case Press:
		return "press"
	case Release:
		return "release"
	case Hold:
		return "hold"
	}
	return "unknown"
}

// Event is one debounced button event.
type Event struct {
	Button string        // the button's name, e.g. "left"
	Kind   Kind          // press, release or hold
	At     time.Duration // monotonic instant of the first edge (hold: of the press plus HoldAfter)
}

// Source delivers button events. Events come in the order of their At
// instants; two events with the same instant come in a fixed order.
type Source interface {
	// Events returns the channel events arrive on. It is closed after Close.
	Events() <-chan Event
	// Close stops watching and releases the lines.
	Close() error
}
