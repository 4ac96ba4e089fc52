// Package ui is the clock's user interface: button events in; pages,
// menus, banners, views and sounds out. The game itself (the clock, its
// journal, recovery) is the session's (appliance/session): the user interface
// drives it with the players' and the arbiter's inputs and listens to its events.
//
// The round (round.go: a scheduled start, FIDE 6.5, and a default time,
// 6.6), the players' names and the hall's commands (hall.go) belong to the
// user interface too; the time of day comes from the daemon with each turn of its
// loop (timeofday.go).
//
// A Core is deterministic: it never reads a clock and starts no goroutine.
// Every call carries the monotonic instant it happens at (the instant of the
// button's first edge for presses), so the daemon, the terminal simulator and
// the scripted simulator on a virtual clock drive the same code, through the
// daemon's Machine.Step, and get the same results.
package ui
