package store

import (
	"fmt"
	"strings"

	"github.com/zeitnot/zeitnot/engine/clocklog"
)

// The store keeps each game's log read, as its lines arrive: a
// clocklog.Reader takes each line the game's lines gain (in PutLine, and
// as Open reads the game's file back), so that the pages, the PGN and the
// round's feed read a game's log from the store, and a line more costs
// the parse of that line alone, never of the whole log again. The board
// of a game (moves.go) is kept up to date from the same events.
//
// A log the Reader stops on (a line it cannot use) is read whole, as
// recovery reads it (clocklog.ReadLog), once each time its lines change:
// what can be trusted of it. Lines set aside (lines.go) start the
// game's reading over.

// GameLog is a game's log as the store has read it.
type GameLog struct {
	// Log is the log of the game's lines 1..Lines; nil when nothing of
	// it can be read (Err).
	Log *clocklog.Log
	// Err is why Log is nil.
	Err error
	// Lines is how many lines the log was read from: the game's lines up
	// to the first missing one.
	Lines int
	// Version changes whenever the game's lines do (it is never the same
	// for two states of the store's games): what a reader that keeps
	// what it made of a log, its PGN, compares.
	Version uint64
}

// logName is the name of board n's game id in a log's errors.
func logName(n int, id string) string { return fmt.Sprintf("board %d game %s", n, id) }

// read brings the game's reader up to its lines, and its board with it.
// It reports whether the game's board may have changed: a move or
// position line was read, or the reading started over.
func (g *game) read(s *Store, n int, id string) (moves bool) {
	if g.rd == nil {
		moves = g.fed > 0 // lines read were set aside
		g.rd, g.fed, g.events = clocklog.NewReader(logName(n, id)), 0, 0
		g.board = clocklog.Board{}
		if moves {
			s.logVersion++ // the lines are fewer
			g.version = s.logVersion
		}
	}
	if g.fed == len(g.lines) {
		return moves
	}
	for ; g.fed < len(g.lines); g.fed++ {
		if g.fed < g.unchecked {
			g.rd.Add(g.lines[g.fed])
		} else {
			g.rd.AddChecked(g.lines[g.fed])
		}
		s.stats.Parsed++
	}
	s.logVersion++
	g.version = s.logVersion
	if g.rd.Err() != nil {
		return true // the board is the whole log's (boardOf)
	}
	l, err := g.rd.Log()
	if err != nil {
		return moves
	}
	for _, e := range l.Events[g.events:] {
		moves = g.board.Add(e) || moves
	}
	g.events = len(l.Events)
	return moves
}

// restart makes the game's reading start over: lines it read were set
// aside.
func (g *game) restart() { g.rd = nil }

// log returns the game's log (GameLog).
func (g *game) log(s *Store, n int, id string) GameLog {
	gl := GameLog{Lines: g.fed, Version: g.version}
	if g.rd == nil {
		return gl
	}
	gl.Log, gl.Err = g.rd.Log()
	if gl.Err == nil {
		return gl
	}
	if g.whole == nil || g.whole.Version != g.version {
		// The Reader stopped, or has no control yet: the log read whole,
		// as recovery would.
		w := gl
		w.Log, w.Err = clocklog.ReadLog(logName(n, id), []byte(strings.Join(g.lines, "\n")+"\n"))
		g.whole = &w
		s.stats.Parsed += int64(len(g.lines))
	}
	return *g.whole
}

// boardOf is the board of the game's log.
func (g *game) boardOf(s *Store, n int, id string) clocklog.Board {
	if g.rd != nil && g.rd.Err() != nil {
		if l := g.log(s, n, id); l.Log != nil {
			return clocklog.BoardOf(l.Log)
		}
		return clocklog.Board{}
	}
	return g.board
}

// Log returns board n's game id's log as the store has read it; false
// when the store has no line of the game.
func (s *Store) Log(n int, id string) (GameLog, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.games[key{n, id}]
	if g == nil || len(g.lines) == 0 {
		return GameLog{}, false
	}
	return g.log(s, n, id), true
}
