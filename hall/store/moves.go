package store

import (
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/protocol"
)

// What the store knows of the moves of a game played on an electronic
// board (FIDE 6.14): the log's move and position lines, as the game's
// log (log.go) reads them line by line, and the last board status of the
// game's states.

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

// Moves returns what the store knows of the moves of board n's game id.
func (s *Store) Moves(n int, id string) Moves {
	s.mu.Lock()
	defer s.mu.Unlock()
	var m Moves
	if g := s.games[key{n, id}]; g != nil {
		m.Board = g.boardOf(s, n, id)
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
