// Package lichesstest is a stand-in for lichess's broadcast push
// endpoint, for the hall's tests: lichess cannot be reached from a test.
// It keeps the rules lichess-org/api documents for broadcastPush
// (POST /api/broadcast/round/{broadcastRoundId}/push):
//
//   - the method POST, the path with a round id of 8 characters that the
//     stand-in knows (404 otherwise);
//   - Authorization: Bearer and the token it was given (401 otherwise,
//     as lichess answers a token it does not know);
//   - a text/plain body of at most 100 games, separated by blank lines,
//     each with the Seven Tag Roster (400 {"error": ...} otherwise);
//   - each game's moves read by a real PGN reader, chessops (lichess's
//     own, through internal/pgnreaders), which refuses an illegal move;
//   - the answer of the spec's example: {"games": [{"tags": {...},
//     "moves": N}, ...]}, a game each in the body's order, with "error"
//     in place of "moves" for a game the reader refused.
//
// It records every request it accepted (Pushes) and every one it refused
// (Refused), and can be told to answer the next requests with an error
// (Fail) to test retries.
package lichesstest

import (
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/zeitnot/zeitnot/internal/pgnreaders"
)

// MaxGames is the most games lichess takes in one push.
const MaxGames = 100

// RosterTags are the PGN standard's Seven Tag Roster, which the stand-in
// asks of every game.
var RosterTags = []string{"Event", "Site", "Date", "Round", "White", "Black", "Result"}

// Push is one request the stand-in took.
type Push struct {
	Round  string
	URL    string      // the request's URL as it came (path and query)
	Header http.Header // the request's headers
	Body   string
	// Games are chessops's reading of each game of the body, in order.
	Games []pgnreaders.Game
	// Answer is what the stand-in answered.
	Answer Answer
}

// Answer is the push's answer (lichess-org/api BroadcastPgnPush).
type Answer struct {
	Games []GameAnswer `json:"games"`
}

// GameAnswer is the answer for one game.
type GameAnswer struct {
	Tags  map[string]string `json:"tags"`
	Moves int               `json:"moves,omitempty"`
	Error string            `json:"error,omitempty"`
}

// Failure is an answer the stand-in gives in place of reading a push.
type Failure struct {
	Code       int
	RetryAfter string // the Retry-After header, "" none
}

// Server is the stand-in.
type Server struct {
	*httptest.Server
	t      *handlerT
	token  string
	rounds []string

	mu      sync.Mutex
	pushes  []Push
	refused []string
	fail    []Failure
}

// New starts a stand-in that takes pushes to the rounds with token. It
// skips t without the PGN readers (pgnreaders.Ready), and closes with t.
func New(t testing.TB, token string, rounds ...string) *Server {
	t.Helper()
	pgnreaders.Ready(t)
	// The readers' files go to a folder of the stand-in's, removed after
	// it closed (and with it every request under way).
	s := &Server{t: &handlerT{TB: t, dir: t.TempDir()}, token: token, rounds: rounds}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// handlerT is the test as a request's handler uses it: its temporary
// folders are the stand-in's, and a fatal error fails the test and ends
// the request alone (FailNow belongs to the test's goroutine).
type handlerT struct {
	testing.TB
	dir string
}

func (h *handlerT) TempDir() string {
	d, err := os.MkdirTemp(h.dir, "push")
	if err != nil {
		h.Fatalf("lichesstest: %v", err)
	}
	return d
}

func (h *handlerT) Fatalf(format string, a ...any) {
	h.TB.Errorf(format, a...)
	panic(http.ErrAbortHandler)
}

func (h *handlerT) Fatal(a ...any) {
	h.TB.Error(a...)
	panic(http.ErrAbortHandler)
}

// Fail makes the next len(f) pushes get these answers, in order.
func (s *Server) Fail(f ...Failure) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fail = append(s.fail, f...)
}

// Pushes returns the pushes taken so far, in order.
func (s *Server) Pushes() []Push {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.pushes)
}

// Refused returns why each refused request was refused.
func (s *Server) Refused() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.refused)
}

var pushPath = regexp.MustCompile(`^/api/broadcast/round/([A-Za-z0-9]{8})/push$`)

func (s *Server) refuse(w http.ResponseWriter, code int, format string, a ...any) {
	msg := fmt.Sprintf(format, a...)
	s.mu.Lock()
	s.refused = append(s.refused, fmt.Sprintf("%d %s", code, msg))
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(map[string]string{"error": msg})
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	m := pushPath.FindStringSubmatch(r.URL.Path)
	switch {
	case m == nil || !slices.Contains(s.rounds, m[1]):
		s.refuse(w, http.StatusNotFound, "no such round: %s", r.URL.Path)
		return
	case r.Method != http.MethodPost:
		s.refuse(w, http.StatusMethodNotAllowed, "method %s, want POST", r.Method)
		return
	case r.Header.Get("Authorization") != "Bearer "+s.token:
		s.refuse(w, http.StatusUnauthorized, "No such token")
		return
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "text/plain" {
		s.refuse(w, http.StatusUnsupportedMediaType, "Content-Type %q, want text/plain", r.Header.Get("Content-Type"))
		return
	}
	s.mu.Lock()
	var f *Failure
	if len(s.fail) > 0 {
		f = &s.fail[0]
		s.fail = s.fail[1:]
	}
	s.mu.Unlock()
	if f != nil {
		if f.RetryAfter != "" {
			w.Header().Set("Retry-After", f.RetryAfter)
		}
		s.refuse(w, f.Code, "%s (as told)", http.StatusText(f.Code))
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 8<<20))
	if err != nil {
		s.refuse(w, http.StatusBadRequest, "reading the body: %v", err)
		return
	}
	games := Split(string(body))
	if len(games) == 0 || len(games) > MaxGames {
		s.refuse(w, http.StatusBadRequest, "%d games, want 1 to %d", len(games), MaxGames)
		return
	}
	read := pgnreaders.Read(s.t, games...)
	push := Push{Round: m[1], URL: r.URL.String(), Header: r.Header.Clone(), Body: string(body)}
	for i, res := range read {
		c := res["chessops"]
		if !c.OK || len(c.Games) != 1 {
			push.Answer.Games = append(push.Answer.Games, GameAnswer{Tags: map[string]string{}, Error: "Cannot parse moves: " + c.Error})
			push.Games = append(push.Games, pgnreaders.Game{})
			continue
		}
		g := c.Games[0]
		for _, tag := range RosterTags {
			if g.Tags[tag] == "" {
				s.refuse(w, http.StatusBadRequest, "game %d has no %s tag", i+1, tag)
				return
			}
		}
		push.Games = append(push.Games, g)
		push.Answer.Games = append(push.Answer.Games, GameAnswer{Tags: g.Tags, Moves: len(g.Moves)})
	}
	s.mu.Lock()
	s.pushes = append(s.pushes, push)
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(push.Answer)
}

// Split splits a PGN file into its games: a game starts at a tag line
// after a blank line (or at the start).
func Split(pgn string) []string {
	var games []string
	var cur strings.Builder
	blank := true
	for _, line := range strings.SplitAfter(pgn, "\n") {
		if strings.HasPrefix(line, "[") && blank && strings.TrimSpace(cur.String()) != "" && strings.Contains(cur.String(), "\n\n") {
			games = append(games, cur.String())
			cur.Reset()
		}
		cur.WriteString(line)
		blank = strings.TrimSpace(line) == ""
	}
	if strings.TrimSpace(cur.String()) != "" {
		games = append(games, cur.String())
	}
	return games
}

// Board is the Board tag of game g as a number, 0 for none.
func Board(g pgnreaders.Game) int {
	n, _ := strconv.Atoi(g.Tags["Board"])
	return n
}
