package web

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/hall/auth"
	"github.com/zeitnot/zeitnot/hall/store"
	"github.com/zeitnot/zeitnot/hall/trf"
	"github.com/zeitnot/zeitnot/protocol"
)

// Pairings in, results out (docs/hall.md, "Tournaments"): the arbiter
// imports the pairing program's TRF, the hall sets round N's boards on the
// clocks (board K of the round on the clock of board K, in the order the
// arbiter chose), and the results the clocks journal (or the arbiter
// enters in the hall) go back as the TRF, a CSV and the round's PGN.

// routesTournament adds the tournament's pages and API to the mux.
func (s *Server) routesTournament() {
	s.mux.HandleFunc("GET /arbiter/round", s.roundPage)
	s.mux.HandleFunc("POST /arbiter/round", s.roundPost)
	s.mux.HandleFunc("GET /api/tournament.trf", s.apiTRF)
	s.mux.HandleFunc("GET /api/rounds/{n}/results.csv", s.apiResultsCSV)
	s.mux.HandleFunc("GET /api/rounds/{n}/games.pgn", s.apiRoundPGN)
	s.mux.HandleFunc("PUT /api/tournament", s.apiPutTournament)
	s.mux.HandleFunc("PUT /api/rounds/{n}", s.apiPutRound)
	s.mux.HandleFunc("PUT /api/boards/{n}/result", s.apiPutResult)
	s.routesActions()
	s.mux.HandleFunc("PUT /api/rounds/{n}/absent", s.apiPutAbsent)
}

// hallResults are the results the arbiter may enter in the hall: a
// game's, and the forfeits (FIDE Laws 6.6: a player who arrives at the
// board after the default time loses): +/- White wins by forfeit, -/+
// Black does, -/- neither player came.
var hallResults = []string{"1-0", "1/2-1/2", "0-1", "+/-", "-/+", "-/-"}

// forfeitCodes are the hall's forfeits as trf.SetResult takes them.
var forfeitCodes = map[string]string{"+/-": "+-", "-/+": "-+", "-/-": "--"}

// isForfeit reports whether result is a forfeit: no game was played.
func isForfeit(result string) bool {
	_, ok := forfeitCodes[result]
	return ok
}

// trfResult is result as trf.SetResult takes it.
func trfResult(result string) string {
	if c, ok := forfeitCodes[result]; ok {
		return c
	}
	return result
}

// roundBoard is one board of the round as the pages, the CSV and the
// exports see it.
type roundBoard struct {
	Board        int
	White, Black int // starting ranks
	WhiteName    string
	BlackName    string
	Clock        bool   // the hall knows a clock of this board number
	Game         string // the clock's game with these players; "" if none yet
	Spare        int    // the spare clock whose game Game is, carrying on the board's (FIDE 6.10); 0: the board's own
	Result       string // the result: the hall's entry, else the clock's; "" none
	By           string // players or arbiter (on the clock), hall
	ClockResult  string // what the clock journaled, when the hall's entry differs
	Flag         string // the side whose flag fell first on the clock, "" none
	Problem      string // what disagrees: the confirmations and the flag, the clock and the hall
	Refused      string // the clock refused the hall's result, and why: it is not exported until the arbiter resolves it
	Running      bool   // the board's game has started and its clock still runs
	NoMove       bool   // the game's log shows White completed no move: with a result, a game of less than one move
	Waiting      bool   // the board's clock refused the pairing: its game still runs
}

// roundData is the round page's data.
type roundData struct {
	T        *store.Tournament
	Name     string
	Control  string // tag 222 as people read it (90'+30"); "" none
	CtlNote  string // why tag 222 cannot be played, if it cannot
	Boards   []roundBoard
	Byes     []string // byes, forfeits and unpaired players, as the TRF says
	Missing  int
	Problems int
	Results  []string
	Confirm  *resultConfirm // the arbiter's result for a running game, to confirm
	Absent   []string       // the players marked absent for the next round, before its pairing
}

// tournament parses the kept TRF.
func (s *Server) tournament() (store.Tournament, *trf.Tournament, error) {
	if s.o.Tournament == nil {
		return store.Tournament{}, nil, errors.New("the hall keeps no tournament (no data directory)")
	}
	t, ok := s.o.Tournament.Get()
	if !ok {
		return t, nil, errors.New("no tournament imported yet: PUT /api/tournament or the round page's import")
	}
	tr, err := trf.Parse(t.File, []byte(t.TRF))
	return t, tr, err
}

// pgnTitles are the PGN titles of the TRF's title codes (FIDE's
// TRF: g, m, f, c and the women's wg, wm, wf, wc); another title is
// written as the file has it.
var pgnTitles = map[string]string{"g": "GM", "m": "IM", "f": "FM", "c": "CM", "wg": "WGM", "wm": "WIM", "wf": "WFM", "wc": "WCM"}

// playerTags are the PGN tags of the players white and black (starting
// ranks) from the TRF: WhiteElo, WhiteFideId, WhiteTitle and Black's,
// each where the file has it (lichess's broadcasts link players by FIDE
// id).
func playerTags(tr *trf.Tournament, white, black int) [][2]string {
	var out [][2]string
	for _, side := range []struct {
		name string
		n    int
	}{{"White", white}, {"Black", black}} {
		p, ok := tr.Player(side.n)
		if !ok {
			continue
		}
		if p.Rating > 0 {
			out = append(out, [2]string{side.name + "Elo", strconv.Itoa(p.Rating)})
		}
		if p.FideID != "" {
			out = append(out, [2]string{side.name + "FideId", p.FideID})
		}
		if t := p.Title; t != "" {
			if pt, ok := pgnTitles[strings.ToLower(t)]; ok {
				t = pt
			}
			out = append(out, [2]string{side.name + "Title", t})
		}
	}
	return out
}

// playersName is a player's name for the clocks and the PGN.
func playersName(tr *trf.Tournament, n int) string {
	if p, ok := tr.Player(n); ok {
		return p.Name
	}
	return ""
}

// roundBoards are the current round's boards with what the clocks say.
func (s *Server) roundBoards(t store.Tournament, tr *trf.Tournament) []roundBoard {
	return s.roundBoardsOf(store.Round{Round: t.Round, Boards: t.Boards, Results: t.Results, Refused: t.Refused}, tr, t.Sent)
}

// roundBoardsOf are round r's boards with what the clocks say: each
// board's game is the one its clock opened for the round's pairing.
// current says the round is the one sent to the clocks: a board whose
// clock still runs another game waits for it.
func (s *Server) roundBoardsOf(r store.Round, tr *trf.Tournament, current bool) []roundBoard {
	out := make([]roundBoard, 0, len(r.Boards))
	for i, pr := range r.Boards {
		rb := roundBoard{Board: i + 1, White: pr[0], Black: pr[1], WhiteName: playersName(tr, pr[0]), BlackName: playersName(tr, pr[1])}
		b, known := s.o.Store.Board(rb.Board)
		rb.Clock = known && (b.Online != nil || b.State != nil)
		if known {
			s.clockResult(&rb, b, r.Round)
			s.spareResult(&rb, b, r.Round)
			s.running(&rb)
			if current && rb.Game == "" && rb.Black != 0 && stillRuns(b) {
				rb.Waiting = true
				rb.Problem = joinProblem(rb.Problem, fmt.Sprintf("board %d: the game still runs", rb.Board))
			}
		}
		if hr := r.Results[rb.Board]; hr != "" {
			if rb.Result != "" && rb.Result != hr {
				rb.ClockResult = rb.Result + " (" + rb.By + ")"
				rb.Problem = joinProblem(rb.Problem, "the clock says "+rb.ClockResult+", the hall "+hr)
			}
			rb.Result, rb.By = hr, "hall"
			if why := r.Refused[rb.Board]; why != "" {
				rb.Refused = why
				rb.Problem = joinProblem(rb.Problem, fmt.Sprintf("the clock refused the hall's %s (%s): not exported until the arbiter enters or clears it again", hr, why))
			}
		}
		out = append(out, rb)
	}
	return out
}

// stillRuns reports whether the board's clock holds a game that has
// started and has no result: it refuses the next round's pairing.
func stillRuns(b store.Board) bool {
	return b.State != nil && b.State.State.Started && b.State.State.Result == ""
}

func joinProblem(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// clockResult binds the board to the game its clock opened for round's
// pairing of the board (store.Board.GameOf), and reads its result and
// flag from its log. A game is never found by its players' names: a
// finished game of another round with the same names is not this one.
func (s *Server) clockResult(rb *roundBoard, b store.Board, round int) {
	rb.Game = b.GameOf(round, rb.Board)
	if rb.Game != "" {
		s.readResult(rb, b.Board, rb.Game)
	}
}

// spareResult follows the board's game to the spare clock that took it
// over, when one did (store.Takeover): the result confirmed on the spare
// is the board's, from the spare's game.
//
// A takeover ends with its round: a takeover of a game the board's clock
// opened for another round's pairing (or another board's) is not round's
// board, which then waits for its own clock's game.
func (s *Server) spareResult(rb *roundBoard, b store.Board, round int) {
	if b.ReplacedBy == 0 {
		return
	}
	sp, ok := s.o.Store.Board(b.ReplacedBy)
	if !ok {
		return
	}
	for i := len(sp.Takeovers) - 1; i >= 0; i-- {
		t := sp.Takeovers[i]
		if t.Board != rb.Board || t.SpareGame == "" || rb.Game != "" && t.Game != rb.Game {
			continue
		}
		if p, ok := b.Pairings[t.Game]; ok && (p.Round != round || p.Board != rb.Board) {
			continue
		}
		*rb = roundBoard{Board: rb.Board, White: rb.White, Black: rb.Black, WhiteName: rb.WhiteName, BlackName: rb.BlackName, Clock: rb.Clock,
			Game: t.SpareGame, Spare: sp.Board}
		s.readResult(rb, sp.Board, t.SpareGame)
		return
	}
}

// running marks the board whose game (on its clock or the spare's) has
// started and still runs.
func (s *Server) running(rb *roundBoard) {
	if rb.Game == "" {
		return
	}
	n := rb.Board
	if rb.Spare != 0 {
		n = rb.Spare
	}
	if b, ok := s.o.Store.Board(n); ok && b.Game == rb.Game && stillRuns(b) {
		rb.Running = true
	}
}

// exported reports whether the board's result goes into the exports (the
// TRF, the PGN): there is one, and no clock refused it.
func (rb roundBoard) exported() bool { return rb.Result != "" && rb.Refused == "" }

// readResult reads the result and flag of game g of board n's clock from
// its log into rb.
func (s *Server) readResult(rb *roundBoard, n int, g string) {
	l := s.logOf(n, g).log
	if l == nil || len(l.Events) == 0 {
		return
	}
	if r, by := clocklog.ResultOf(l); r != clocklog.NoResult {
		rb.Result, rb.By = r.String(), by.String()
	}
	c, err := clocklog.Replay(l, clocklog.Handlers{})
	if err != nil {
		return
	}
	st := c.State(l.Events[len(l.Events)-1].At)
	rb.NoMove = st.Player[clock.White].Moves == 0
	if st.FirstFlag != clock.NoSide {
		rb.Flag = st.FirstFlag.String()
	}
	w, bl := st.Player[clock.White].Flag, st.Player[clock.Black].Flag
	switch {
	case rb.Result == "":
	case w && bl && st.FirstFlag == clock.NoSide:
		rb.Problem = "both flags, no order known (6.11): the arbiter decides"
	case rb.Flag == "white" && rb.Result == "1-0", rb.Flag == "black" && rb.Result == "0-1":
		rb.Problem = fmt.Sprintf("confirmed %s, but %s's flag fell first", rb.Result, rb.Flag)
	}
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// exportTRF is the kept TRF with every result the hall has for its round,
// points updated.
func (s *Server) exportTRF() ([]byte, error) {
	t, tr, err := s.tournament()
	if err != nil {
		return nil, err
	}
	for _, r := range t.Rounds() {
		for _, rb := range s.roundBoardsOf(r, tr, r.Round == t.Round && t.Sent) {
			if !rb.exported() || rb.Black == 0 {
				continue
			}
			res := trfResult(rb.Result)
			if rb.NoMove {
				// TRF-2026: a game that lasted less than one move is
				// written W, D, L (not rated).
				res = trf.ShortResult(res)
			}
			if err := tr.SetResult(r.Round, rb.White, rb.Black, res); err != nil {
				return nil, fmt.Errorf("round %d board %d: %v", r.Round, rb.Board, err)
			}
		}
	}
	var b bytes.Buffer
	if err := tr.Write(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// latestRound is the last round the TRF pairs anyone in: the round the
// pairing program just made.
func latestRound(tr *trf.Tournament) int {
	r := 0
	for _, p := range tr.Players() {
		for i, g := range p.Games {
			if g.Opponent > 0 || g.Result != ' ' {
				r = max(r, i+1)
			}
		}
	}
	return r
}

// lastPaired is the last round the TRF pairs anyone in (an opponent, or
// the pairing-allocated bye): the arbiter's byes do not count.
func lastPaired(tr *trf.Tournament) int {
	r := 0
	for _, p := range tr.Players() {
		for i, g := range p.Games {
			if g.Opponent > 0 || g.Result == 'U' {
				r = max(r, i+1)
			}
		}
	}
	return r
}

// importTRF keeps data as the tournament, setting round (0: the latest
// round the file pairs). On any error nothing kept changes.
func (s *Server) importTRF(name string, data []byte, round int) (string, error) {
	if s.o.Tournament == nil {
		return "", errors.New("the hall keeps no tournament (no data directory)")
	}
	tr, err := trf.Parse(name, data)
	if err != nil {
		return "", err
	}
	if round == 0 {
		round = latestRound(tr)
		if round == 0 {
			return s.importPlayers(name, data, tr)
		}
	}
	if round < 1 || round > trf.MaxRounds {
		return "", fmt.Errorf("%s: round %d: want 1 to %d", name, round, trf.MaxRounds)
	}
	boards, _ := tr.Round(round)
	var bs [][2]int
	for _, b := range boards {
		bs = append(bs, [2]int{b.White, b.Black})
	}
	var kept []string
	err = s.o.Tournament.Update(func(t *store.Tournament) error {
		old := *t
		if kept, err = s.keepsResults(old, tr, round, bs); err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		*t = store.Tournament{File: name, TRF: string(data), Past: old.Past, Round: old.Round, Boards: old.Boards, Results: old.Results}
		setRound(t, old, round, bs)
		return nil
	})
	if err != nil {
		return "", err
	}
	msg := fmt.Sprintf("%s: %d players, round %d: %d boards", name, len(tr.Players()), round, len(boards))
	if len(kept) > 0 {
		msg += "; the hall's results kept where the file has others: " + strings.Join(kept, ", ")
	}
	return msg, nil
}

// setRound sets round n with boards on t, which had old: the same round
// again with the same pairings (a re-import of what the hall exported, or
// the same pairing list) keeps the arbiter's order, entries and what was
// sent.
func setRound(t *store.Tournament, old store.Tournament, n int, boards [][2]int) {
	t.NextRound(n, boards)
	if old.Round == n && samePairings(old.Boards, boards) {
		t.Boards, t.Results, t.Sent, t.Asked, t.Refused = old.Boards, old.Results, old.Sent, old.Asked, old.Refused
	}
}

// keepsResults checks that setting round n with boards from tr keeps
// every result the hall has (the arbiter's entries and the clocks'), each
// bound to its game: a round set again with other pairings, a later round
// dropped, or a file that pairs a played round's players otherwise is
// refused, naming the results it would lose. A file's own result that
// differs from the hall's is named in kept: the hall's stays (the
// export writes it).
func (s *Server) keepsResults(old store.Tournament, tr *trf.Tournament, n int, boards [][2]int) (kept []string, err error) {
	if old.Round == 0 {
		return nil, nil
	}
	oldTr, err := trf.Parse(old.File, []byte(old.TRF))
	if err != nil {
		return nil, nil // nothing the hall kept can be read: nothing to keep
	}
	var lost []string
	for _, r := range old.Rounds() {
		for _, rb := range s.roundBoardsOf(r, oldTr, false) {
			if rb.Result == "" || rb.Black == 0 {
				continue
			}
			what := fmt.Sprintf("round %d board %d %d-%d %s", r.Round, rb.Board, rb.White, rb.Black, rb.Result)
			switch {
			case r.Round > n:
				lost = append(lost, what+" (the file sets round "+strconv.Itoa(n)+", before it)")
				continue
			case r.Round == n && !samePairings(r.Boards, boards):
				lost = append(lost, what+" (the file pairs the round otherwise)")
				continue
			}
			w, ok := tr.Player(rb.White)
			if !ok {
				lost = append(lost, fmt.Sprintf("%s (the file has no player %d)", what, rb.White))
				continue
			}
			g := w.Game(r.Round)
			if g.Opponent != rb.Black || g.Colour == 'b' {
				lost = append(lost, fmt.Sprintf("%s (the file pairs %d with %d in round %d)", what, rb.White, g.Opponent, r.Round))
				continue
			}
			b, _ := tr.Player(rb.Black) // there: Parse holds every pairing to the opponent's line
			if g.Result != ' ' && fileResult(g.Result, b.Game(r.Round).Result) != rb.Result {
				kept = append(kept, fmt.Sprintf("round %d board %d: %s (the file %c)", r.Round, rb.Board, rb.Result, g.Result))
			}
		}
	}
	if len(lost) > 0 {
		return nil, fmt.Errorf("it would lose the hall's results: %s; clear them first (PUT /api/boards/K/result with an empty body) or import a file that keeps them", strings.Join(lost, "; "))
	}
	return kept, nil
}

// fileResult is the result the TRF codes of White and Black say, as the
// hall writes it.
func fileResult(w, b byte) string {
	if w == '-' && b == '-' {
		return "-/-"
	}
	return map[byte]string{'1': "1-0", '=': "1/2-1/2", '0': "0-1", 'W': "1-0", 'D': "1/2-1/2", 'L': "0-1", '+': "+/-", '-': "-/+"}[w]
}

// importPlayers keeps a TRF that pairs no one yet (a new event's
// players, for bbpPairings or JaVaFo to pair round 1 from): the
// tournament has its players and no round.
func (s *Server) importPlayers(name string, data []byte, tr *trf.Tournament) (string, error) {
	if len(tr.Players()) == 0 {
		return "", fmt.Errorf("%s: no players (no 001 line)", name)
	}
	err := s.o.Tournament.Update(func(t *store.Tournament) error {
		*t = store.Tournament{File: name, TRF: string(data)}
		return nil
	})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s: %d players, no round paired yet: set round 1 with its pairing list (PUT /api/rounds/1, or the round page)", name, len(tr.Players())), nil
}

// samePairings reports whether a and b pair the same players, in any
// order.
func samePairings(a, b [][2]int) bool {
	if len(a) != len(b) {
		return false
	}
	set := map[[2]int]bool{}
	for _, p := range a {
		set[p] = true
	}
	for _, p := range b {
		if !set[p] {
			return false
		}
	}
	return true
}

// importPairings sets round n's pairings from a -p pairing list on the
// kept TRF, or from a TRF that holds them.
func (s *Server) importPairings(name string, data []byte, n int) (string, error) {
	if n < 1 || n > trf.MaxRounds {
		return "", fmt.Errorf("round %d: want 1 to %d", n, trf.MaxRounds)
	}
	first := strings.Fields(firstLine(data))
	if len(first) != 1 || !isNumber(first[0]) {
		// A TRF-2026 file holding the round's pairings.
		return s.importTRF(name, data, n)
	}
	boards, err := trf.ParsePairingList(name, data)
	if err != nil {
		return "", err
	}
	t, tr, err := s.tournament()
	if err != nil {
		return "", err
	}
	if err := tr.SetPairings(n, boards); err != nil {
		// Board i of the list is its (i+2)nd line, less blank lines.
		return "", fmt.Errorf("%s: %v", name, pairingLine(name, data, err))
	}
	var out bytes.Buffer
	if err := tr.Write(&out); err != nil {
		return "", err
	}
	round, _ := tr.Round(n)
	var bs [][2]int
	for _, b := range round {
		bs = append(bs, [2]int{b.White, b.Black})
	}
	err = s.o.Tournament.Update(func(k *store.Tournament) error {
		if _, err := s.keepsResults(*k, tr, n, bs); err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		old := *k
		k.File, k.TRF = t.File, out.String()
		setRound(k, old, n, bs)
		return nil
	})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("round %d: %d boards", n, len(round)), nil
}

// pairingLine names the line of the pairing list an error of SetPairings
// ("board K: ...") is about.
func pairingLine(name string, data []byte, err error) error {
	msg := err.Error()
	var k int
	if _, e := fmt.Sscanf(strings.TrimPrefix(msg, "trf: "), "board %d:", &k); e != nil || k < 1 {
		return err
	}
	seen := -1 // the count line first
	for i, l := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		seen++
		if seen == k {
			return fmt.Errorf("line %d: %s", i+1, strings.TrimPrefix(msg, "trf: "))
		}
	}
	return err
}

func firstLine(data []byte) string {
	for _, l := range strings.SplitN(string(data[:min(len(data), 4096)]), "\n", 64) {
		if strings.TrimSpace(l) != "" {
			return l
		}
	}
	return ""
}

func isNumber(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil
}

// setAbsent gives the players of lines ("START_RANK CODE" a line, CODE one
// of H, Z, F; a blank line or one starting with # is skipped) their bye
// of round n on the kept TRF, before the round is paired: the exported TRF
// then makes the pairing program leave them unpaired. name names the
// lines in errors. All or nothing: on any error nothing kept changes.
func (s *Server) setAbsent(name string, n int, data []byte) (string, error) {
	if n < 1 || n > trf.MaxRounds {
		return "", fmt.Errorf("round %d: want 1 to %d", n, trf.MaxRounds)
	}
	t, tr, err := s.tournament()
	if err != nil {
		return "", err
	}
	if next := lastPaired(tr) + 1; n > next {
		// A pairing program pairs the round after the last one the file
		// pairs; a bye further ahead would read as that round missed.
		return "", fmt.Errorf("round %d: the file pairs up to round %d: a bye is given for round %d at the latest, before its pairing", n, next-1, next)
	}
	if rd, ok := t.RoundOf(n); ok && (n < t.Round || t.Sent) {
		return "", fmt.Errorf("round %d was sent to the clocks with %d boards: a bye is given before the pairing", n, len(rd.Boards))
	}
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	seen := map[int]int{}
	var done []string
	for i, line := range lines {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		bad := func(format string, args ...any) error {
			return fmt.Errorf("%s: line %d: %.40q: %s", name, i+1, line, fmt.Sprintf(format, args...))
		}
		if len(f) != 2 {
			return "", bad("want START_RANK CODE, CODE one of H (half-point bye), Z (zero-point bye), F (full-point bye)")
		}
		start, err := strconv.Atoi(f[0])
		if err != nil || start < 1 || start > trf.MaxPlayers {
			return "", bad("%q is not a starting rank", f[0])
		}
		code := strings.ToUpper(f[1])
		if len(code) != 1 || !strings.Contains(trf.Absences, code) {
			return "", bad("code %q: want H (half-point bye), Z (zero-point bye) or F (full-point bye)", f[1])
		}
		if at, dup := seen[start]; dup {
			return "", bad("player %d is on line %d too", start, at)
		}
		seen[start] = i + 1
		if err := tr.SetBye(n, start, code[0]); err != nil {
			return "", bad("%v", strings.TrimPrefix(err.Error(), "trf: "))
		}
		done = append(done, fmt.Sprintf("%d %s (%s)", start, playersName(tr, start), code))
	}
	if len(done) == 0 {
		return "", fmt.Errorf("%s: no player given: want START_RANK CODE a line", name)
	}
	var out bytes.Buffer
	if err := tr.Write(&out); err != nil {
		return "", err
	}
	err = s.o.Tournament.Update(func(k *store.Tournament) error {
		if k.TRF != t.TRF {
			return errors.New("the tournament changed meanwhile: give the byes again")
		}
		k.TRF = out.String()
		return nil
	})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("round %d: absent: %s", n, strings.Join(done, ", ")), nil
}

// setHallResult keeps the arbiter's result of board k ("" clears it).
func (s *Server) setHallResult(k int, result string) error {
	if result != "" && !contains(hallResults, result) {
		return fmt.Errorf("result %q: want one of %s, or nothing to clear the hall's", result, strings.Join(hallResults, " "))
	}
	if s.o.Tournament == nil {
		return errors.New("the hall keeps no tournament")
	}
	return s.o.Tournament.Update(func(t *store.Tournament) error {
		if k < 1 || k > len(t.Boards) {
			return fmt.Errorf("board %d: the round has boards 1 to %d", k, len(t.Boards))
		}
		if t.Boards[k-1][1] == 0 {
			return fmt.Errorf("board %d is a bye", k)
		}
		if t.Results == nil {
			t.Results = map[int]string{}
		}
		if result == "" {
			delete(t.Results, k)
		} else {
			t.Results[k] = result
		}
		delete(t.Refused, k) // the arbiter resolved it
		return nil
	})
}

// resultToClock sends the arbiter's result of board k to its clock (the
// result command) when the clock's current game is the round's: the clock
// journals it as the arbiter's. It says what it did, for the message.
func (s *Server) resultToClock(k int, result string) string {
	if result == "" {
		return "" // the hall's entry taken back: the clock's own stands
	}
	if isForfeit(result) {
		return "; a forfeit: no game was played, nothing sent to the clock"
	}
	t, tr, err := s.tournament()
	if err != nil || k < 1 || k > len(t.Boards) {
		return ""
	}
	rb := s.roundBoards(t, tr)[k-1]
	n := k
	if rb.Spare != 0 {
		n = rb.Spare // the game is on the spare clock
	}
	b, ok := s.o.Store.Board(n)
	if !ok || rb.Game == "" || b.Game != rb.Game || !b.IsOnline() {
		return "; the clock has not got it (not online, or another game)"
	}
	id := s.nextID()
	err = s.o.Tournament.Update(func(t *store.Tournament) error {
		if t.Asked == nil {
			t.Asked = map[string]int{}
		}
		for old, b := range t.Asked {
			if b == k {
				delete(t.Asked, old) // the newest command is the one that counts
			}
		}
		t.Asked[id] = k
		return nil
	})
	if err != nil {
		return "; not sent to the clock: " + err.Error()
	}
	if _, err := s.sendAs(id, protocol.ResultCmd{Result: result}, false, []int{n}); err != nil {
		return "; not sent to the clock: " + err.Error()
	}
	if rb.Running {
		return "; sent to the clock, which stops the game"
	}
	return "; sent to the clock"
}

// resultReplied settles the hall's result command that board b's clock
// replied to (Tournament.Asked): a refusal is kept, by board, until the
// arbiter resolves it; it shows on the round page, /arbiter and the
// CSV, and keeps the result out of the exports.
func (s *Server) resultReplied(b store.Board) {
	if s.o.Tournament == nil || b.Reply == nil || b.Reply.Cmd != (protocol.ResultCmd{}).Name() || b.Reply.ID == "" {
		return
	}
	rep := *b.Reply
	t, ok := s.o.Tournament.Get()
	if !ok {
		return
	}
	if _, asked := t.Asked[rep.ID]; !asked {
		return
	}
	err := s.o.Tournament.Update(func(t *store.Tournament) error {
		k, asked := t.Asked[rep.ID]
		if !asked {
			return nil
		}
		delete(t.Asked, rep.ID)
		if rep.OK {
			delete(t.Refused, k)
			return nil
		}
		if t.Refused == nil {
			t.Refused = map[int]string{}
		}
		t.Refused[k] = rep.Error
		return nil
	})
	if err != nil {
		s.o.Logf("web: board %d: the reply to the hall's result: %v", b.Board, err)
	} else if !rep.OK {
		s.o.Logf("web: board %d: the clock refused the hall's result: %s", b.Board, rep.Error)
	}
}

// reorder puts the boards in the order given: old board numbers, each
// once ("3 1 2 ...").
func (s *Server) reorder(order string) error {
	f := strings.FieldsFunc(order, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' || r == '\r' || r == '\t' })
	return s.o.Tournament.Update(func(t *store.Tournament) error {
		if t.Sent {
			return errors.New("the round was sent: its boards keep their numbers")
		}
		if len(f) != len(t.Boards) {
			return fmt.Errorf("order: %d boards given, the round has %d", len(f), len(t.Boards))
		}
		seen := map[int]bool{}
		next := make([][2]int, 0, len(f))
		for i, w := range f {
			k, err := strconv.Atoi(w)
			if err != nil || k < 1 || k > len(t.Boards) || seen[k] {
				return fmt.Errorf("order: place %d: %q is not a board of 1 to %d given once", i+1, w, len(t.Boards))
			}
			seen[k] = true
			next = append(next, t.Boards[k-1])
		}
		t.Boards = next
		return nil
	})
}

// sendRound sends each board's players to its clock, and the control of
// tag 222 as the next game's if control.
func (s *Server) sendRound(control bool) (string, error) {
	t, tr, err := s.tournament()
	if err != nil {
		return "", err
	}
	if t.Round == 0 {
		return "", errors.New("no round paired yet: set round 1 first (a pairing list, or a TRF with the round)")
	}
	var errs []error
	sent := 0
	for _, rb := range s.roundBoards(t, tr) {
		if rb.Black == 0 {
			continue
		}
		if rb.Game != "" {
			continue // the clock opened the round's game already
		}
		if err := s.sendPairing(t.Round, rb); err != nil {
			errs = append(errs, err)
			continue
		}
		sent++
	}
	msg := fmt.Sprintf("round %d: players sent to %d boards", t.Round, sent)
	if control && tr.TimeControl != "" {
		ctl, err := trf.ControlNotation(tr.TimeControl)
		if err != nil {
			errs = append(errs, fmt.Errorf("tag 222: %v", err))
		} else {
			var boards []int
			for i, b := range t.Boards {
				if b[1] != 0 {
					boards = append(boards, i+1)
				}
			}
			if _, err := s.send(protocol.NextGameCmd{Control: ctl}, false, boards); err != nil {
				errs = append(errs, err)
			} else {
				msg += "; control " + humanControl(ctl)
			}
		}
	}
	if err := s.o.Tournament.Update(func(k *store.Tournament) error { k.Sent = true; return nil }); err != nil {
		errs = append(errs, err)
	}
	return msg, errors.Join(errs...)
}

// sendPairing sends board rb's pairing of round to its clock: the clock
// opens a new game for it, or refuses while its game still runs (the hall
// sends it again when that game ends: resendWaiting).
//
// A clock online whose game does not run takes the pairing, so a state
// of its old game that it sent before the command reached it asks for no
// second one: the pairing is marked sent for that game (resent).
func (s *Server) sendPairing(round int, rb roundBoard) error {
	white, black := clip(rb.WhiteName), clip(rb.BlackName)
	_, err := s.send(protocol.PlayersCmd{White: &white, Black: &black, Round: round, Board: rb.Board}, false, []int{rb.Board})
	if b, known := s.o.Store.Board(rb.Board); err == nil && known && b.IsOnline() && b.State != nil && !stillRuns(b) {
		s.resentMu.Lock()
		if s.resent == nil {
			s.resent = map[int]string{}
		}
		s.resent[rb.Board] = fmt.Sprintf("%d %s", round, b.Game)
		s.resentMu.Unlock()
	}
	return err
}

// resendWaiting sends the current round's pairing again to board n's
// clock when it has none of the round's game and its game no longer runs:
// the clock refused the pairing while its game ran.
func (s *Server) resendWaiting(n int) {
	if s.o.Tournament == nil {
		return
	}
	t, ok := s.o.Tournament.Get()
	if !ok || !t.Sent || n < 1 || n > len(t.Boards) || t.Boards[n-1][1] == 0 {
		return
	}
	b, known := s.o.Store.Board(n)
	if !known || b.State == nil || stillRuns(b) || b.GameOf(t.Round, n) != "" || b.ReplacedBy != 0 {
		return
	}
	if p := b.State.State.Pairing; p != nil && p.Round == t.Round && p.Board == n {
		return
	}
	tr, err := trf.Parse(t.File, []byte(t.TRF))
	if err != nil {
		return
	}
	key := fmt.Sprintf("%d %s", t.Round, b.Game)
	s.resentMu.Lock()
	if s.resent == nil {
		s.resent = map[int]string{}
	}
	again := s.resent[n] == key
	s.resent[n] = key
	s.resentMu.Unlock()
	if again {
		return // sent once for this game of the clock already
	}
	pr := t.Boards[n-1]
	rb := roundBoard{Board: n, White: pr[0], Black: pr[1], WhiteName: playersName(tr, pr[0]), BlackName: playersName(tr, pr[1])}
	if err := s.sendPairing(t.Round, rb); err != nil {
		s.o.Logf("web: round %d board %d: pairing sent again: %v", t.Round, n, err)
	}
}

// clip cuts a name to the 64 characters the clocks take.
func clip(name string) string {
	r := []rune(name)
	if len(r) > protocol.MaxName {
		r = r[:protocol.MaxName]
	}
	return strings.TrimSpace(string(r))
}

func (s *Server) roundData() (roundData, error) {
	d := roundData{Results: hallResults}
	t, tr, err := s.tournament()
	if err != nil {
		return d, err
	}
	d.T, d.Name = &t, tr.Name
	if tr.TimeControl != "" {
		if c, err := trf.ControlNotation(tr.TimeControl); err == nil {
			d.Control = humanControl(c)
		} else {
			d.CtlNote = err.Error()
		}
	}
	d.Boards = s.roundBoards(t, tr)
	for _, b := range d.Boards {
		if b.Black != 0 && b.Result == "" {
			d.Missing++
		}
		if b.Problem != "" {
			d.Problems++
		}
	}
	kinds := map[byte]string{'H': "half-point bye", 'F': "full-point bye", 'U': "pairing-allocated bye", 'Z': "zero-point bye", '+': "forfeit win", '-': "forfeit loss", ' ': "not paired"}
	_, byes := tr.Round(t.Round)
	for _, b := range byes {
		d.Byes = append(d.Byes, fmt.Sprintf("%d %s: %s", b.Player, playersName(tr, b.Player), kinds[b.Kind]))
	}
	for _, p := range tr.Players() {
		if g := p.Game(t.Round + 1); g.Opponent == 0 && strings.IndexByte(trf.Absences, g.Result) >= 0 {
			d.Absent = append(d.Absent, fmt.Sprintf("%d %s: %s", p.Start, p.Name, kinds[g.Result]))
		}
	}
	return d, nil
}

// roundSummary is the round for /arbiter, or nil without a tournament.
func (s *Server) roundSummary() *roundData {
	d, err := s.roundData()
	if err != nil || d.T == nil {
		return nil
	}
	return &d
}

func (s *Server) roundPage(w http.ResponseWriter, r *http.Request) {
	sess := s.o.Auth.Session(r)
	if sess == nil {
		http.Redirect(w, r, "/login", http.StatusSeeOther)
		return
	}
	// The page's own reading of itself (round.js) leaves the arbiter's
	// message for the page the arbiter opens next.
	flash := ""
	if r.URL.Query().Get("refresh") == "" {
		flash = s.takeFlash(sess.User)
	}
	d, err := s.roundData()
	if c := s.asked(sess.User); c != nil && s.runs(c.Board) {
		d.Confirm = c // asked while the game still runs; once it ended, there is nothing to confirm
	}
	p := page{Title: "Round", Session: sess, Flash: flash, Data: d}
	if err != nil && d.T == nil && s.hasTournament() {
		// The kept tournament does not read; none imported yet is no
		// error (the page says what to do).
		p.Error = err.Error()
	}
	s.render(w, "round", p)
}

// hasTournament reports whether the hall keeps an imported tournament.
func (s *Server) hasTournament() bool {
	if s.o.Tournament == nil {
		return false
	}
	_, ok := s.o.Tournament.Get()
	return ok
}

// roundPost carries out the round page's forms: import, order, send,
// result.
func (s *Server) roundPost(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, trf.MaxSize+64<<10)
	sess := s.formSession(w, r, func() error {
		if err := r.ParseMultipartForm(1 << 20); err != nil && !errors.Is(err, http.ErrNotMultipart) {
			return err
		}
		return nil
	})
	if sess == nil {
		return
	}
	msg, err := s.roundAction(r, sess.User)
	if err != nil {
		msg = "Not done: " + err.Error()
	}
	s.answer(w, r, sess.User, "round: ", msg, "/arbiter/round")
}

// resultConfirm is a result entered on the round page for a game that
// still runs, waiting for the arbiter's confirmation.
type resultConfirm struct {
	Board  int
	Result string
}

// askResult keeps c as user's result to confirm (the zero one: none).
func (s *Server) askResult(user string, c resultConfirm) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.resultConfirms == nil {
		s.resultConfirms = map[string]resultConfirm{}
	}
	if c.Board == 0 {
		delete(s.resultConfirms, user)
		return
	}
	s.resultConfirms[user] = c
}

// asked is user's result to confirm, if any.
func (s *Server) asked(user string) *resultConfirm {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.resultConfirms[user]; ok {
		return &c
	}
	return nil
}

// runs reports whether board k of the current round has a game that has
// started and still runs.
func (s *Server) runs(k int) bool {
	t, tr, err := s.tournament()
	if err != nil || k < 1 || k > len(t.Boards) {
		return false
	}
	return s.roundBoards(t, tr)[k-1].Running
}

func (s *Server) roundAction(r *http.Request, user string) (string, error) {
	f := r.FormValue
	switch f("action") {
	case "import":
		file, hdr, err := r.FormFile("trf")
		if err != nil {
			return "", errors.New("import: choose a TRF file")
		}
		defer file.Close()
		data, err := io.ReadAll(io.LimitReader(file, trf.MaxSize+1))
		if err != nil {
			return "", err
		}
		round := 0
		if v := strings.TrimSpace(f("round")); v != "" {
			if round, err = strconv.Atoi(v); err != nil || round < 1 {
				return "", fmt.Errorf("round: want a number, got %q", v)
			}
		}
		return s.importTRF(hdr.Filename, data, round)
	case "pairings":
		// A pairing list pasted from bbpPairings or JaVaFo (-p), or a
		// TRF with the round.
		v := strings.TrimSpace(f("pair_round"))
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return "", fmt.Errorf("round: want the round number of the pairing list, got %q", v)
		}
		list := strings.TrimSpace(f("pairings"))
		if list == "" {
			return "", errors.New("pairings: paste the pairing program's list (its -p output)")
		}
		return s.importPairings(fmt.Sprintf("round %d's pairing list", n), []byte(list+"\n"), n)
	case "order":
		if err := s.reorder(f("order")); err != nil {
			return "", err
		}
		return "boards reordered", nil
	case "send":
		return s.sendRound(f("control") == "on")
	case "absent":
		n, err := strconv.Atoi(strings.TrimSpace(f("round")))
		if err != nil {
			return "", fmt.Errorf("absent: round %q: want a number", f("round"))
		}
		return s.setAbsent("absent", n, []byte(f("absent")))
	case "result":
		k, err := strconv.Atoi(f("board"))
		if err != nil {
			return "", errors.New("result: want a board number")
		}
		if res := f("result"); res != "" && f("confirm") != res && s.runs(k) {
			// The arbiter's result stops a running game on the clock:
			// the page asks first (the API's PUT is the confirmation).
			s.askResult(user, resultConfirm{Board: k, Result: res})
			return fmt.Sprintf("board %d's game still runs: confirm below to stop it with %s", k, res), nil
		}
		s.askResult(user, resultConfirm{})
		if err := s.setHallResult(k, f("result")); err != nil {
			return "", err
		}
		if f("result") == "" {
			return fmt.Sprintf("board %d: the hall's result cleared", k), nil
		}
		return fmt.Sprintf("board %d: %s (the arbiter's)", k, f("result")) + s.resultToClock(k, f("result")), nil
	}
	return "", fmt.Errorf("unknown action %q", f("action"))
}

// API. The exports need the arbiter's session or the API token; the
// changes need the token (scripts) or go through the round page.

// apiAllowed reports whether r may use the tournament's API: a logged-in
// arbiter (for GET), or the token.
func (s *Server) apiAllowed(w http.ResponseWriter, r *http.Request, sessionOK bool) bool {
	if sessionOK && s.o.Auth.Session(r) != nil {
		return true
	}
	err := s.o.Auth.Bearer(r, s.o.APIToken)
	if err == nil {
		s.o.Logf("web: api: %s %s from %s (token)", r.Method, r.URL.Path, auth.ClientAddr(r))
		return true
	}
	var tm *auth.ErrTooMany
	if errors.As(err, &tm) {
		w.Header().Set("Retry-After", strconv.Itoa(int(tm.RetryAfter.Seconds())+1))
		http.Error(w, err.Error(), http.StatusTooManyRequests)
	} else {
		w.Header().Set("WWW-Authenticate", `Bearer realm="zeitnot hall"`)
		http.Error(w, err.Error(), http.StatusUnauthorized)
	}
	s.refusedAPI.Logf("web: api: %s %s from %s refused: %v", r.Method, r.URL.Path, auth.ClientAddr(r), err)
	return false
}

// refusedAPIBurst is how many refused API requests a minute are logged;
// the next line after the minute counts those left out.
const refusedAPIBurst = 10

// body reads a PUT's body, bounded.
func body(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, trf.MaxSize))
	if err != nil {
		http.Error(w, fmt.Sprintf("body: %v (at most %d bytes)", err, trf.MaxSize), http.StatusRequestEntityTooLarge)
		return nil, false
	}
	return data, true
}

func (s *Server) apiTRF(w http.ResponseWriter, r *http.Request) {
	if !s.apiAllowed(w, r, true) {
		return
	}
	data, err := s.exportTRF()
	if err != nil {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Disposition", `attachment; filename="tournament.trf"`)
	w.Write(data)
}

// roundOf checks that {n} is the round the hall sets.
func (s *Server) roundOf(w http.ResponseWriter, r *http.Request) (store.Round, *trf.Tournament, bool) {
	t, tr, err := s.tournament()
	if err != nil {
		http.Error(w, err.Error(), http.StatusNotFound)
		return store.Round{}, nil, false
	}
	n, err := strconv.Atoi(r.PathValue("n"))
	rd, ok := t.RoundOf(n)
	if err != nil || !ok {
		http.Error(w, fmt.Sprintf("round %q: the hall set rounds 1 to %d", r.PathValue("n"), t.Round), http.StatusNotFound)
		return rd, nil, false
	}
	return rd, tr, true
}

// roundBoardsAt are round rd's boards: the current round's as the round
// page has them, a past one's bound the same way.
func (s *Server) roundBoardsAt(rd store.Round, tr *trf.Tournament) []roundBoard {
	t, _ := s.o.Tournament.Get()
	return s.roundBoardsOf(rd, tr, rd.Round == t.Round && t.Sent)
}

func (s *Server) apiResultsCSV(w http.ResponseWriter, r *http.Request) {
	if !s.apiAllowed(w, r, true) {
		return
	}
	t, tr, ok := s.roundOf(w, r)
	if !ok {
		return
	}
	var b bytes.Buffer
	cw := csv.NewWriter(&b)
	cw.Write([]string{"round", "board", "white_start", "white", "black_start", "black", "result", "entered_by", "flag", "problem", "game"})
	for _, rb := range s.roundBoardsAt(t, tr) {
		cw.Write([]string{strconv.Itoa(t.Round), strconv.Itoa(rb.Board), strconv.Itoa(rb.White), rb.WhiteName, strconv.Itoa(rb.Black), rb.BlackName, rb.Result, rb.By, rb.Flag, rb.Problem, rb.Game})
	}
	cw.Flush()
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(b.Bytes())
}

func (s *Server) apiRoundPGN(w http.ResponseWriter, r *http.Request) {
	if !s.apiAllowed(w, r, true) {
		return
	}
	t, tr, ok := s.roundOf(w, r)
	if !ok {
		return
	}
	var out strings.Builder
	for _, rb := range s.roundBoardsAt(t, tr) {
		if rb.Game == "" || isForfeit(rb.Result) {
			continue // a forfeit is no game played: its clock's empty game is not published
		}
		result := rb.Result
		if !rb.exported() {
			result = "*" // refused by the clock: the arbiter resolves it first
		}
		tags := pgnTags{Round: strconv.Itoa(t.Round), White: rb.WhiteName, Black: rb.BlackName, Result: result, Extra: playerTags(tr, rb.White, rb.Black)}
		var one strings.Builder
		var err error
		if sp, ok := s.o.Store.Board(rb.Spare); rb.Spare != 0 && ok {
			// The game went on on a spare clock (FIDE 6.10): the board's
			// game whole, its own clock's moves and then the spare's.
			gl := s.logOf(sp.Board, rb.Game)
			if to, ok := sp.Carried(rb.Game); ok {
				gl = s.wholeLog(to, gl)
			}
			err = s.pgnLog(&one, sp, rb.Game, gl, tags)
		} else {
			b, _ := s.o.Store.Board(rb.Board)
			err = s.pgnWith(&one, b, rb.Game, tags)
		}
		if err != nil {
			s.o.Logf("web: round %d pgn: board %d: %v", t.Round, rb.Board, err)
			continue
		}
		out.WriteString(one.String())
	}
	w.Header().Set("Content-Type", "application/x-chess-pgn; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	writeTagged(w, r, out.String())
}

func (s *Server) apiPutTournament(w http.ResponseWriter, r *http.Request) {
	if !s.apiAllowed(w, r, false) {
		return
	}
	data, ok := body(w, r)
	if !ok {
		return
	}
	msg, err := s.importTRF("tournament.trf", data, 0)
	s.apiDone(w, r, msg, err)
}

func (s *Server) apiPutRound(w http.ResponseWriter, r *http.Request) {
	s.apiRoundBody(w, r, func(n int, data []byte) (string, error) {
		return s.importPairings(fmt.Sprintf("round-%d", n), data, n)
	})
}

func (s *Server) apiPutAbsent(w http.ResponseWriter, r *http.Request) {
	s.apiRoundBody(w, r, func(n int, data []byte) (string, error) {
		return s.setAbsent(fmt.Sprintf("absent-%d", n), n, data)
	})
}

// apiRoundBody answers a PUT of round {n}'s body with what do makes of it.
func (s *Server) apiRoundBody(w http.ResponseWriter, r *http.Request, do func(n int, data []byte) (string, error)) {
	if !s.apiAllowed(w, r, false) {
		return
	}
	n, err := strconv.Atoi(r.PathValue("n"))
	if err != nil {
		http.Error(w, fmt.Sprintf("round %q: want a number", r.PathValue("n")), http.StatusNotFound)
		return
	}
	data, ok := body(w, r)
	if !ok {
		return
	}
	msg, err := do(n, data)
	s.apiDone(w, r, msg, err)
}

func (s *Server) apiPutResult(w http.ResponseWriter, r *http.Request) {
	if !s.apiAllowed(w, r, false) {
		return
	}
	k, ok := boardNumber(w, r)
	if !ok {
		return
	}
	data, ok := body(w, r)
	if !ok {
		return
	}
	res := strings.TrimSpace(string(data))
	err := s.setHallResult(k, res)
	msg := fmt.Sprintf("board %d: %s (the arbiter's)", k, res)
	if err == nil {
		msg += s.resultToClock(k, res)
	}
	s.apiDone(w, r, msg, err)
}

// apiDone answers a change: 200 and what was done, or 422 (404, 409: a
// statusError) and what is wrong.
func (s *Server) apiDone(w http.ResponseWriter, r *http.Request, msg string, err error) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if err != nil {
		s.o.Logf("web: api: %s %s: %v", r.Method, r.URL.Path, err)
		code := http.StatusUnprocessableEntity
		var se *statusError
		if errors.As(err, &se) {
			code = se.code
		}
		w.WriteHeader(code)
		fmt.Fprintln(w, err)
		return
	}
	s.o.Logf("web: api: %s %s: %s", r.Method, r.URL.Path, msg)
	fmt.Fprintln(w, msg)
}
