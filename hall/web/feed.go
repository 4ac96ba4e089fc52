package web

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/zeitnot/zeitnot/hall/store"
)

// The round's feed for broadcasts (issue 25): GET /round.pgn is every
// board's game as one PGN file, at a URL that does not change from round
// to round, for lichess's broadcasts (and others) to poll. Lichess takes
// at most 100 games a round: ?boards=1-100 and ?boards=101-200 split a
// bigger hall into rounds of its own (a list, "1-50,61,70-80", is taken
// too, as the arbiter's page reads a selection).
//
// With a broadcast delay (hall.toml broadcast_delay, against cheating:
// 15 to 30 minutes at big events) the feed shows each game as it stood
// that long ago: its log is cut at that instant, so its moves, its clocks
// and its result (a result line, as the clock journals it) all come that
// much later. The delay is the hall's alone: the clock, its journal, the
// hall's pages and its API are never delayed, so with a delay only this
// URL belongs on the internet (docs/hall.md).
//
// Each board's game is the last one whose clock had started by that
// instant (the board's current game when there is no delay, also before
// its start), in board order.
//
// The feed gives at most MaxFeedGames games, the first in board order; it
// says how many it left out (X-Zeitnot-Left-Out, and the hall's log),
// which a range of boards then gives.

// MaxFeedGames is the most games /round.pgn gives: lichess's broadcasts
// take at most 100 games a round.
const MaxFeedGames = 100

// feedGame is board b's game in the feed and its lines: the current one
// when not delayed; when delayed, the last one whose clock had started
// by Unix ms cutoff, its lines cut there. "" for none.
func (s *Server) feedGame(b store.Board, cutoff int64, delayed bool) (string, []string) {
	if !delayed {
		g := b.Game
		if g == "" && len(b.Games) > 0 {
			g = b.Games[len(b.Games)-1]
		}
		lines, _ := s.o.Store.Lines(b.Board, g)
		return g, lines
	}
	for i := len(b.Games) - 1; i >= 0; i-- {
		g := b.Games[i]
		epoch, ok := b.Epoch[g]
		if !ok || epoch > cutoff {
			continue // when its lines were played is not known, or later
		}
		lines, _ := s.o.Store.Lines(b.Board, g)
		if cut := store.LinesUntil(lines, cutoff-epoch); played(cut) {
			return g, cut
		}
	}
	return "", nil
}

// forfeited reports whether game g of clock b is round board n's game of
// the hall's current round, and the arbiter entered a forfeit for it.
func (s *Server) forfeited(b store.Board, g string, n int) bool {
	if s.o.Tournament == nil {
		return false
	}
	t, ok := s.o.Tournament.Get()
	if !ok || !isForfeit(t.Results[n]) {
		return false
	}
	return b.GameOf(t.Round, n) == g
}

func (s *Server) roundFeed(w http.ResponseWriter, r *http.Request) {
	all, boards, err := parseBoards(r.URL.Query().Get("boards"))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	delay := s.o.BroadcastDelay
	cutoff := s.o.Now().Add(-delay).UnixMilli()
	// The games by the board they are played on, in its order: a spare's
	// game is the board's it took over, whole (wholeLines).
	type feedEntry struct {
		n     int
		b     store.Board
		g     string
		lines []string
	}
	var entries []feedEntry
	for _, b := range s.o.Store.Boards() {
		if sp, t, ok := s.o.Store.Replaced(b.Board); ok {
			// A dead clock: its game goes on on the spare (FIDE 6.10).
			// A feed that runs behind shows the board's own clock until
			// it reaches the takeover.
			if g, _ := s.feedGame(sp, cutoff, delay > 0); g == t.SpareGame {
				continue
			}
		}
		g, lines := s.feedGame(b, cutoff, delay > 0)
		if g == "" {
			continue
		}
		n := b.Board
		if t, ok := b.Carried(g); ok {
			n = t.Board
			lines = s.wholeLines(t, lines)
		}
		if !all && !slices.Contains(boards, n) {
			continue
		}
		if s.forfeited(b, g, n) {
			continue // no game was played: the clock's empty game is not published
		}
		entries = append(entries, feedEntry{n, b, g, lines})
	}
	slices.SortStableFunc(entries, func(x, y feedEntry) int { return x.n - y.n })
	var out strings.Builder
	games, left := 0, 0
	for _, e := range entries {
		if games == MaxFeedGames {
			left++
			continue
		}
		var one strings.Builder
		if err := s.pgnLines(&one, e.b, e.g, e.lines, pgnTags{}); err != nil {
			s.o.Logf("web: round.pgn: %v", err)
			continue
		}
		out.WriteString(one.String())
		games++
	}
	if left > 0 {
		s.o.Logf("web: round.pgn: %d games, the feed gives the first %d (a broadcast takes no more): %d left out; give each broadcast a range, ?boards=1-100", games+left, MaxFeedGames, left)
	}
	h := w.Header()
	h.Set("Content-Type", "application/x-chess-pgn; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Zeitnot-Games", strconv.Itoa(games))
	if left > 0 {
		h.Set("X-Zeitnot-Left-Out", strconv.Itoa(left))
	}
	h.Set("X-Zeitnot-Delay", strconv.FormatInt(delay.Milliseconds()/1000, 10))
	w.Write([]byte(out.String()))
}
