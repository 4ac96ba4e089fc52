// Package button reads named push buttons and levers on GPIO lines and turns
// their edges into debounced press, release and hold events.
//
// The instant of a press is the kernel's timestamp of the button's first
// edge: taken on CLOCK_MONOTONIC in the kernel's interrupt handler, before
// any debounce wait and however late the watching goroutine gets to run.
// Debouncing never costs a player time, and neither does a loaded CPU.
//
// # Parts
//
// Debouncer is the pure state machine: raw edges with their instants in,
// events and the next deadline out. It reads no clock and starts no
// goroutine, so every case is tested deterministically.
//
// Open watches real GPIO lines through the Linux GPIO character device: one
// goroutine sleeps in the kernel on all lines at once (ppoll on the line
// request) until an edge or the next debounce or hold deadline. Nothing
// polls.
//
// The package simbutton has the simulator's Source, which its keys push
// events into; buttontest has a scripted Source for tests.
//
// # The kernel's timestamps
//
// periph (host/v3/gpioioctl) finds the GPIO chip and the lines' offsets by
// name, but Open requests the lines and reads their events itself, in a
// small piece of this package (uapi.go, open_linux.go): periph's
// LineSet.WaitForEdge reads each struct gpio_v2_line_event and keeps only
// the line and the edge, dropping timestamp_ns and the sequence numbers, so
// an edge could only be stamped when the goroutine woke up, milliseconds
// late under load and late by different amounts for the two levers.
//
// The request (GPIO_V2_GET_LINE_IOCTL, uAPI v2) asks for inputs with the
// bias of Opts.Pull, edge events on both edges and no kernel debounce, and
// leaves the event clock at its default, CLOCK_MONOTONIC: the clock
// package monotonic reads, so monotonic.FromKernel turns a stamp into an
// instant with nothing to convert but the process's start. The watcher
// reads the 48-byte records with read(2) and sleeps in ppoll(2), with the
// next debounce or hold deadline as its timeout and an eventfd that Close
// writes to.
//
// Each event carries the level the kernel read back after the edge. When
// it is the level the line had before (the contact bounced back before the
// kernel looked), the edge still happened at its stamp: the watcher feeds
// an edge away and one back at that instant, so the first edge of a
// bouncing press keeps its instant.
//
// With several lines the kernel's interrupt threads may queue events out
// of order, a little after their stamps. The watcher holds each event until
// the clock is 2 ms past its stamp, feeds them in the kernel's order
// (seqno), and settles debounce windows 2 ms behind the clock: events reach
// the reader 2 ms later, their instants are unchanged.
//
// # Lost edges
//
// The kernel keeps events in a buffer (64 per line here) until they are
// read, and drops the oldest when it is full: when the clock's process was
// not running for a long time, or a broken contact chatters thousands of
// times. Every event is numbered (seqno per request, line_seqno per line),
// so a drop shows as a gap. The watcher never lets it pass silently: it
// sends an Overrun event (Event.Lost edges lost, naming the button when
// its own numbers show it), reads the lines' levels back, and feeds a line
// found at another level than its events said as an edge at the instant
// the watcher noticed. A press whose first edge was dropped is thus
// counted late, with an Overrun before it; the daemon shows and logs it.
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
//     and reaches the reader Debounce (plus the 2 ms above) after that edge;
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
// # Lines and pulls on the Raspberry Pi
//
// Lines are named as periph names them: "GPIO17" is BCM GPIO 17, physical
// pin 11 of the 40-pin header. host.Init succeeds on a machine without GPIO
// and registers no lines: Open then fails at once with an error naming the
// button, such as `button "left": no GPIO line named GPIO17 on this
// machine`.
//
// The default wiring is a switch between the GPIO and ground (active low)
// using the SoC's internal pull-up. The line request carries the pull as a
// bias flag, and the kernel's pin controller sets it: the BCM2835/BCM2711
// one on the Pi 3 and 4 as much as the RP1's on the Pi 5, so nothing needs
// setting in config.txt. (The SD image does not run on a Pi 5 for other
// reasons; see docs/building.md, "The SD image".) A config.txt line such as
// gpio=17,27,22,23,24,25=ip,pu does no harm: it sets the pulls from
// power-on, before the clock starts. External 10 kΩ pull-ups to 3.3 V work
// too, with Opts.Pull set to gpio.Float or gpio.PullNoChange.
//
// # Permissions
//
// The user running the clock needs read and write access to /dev/gpiochip*;
// on Raspberry Pi OS that is the gpio group.
package button
