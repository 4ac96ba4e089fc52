package web

import (
	"bytes"

	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/hall/store"
)

// A game a spare clock took over (FIDE 6.10, store.Takeover) is one game
// in two logs: the broken board's, up to the takeover, and the spare's,
// which sets the times and moves it was given and carries on. The round's
// feed and the pages show it whole: the board's number and players, the
// moves of both logs.

// wholeLog is the log of spare game g of board b carrying on the game
// of the takeover t, sp being the spare's: the broken board's header and
// events, a pause at its last instant, then the spare's events from that
// instant on, its board lines renumbered after the broken board's
// presses. The spare's log as it is when the broken board's game has no
// log or either log does not read.
func (s *Server) wholeLog(t store.Takeover, sp gameLog) gameLog {
	if t.Game == "" || sp.log == nil {
		return sp
	}
	before := s.logOf(t.Board, t.Game)
	src := before.log
	if src == nil {
		return sp
	}
	c, err := src.NewClock()
	if err != nil {
		return sp
	}
	presses, end := int64(0), int64(0)
	for _, e := range src.Events {
		if changed, _ := clocklog.Apply(c, e); changed && e.Verb == clocklog.Press {
			presses++
		}
		end = max(end, e.At)
	}
	whole := &clocklog.Log{Header: src.Header}
	// The lines as the joined log would number them: after its header.
	n := bytes.Count(clocklog.AppendHeader(nil, src.Header), []byte("\n"))
	add := func(e clocklog.Event) {
		n++
		whole.Events = append(whole.Events, e)
		whole.Lines = append(whole.Lines, n)
	}
	for _, e := range src.Events {
		add(e)
	}
	add(clocklog.Event{At: end, Verb: clocklog.Pause})
	for _, e := range sp.log.Events {
		e.At += end
		if e.Verb == clocklog.BoardMove || e.Verb == clocklog.BoardPosition {
			e.Value += presses
		}
		add(e)
	}
	gl := gameLog{log: whole, key: before.key + "+" + sp.key, lines: sp.lines}
	if sp.clocksAt > 0 {
		gl.clocksAt = sp.clocksAt + end // the spare's instants come after the board's
	}
	return gl
}

// joinPositions is the position of a game a spare carries on: the moves
// made before the takeover (before, the broken board's) and after it
// (after, the spare's), the position as the last that has one says it.
func joinPositions(before, after *Position) *Position {
	if before == nil {
		return after
	}
	if after == nil {
		return before
	}
	p := *after
	p.First, p.BlackFirst = before.First, before.BlackFirst
	p.Moves = append(append([]string{}, before.Moves...), after.Moves...)
	switch {
	case before.IncompleteFrom > 0:
		p.IncompleteFrom = before.IncompleteFrom
	case after.IncompleteFrom > 0:
		p.IncompleteFrom = after.IncompleteFrom + len(before.Moves)
	}
	if after.FEN == "" {
		p.State, p.FEN, p.Ply, p.Last, p.LastSAN, p.Image = before.State, before.FEN, before.Ply, before.Last, before.LastSAN, before.Image
	} else {
		p.Ply = after.Ply + len(before.Moves)
	}
	return &p
}
