// Package eboard is the interface to an electronic chessboard: a board of
// sensors that reports which piece stands on which square.
//
// A Board knows nothing of chess rules. It reports the piece on each square
// (engine/fen's Piece and Placement, the notation every package that reads
// a position shares), as whole positions (a dump of the 64 squares) and as changes of one square
// (a piece lifted, a piece placed), each stamped with the instant it was
// read. It does not report moves: which move a change of position is, if any,
// is for a package that knows the rules (appliance/eboard/moves).
//
// A family of boards (DGT, Millennium ChessLink, Chessnut) is a package of
// its own below this one that returns a Board; adding a family adds a
// package and changes nothing here. drivers/eboard/dgt is the DGT family;
// drivers/eboard/simdgt simulates a DGT board for the simulator and tests.
//
// Between the raw stream and the rules sits Settler: a hand that slides a
// piece, knocks one over or hovers produces transient positions, and Settler
// finds the position that stood at a given instant (a press of the clock's
// lever) once it has been unchanged for long enough to be believed. Like the
// button debouncer it is a pure state machine: it reads no clock and starts
// no goroutine.
//
// Instants are time.Duration on the time base of drivers/monotonic, or of a
// clock the caller injects (Opts.Now of a family's driver), so a board's
// events and the clock's presses are on one clock.
package eboard
