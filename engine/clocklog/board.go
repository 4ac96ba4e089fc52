package clocklog

import (
	"fmt"
	"strconv"
	"strings"
)

// An electronic board on the clock (FIDE 6.14; appliance/eboard) adds two
// kinds of line to the log. Neither changes a clock:
//
//	MS move N SAN UCI            the move completed by the game's N-th
//	                             press (the presses that changed the
//	                             clock, from 1: White's first move is 1,
//	                             Black's reply 2), as the board showed it
//	                             at that press (FIDE 6.7a); MS is when the
//	                             board's position settled, at or after
//	                             the press: "812340 move 1 e4 e2e4"
//	MS position N FEN            the position on the board after press N
//	                             (0: before the first move), as FEN: a
//	                             game begun from a set-up position, or a
//	                             position the arbiter set up to resume
//	                             it; later moves go on from it
//
// The log checks the form of SAN, UCI and FEN, not the rules of chess.

// MaxPly is the largest press number a move or position line may name.
const MaxPly = 9999

// parseBoard reads the arguments of a move or position line into e. It
// returns what is wrong with them, or "".
func parseBoard(e *Event, args []string) string {
	want := "move N SAN UCI"
	if e.Verb == BoardPosition {
		want = "position N FEN (its 6 fields)"
	}
	if e.Verb == BoardMove && len(args) != 3 || e.Verb == BoardPosition && len(args) != 7 {
		return fmt.Sprintf("%s takes %d argument(s), got %d: want '%s'", e.Verb, map[Verb]int{BoardMove: 3, BoardPosition: 7}[e.Verb], len(args), want)
	}
	n, err := strconv.ParseInt(args[0], 10, 64)
	lo := int64(1)
	if e.Verb == BoardPosition {
		lo = 0
	}
	if err != nil || n < lo || n > MaxPly || args[0][0] == '+' {
		return fmt.Sprintf("%s: press number %q, want %d to %d", e.Verb, args[0], lo, MaxPly)
	}
	e.Value = n
	if e.Verb == BoardPosition {
		fen := strings.Join(args[1:], " ")
		if msg := CheckFEN(fen); msg != "" {
			return "position: " + msg
		}
		e.Board.FEN = fen
		return ""
	}
	if args[1] == "" || !pgnSAN(args[1]) {
		return fmt.Sprintf("move %d: %q is not SAN", n, args[1])
	}
	if !uciMove(args[2]) {
		return fmt.Sprintf("move %d %s: %q is not a UCI move (e2e4, e7e8q)", n, args[1], args[2])
	}
	e.Board.SAN, e.Board.UCI = args[1], args[2]
	return ""
}

// IsSAN reports whether s has the form of a move in SAN as the log and
// the PGN take it (letters, digits and "x=+#-O", at most 16 bytes).
func IsSAN(s string) bool { return s != "" && pgnSAN(s) }

// IsUCI reports whether s has the form of a UCI move (e2e4, e7e8q).
func IsUCI(s string) bool { return uciMove(s) }

// uciMove reports whether s has the form of a UCI move: two squares and
// a promotion piece, if any (e2e4, e7e8q).
func uciMove(s string) bool {
	if len(s) != 4 && len(s) != 5 {
		return false
	}
	for i := 0; i < 4; i += 2 {
		if s[i] < 'a' || s[i] > 'h' || s[i+1] < '1' || s[i+1] > '8' {
			return false
		}
	}
	return len(s) == 4 || strings.IndexByte("qrbn", s[4]) >= 0
}

// CheckFEN checks the form of a FEN: a placement of 8 ranks of 8 squares
// with pieces from "KQRBNPkqrbnp", the side to move, castling rights, the
// en passant square, and two counters. It returns what is wrong, or "";
// whether the position is legal is the rules' matter, not the log's.
func CheckFEN(fen string) string {
	f := strings.Split(fen, " ")
	if len(f) != 6 {
		return fmt.Sprintf("FEN %q: want 6 fields, got %d", clip(fen), len(f))
	}
	ranks := strings.Split(f[0], "/")
	if len(ranks) != 8 {
		return fmt.Sprintf("FEN placement %q: want 8 ranks, got %d", clip(f[0]), len(ranks))
	}
	for i, r := range ranks {
		n := 0
		for j := 0; j < len(r); j++ {
			c := r[j]
			switch {
			case c >= '1' && c <= '8':
				n += int(c - '0')
			case strings.IndexByte("KQRBNPkqrbnp", c) >= 0:
				n++
			default:
				return fmt.Sprintf("FEN rank %d: %q is no piece", 8-i, string(c))
			}
		}
		if n != 8 {
			return fmt.Sprintf("FEN rank %d: %d squares, want 8", 8-i, n)
		}
	}
	if f[1] != "w" && f[1] != "b" {
		return fmt.Sprintf("FEN side to move %q: want w or b", clip(f[1]))
	}
	if f[2] != "-" {
		if len(f[2]) > 4 {
			return fmt.Sprintf("FEN castling %q: want - or some of KQkq", clip(f[2]))
		}
		for j := 0; j < len(f[2]); j++ {
			if strings.IndexByte("KQkq", f[2][j]) < 0 || strings.IndexByte(f[2][:j], f[2][j]) >= 0 {
				return fmt.Sprintf("FEN castling %q: want - or some of KQkq", clip(f[2]))
			}
		}
	}
	if f[3] != "-" && (len(f[3]) != 2 || f[3][0] < 'a' || f[3][0] > 'h' || f[3][1] != '3' && f[3][1] != '6') {
		return fmt.Sprintf("FEN en passant %q: want - or a square on rank 3 or 6", clip(f[3]))
	}
	for i, c := range f[4:] {
		v, err := strconv.Atoi(c)
		if err != nil || v < 0 || v > 99999 || c[0] == '+' || i == 1 && v < 1 {
			return fmt.Sprintf("FEN %s %q: want a whole number", [2]string{"halfmove clock", "move number"}[i], clip(c))
		}
	}
	return ""
}

// clip cuts s for an error message.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// Board is what a log's move and position lines say of the game on the
// board.
type Board struct {
	// FEN is the position the moves start from: the last position line
	// for press 0, "" for none (the initial position).
	FEN string
	// SAN and UCI are the moves by press: SAN[i] is the move of the
	// press numbered i+1, "" where no line gives it; as long as the
	// highest press a move line names.
	SAN, UCI []string
	// Reset is the first press after which a position line set the
	// board up again (a position line with N > 0), 0 for none: the moves
	// from there go on from that position, not from the moves before it.
	Reset int64
	// ResetFEN is that position.
	ResetFEN string
}

// StartFEN is the initial position as FEN.
const StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// PGNMoves are the moves WritePGN writes from the board's lines, and the
// position they start from ("" for the initial one): the moves up to the
// first press after which the arbiter set the board up again (the moves
// after it are no continuation of the ones before, so they go to the
// clock record).
func (b Board) PGNMoves() (san []string, fen string) {
	san = b.SAN
	if b.Reset > 0 && int(b.Reset) < len(san) {
		san = san[:b.Reset]
	}
	if b.FEN != StartFEN {
		fen = b.FEN
	}
	return san, fen
}

// BoardOf collects the move and position lines of l. A later line for
// the same press replaces an earlier one (the board helper corrected
// it, or a recovery wrote it twice).
func BoardOf(l *Log) Board {
	var b Board
	for _, e := range l.Events {
		b.Add(e)
	}
	return b
}

// Add takes the next event of a log into b, as BoardOf does: a reader
// of a log as it grows (Reader) keeps its board so. It reports whether e
// is a move or a position line; any other event changes nothing.
func (b *Board) Add(e Event) bool {
	switch e.Verb {
	case BoardPosition:
		if e.Value == 0 {
			b.FEN = e.Board.FEN
		} else if b.Reset == 0 || e.Value < b.Reset {
			b.Reset, b.ResetFEN = e.Value, e.Board.FEN
		}
	case BoardMove:
		for int64(len(b.SAN)) < e.Value {
			b.SAN = append(b.SAN, "")
			b.UCI = append(b.UCI, "")
		}
		b.SAN[e.Value-1], b.UCI[e.Value-1] = e.Board.SAN, e.Board.UCI
	default:
		return false
	}
	return true
}
