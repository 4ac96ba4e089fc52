package button

import (
	"time"

	"periph.io/x/conn/v3/gpio"

	"github.com/zeitnot/zeitnot/drivers/monotonic"
)

// Opts configures how buttons are read.
type Opts struct {
	// ActiveLow means a pressed button pulls its line low (a switch to
	// ground with a pull-up). False means a pressed button drives it high.
	ActiveLow bool
	// Pull is the bias the lines are requested with: gpio.PullUp,
	// PullDown, Float (bias disabled) or PullNoChange (as the line is).
	// The kernel sets it on every Raspberry Pi, the Pi 5 included.
	Pull gpio.Pull
	// Debounce is how long after its first edge a line is left to settle
	// before its level is believed. Contacts bounce for up to about 20 ms.
	// It is also the shortest pulse that counts, and the shortest time
	// between two changes of one button.
	Debounce time.Duration
	// HoldAfter is how long a button must stay down to give a Hold event;
	// 0 or less disables holds.
	HoldAfter time.Duration
	// Clock returns the current instant, on the time base of
	// monotonic.Now, which the kernel's edge stamps are converted to
	// (monotonic.FromKernel). It decides when debounce windows close and
	// holds fall due; it never stamps an edge. Nil means monotonic.Now.
	Clock func() time.Duration
}

// DefaultOpts suits a switch to ground on a line with a pull-up: active low,
// pull-up, 20 ms debounce, hold after 1.5 s, on monotonic.Now's clock.
var DefaultOpts = Opts{
	ActiveLow: true,
	Pull:      gpio.PullUp,
	Debounce:  20 * time.Millisecond,
	HoldAfter: 1500 * time.Millisecond,
	Clock:     monotonic.Now,
}

// Line names a button and the GPIO line it is wired to.
type Line struct {
	Name string // the button's name, e.g. "left"
	Line string // the GPIO line as periph names it, e.g. "GPIO17"
}
