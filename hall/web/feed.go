package web

import (
	"crypto/sha256"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/zeitnot/zeitnot/hall/store"
)

// The round's feed for broadcasts: GET /round.pgn is every
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
// its start), in board order. Its WhiteClock and BlackClock are its
// clocks at that instant (to the second), not at its last line: they
// follow a pause, a correction or a period's time added between the
// moves, and stop where a result ended the game (clocklog.PGNGame's
// ClocksAt).
//
// The feed gives at most MaxFeedGames games, the first in board order; it
// says how many it left out (X-Zeitnot-Left-Out, and the hall's log),
// which a range of boards then gives.

// MaxFeedGames is the most games /round.pgn gives: lichess's broadcasts
// take at most 100 games a round.
const MaxFeedGames = 100

// feedGame is board b's game in the feed and its log: the current one
// when not delayed; when delayed, the last one whose clock had started
// by Unix ms cutoff, its log cut there. "" for none. The log's clocks
// are read at cutoff (gameLog.clocksAt) for the board's current game and
// for a game the cut leaves unfinished; a game the board went on from
// ended with its log.
func (s *Server) feedGame(b store.Board, cutoff int64, delayed bool) (string, gameLog) {
	if !delayed {
		g := b.Game
		if g == "" && len(b.Games) > 0 {
			g = b.Games[len(b.Games)-1]
		}
		gl := s.logOf(b.Board, g)
		if epoch, ok := b.Epoch[g]; ok && g == b.Game {
			gl.clocksAt = cutoff - epoch
		}
		return g, gl
	}
	for i := len(b.Games) - 1; i >= 0; i-- {
		g := b.Games[i]
		epoch, ok := b.Epoch[g]
		if !ok || epoch > cutoff {
			continue // when its lines were played is not known, or later
		}
		whole := s.logOf(b.Board, g)
		if cut := whole.until(cutoff - epoch); played(cut) {
			if g == b.Game || cut.log != nil && len(cut.log.Events) < len(whole.log.Events) {
				cut.clocksAt = cutoff - epoch
			}
			return g, cut
		}
	}
	return "", gameLog{}
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

// feedEntry is a game of the feed: its board's number, its clock's board,
// the game and its log.
type feedEntry struct {
	n  int
	b  store.Board
	g  string
	gl gameLog
}

func (s *Server) roundFeed(w http.ResponseWriter, r *http.Request) {
	f, err := s.roundAt(r.URL.Query().Get("boards"), s.o.Clock.Now())
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.answerFeed(w, r, f, s.o.BroadcastDelay)
}

// RoundPGN is the round's feed, /round.pgn?boards=sel, as it is at
// instant now (to its whole second): its PGN, how many games it gives
// and how many it left out (more than MaxFeedGames). It is the one
// definition of the feed: the push to a broadcast (hall/broadcast) sends
// what /round.pgn answers at the same instant.
func (s *Server) RoundPGN(sel string, now time.Time) (pgn string, games, left int, err error) {
	f, err := s.roundAt(sel, now)
	return f.body, f.games, f.left, err
}

// roundAt is the feed of the boards sel at instant now: the games as the
// broadcast delay before now shows them, their clocks read then (to the
// whole second, so that polls within a second share one feed).
func (s *Server) roundAt(sel string, now time.Time) (feed, error) {
	all, boards, err := parseBoards(sel)
	if err != nil {
		return feed{}, err
	}
	delay := s.o.BroadcastDelay
	now = now.Truncate(time.Second)
	cutoff := now.Add(-delay).UnixMilli()
	// While nothing the feed is made of changed (the store, the
	// tournament's forfeits, the day, and the second its clocks are read
	// at), the feed last written is the feed.
	fast := fmt.Sprintf("%q %d %d %s %d", sel, s.o.Store.Version(), delay, now.In(s.zone()).Format("2006-01-02"), cutoff)
	if s.o.Tournament != nil {
		if t, ok := s.o.Tournament.Get(); ok {
			fast += fmt.Sprintf(" %d", t.Round)
			for _, n := range slices.Sorted(maps.Keys(t.Results)) {
				if isForfeit(t.Results[n]) {
					fast += fmt.Sprintf(" %d=%s", n, t.Results[n])
				}
			}
		}
	}
	s.feedMu.Lock()
	f, ok := s.feeds[fast]
	s.feedMu.Unlock()
	if ok {
		return f, nil
	}
	// The games by the board they are played on, in its order: a spare's
	// game is the board's it took over, whole (wholeLog).
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
		g, gl := s.feedGame(b, cutoff, delay > 0)
		if g == "" {
			continue
		}
		n := b.Board
		if t, ok := b.Carried(g); ok {
			n = t.Board
			gl = s.wholeLog(t, gl)
		}
		if !all && !slices.Contains(boards, n) {
			continue
		}
		if s.forfeited(b, g, n) {
			continue // no game was played: the clock's empty game is not published
		}
		entries = append(entries, feedEntry{n, b, g, gl})
	}
	slices.SortStableFunc(entries, func(x, y feedEntry) int { return x.n - y.n })
	// What the feed is made of: each game's log state and tags. The feed
	// is written again only when it changes, one poll at a time: polls
	// that come meanwhile wait for it and take it (pollers poll alike).
	key := sha256.New()
	fmt.Fprintf(key, "%q %d\n", sel, delay)
	for _, e := range entries {
		if e.gl.log == nil {
			fmt.Fprintf(key, "%d %s unreadable %d\n", e.n, e.g, e.gl.lines)
			continue
		}
		fmt.Fprintf(key, "%d %s %s\n", e.n, e.g, pgnKey(e.gl, s.pgnGame(e.b, e.g, pgnTags{})))
	}
	sum := string(key.Sum(nil))
	s.feedMu.Lock()
	f, ok = s.feeds[sum]
	if !ok {
		f = s.writeFeed(entries)
	}
	if len(s.feeds) >= maxFeeds {
		clear(s.feeds) // the queries polled come back at the next poll
	}
	s.feeds[sum], s.feeds[fast] = f, f
	s.feedMu.Unlock()
	if f.left > 0 && !ok {
		s.o.Logf("web: round.pgn: %d games, the feed gives the first %d (a broadcast takes no more): %d left out; give each broadcast a range, ?boards=1-100", f.games+f.left, MaxFeedGames, f.left)
	}
	return f, nil
}

// answerFeed answers the feed f.
func (s *Server) answerFeed(w http.ResponseWriter, r *http.Request, f feed, delay time.Duration) {
	h := w.Header()
	h.Set("Content-Type", "application/x-chess-pgn; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Zeitnot-Games", strconv.Itoa(f.games))
	if f.left > 0 {
		h.Set("X-Zeitnot-Left-Out", strconv.Itoa(f.left))
	}
	h.Set("X-Zeitnot-Delay", strconv.FormatInt(delay.Milliseconds()/1000, 10))
	writeETag(w, r, f.body, f.etag)
}

// maxFeeds is how many feeds the hall keeps, two for each query of
// boards polled (by what it is made of, and by the store's version).
const maxFeeds = 32

// feed is /round.pgn as written: its body and how many games it gives
// and left out.
type feed struct {
	body, etag  string
	games, left int
}

// writeFeed writes the feed of entries, in their order.
func (s *Server) writeFeed(entries []feedEntry) feed {
	var out strings.Builder
	var f feed
	for _, e := range entries {
		if f.games == MaxFeedGames {
			f.left++
			continue
		}
		var one strings.Builder
		if err := s.pgnLog(&one, e.b, e.g, e.gl, pgnTags{}); err != nil {
			s.o.Logf("web: round.pgn: %v", err)
			continue
		}
		out.WriteString(one.String())
		f.games++
	}
	f.body, f.etag = out.String(), etagOf(out.String())
	return f
}
