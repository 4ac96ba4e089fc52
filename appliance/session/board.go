package session

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/engine/fen"
)

// An electronic board (FIDE 6.14; appliance/eboard) tells the daemon the
// move of each press, which the session journals as a move line with the
// press's number ("MS move N SAN UCI", engine/clocklog's board lines),
// and a position the arbiter set up as a position line. The session
// counts the presses of its game for them: press N is the N-th press
// that completed a move, from 1, as WritePGN numbers the moves. Recovery
// reads the count and the lines back from the journal.

// boardRecord is what the game's journal says of the board: the moves by
// press after its last position line.
type boardRecord struct {
	from int      // the press the position stands after
	fen  string   // the position: the last position line's, or the initial one
	uci  []string // the moves of presses from+1, from+2, ...; "" where none was journaled
	san  []string
}

func newBoardRecord() boardRecord { return boardRecord{fen: fen.StartFEN} }

// move puts press n's move in the record.
func (b *boardRecord) move(n int, san, uci string) {
	i := n - b.from - 1
	if i < 0 {
		return
	}
	for len(b.uci) <= i {
		b.uci, b.san = append(b.uci, ""), append(b.san, "")
	}
	b.uci[i], b.san[i] = uci, san
}

// position starts the record again from fen after press n.
func (b *boardRecord) position(n int, fen string) {
	*b = boardRecord{from: n, fen: fen}
}

// Presses is the number of presses of the game that completed a move:
// the number of the last one.
func (s *Session) Presses() int { return s.presses }

// BoardGame returns what the journal says of the board: the position
// after press from (the last position line, or the initial position at
// 0) and the UCI moves of presses from+1 to Presses, "" where it has
// none.
func (s *Session) BoardGame() (from int, fen string, moves []string) {
	moves = make([]string, s.presses-s.board.from)
	copy(moves, s.board.uci)
	return s.board.from, s.board.fen, moves
}

// BoardMove returns the journaled move of press n, if there is one.
func (s *Session) BoardMove(n int) (san, uci string, ok bool) {
	i := n - s.board.from - 1
	if i < 0 || i >= len(s.board.uci) || s.board.uci[i] == "" {
		return "", "", false
	}
	return s.board.san[i], s.board.uci[i], true
}

// RecordMove journals the move the board showed at press n, at monotonic
// instant now, and emits BoardMoved. It refuses a press the game has not
// had, one before the last position line, and a move whose form is not
// SAN and UCI. The clock does not change.
func (s *Session) RecordMove(now time.Duration, n int, san, uci string) error {
	switch {
	case n < 1 || n > s.presses:
		return fmt.Errorf("session: press %d: the game has had %d", n, s.presses)
	case n <= s.board.from:
		return fmt.Errorf("session: press %d: the board's position was set after press %d", n, s.board.from)
	case !clocklog.IsSAN(san) || !clocklog.IsUCI(uci):
		return fmt.Errorf("session: move %q %q is not SAN and UCI", san, uci)
	}
	s.board.move(n, san, uci)
	s.recordEvent(clocklog.Event{At: s.LogMs(now), Verb: clocklog.BoardMove, Side: clock.NoSide, Value: int64(n), Board: clocklog.BoardText{SAN: san, UCI: uci}}, Event{Kind: BoardMoved, Press: n})
	return nil
}

// RecordPosition journals position, a FEN, as the board's position after press n (0:
// before the first move), at monotonic instant now, and emits BoardSet:
// later moves go on from it. It refuses a press the game has not had, one
// before the last position line, and a FEN of the wrong form.
func (s *Session) RecordPosition(now time.Duration, n int, position string) error {
	switch {
	case n < 0 || n > s.presses:
		return fmt.Errorf("session: press %d: the game has had %d", n, s.presses)
	case n < s.board.from:
		return fmt.Errorf("session: press %d: the board's position was set after press %d", n, s.board.from)
	}
	if err := fen.Check(position); err != nil {
		return fmt.Errorf("session: %v", err)
	}
	s.board.position(n, position)
	s.recordEvent(clocklog.Event{At: s.LogMs(now), Verb: clocklog.BoardPosition, Side: clock.NoSide, Value: int64(n), Board: clocklog.BoardText{FEN: position}}, Event{Kind: BoardSet, Press: n})
	return nil
}

// readBoardLine takes a journal line's text (fields f) into the notes:
// presses counted, move and position lines. It reports whether the line
// was one of them.
func (n *journalNotes) readBoardLine(f []string) bool {
	if len(f) < 2 {
		return false
	}
	switch f[1] {
	case clocklog.Press.String():
		n.presses++
		return true
	case clocklog.BoardMove.String():
		if len(f) != 5 {
			return false
		}
		p, err := strconv.Atoi(f[2])
		if err != nil || p < 1 || p > clocklog.MaxPly || !clocklog.IsSAN(f[3]) || !clocklog.IsUCI(f[4]) {
			return false
		}
		n.board.move(p, f[3], f[4])
		return true
	case clocklog.BoardPosition.String():
		if len(f) != 9 {
			return false
		}
		p, err := strconv.Atoi(f[2])
		pos := strings.Join(f[3:], " ")
		if err != nil || p < 0 || p > clocklog.MaxPly || fen.Check(pos) != nil {
			return false
		}
		n.board.position(p, pos)
		return true
	}
	return false
}

// trimmed drops moves the record holds past the game's presses (a line
// that named a press salvage dropped).
func (b boardRecord) trimmed(presses int) boardRecord {
	if b.from > presses {
		return newBoardRecord()
	}
	if n := presses - b.from; len(b.uci) > n {
		b.uci, b.san = slices.Clip(b.uci[:n]), slices.Clip(b.san[:n])
	}
	return b
}
