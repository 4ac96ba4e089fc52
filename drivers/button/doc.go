// Package button reads named push buttons and levers on GPIO lines and turns
// their edges into debounced press, release and hold events.
//
// The instant of a press is the first edge seen, taken from the monotonic
// clock before any debounce wait: debouncing never costs a player time.
//
// # Parts
//
// Debouncer is the pure state machine: raw edges with their instants in,
// events and the next deadline out. It reads no clock and starts no
// goroutine, so every case is tested deterministically.
//
// Open watches real GPIO lines through the Linux GPIO character device
// (periph's host/v3/gpioioctl): one goroutine sleeps in the kernel on all
// lines at once (LineSet.WaitForEdge) until an edge or the next debounce or
// hold deadline. Nothing polls.
//
// The package simbutton has the simulator's Source, which its keys push
// events into; buttontest has a scripted Source for tests.
//
// # Debouncing
//
// Contacts bounce for up to about 20 ms when they close and open. The first
// edge that leaves a button's settled state opens a window of Opts.Debounce;
// the edges inside it are chatter. When the window closes the line's level
// decides: if it has changed, the event is reported with At at the first
// edge; if it is back where it was, the window was a spike and nothing is
// reported. Hence:
//
//   - a bouncing press gives exactly one Press, stamped at its first edge,
//     and reaches the reader Debounce after that edge;
//   - a pulse that lasts Debounce or less is ignored;
//   - one button reports at most one change per Debounce (20 ms by
//     default: 25 presses a second; lower Debounce for faster switches);
//   - events of all buttons come in order of At; equal instants come in the
//     order the buttons were listed.
//
// periph's gpioutil.Debounce is not used: it only denoises, it reports the
// time the line settled rather than the first edge, and it does not give
// release or hold.
//
// # periph on the Raspberry Pi, and its pitfalls
//
// Lines are named as periph names them: "GPIO17" is BCM GPIO 17, physical
// pin 11 of the 40-pin header. Things this package does so you don't have to:
//
//   - LineSet.WaitForEdge(timeout) waits for ever when timeout is 0 and
//     returns at once when it is negative (the deadline is already past). The
//     watcher passes 0 when nothing is pending and the exact time to the next
//     deadline otherwise, never a negative value.
//   - LineSet.Halt moves the read deadline into the past but a WaitForEdge
//     starting just after sets a new one; Close repeats Halt until the
//     watcher has stopped, so it never hangs.
//   - host.Init succeeds on a machine without GPIO and registers no lines:
//     Open then fails at once with an error naming the button, such as
//     `button "left": no GPIO line named GPIO17 on this machine`.
//   - The kernel does not say what stamped an edge through periph, so the
//     watcher stamps it with Opts.Clock as soon as WaitForEdge returns.
//
// # Pull-ups on the Raspberry Pi 5
//
// The default wiring is a switch between the GPIO and ground (active low)
// using the SoC's internal pull-up. On a Raspberry Pi 5 periph cannot set the
// pull of a line, so set it at boot in /boot/firmware/config.txt instead, one
// line for all the buttons:
//
//	gpio=17,27,22,23,24,25=ip,pu
//
// (ip: input, pu: pull-up; pd would be pull-down, pn no pull). Or fit
// external 10 kΩ pull-up resistors to 3.3 V.
//
// # Permissions
//
// The user running the clock needs read and write access to /dev/gpiochip*;
// on Raspberry Pi OS that is the gpio group.
package button
