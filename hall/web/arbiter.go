package web

import (
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/engine/preset"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
	"github.com/zeitnot/zeitnot/hall/auth"
	"github.com/zeitnot/zeitnot/hall/store"
	"github.com/zeitnot/zeitnot/protocol"
)

func (s *Server) loginPage(w http.ResponseWriter, r *http.Request) {
	s.render(w, "login", page{Title: "Arbiter login", Data: s.o.Auth.LoginToken(w, r)})
}

func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 4096)
	form := s.o.Auth.LoginToken(w, r) // for the form again, before any header is written
	if !auth.CheckLoginCSRF(r) {
		w.WriteHeader(http.StatusForbidden)
		s.render(w, "login", page{Title: "Arbiter login", Error: "the login form is stale or not from this page (CSRF check); log in again", Data: form})
		return
	}
	user, pw := r.PostFormValue("user"), r.PostFormValue("password")
	tok, err := s.o.Auth.Login(auth.ClientAddr(r), user, pw)
	var tm *auth.ErrTooMany
	switch {
	case errors.As(err, &tm):
		w.Header().Set("Retry-After", strconv.Itoa(int(tm.RetryAfter.Seconds())+1))
		w.WriteHeader(http.StatusTooManyRequests)
		s.render(w, "login", page{Title: "Arbiter login", Error: err.Error(), Data: form})
		return
	case err != nil:
		s.o.Logf("web: failed login for %q from %s", user, auth.ClientAddr(r))
		w.WriteHeader(http.StatusUnauthorized)
		s.render(w, "login", page{Title: "Arbiter login", Error: err.Error(), Data: form})
		return
	}
	s.o.Auth.SetCookie(w, r, tok)
	http.Redirect(w, r, "/arbiter", http.StatusSeeOther)
}

func (s *Server) logout(w http.ResponseWriter, r *http.Request) {
	sess := s.o.Auth.Session(r)
	if sess != nil && !auth.CheckCSRF(r, sess) {
		http.Error(w, "the form is stale or not from this page (CSRF check); reload the page", http.StatusForbidden)
		return
	}
	s.o.Auth.Logout(w, r)
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// arbiterData is what the arbiter's page shows besides the boards.
type arbiterData struct {
	Presets []preset.Preset
	// TLS is the embedded broker's TLS listener and its fingerprint; nil
	// without one.
	TLS *TLSInfo
	// Push is the push to lichess's broadcasts; nil without one.
	Push *pushView
	Now  string // for the round's start field, local time
	// Damaged is what the store set aside or could not write (store.Damaged).
	Damaged []string

	// Disputed are the games whose log met two different lines for one
	// seq (store.Conflicts): the arbiter looks at the evidence.
	Disputed []disputed
	// Round is the tournament's round, its results and what to check
	// (tournament.go); nil without a tournament.
	Round *roundData
	// Zone names the zone the round's start is read in: Europe/Vienna
	// (CET, UTC+01:00).
	Zone string
	// Confirm is a control waiting for the arbiter's confirmation.
	Confirm *pendingControl
	// Keys are the boards' keys for the arbiter to confirm (keys.go).
	Keys []keyToConfirm
	// Update is the bundle for the clocks and its rollout (update.go).
	Update updateView
}

// zone is the time zone the round's start is read in.
func (s *Server) zone() *time.Location {
	if s.o.Zone != nil {
		return s.o.Zone
	}
	return time.Local
}

// zoneName names t's zone as an arbiter checks it: Europe/Vienna (CET,
// UTC+01:00).
func zoneName(t time.Time) string {
	abbr, off := t.Zone()
	sign := "+"
	if off < 0 {
		sign, off = "-", -off
	}
	name := t.Location().String()
	if name == "Local" {
		name = "the laptop's zone"
	}
	return fmt.Sprintf("%s (%s, UTC%s%02d:%02d)", name, abbr, sign, off/3600, off%3600/60)
}

// controlReading is what the hall understood of the control field: a
// preset's key or name, or a control as people write it
// (timecontrol.ReadHuman).
type controlReading struct {
	Send    string `json:"send"`              // what goes to the clocks: the preset's key or the notation
	Human   string `json:"human"`             // timecontrol.HumanPair: 90'+30"
	Words   string `json:"words"`             // 90 min + 30 s a move
	Preset  string `json:"preset,omitempty"`  // the preset's name
	Confirm string `json:"confirm,omitempty"` // why the arbiter must confirm; "" if not
	Other   string `json:"other,omitempty"`   // the other reading, in words
}

// readControl reads the control field.
func readControl(text string) (controlReading, error) {
	text = strings.TrimSpace(text)
	for _, p := range preset.All {
		if strings.EqualFold(text, p.Key) || strings.EqualFold(text, p.Name) {
			pair, err := p.Controls()
			if err != nil {
				return controlReading{}, err
			}
			r := timecontrol.Reading{Pair: pair}
			return controlReading{Send: p.Key, Human: timecontrol.HumanPair(pair), Words: r.Words(), Preset: p.Name}, nil
		}
	}
	r, err := timecontrol.ReadHuman(text)
	if err != nil {
		return controlReading{}, fmt.Errorf("control: %v", strings.TrimPrefix(err.Error(), "timecontrol: "))
	}
	c := controlReading{Send: timecontrol.FormatPair(r.Pair), Human: timecontrol.HumanPair(r.Pair), Words: r.Words()}
	if r.Other != nil {
		c.Other = (timecontrol.Reading{Pair: *r.Other}).Words()
	}
	switch {
	case r.Confirm():
		c.Confirm = fmt.Sprintf("%q has no units: read as %s", text, c.Words)
		if c.Other != "" {
			c.Confirm += ", not " + c.Other
		}
	case r.Unusual():
		c.Confirm = fmt.Sprintf("%q is read as %s: an increment of a minute or more", text, c.Words)
	}
	return c, nil
}

// pendingControl is a next-game form held for the arbiter's
// confirmation.
type pendingControl struct {
	Reading controlReading
	Form    map[string][]string
}

func (p *pendingControl) Error() string {
	return p.Reading.Confirm + ". Confirm below, or write the control with its units (90'+30\", 90 min + 30 s)."
}

// Fields are the form's fields to send again with the confirmation.
func (p *pendingControl) Fields() map[string]string {
	out := map[string]string{}
	for k, v := range p.Form {
		if k != "csrf" && k != "confirm" && len(v) > 0 {
			out[k] = v[0]
		}
	}
	return out
}

// controlAPI says what the hall understands of a control, as the arbiter
// types it: GET /arbiter/control?text=90%2B30.
func (s *Server) controlAPI(w http.ResponseWriter, r *http.Request) {
	if s.o.Auth.Session(r) == nil {
		http.Error(w, "log in first", http.StatusUnauthorized)
		return
	}
	c, err := readControl(r.URL.Query().Get("text"))
	if err != nil {
		writeJSON(w, map[string]string{"error": err.Error()})
		return
	}
	writeJSON(w, c)
}

// disputed is a game with conflicting log lines.
type disputed struct {
	Board     int
	Game      string
	Conflicts int
}

// disputedGames lists every board's games with conflicting lines.
func (s *Server) disputedGames() []disputed {
	var out []disputed
	for _, b := range s.o.Store.Boards() {
		d := s.o.Store.Disputed(b.Board)
		for _, g := range b.Games {
			if d[g] > 0 {
				out = append(out, disputed{Board: b.Board, Game: g, Conflicts: d[g]})
				delete(d, g)
			}
		}
		// Lines refused for their signature, of games the hall has no
		// line of.
		for _, g := range slices.Sorted(maps.Keys(d)) {
			out = append(out, disputed{Board: b.Board, Game: g, Conflicts: d[g]})
		}
	}
	return out
}

func (s *Server) arbiter(w http.ResponseWriter, r *http.Request) {
	sess := s.o.Auth.Session(r)
	if sess == nil {
		http.Redirect(w, r, "/login", http.StatusSeeOther)
		return
	}
	flash := s.takeFlash(sess.User)
	s.mu.Lock()
	pc := s.confirms[sess.User]
	delete(s.confirms, sess.User)
	s.mu.Unlock()
	s.render(w, "arbiter", page{Title: "Arbiter", Session: sess, Views: s.views(), Flash: flash,
		Data: arbiterData{Presets: preset.All, Now: s.o.Clock.Now().In(s.zone()).Format("2006-01-02T15:04"), Zone: zoneName(s.o.Clock.Now().In(s.zone())), Damaged: s.o.Store.Damaged(), Disputed: s.disputedGames(), Round: s.roundSummary(), Confirm: pc, Keys: s.keysToConfirm(), TLS: s.o.TLS, Push: s.pushView(), Update: s.updateView()}})
}

// CheckBoards checks a selection of boards as /round.pgn?boards= and the
// arbiter's page take it ("1-100", "1-8, 12").
func CheckBoards(sel string) error {
	_, _, err := parseBoards(sel)
	return err
}

// parseBoards reads a selection of boards: "all" (or empty) for every
// board, else numbers and ranges, "1-8, 12".
func parseBoards(sel string) (all bool, boards []int, err error) {
	sel = strings.TrimSpace(sel)
	if sel == "" || strings.EqualFold(sel, "all") {
		return true, nil, nil
	}
	for _, part := range strings.FieldsFunc(sel, func(r rune) bool { return r == ',' || r == ' ' }) {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err1 := strconv.Atoi(lo)
		b := a
		var err2 error
		if isRange {
			b, err2 = strconv.Atoi(hi)
		}
		if err1 != nil || err2 != nil || a < 1 || b < a || b > protocol.MaxBoard {
			return false, nil, fmt.Errorf("boards: %q is not a board number or range (1-8, 12)", part)
		}
		if b-a > 10000 {
			return false, nil, fmt.Errorf("boards: %q is too wide a range", part)
		}
		for n := a; n <= b; n++ {
			if !slices.Contains(boards, n) {
				boards = append(boards, n)
			}
		}
	}
	return false, boards, nil
}

func (s *Server) nextID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cmdSeq++
	return fmt.Sprintf("h%d-%d", s.o.Clock.Now().Unix()%100000, s.cmdSeq)
}

// send checks a command as the link will and publishes it, with a new
// id, to every board of the selection, or once on all/cmd.
func (s *Server) send(cmd protocol.HallCommand, all bool, boards []int) (string, error) {
	return s.sendAs(s.nextID(), cmd, all, boards)
}

// sendAs is send with the command's id given.
func (s *Server) sendAs(id string, cmd protocol.HallCommand, all bool, boards []int) (string, error) {
	payload := cmd.Payload(id)
	scope := protocol.ScopeBoard
	if all {
		scope = protocol.ScopeAll
	}
	if _, err := protocol.ParseCommand(payload, scope); err != nil {
		return "", err
	}
	if all {
		if err := s.o.Publish(protocol.TopicsFor(s.o.Hall, 1).All, payload); err != nil {
			return "", err
		}
		return fmt.Sprintf("%s sent to every board", cmd.Name()), nil
	}
	var errs []error
	for _, n := range boards {
		if err := s.o.Publish(protocol.TopicsFor(s.o.Hall, n).Cmd, payload); err != nil {
			errs = append(errs, fmt.Errorf("board %d: %v", n, err))
		}
	}
	if len(errs) > 0 {
		return "", errors.Join(errs...)
	}
	return fmt.Sprintf("%s sent to board%s %s", cmd.Name(), plural(len(boards)), boardList(boards)), nil
}

// sendKnown is send for a selection the arbiter typed: a board no clock
// has reported as is named, not "sent" to (a board 9999 of no clock was
// once "sent"), and a board whose game a spare clock carries has it sent
// to the spare.
func (s *Server) sendKnown(cmd protocol.HallCommand, all bool, boards []int) (string, error) {
	if all {
		return s.send(cmd, all, boards)
	}
	var known, unknown []int
	var spares []string
	for _, n := range boards {
		if sp, _, ok := s.o.Store.Replaced(n); ok {
			// The board's game is on a spare clock: the command goes there.
			known = append(known, sp.Board)
			spares = append(spares, fmt.Sprintf("board %d's game is on clock %d", n, sp.Board))
		} else if _, ok := s.o.Store.Board(n); ok {
			known = append(known, n)
		} else {
			unknown = append(unknown, n)
		}
	}
	if len(known) == 0 {
		return "", fmt.Errorf("%s: no clock has reported as board%s %s: nothing sent", cmd.Name(), plural(len(unknown)), boardList(unknown))
	}
	msg, err := s.send(cmd, false, known)
	if err != nil {
		return "", err
	}
	if len(spares) > 0 {
		msg += " (" + strings.Join(spares, ", ") + ")"
	}
	if len(unknown) > 0 {
		msg += fmt.Sprintf("; not sent to board%s %s: no clock has reported as %s", plural(len(unknown)), boardList(unknown), map[bool]string{true: "it", false: "them"}[len(unknown) == 1])
	}
	return msg + "; each board's reply shows on its card", nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func boardList(b []int) string {
	s := make([]string, len(b))
	for i, n := range b {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ", ")
}

// formSession is the arbiter's session of a form's POST, with its CSRF
// token checked; parse, if not nil, reads the form first (a file's
// upload). Without one it answers and returns nil.
func (s *Server) formSession(w http.ResponseWriter, r *http.Request, parse func() error) *auth.Session {
	sess := s.o.Auth.Session(r)
	if sess == nil {
		http.Error(w, "log in first", http.StatusUnauthorized)
		return nil
	}
	if parse != nil {
		if err := parse(); err != nil {
			http.Error(w, "the form could not be read: "+err.Error(), http.StatusBadRequest)
			return nil
		}
	}
	if !auth.CheckCSRF(r, sess) {
		http.Error(w, "the form is stale or not from this page (CSRF check); reload the page", http.StatusForbidden)
		return nil
	}
	return sess
}

// flash keeps msg for the user's next page.
func (s *Server) flash(user, msg string) {
	s.mu.Lock()
	s.flashes[user] = msg
	s.mu.Unlock()
}

// takeFlash is the user's message kept for this page, once.
func (s *Server) takeFlash(user string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	msg := s.flashes[user]
	delete(s.flashes, user)
	return msg
}

// arbiterPost carries out one of the arbiter's forms.
func (s *Server) arbiterPost(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 16<<10)
	sess := s.formSession(w, r, nil)
	if sess == nil {
		return
	}
	msg, err := s.action(r)
	var pc *pendingControl
	if errors.As(err, &pc) {
		s.mu.Lock()
		s.confirms[sess.User] = pc
		s.mu.Unlock()
		msg = "Not sent yet: " + err.Error()
	} else if err != nil {
		msg = "Not sent: " + err.Error()
	}
	s.answer(w, r, sess.User, "", msg, "/arbiter")
}

// answer ends one of the arbiter's forms: what it did goes to the hall's
// log (after what, naming the form) and, once, to the arbiter's page at
// back, where the browser goes.
func (s *Server) answer(w http.ResponseWriter, r *http.Request, user, what, msg, back string) {
	s.o.Logf("web: arbiter %s: %s%s", user, what, msg)
	s.flash(user, msg)
	http.Redirect(w, r, back, http.StatusSeeOther)
}

// action carries out one of the arbiter page's forms with the same
// function as the API's call (actions.go).
func (s *Server) action(r *http.Request) (string, error) {
	f := r.PostFormValue
	switch f("action") {
	case "next-game":
		opts := map[string]string{}
		for _, k := range controlOptions {
			if v := f(k); v != "" {
				opts[k] = v
			}
		}
		msg, err := s.setControl(f("boards"), f("control"), f("confirm"), opts)
		var pc *pendingControl
		if errors.As(err, &pc) {
			pc.Form = r.PostForm
		}
		return msg, err
	case "round":
		var start time.Time
		if v := strings.TrimSpace(f("start")); v != "" {
			// To the minute, as arbiters write it, or to the second.
			t, err := time.ParseInLocation("2006-01-02T15:04", v, s.zone())
			if err != nil {
				t, err = time.ParseInLocation("2006-01-02T15:04:05", v, s.zone())
			}
			if err != nil {
				return "", fmt.Errorf("start: want a date and time, got %q", v)
			}
			start = t
		}
		def, err := defaultTime(f("default_time"))
		if err != nil {
			return "", err
		}
		msg, err := s.scheduleRound(f("boards"), start, def)
		if errors.Is(err, errPassed) {
			err = fmt.Errorf("%w; give a start to come, or leave it empty for none", err)
		}
		return msg, err
	case "pause":
		return s.pauseBoards(f("boards"), protocol.PauseCmd{})
	case "resume":
		return s.pauseBoards(f("boards"), protocol.ResumeCmd{})
	case "takeover":
		spare, err1 := strconv.Atoi(f("spare"))
		board, err2 := strconv.Atoi(f("board"))
		if err1 != nil || err2 != nil || spare < 1 || board < 1 || spare > protocol.MaxBoard || board > protocol.MaxBoard {
			return "", errors.New("takeover: want the spare clock's board number and the board it takes over")
		}
		return s.takeover(board, spare)
	case "confirm-key", "dismiss-key":
		return s.keyAction(f("action"), f("board"), f("key"))
	case "update-clocks":
		return s.startRollout(r)
	case "players":
		n, err := strconv.Atoi(f("board"))
		if err != nil || n < 1 || n > protocol.MaxBoard {
			return "", errors.New("players: want a board number")
		}
		return s.correctPlayers(n, f("white"), f("black"))
	}
	return "", fmt.Errorf("unknown action %q", f("action"))
}

// setPlayers keeps the names sent to board n's clock as the clock takes
// them: for its game if it has not started; during a game, for that game
// (the clock shows them at once, and its PGN has them) and for the next.
func (s *Server) setPlayers(n int, p store.Players) {
	b, _ := s.o.Store.Board(n)
	if b.Game != "" {
		s.o.Store.SetPlayers(n, b.Game, p)
	}
	if b.Game != "" && (b.State == nil || !b.State.State.Started) {
		return
	}
	s.o.Store.SetPlayers(n, "", p)
}

// logLine is one line of a game's log as the board page lists it.
type logLine struct {
	Seq  int64
	Text string // without its checksum
	At   string // the instant, as m:ss from the start; "" for the header
	// Clock is the instant as a time of day in the hall's zone
	// (15:04:05), "" when the hall knows no state of the game to set its
	// log's instants against the day (Board.Epoch).
	Clock      string
	Correction bool
}

type boardLogData struct {
	Board   int
	Game    string
	Games   []string
	Lines   []logLine
	Fixes   []logLine
	Waiting int
	Players store.Players
	// Conflicts are the evidence of lines that met another for their
	// seq: what the hall serves, and what it set aside.
	Conflicts []store.Conflict
	// Reply is the clock's last reply to the hall, ReplyAt when it came
	// (a spare's takeover says there how old its source was).
	Reply   *protocol.Reply
	ReplyAt string
}

var corrections = []string{"set", "add", "moves", "period", "turn", "clear-overstep", "pause", "resume"}

// boardLog is the arbiter's page of one board: its games, the log of one,
// and its corrections.
func (s *Server) boardLog(w http.ResponseWriter, r *http.Request) {
	sess := s.o.Auth.Session(r)
	if sess == nil {
		http.Redirect(w, r, "/login", http.StatusSeeOther)
		return
	}
	n, ok := boardNumber(w, r)
	if !ok {
		return
	}
	b, _ := s.o.Store.Board(n)
	d := boardLogData{Board: n, Games: b.Games, Reply: b.Reply}
	if b.ReplyAt != 0 {
		d.ReplyAt = time.UnixMilli(b.ReplyAt).In(s.zone()).Format("15:04:05")
	}
	g := r.URL.Query().Get("game")
	if g == "" {
		g = b.Game
		if g == "" && len(b.Games) > 0 {
			g = b.Games[len(b.Games)-1]
		}
	}
	if g != "" && protocol.ValidGame(g) {
		d.Game = g
		d.Players = b.Players[g]
		lines, waiting := s.o.Store.Lines(n, g)
		d.Waiting = waiting
		d.Conflicts = s.o.Store.Conflicts(n, g)
		epoch, dated := b.Epoch[g]
		for i, l := range lines {
			ll := parseLine(int64(i+1), l)
			if ms, ok := lineInstant(l); ok && dated {
				ll.Clock = time.UnixMilli(epoch + ms).In(s.zone()).Format("15:04:05")
			}
			d.Lines = append(d.Lines, ll)
			if ll.Correction {
				d.Fixes = append(d.Fixes, ll)
			}
		}
	}
	s.render(w, "boardlog", page{Title: fmt.Sprintf("Board %d: log", n), Session: sess, Board: n, Data: d})
}

// lineInstant is the instant of an event line (ms from the log's 0).
func lineInstant(l string) (int64, bool) {
	t, _, _ := clocklog.CheckLine([]byte(l))
	f, _, _ := strings.Cut(string(t), " ")
	ms, err := strconv.ParseInt(f, 10, 64)
	return ms, err == nil && f != "" && f[0] >= '0' && f[0] <= '9'
}

func parseLine(seq int64, l string) logLine {
	t, _, _ := clocklog.CheckLine([]byte(l))
	text := string(t)
	ll := logLine{Seq: seq, Text: text}
	f := strings.Fields(text)
	if len(f) >= 2 {
		if ms, err := strconv.ParseInt(f[0], 10, 64); err == nil {
			ll.At = clocklog.PGNTime(ms)
			ll.Correction = slices.Contains(corrections, f[1])
		}
	}
	return ll
}
