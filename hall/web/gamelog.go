package web

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/zeitnot/zeitnot/engine/clocklog"
)

// The pages, the PGN and the round's feed read each game's log as the
// store keeps it (store.Log: read as its lines arrive), never its lines
// again. The PGN the hall writes of a game is kept too (pgnCache), by
// what it is made of: the log's version, where the feed's delay cuts it,
// and the tags. A poll of /round.pgn that finds no game changed writes
// no game again, and each answer of the PGN URLs carries an ETag, the
// digest of its bytes: a poller that sends it back in If-None-Match gets
// 304 Not Modified and no body while nothing changed.

// gameLog is a game's log as the PGN is written of it, and the key of
// its state: what the PGN cache compares.
type gameLog struct {
	log   *clocklog.Log
	err   error
	key   string
	lines int // the lines the log was read from: 0 for none
	// clocksAt is the log instant the PGN's WhiteClock and BlackClock
	// are read at (clocklog.PGNGame.ClocksAt): the feed's instant for a
	// game under way; 0 for the log's last instant.
	clocksAt int64
}

// logOf is board n's game g's log as the store has read it.
func (s *Server) logOf(n int, g string) gameLog {
	gl, ok := s.o.Store.Log(n, g)
	if !ok {
		return gameLog{err: fmt.Errorf("board %d game %s: no log lines yet", n, g)}
	}
	return gameLog{log: gl.Log, err: gl.Err, key: strconv.FormatUint(gl.Version, 10), lines: gl.Lines}
}

// until is l cut at log instant at: its header and its events at or
// before it (the feed's delay).
func (l gameLog) until(at int64) gameLog {
	if l.log == nil {
		return l
	}
	c := l.log.Until(at)
	return gameLog{log: c, key: l.key + "@" + strconv.Itoa(len(c.Events)), lines: l.lines, clocksAt: l.clocksAt}
}

// pgnCache keeps the PGN the hall wrote of each game, by board and game,
// with the key it was written from (its log's and its tags').
type pgnCache struct {
	mu    sync.Mutex
	games map[pgnGame]pgnEntry
}

type pgnGame struct {
	board int
	game  string
}

type pgnEntry struct {
	key string
	pgn string
}

// get returns the PGN kept for board n's game g written from key.
func (c *pgnCache) get(n int, g, key string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.games[pgnGame{n, g}]
	return e.pgn, ok && e.key == key
}

// put keeps the PGN of board n's game g written from key, in place of
// the one before.
func (c *pgnCache) put(n int, g, key, pgn string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.games == nil {
		c.games = map[pgnGame]pgnEntry{}
	}
	c.games[pgnGame{n, g}] = pgnEntry{key, pgn}
}

// writeTagged answers body with its ETag, or 304 Not Modified when the
// request's If-None-Match names it (a poller's repeat poll while nothing
// changed).
func writeTagged(w http.ResponseWriter, r *http.Request, body string) {
	writeETag(w, r, body, etagOf(body))
}

// etagOf is the ETag of body: a digest of its bytes.
func etagOf(body string) string {
	sum := sha256.Sum256([]byte(body))
	return `"` + base64.RawURLEncoding.EncodeToString(sum[:18]) + `"`
}

// writeETag is writeTagged of body whose ETag is etag.
func writeETag(w http.ResponseWriter, r *http.Request, body, etag string) {
	w.Header().Set("ETag", etag)
	if matches(r.Header.Get("If-None-Match"), etag) {
		h := w.Header()
		h.Del("Content-Type")
		h.Del("Content-Disposition")
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Write([]byte(body))
}

// matches reports whether an If-None-Match header names etag: "*", or a
// list of tags with one equal to it (W/ weak tags compare as strong ones
// here: the hall's tags are of the bytes).
func matches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == etag {
			return true
		}
	}
	return false
}
