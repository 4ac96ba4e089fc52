// Package pgn writes a game's clock log as PGN: the tags a broadcast needs
// (players, TimeControl: the control as played, with an arbiter's
// increment, WhiteClock and BlackClock) and, for every move,
// the clock after it and the time it took as [%clk] and [%emt] comments,
// the same readings `zeitnot replay --clk` prints (clocklog.WriteClk). The
// clock knows no moves: a broadcast merges these comments with the moves
// it has, move number by move number.
package pgn

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
)

// Game is what the PGN of one game is made from.
type Game struct {
	Event string    // the hall
	Site  string    // "" for "?"
	Date  time.Time // zero: "????.??.??"
	Round string    // "" for "?"
	Board int
	ID    string // the clock's game id
	White string
	Black string
	// Lines are the game's clock log lines, from line 1 (as the clock
	// published them, checksums and all).
	Lines []string
}

// Write writes g as one PGN game to w. A log that does not read whole is
// read as recovery would (clocklog.Salvage): what can be trusted of it.
func Write(w io.Writer, g Game) error {
	text := strings.Join(g.Lines, "\n") + "\n"
	name := fmt.Sprintf("board %d game %s", g.Board, g.ID)
	l, err := clocklog.Parse(name, strings.NewReader(text))
	if err != nil {
		var errs []error
		l, errs = clocklog.Salvage(name, strings.NewReader(text))
		if l == nil {
			if len(errs) > 0 {
				return errs[0]
			}
			return err
		}
	}
	c, err := l.NewClock()
	if err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	start := c.State(0)
	var moves []clock.Move
	end, err := clocklog.Replay(l, clocklog.Handlers{Move: func(m clock.Move) { moves = append(moves, m) }})
	if err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	// The control as played: with an arbiter's increment (FIDE
	// Guidelines III.4) from the move it was given before.
	played := end.Played()
	var b strings.Builder
	date := "????.??.??"
	if !g.Date.IsZero() {
		date = g.Date.Format("2006.01.02")
	}
	tag := func(k, v string) {
		if v == "" {
			v = "?"
		}
		fmt.Fprintf(&b, "[%s \"%s\"]\n", k, escape(v))
	}
	tag("Event", g.Event)
	tag("Site", g.Site)
	tag("Date", date)
	tag("Round", g.Round)
	tag("White", g.White)
	tag("Black", g.Black)
	tag("Result", "*")
	tag("Board", fmt.Sprint(g.Board))
	if played.White.Equal(played.Black) {
		tag("TimeControl", timecontrol.Format(played.White))
	} else {
		tag("WhiteTimeControl", timecontrol.Format(played.White))
		tag("BlackTimeControl", timecontrol.Format(played.Black))
	}
	tag("WhiteClock", clocklog.PGNTime(start.Player[clock.White].Ms))
	tag("BlackClock", clocklog.PGNTime(start.Player[clock.Black].Ms))
	tag("ZeitnotGame", g.ID)
	b.WriteString("\n")
	col := 0
	word := func(s string) {
		if col > 0 && col+1+len(s) > 79 {
			b.WriteString("\n")
			col = 0
		} else if col > 0 {
			b.WriteString(" ")
			col++
		}
		b.WriteString(s)
		col += len(s)
	}
	for _, m := range moves {
		dots := "."
		if m.Side == clock.Black {
			dots = "..."
		}
		// A move's number and its comment stay on one line.
		word(fmt.Sprintf("%d%s {[%%clk %s] [%%emt %s]}", m.Number, dots, clocklog.PGNTime(m.After), clocklog.PGNTime(m.Used)))
	}
	word("*")
	b.WriteString("\n\n")
	_, err = io.WriteString(w, b.String())
	return err
}

// escape makes s a PGN string: quotes and backslashes escaped, no
// control characters.
func escape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteRune('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			b.WriteRune(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
