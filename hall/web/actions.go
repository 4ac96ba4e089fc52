package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/zeitnot/zeitnot/hall/store"
	"github.com/zeitnot/zeitnot/protocol"
)

// The arbiter's actions, one function each: the arbiter's page and the
// API call the same one, so the two cannot drift. Each says what it did
// in one line, or returns what is wrong; an error of statusError says
// which answer the API gives (404 for an unknown board or round, 409 for
// a round that is not the current one; else 422).

// statusError is an error the API answers with code.
type statusError struct {
	code int
	err  error
}

func (e *statusError) Error() string { return e.err.Error() }
func (e *statusError) Unwrap() error { return e.err }

// notFound is an unknown board or round: 404.
func notFound(format string, a ...any) error {
	return &statusError{http.StatusNotFound, fmt.Errorf(format, a...)}
}

// notCurrent is a round that is not the hall's current one: 409.
func notCurrent(format string, a ...any) error {
	return &statusError{http.StatusConflict, fmt.Errorf(format, a...)}
}

// errPassed is a round's start that has passed.
var errPassed = errors.New("has passed")

// setControl sends the control text (readControl) as the next game's to
// the boards of sel (parseBoards). A reading the arbiter must confirm is
// sent only when confirm is what the hall read (its Send), else the
// error is a *pendingControl.
func (s *Server) setControl(sel, text, confirm string, opts map[string]string) (string, error) {
	all, boards, err := parseBoards(sel)
	if err != nil {
		return "", err
	}
	rc, err := readControl(text)
	if err != nil {
		return "", err
	}
	if rc.Confirm != "" && confirm != rc.Send {
		return "", &pendingControl{Reading: rc}
	}
	cmd := protocol.NextGameCmd{Control: rc.Send}
	if len(opts) > 0 {
		cmd.Options = opts
	}
	msg, err := s.sendKnown(cmd, all, boards)
	if err != nil {
		return "", err
	}
	return strings.Replace(msg, "next-game", "next-game "+rc.Human+" ("+rc.Words+")", 1), nil
}

// controlOptions are the clock options the control's form and call
// take with it (clock.Options by name).
var controlOptions = []string{"first-increment", "period-trigger", "after-flag"}

// defaultTime reads the round's default time (FIDE 6.6): whole minutes,
// as arbiters say it, or a duration (90m, 1h30m); "" for none.
func defaultTime(v string) (time.Duration, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, nil
	}
	if m, err := strconv.Atoi(v); err == nil && m >= 0 && m <= 24*60 {
		return time.Duration(m) * time.Minute, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 || d > 24*time.Hour {
		return 0, fmt.Errorf("default time: want minutes from 0 to 1440 (30) or a duration (1h30m), got %q", v)
	}
	return d, nil
}

// scheduleRound sends the round's scheduled start (zero: none) and
// default time to the boards of sel. A start that has passed is refused
// (errPassed): a clock would take it and never start.
func (s *Server) scheduleRound(sel string, start time.Time, def time.Duration) (string, error) {
	all, boards, err := parseBoards(sel)
	if err != nil {
		return "", err
	}
	return s.scheduleBoards(all, boards, start, def)
}

func (s *Server) scheduleBoards(all bool, boards []int, start time.Time, def time.Duration) (string, error) {
	if !start.IsZero() {
		start = start.In(s.zone())
		if now := s.o.Clock.Now(); !start.After(now) {
			return "", fmt.Errorf("round: the start %s (%s) %w: it is %s", start.Format("2006-01-02 15:04"), zoneName(start), errPassed, now.In(s.zone()).Format("2006-01-02 15:04:05"))
		}
	}
	return s.sendKnown(protocol.RoundCmd{Start: start, DefaultTime: def}, all, boards)
}

// pauseBoards sends pause or resume to the boards of sel. resume: the
// clocks resume only the games the hall paused (an arbiter's pause at the
// board stays).
func (s *Server) pauseBoards(sel string, cmd protocol.HallCommand) (string, error) {
	all, boards, err := parseBoards(sel)
	if err != nil {
		return "", err
	}
	return s.sendKnown(cmd, all, boards)
}

// knownBoard is an error unless a clock has reported as board n, or a
// spare carries board n's game.
func (s *Server) knownBoard(what string, n int) error {
	if _, _, ok := s.o.Store.Replaced(n); ok {
		return nil
	}
	if _, ok := s.o.Store.Board(n); !ok {
		return notFound("%s: no clock has reported as board %d", what, n)
	}
	return nil
}

// takeover sends the spare clock the takeover of board's game.
func (s *Server) takeover(board, spare int) (string, error) {
	if spare == board {
		return "", errors.New("takeover: the spare clock and the board are the same")
	}
	if err := s.knownBoard("takeover", board); err != nil {
		return "", err
	}
	if _, ok := s.o.Store.Board(spare); !ok {
		return "", fmt.Errorf("takeover: no clock has reported as board %d (the spare): nothing sent", spare)
	}
	// The hall records what it asked before the spare can answer: its
	// ok makes the takeover (store.AskTakeover), and the game stays on
	// board's number on every page.
	id := s.nextID()
	s.o.Store.AskTakeover(spare, board, id)
	msg, err := s.sendAs(id, protocol.TakeoverCmd{Board: board}, false, []int{spare})
	if err != nil {
		return "", err
	}
	// Sent is not done: the spare's reply says whether it took the game.
	return msg + fmt.Sprintf(" to take over board %d's game; the spare's reply shows on its card: if it is ok, the game shows as board %d, on clock %d, paused, for you to check and resume at the board, and board %d's own clock is retired from the pages", board, board, spare, board), nil
}

// correctPlayers sends the arbiter's names of board n's game to the
// clock that holds it (a spare, after a takeover) and keeps them.
func (s *Server) correctPlayers(n int, white, black string) (string, error) {
	if err := s.knownBoard("players", n); err != nil {
		return "", err
	}
	white, black = strings.TrimSpace(white), strings.TrimSpace(black)
	to, note := n, ""
	if sp, _, ok := s.o.Store.Replaced(n); ok {
		to, note = sp.Board, fmt.Sprintf(" (board %d's game is on clock %d)", n, sp.Board)
	}
	msg, err := s.send(protocol.PlayersCmd{White: &white, Black: &black}, false, []int{to})
	if err != nil {
		return "", err
	}
	s.setPlayers(to, store.Players{White: white, Black: black})
	return msg + note, nil
}

// startBoard starts board n's game now (the start command).
func (s *Server) startBoard(n int) (string, error) {
	if err := s.knownBoard("start", n); err != nil {
		return "", err
	}
	return s.sendKnown(protocol.StartCmd{}, false, []int{n})
}

// currentRound is the hall's round n with its boards that have a game
// (byes left out); a round the hall never set is notFound, a past one
// notCurrent.
func (s *Server) currentRound(n string) (store.Tournament, []int, error) {
	t, _, err := s.tournament()
	if err != nil {
		return t, nil, notFound("%v", err)
	}
	k, err := strconv.Atoi(n)
	if err != nil {
		return t, nil, notFound("round %q: want a number", n)
	}
	if t.Round == 0 {
		return t, nil, notFound("round %d: no round paired yet: PUT /api/rounds/%d with the pairing list, or a TRF with the round", k, k)
	}
	if _, ok := t.RoundOf(k); !ok {
		return t, nil, notFound("round %d: the hall set rounds up to %d", k, t.Round)
	}
	if k != t.Round {
		return t, nil, notCurrent("round %d is not the hall's current round: that is round %d", k, t.Round)
	}
	var boards []int
	for i, b := range t.Boards {
		if b[1] != 0 {
			boards = append(boards, i+1)
		}
	}
	return t, boards, nil
}

// startRound starts the round: at start (the round command, with the
// default time), or now when start is zero (the start command).
func (s *Server) startRound(boards []int, start time.Time, def time.Duration) (string, error) {
	if len(boards) == 0 {
		return "", errors.New("the round has no board with a game")
	}
	if start.IsZero() {
		return s.sendKnown(protocol.StartCmd{}, false, boards)
	}
	return s.scheduleBoards(false, boards, start, def)
}

// API

// routesActions adds the API's calls of the arbiter's actions.
func (s *Server) routesActions() {
	s.mux.HandleFunc("POST /api/rounds/{n}/send", s.apiSendRound)
	s.mux.HandleFunc("POST /api/rounds/{n}/start", s.apiStartRound)
	s.mux.HandleFunc("POST /api/boards/{n}/start", s.apiStartBoard)
	s.mux.HandleFunc("POST /api/pause", s.apiPause)
	s.mux.HandleFunc("POST /api/resume", s.apiPause)
	s.mux.HandleFunc("PUT /api/control", s.apiControl)
	s.mux.HandleFunc("POST /api/boards/{n}/takeover", s.apiTakeover)
	s.mux.HandleFunc("PUT /api/boards/{n}/players", s.apiPlayers)
}

// maxActionBody bounds the body of an action's call: a few fields.
const maxActionBody = 4 << 10

// smallBody reads an action's body, bounded; without the token it
// answers and returns false.
func (s *Server) smallBody(w http.ResponseWriter, r *http.Request) (string, bool) {
	if !s.apiAllowed(w, r, false) {
		return "", false
	}
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxActionBody))
	if err != nil {
		http.Error(w, fmt.Sprintf("body: %v (at most %d bytes)", err, maxActionBody), http.StatusRequestEntityTooLarge)
		return "", false
	}
	return strings.TrimSpace(string(data)), true
}

func (s *Server) apiSendRound(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.smallBody(w, r); !ok {
		return
	}
	control := true
	switch v := r.URL.Query().Get("control"); v {
	case "", "yes":
	case "no":
		control = false
	default:
		s.apiDone(w, r, "", fmt.Errorf("control: want yes or no, got %q", v))
		return
	}
	if _, _, err := s.currentRound(r.PathValue("n")); err != nil {
		s.apiDone(w, r, "", err)
		return
	}
	msg, err := s.sendRound(control)
	s.apiDone(w, r, msg, err)
}

func (s *Server) apiStartRound(w http.ResponseWriter, r *http.Request) {
	b, ok := s.smallBody(w, r)
	if !ok {
		return
	}
	_, boards, err := s.currentRound(r.PathValue("n"))
	if err != nil {
		s.apiDone(w, r, "", err)
		return
	}
	var start time.Time
	if b != "" {
		if start, err = time.Parse(time.RFC3339, b); err != nil {
			s.apiDone(w, r, "", fmt.Errorf("start: want an RFC 3339 instant like %q, or nothing to start now; got %q", s.o.Clock.Now().In(s.zone()).Add(time.Hour).Truncate(time.Minute).Format(time.RFC3339), short(b)))
			return
		}
	}
	def, err := defaultTime(r.URL.Query().Get("default"))
	if err == nil && start.IsZero() && r.URL.Query().Has("default") {
		err = errors.New("default: a default time goes with a scheduled start (an RFC 3339 body)")
	}
	if err != nil {
		s.apiDone(w, r, "", err)
		return
	}
	msg, err := s.startRound(boards, start, def)
	s.apiDone(w, r, msg, err)
}

func (s *Server) apiStartBoard(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.smallBody(w, r); !ok {
		return
	}
	n, ok := boardNumber(w, r)
	if !ok {
		return
	}
	msg, err := s.startBoard(n)
	s.apiDone(w, r, msg, err)
}

func (s *Server) apiPause(w http.ResponseWriter, r *http.Request) {
	sel, ok := s.smallBody(w, r)
	if !ok {
		return
	}
	var cmd protocol.HallCommand = protocol.PauseCmd{}
	if strings.HasSuffix(r.URL.Path, "/resume") {
		cmd = protocol.ResumeCmd{}
	}
	msg, err := s.pauseBoards(sel, cmd)
	s.apiDone(w, r, msg, err)
}

func (s *Server) apiControl(w http.ResponseWriter, r *http.Request) {
	text, ok := s.smallBody(w, r)
	if !ok {
		return
	}
	q := r.URL.Query()
	opts := map[string]string{}
	for _, k := range controlOptions {
		if v := q.Get(k); v != "" {
			opts[k] = v
		}
	}
	msg, err := s.setControl(q.Get("boards"), text, q.Get("confirm"), opts)
	var pc *pendingControl
	if errors.As(err, &pc) {
		err = fmt.Errorf("not sent: %s; send it again with ?confirm=%s, or write the control with its units (90'+30\", 90 min + 30 s)", pc.Reading.Confirm, url.QueryEscape(pc.Reading.Send))
	}
	s.apiDone(w, r, msg, err)
}

// boardBody is a board call's {n} and its small body; false once it has
// answered what is wrong.
func (s *Server) boardBody(w http.ResponseWriter, r *http.Request) (int, string, bool) {
	b, ok := s.smallBody(w, r)
	if !ok {
		return 0, "", false
	}
	n, ok := boardNumber(w, r)
	return n, b, ok
}

func (s *Server) apiTakeover(w http.ResponseWriter, r *http.Request) {
	n, b, ok := s.boardBody(w, r)
	if !ok {
		return
	}
	spare, err := strconv.Atoi(b)
	if err != nil || spare < 1 || spare > protocol.MaxBoard {
		s.apiDone(w, r, "", fmt.Errorf("body: want the spare clock's board number, 1 to %d, got %q", protocol.MaxBoard, short(b)))
		return
	}
	msg, err := s.takeover(n, spare)
	s.apiDone(w, r, msg, err)
}

func (s *Server) apiPlayers(w http.ResponseWriter, r *http.Request) {
	n, b, ok := s.boardBody(w, r)
	if !ok {
		return
	}
	var p struct {
		White *string `json:"white"`
		Black *string `json:"black"`
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(b)))
	dec.DisallowUnknownFields()
	err := dec.Decode(&p)
	switch {
	case err != nil:
		err = fmt.Errorf("body: want {\"white\":\"...\",\"black\":\"...\"}: %v", err)
	case dec.More():
		err = errors.New("body: more after the JSON object")
	case p.White == nil:
		err = errors.New(`body: missing field "white" ("" for no name)`)
	case p.Black == nil:
		err = errors.New(`body: missing field "black" ("" for no name)`)
	}
	if err != nil {
		s.apiDone(w, r, "", err)
		return
	}
	msg, err := s.correctPlayers(n, *p.White, *p.Black)
	s.apiDone(w, r, msg, err)
}

// short cuts what a request gave to quote it in an error.
func short(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "..."
	}
	return s
}
