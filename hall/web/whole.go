package web

import (
	"strings"

	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/hall/store"
)

// A game a spare clock took over (FIDE 6.10, store.Takeover) is one game
// in two logs: the broken board's, up to the takeover, and the spare's,
// which sets the times and moves it was given and carries on. The round's
// feed and the pages show it whole: the board's number and players, the
// moves of both logs.

// wholeLines are the log lines of spare game g of board b carrying on
// the game of the takeover t, lines being the spare's: the broken
// board's header and events, a pause at its last instant, then the
// spare's events from that instant on, its board lines renumbered after
// the broken board's presses. The spare's lines as they are when the
// broken board's game has no lines or either log does not read.
func (s *Server) wholeLines(t store.Takeover, lines []string) []string {
	if t.Game == "" || len(lines) == 0 {
		return lines
	}
	before, _ := s.o.Store.Lines(t.Board, t.Game)
	if len(before) == 0 {
		return lines
	}
	src, err1 := clocklog.ReadLog("before", []byte(strings.Join(before, "\n")+"\n"))
	sp, err2 := clocklog.ReadLog("spare", []byte(strings.Join(lines, "\n")+"\n"))
	if err1 != nil || err2 != nil {
		return lines
	}
	c, err := src.NewClock()
	if err != nil {
		return lines
	}
	presses, end := int64(0), int64(0)
	for _, e := range src.Events {
		if changed, _ := clocklog.Apply(c, e); changed && e.Verb == clocklog.Press {
			presses++
		}
		end = max(end, e.At)
	}
	out := strings.Split(strings.TrimSuffix(string(clocklog.AppendHeader(nil, src.Header)), "\n"), "\n")
	add := func(e clocklog.Event) {
		out = append(out, strings.TrimSuffix(string(clocklog.AppendEvent(nil, e)), "\n"))
	}
	for _, e := range src.Events {
		add(e)
	}
	add(clocklog.Event{At: end, Verb: clocklog.Pause})
	for _, e := range sp.Events {
		e.At += end
		if e.Verb == clocklog.BoardMove || e.Verb == clocklog.BoardPosition {
			e.Value += presses
		}
		add(e)
	}
	return out
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
