package web

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/hall/store"
)

// The hall's PGN is the engine's (clocklog.WritePGN, docs/pgn.md): a
// game's tags from what the hall knows, its lines as the clock sent them.

// pgnOf writes game g of board b as PGN. It fails when the hall has no
// lines of it, or none it can read (no control). A spare clock's game
// that carries on another board's (store.Takeover) is that board's: its
// number and players, and ZeitnotContinues names the game it carries on.
func (s *Server) pgnOf(out *strings.Builder, b store.Board, g string) error {
	return s.pgnWith(out, b, g, pgnTags{})
}

// pgnTags are tags a tournament's round gives a game: its round, the
// players as the TRF names them, the result the hall has ("" for the
// log's own result line).
type pgnTags struct {
	Round, White, Black, Result string
	Extra                       [][2]string // more tags, after Board and ZeitnotGame
}

// pgnWith is pgnOf with the tags of t where they are set.
func (s *Server) pgnWith(out *strings.Builder, b store.Board, g string, t pgnTags) error {
	return s.pgnLog(out, b, g, s.logOf(b.Board, g), t)
}

// pgnLog is pgnWith of the game's log given (the round's feed gives it
// cut at its delay, a spare's game whole). The PGN is written once for
// each state of the log and of the tags (pgnCache).
func (s *Server) pgnLog(out *strings.Builder, b store.Board, g string, gl gameLog, t pgnTags) error {
	if gl.log == nil {
		return gl.err
	}
	pg := s.pgnGame(b, g, t)
	key := pgnKey(gl, pg)
	pg.ClocksAt = gl.clocksAt
	if pgn, ok := s.pgns.get(b.Board, g, key); ok {
		out.WriteString(pgn)
		return nil
	}
	var one strings.Builder
	if err := clocklog.WritePGN(gl.log, &one, pg); err != nil {
		return err
	}
	s.pgns.put(b.Board, g, key, one.String())
	out.WriteString(one.String())
	return nil
}

// pgnKey names what the PGN of a game is written from: its log's state,
// the instant its clocks are read at, and its tags.
func pgnKey(gl gameLog, pg clocklog.PGNGame) string {
	return fmt.Sprintf("%s %d %q", gl.key, gl.clocksAt, fmt.Sprint(pg))
}

// pgnGame is what game g of board b's PGN says beyond its log, with the
// tags of t where they are set.
func (s *Server) pgnGame(b store.Board, g string, t pgnTags) clocklog.PGNGame {
	// The game's date is the day its clock started in the hall's zone; a
	// game the hall never saw started (its states lost, or never played)
	// is dated today.
	date := s.o.Clock.Now().In(s.zone())
	if ms := b.Started[g]; ms > 0 {
		date = time.UnixMilli(ms).In(s.zone())
	}
	p := playersOf(b, g)
	board := b.Board
	var cont [][2]string
	if to, ok := b.Carried(g); ok {
		board = to.Board
		if src, ok := s.o.Store.Board(to.Board); ok && p == (store.Players{}) {
			p = playersOf(src, to.Game)
		}
		if to.Game != "" {
			cont = [][2]string{{"ZeitnotContinues", to.Game}}
		}
	}
	round := s.o.Round
	if pr, ok := b.Pairings[g]; ok {
		// The game was opened for a round's pairing: its round and
		// board are the pairing's.
		round, board = strconv.Itoa(pr.Round), pr.Board
	}
	if t.Round != "" {
		round = t.Round
	}
	if t.White != "" || t.Black != "" {
		p = store.Players{White: t.White, Black: t.Black}
	}
	return clocklog.PGNGame{
		Event: s.o.Title, Site: s.o.Site, Round: round, Date: date.Format("2006.01.02"),
		White: p.White, Black: p.Black,
		// Result: the hall's for a tournament's board, else the log's
		// result line (the players' or the arbiter's on the clock).
		Result: t.Result,
		Extra:  append(append([][2]string{{"Board", strconv.Itoa(board)}, {"ZeitnotGame", g}}, cont...), t.Extra...),
	}
}

// playersOf are the names of game g: those the hall set for it, else,
// for the board's current game, those its clock shows (set on the clock,
// or by the hall during the game).
func playersOf(b store.Board, g string) store.Players {
	p := b.Players[g]
	if p != (store.Players{}) || g != b.Game || b.State == nil || b.State.Game != g {
		return p
	}
	if pl := b.State.State.Players; pl != nil {
		p = store.Players{White: pl.White, Black: pl.Black}
	}
	return p
}

func (s *Server) apiPGN(w http.ResponseWriter, r *http.Request) {
	n, ok := boardNumber(w, r)
	if !ok {
		return
	}
	b, g, ok := s.gameOf(w, r, n)
	if !ok {
		return
	}
	var out strings.Builder
	if err := s.pgnOf(&out, b, g); err != nil {
		code := http.StatusUnprocessableEntity
		if _, ok := s.o.Store.Log(n, g); !ok {
			code = http.StatusNotFound
		}
		http.Error(w, err.Error(), code)
		return
	}
	w.Header().Set("Content-Type", "application/x-chess-pgn; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	writeTagged(w, r, out.String())
}

// finished reports whether game g of b is over: the board has gone on to
// another game, or its clock stopped or shows a flag.
func finished(b store.Board, g string) bool {
	if g != b.Game {
		return true
	}
	if b.State == nil {
		return false
	}
	cs := b.State.State
	return cs.Stopped || cs.White.Flag || cs.Black.Flag
}

// played reports whether a game's log has a start the clock took: a
// game that never started (a spare's, replaced by the game it took over;
// a game set up and replaced) has no PGN in games.pgn. A log the hall
// cannot read is played: it is reported as unreadable.
func played(gl gameLog) bool {
	if gl.log == nil {
		return true
	}
	l := gl.log
	c, err := l.NewClock()
	if err != nil {
		return true
	}
	for _, e := range l.Events {
		if changed, _ := clocklog.Apply(c, e); changed && e.Verb == clocklog.Start {
			return true
		}
	}
	return false
}

// apiGames is the evening's games as one PGN file: every game the hall
// holds lines of that was played and is over, or that a spare clock
// took over (?all=1: every game played, also those under way). A game
// the hall cannot read is not in it (a PGN reader would choke on
// anything in its place): the X-Zeitnot-Unreadable header names each
// one ("board 40 game 0040-1a2b3c", comma-separated), the hall's log says
// why, and /api/boards/N/pgn?game=ID gives the error.
func (s *Server) apiGames(w http.ResponseWriter, r *http.Request) {
	all := r.URL.Query().Get("all") == "1"
	bs := s.o.Store.Boards()
	// The games spare clocks took over, as they stood (store.Takeover).
	type game struct {
		board int
		id    string
	}
	over := map[game]bool{}
	for _, b := range bs {
		for _, to := range b.Takeovers {
			if to.SpareGame != "" {
				over[game{to.Board, to.Game}] = true
			}
		}
	}
	var out strings.Builder
	var bad []string
	for _, b := range bs {
		for _, g := range b.Games {
			if !all && !finished(b, g) && !over[game{b.Board, g}] {
				continue
			}
			gl := s.logOf(b.Board, g)
			if gl.lines == 0 || !played(gl) {
				continue
			}
			var one strings.Builder
			if err := s.pgnLog(&one, b, g, gl, pgnTags{}); err != nil {
				bad = append(bad, fmt.Sprintf("board %d game %s", b.Board, g))
				s.o.Logf("web: games.pgn: %v", err)
				continue
			}
			out.WriteString(one.String())
		}
	}
	w.Header().Set("Content-Type", "application/x-chess-pgn; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", s.o.Hall+"-"+s.o.Clock.Now().In(s.zone()).Format("2006-01-02")+".pgn"))
	if len(bad) > 0 {
		w.Header().Set("X-Zeitnot-Unreadable", strings.Join(bad, ", "))
	}
	writeTagged(w, r, out.String())
}
