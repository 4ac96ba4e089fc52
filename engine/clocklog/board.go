package clocklog

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/zeitnot/zeitnot/engine/fen"
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
		position := strings.Join(args[1:], " ")
		if err := fen.Check(position); err != nil {
			return "position: " + err.Error()
		}
		e.Board.FEN = position
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

// PGNMoves are the moves WritePGN writes from the board's lines, and the
// position they start from ("" for the initial one): the moves up to the
// first press after which the arbiter set the board up again (the moves
// after it are no continuation of the ones before, so they go to the
// clock record).
func (b Board) PGNMoves() (san []string, from string) {
	san = b.SAN
	if b.Reset > 0 && int(b.Reset) < len(san) {
		san = san[:b.Reset]
	}
	if b.FEN != fen.StartFEN {
		from = b.FEN
	}
	return san, from
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
