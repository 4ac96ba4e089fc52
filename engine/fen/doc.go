// Package fen is Forsyth-Edwards Notation, the one reader and writer of
// a chess position's text in zeitnot: the piece on every square
// (Placement, a FEN's first field) and the form of a whole FEN (Check).
//
// It knows the notation, not the rules of chess: whether a position can
// arise, or a move is legal, is for appliance/eboard/moves. Electronic
// boards report a Placement (drivers/eboard), the clock log checks a
// position line's FEN (engine/clocklog) and the hall draws a Placement
// (hall/web). Like the rest of engine/ it uses the standard library only.
package fen
