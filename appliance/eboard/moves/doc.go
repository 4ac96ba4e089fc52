// Package moves turns the positions an electronic chessboard shows into the
// moves of a game: given the position at the previous press of the clock and
// the board's position at this press, it finds the one legal move that
// leads from the first to the second (FIDE 6.7a: the press completes the
// move), or says that none does and never guesses.
//
// The chess rules come from a kept library, github.com/corentings/chess/v2;
// drivers/eboard knows no rules and engine/ stays standard library only, so
// they live here.
//
// Only the two positions count, not how the hands went from one to the
// other, so a capture lifted in either order, castling king first or rook
// first, en passant (the captured pawn lifted before or after) and a move
// taken back and made again before the press all come out as the one move.
// Promotion and underpromotion are told apart by the piece the player puts
// down: an e-board reports each square's piece, so a knight on e8 is e7e8n.
// Two legal moves that led to the same position would be refused as
// ambiguous; in chess there are none, the check is kept all the same.
//
// The position at a press is the stable one eboard.Settler finds for it
// (unchanged for 250 ms on USB, 500 ms on Bluetooth, after DGT's scan time
// and PicoChess's figures); in the simulated games a press 300 ms after the
// piece is put down is answered at once, one 100 ms after it 150 ms later.
// When that stable position explains no move but the board held another at
// the very instant of the press (a blitz player, an opponent's hand that
// came at once), PressSettled takes the one held at the press.
//
// # How it plugs in
//
// appliance/eboard/relay (`zeitnot eboard`, zeitnot-eboard.service) feeds
// every event's position to an eboard.Settler, checks the stable position
// with Tracker.Check at the start (the initial position, or the game
// resumed, replayed from the journal's moves with Tracker.Play), gives each
// press's settled position to Tracker.PressSettled, and hands the daemon
// the move (SAN, UCI, FEN) for the press, or ILLEGAL? when no legal move
// explains the change. The daemon checks what it gets (untrusted input
// too), journals the move with its press, and carries on exactly as
// without a board if the process is silent or gone.
package moves
