package button

import "time"

// Kind is what happened to a button.
type Kind uint8

const (
	Press   Kind = iota + 1 // the button went down
	Release                 // the button came up
	Hold                    // the button has been down for Opts.HoldAfter
	// Overrun: the kernel's event buffer overflowed and dropped edges
	// (Event.Lost of them) before At, so a press or release near At may be
	// stamped late, or missing. Show it and log it; it never becomes a
	// press. Button names the button whose edges were lost, or is empty
	// when edges of lines that had no event since were lost (those lines'
	// levels are read back, and each is named at its next event).
	Overrun
)

func (k Kind) String() string {
	switch k {
	case Press:
		return "press"
	case Release:
		return "release"
	case Hold:
		return "hold"
	case Overrun:
		return "overrun"
	}
	return "unknown"
}

// Event is one debounced button event.
type Event struct {
	Button string        // the button's name, e.g. "left"
	Kind   Kind          // press, release, hold or overrun
	At     time.Duration // monotonic instant of the first edge (hold: of the press plus HoldAfter)
	Lost   int           // Overrun: how many edges the kernel dropped; 0 otherwise
}

// Source delivers button events. Events come in the order of their At
// instants; two events with the same instant come in a fixed order.
type Source interface {
	// Events returns the channel events arrive on. It is closed after Close.
	Events() <-chan Event
	// Close stops watching and releases the lines.
	Close() error
}
