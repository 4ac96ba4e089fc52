package store

import (
	"strings"

	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/protocol"
)

// What the store knows of the moves of a game played on an electronic
// board (FIDE 6.14): the log's move and position lines, read with
// clocklog.BoardOf, and the last board status of the game's states. The
// moves are read again from the game's lines only when a move or position
// line joins them (or a conflict set lines aside), and from those lines
// and the header alone: a game's thousands of checkpoints are not read for
// it.

// Moves is a game's moves as the store has them.
type Moves struct {
	clocklog.Board
	// Status is the board status of the game's last state that had one;
	// nil: no state of the game had one (a clock without a board).
	Status *protocol.BoardStatus
	// IncompleteFrom is the first press whose move is not known, 0 when
	// every press up to the last move known has one: the board status's
	// missing_from, or the first press before the last move line without
	// a move line, whichever comes first.
	IncompleteFrom int
}

// HasBoard reports whether the game was played on an electronic board:
// a state said so, or the log has a move or position line.
func (m Moves) HasBoard() bool {
	return m.Status != nil || len(m.SAN) > 0 || m.FEN != ""
}

// boardLine reports whether a log line is a move or position line, by
// its verb: "MS move ..." or "MS position ...".
func boardLine(line string) bool {
	if line == "" || line[0] < '0' || line[0] > '9' {
		return false
	}
	_, rest, ok := strings.Cut(line, " ")
	return ok && (strings.HasPrefix(rest, "move ") || strings.HasPrefix(rest, "position "))
}

// headerLine reports whether a log line is a header line (format,
// control, option), not an event.
func headerLine(line string) bool {
	return line != "" && (line[0] < '0' || line[0] > '9') && line[0] != '-' && line[0] != '+'
}

// readBoard reads the board of a game's lines (1, 2, ... contiguous): its
// header and its move and position lines.
func readBoard(lines []string) clocklog.Board {
	var b strings.Builder
	events := false
	for _, l := range lines {
		if !events && headerLine(l) {
			b.WriteString(l)
			b.WriteByte('\n')
			continue
		}
		events = true
		if boardLine(l) {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	lg, err := clocklog.ReadLog("moves", []byte(b.String()))
	if err != nil {
		return clocklog.Board{}
	}
	return clocklog.BoardOf(lg)
}

// Moves returns what the store knows of the moves of board n's game id.
func (s *Store) Moves(n int, id string) Moves {
	s.mu.Lock()
	defer s.mu.Unlock()
	var m Moves
	if g := s.games[key{n, id}]; g != nil {
		if g.board == nil {
			b := readBoard(g.lines)
			g.board = &b
		}
		m.Board = *g.board
	}
	if b := s.boards[n]; b != nil {
		if st, ok := b.BoardStatus[id]; ok {
			m.Status = &st
		}
	}
	m.Board.SAN = append([]string(nil), m.Board.SAN...)
	m.Board.UCI = append([]string(nil), m.Board.UCI...)
	for i, san := range m.SAN {
		if san == "" {
			m.IncompleteFrom = i + 1
			break
		}
	}
	if m.Status != nil && m.Status.MissingFrom > 0 && (m.IncompleteFrom == 0 || m.Status.MissingFrom < m.IncompleteFrom) {
		m.IncompleteFrom = m.Status.MissingFrom
	}
	return m
}
