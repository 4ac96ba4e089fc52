// Package relay is the e-board process, `zeitnot eboard --config FILE
// --socket PATH` (zeitnot-eboard.service): it reads an electronic
// chessboard (FIDE 6.14) and hands the clock's daemon the move of every
// press over the control socket (docs/hall-protocol.md, "What the daemon
// serves the e-board process").
//
// It runs as a process of its own, sandboxed, holding its tty alone: the
// USB device is untrusted input, and a board that is unplugged, replugged
// or sends garbage must never stop or slow the clock. The daemon checks
// what this process sends it as it checks anything from outside.
//
// The wiring:
//
//   - the [eboard] table of zeitnot.toml (appliance/eboard/settings) names
//     the port; the board is opened with drivers/eboard/dgt.Open, and
//     opened again every second while it is unplugged or fails;
//   - every event's position goes to an eboard.Settler, stamped on
//     drivers/monotonic's time base; the process's waits (the timer until
//     the Settler's next instant, the retries) are on Opts.Clock, as
//     internal/wallclock's rule says;
//   - the daemon's watch stream gives each press with its number and its
//     instant on CLOCK_MONOTONIC (mono_ns), which monotonic.FromKernel
//     puts on that same time base: presses and the board's events are on
//     one clock, with no offset measured;
//   - eboard-game, asked when the stream starts and at every new or
//     recovered game, says where the game stands: the Follower replays
//     its moves (moves.Tracker.Play) and checks the board against the
//     position (the initial one, or a game resumed after a restart);
//   - when the Settler answers a press, the Follower gives the position
//     to moves.Tracker.PressSettled and sends eboard-move (SAN, UCI, FEN)
//     for the press, or eboard-state illegal (ILLEGAL? on the clock, FIDE
//     7.5: no legal move explains the change, and it never guesses);
//   - at a start or a resume, a board that shows another position than
//     the game's (and not one legal move on, a move made while the clock
//     stood still, which the next press completes) is taken as the
//     position the arbiter set up
//     (eboard-position, journaled as a position line); so is the first
//     position after moves went missing (the board was unplugged during
//     presses);
//   - eboard-state says the board's state when it changes and every 2 s:
//     ok, illegal, mismatch (BOARD? on the clock: at the start, or while
//     no clock runs, the board is not in the game's position) or lost.
//
// Follower is the pure state machine (no clock, no goroutine); Run wires
// it to the board, the watch stream (followed with appliance/watch, as the
// hall's link follows it) and the requests, each in a goroutine of its own
// that the loop never waits for.
package relay
