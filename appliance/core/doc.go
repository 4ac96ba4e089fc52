// Package core is the clock appliance's logic: button events in; the game,
// its journal, the menu, views and sounds out.
//
// A Core is deterministic: it never reads a clock and starts no goroutine.
// Every call carries the monotonic instant it happens at (the instant of the
// button's first edge for presses), so the daemon, the terminal simulator and
// the scripted simulator on a virtual clock drive the same code and get the
// same results.
//
// Instants are time.Duration on the drivers' monotonic base; the clock log
// counts milliseconds from the start of the game's journal. A recovered game
// keeps its log instants: the core maps the new boot's monotonic base onto
// them with an offset.
package core
