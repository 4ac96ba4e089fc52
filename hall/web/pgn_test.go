package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/hall/store"
	"github.com/zeitnot/zeitnot/internal/pgnreaders"
	"github.com/zeitnot/zeitnot/internal/wallclock/wallclocktest"
	"github.com/zeitnot/zeitnot/protocol"
)

// A game's PGN is dated the day its clock started, as the board's state
// said, not the day it is downloaded; a game never seen started gets today.
func TestPGNDateIsTheGamesDay(t *testing.T) {
	played := time.Date(2026, 3, 7, 19, 30, 0, 0, time.Local)
	today := time.Date(2026, 11, 30, 12, 0, 0, 0, time.Local)
	st, srv := pgnServer(t, Opts{Hall: "club", Clock: wallclocktest.New(today)})
	state := func(game string, at time.Time, started bool) *protocol.StateMsg {
		s := `{"hall":"club","board":3,"game":"` + game + `","time":` + strconv.FormatInt(at.UnixMilli(), 10) + `,"state":{"at":0,"running":"none","paused":false,"first_flag":"none",` +
			`"white":{"ms":1,"moves":0,"period":1,"mode":"fischer"},"black":{"ms":1,"moves":0,"period":1,"mode":"fischer"},"to_move":"white","started":false,"stopped":false}}`
		if started {
			s = strings.Replace(s, `"started":false`, `"started":true`, 1)
		}
		m, err := protocol.ParseStateMsg([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return &m
	}
	// Game 0017: set up the day before, started on the 7th, states after.
	st.PutState(3, state("0017", played.AddDate(0, 0, -1), false), played)
	st.PutState(3, state("0017", played, true), played)
	st.PutState(3, state("0017", played.AddDate(0, 0, 2), true), played)
	// Game 0018: never seen started.
	st.PutState(3, state("0018", played, false), played)
	for _, g := range []string{"0017", "0018"} {
		for i, l := range []string{"format 2", "control 300+2"} {
			if _, err := st.PutLine(3, g, int64(i+1), clocklog.WithChecksum(l)); err != nil {
				t.Fatal(err)
			}
		}
	}
	for game, want := range map[string]string{"0017": "2026.03.07", "0018": "2026.11.30"} {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest("GET", "/api/boards/3/pgn?game="+game, nil))
		if body := rec.Body.String(); rec.Code != 200 || !strings.Contains(body, `[Date "`+want+`"]`) {
			t.Errorf("game %s: %d, want [Date %q]:\n%s", game, rec.Code, want, body)
		}
	}
}

// pgnServer is a hall's web server with o and a store of its own.
func pgnServer(t *testing.T, o Opts) (*store.Store, *Server) {
	t.Helper()
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	o.Store = st
	srv, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return st, srv
}

// hallGame puts game id of board n into st: its lines, its players and a
// last state (stopped when over, else as the state says).
func hallGame(t *testing.T, st *store.Store, n int, id, log string, p store.Players, state string, at time.Time) {
	t.Helper()
	seq := int64(0)
	// The hall takes format 2 lines, each with its checksum, as a link
	// sends them from the clock's journal.
	log = strings.Replace(log, "format 1\n", "", 1)
	if !strings.HasPrefix(log, "format ") {
		log = "format 2\n" + log
	}
	for _, l := range strings.Split(strings.TrimSuffix(log, "\n"), "\n") {
		seq++
		l = clocklog.WithChecksum(l)
		if _, err := st.PutLine(n, id, seq, l); err != nil {
			t.Fatalf("board %d line %d %q: %v", n, seq, l, err)
		}
	}
	if p != (store.Players{}) {
		st.SetPlayers(n, id, p)
	}
	msg := fmt.Sprintf(`{"hall":"club","board":%d,"game":%q,"time":%d,"state":%s}`, n, id, at.UnixMilli(), fullState(t, state))
	m, err := protocol.ParseStateMsg([]byte(msg))
	if err != nil {
		t.Fatalf("board %d state: %v", n, err)
	}
	st.PutState(n, &m, at)
}

// fullState is state with every member a status must have (the
// protocol's check) that it leaves out: a clock at its start.
func fullState(t *testing.T, state string) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(state), &m); err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]any{"at": 0, "running": "none", "paused": false, "first_flag": "none", "to_move": "white", "started": false, "stopped": false} {
		if _, ok := m[k]; !ok {
			m[k] = v
		}
	}
	for _, side := range []string{"white", "black"} {
		sm, _ := m[side].(map[string]any)
		if sm == nil {
			sm = map[string]any{}
		}
		for k, v := range map[string]any{"ms": 300000, "moves": 0, "period": 1, "mode": "fischer"} {
			if _, ok := sm[k]; !ok {
				sm[k] = v
			}
		}
		m[side] = sm
	}
	b, _ := json.Marshal(m)
	return string(b)
}

func get(t *testing.T, srv http.Handler, url string) (*httptest.ResponseRecorder, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest("GET", url, nil))
	return rec, rec.Body.String()
}

// Every PGN the hall serves, of every realistic and scripted game, one
// by one and as games.pgn, reads back in the four PGN readers as the
// game's journal and what the hall knows of it say.
func TestHallPGNReadsBack(t *testing.T) {
	played := time.Date(2026, 3, 7, 19, 30, 0, 0, time.Local)
	st, srv := pgnServer(t, Opts{Hall: "club", Title: "Spring Open", Site: "Vienna AUT", Round: "3", Clock: wallclocktest.New(played)})
	var pgns []string
	var wants [][]pgnreaders.Want
	var all []pgnreaders.Want
	for i, j := range pgnreaders.Games() {
		n, id := i+1, fmt.Sprintf("%04d-3fa2c1", i+1)
		p := store.Players{White: j.Game.White, Black: j.Game.Black}
		hallGame(t, st, n, id, j.Log, p, `{"running":"none","started":true,"stopped":true}`, played)
		l, err := j.Parse()
		if err != nil {
			t.Fatal(err)
		}
		// The hall knows no moves and no result yet.
		want := pgnreaders.Expect(t, l, clocklog.PGNGame{Event: "Spring Open", Site: "Vienna AUT", Round: "3", Date: "2026.03.07", White: p.White, Black: p.Black,
			Extra: [][2]string{{"Board", fmt.Sprint(n)}, {"ZeitnotGame", id}}})
		rec, body := get(t, srv, fmt.Sprintf("/api/boards/%d/pgn", n))
		if rec.Code != 200 {
			t.Fatalf("board %d: %d %s", n, rec.Code, body)
		}
		pgns = append(pgns, body)
		wants = append(wants, []pgnreaders.Want{want})
		if strings.Contains(j.Log, " start\n") {
			all = append(all, want) // games.pgn has the games played
		}
	}
	rec, body := get(t, srv, "/api/games.pgn")
	if rec.Code != 200 || rec.Header().Get("X-Zeitnot-Unreadable") != "" {
		t.Fatalf("games.pgn: %d %v", rec.Code, rec.Header())
	}
	pgnreaders.CheckAll(t, append(pgns, body), append(wants, all))
}

// games.pgn: a game the hall cannot read is named in a header, never
// written into the file; a spare's game that never started is left out,
// and the game it took over is in, as it stood; a game under way is in
// only with ?all=1. A name set on the clock during a game is its PGN's.
func TestGamesPGNChoosesGames(t *testing.T) {
	now := time.Date(2026, 3, 7, 19, 30, 0, 0, time.Local)
	var logs []string
	st, srv := pgnServer(t, Opts{Hall: "club", Clock: wallclocktest.New(now), Logf: func(f string, a ...any) { logs = append(logs, fmt.Sprintf(f, a...)) }})
	over := `{"running":"none","started":true,"stopped":true}`
	// Board 1: a finished game.
	hallGame(t, st, 1, "0001-aaaaaa", "control 300+2\n0 start\n4000 press white\n", store.Players{}, over, now)
	// Board 2: a game the hall cannot read.
	hallGame(t, st, 2, "0002-aaaaaa", "nonsense\n", store.Players{}, over, now)
	// Board 7: its clock broke during a game, paused, 21 and 20 moves in.
	interrupted := "control 40/5400+30:1800+30\n0 start\n"
	at := int64(0)
	for i := 0; i < 41; i++ {
		at += 60000
		interrupted += fmt.Sprintf("%d press %s\n", at, []string{"white", "black"}[i%2])
	}
	interrupted += fmt.Sprintf("%d pause\n", at+1000)
	hallGame(t, st, 7, "0007-aaaaaa", interrupted, store.Players{}, `{"running":"none","started":true,"paused":true,"white":{"ms":4200000,"moves":21},"black":{"ms":4100500,"moves":20},"players":{"white":"Set, On The Clock","black":"Black, B"}}`, now)
	// Board 9, the spare: a game set up and never played, then the game
	// it took over from board 7, resumed and played on.
	hallGame(t, st, 9, "0009-aaaaaa", "control 300+2\n", store.Players{}, `{"running":"none","started":false}`, now)
	st.AskTakeover(9, 7, "h1")
	st.PutReply(9, protocol.Reply{ID: "h1", Cmd: "takeover", Board: 9, OK: true}, now)
	hallGame(t, st, 9, "0010-aaaaaa", "control 40/5400+30:1800+30\n0 set white 4200000\n0 moves white 21\n0 set black 4100500\n0 moves black 20\n0 turn black\n0 start\n0 pause\n5000 resume\n9000 press black\n", store.Players{}, `{"running":"white","started":true,"white":{"ms":4200000,"moves":21},"black":{"ms":4126500,"moves":21}}`, now)
	// Board 12: a game under way.
	hallGame(t, st, 12, "0012-aaaaaa", "control 300+2\n0 start\n4000 press white\n", store.Players{}, `{"running":"black","started":true}`, now)

	rec, body := get(t, srv, "/api/games.pgn")
	if h := rec.Header().Get("X-Zeitnot-Unreadable"); h != "board 2 game 0002-aaaaaa" {
		t.Errorf("X-Zeitnot-Unreadable %q", h)
	}
	if len(logs) != 1 || !strings.Contains(logs[0], "board 2 game 0002-aaaaaa") {
		t.Errorf("logged %q", logs)
	}
	if strings.Contains(body, "\n;") || strings.Contains(body, "0002-aaaaaa") {
		t.Errorf("the unreadable game is in the file:\n%s", body)
	}
	games := func(body string) []string {
		var ids []string
		for _, l := range strings.Split(body, "\n") {
			if id, ok := strings.CutPrefix(l, `[ZeitnotGame "`); ok {
				ids = append(ids, strings.TrimSuffix(id, `"]`))
			}
		}
		return ids
	}
	if got, want := strings.Join(games(body), " "), "0001-aaaaaa 0007-aaaaaa"; got != want {
		t.Errorf("games.pgn has %s, want %s", got, want)
	}
	if !strings.Contains(body, `[White "Set, On The Clock"]`) {
		t.Errorf("no name from the clock:\n%s", body)
	}
	// The spare's game is board 7's, with its players, and says which
	// game it carries on.
	_, cont := get(t, srv, "/api/boards/9/pgn")
	for _, want := range []string{`[Board "7"]`, `[ZeitnotGame "0010-aaaaaa"]`, `[ZeitnotContinues "0007-aaaaaa"]`, `[White "Set, On The Clock"]`, "{clock record, moves not known: 21... clk"} {
		if !strings.Contains(cont, want) {
			t.Errorf("the spare's game has no %s:\n%s", want, cont)
		}
	}
	_, body = get(t, srv, "/api/games.pgn?all=1")
	if got, want := strings.Join(games(body), " "), "0001-aaaaaa 0007-aaaaaa 0010-aaaaaa 0012-aaaaaa"; got != want {
		t.Errorf("games.pgn?all=1 has %s, want %s", got, want)
	}
	if rec, body := get(t, srv, "/api/boards/2/pgn"); rec.Code != 422 || !strings.Contains(body, "board 2 game 0002-aaaaaa") {
		t.Errorf("/api/boards/2/pgn: %d %s", rec.Code, body)
	}
	// Last, as it skips without node: the readers read all four.
	for name, r := range pgnreaders.Read(t, body)[0] {
		if !r.OK || len(r.Games) != 4 {
			t.Errorf("%s reads games.pgn?all=1 as %+v", name, r)
		}
	}
}

// Names the arbiter sends during a game are that game's in its PGN (the
// clock shows them at once) and the next game's; before the start, the
// game's.
func TestPlayersSetDuringAGame(t *testing.T) {
	st, srv := pgnServer(t, Opts{Hall: "club"})
	now := time.Date(2026, 3, 7, 19, 30, 0, 0, time.Local)
	hallGame(t, st, 4, "0004-aaaaaa", "control 300+2\n0 start\n4000 press white\n", store.Players{}, `{"running":"black","started":true}`, now)
	srv.setPlayers(4, store.Players{White: "Ju, Wenjun", Black: "Lei, Tingjie"})
	if _, body := get(t, srv, "/api/boards/4/pgn"); !strings.Contains(body, `[White "Ju, Wenjun"]`) || !strings.Contains(body, `[Black "Lei, Tingjie"]`) {
		t.Errorf("names set during the game are not in its PGN:\n%s", body)
	}
	hallGame(t, st, 4, "0005-aaaaaa", "control 300+2\n", store.Players{}, `{"running":"none","started":false}`, now)
	if b, _ := st.Board(4); b.Players["0005-aaaaaa"] != (store.Players{White: "Ju, Wenjun", Black: "Lei, Tingjie"}) {
		t.Errorf("the next game's names: %+v", b.Players)
	}
	srv.setPlayers(4, store.Players{White: "A"})
	if b, _ := st.Board(4); b.Players["0005-aaaaaa"] != (store.Players{White: "A"}) || b.Players["0004-aaaaaa"].White != "Ju, Wenjun" {
		t.Errorf("names before the start: %+v", b.Players)
	}
}

// The cards show the names the PGN has: set during the game by the hall,
// or on the clock, from the moment they are set, not only from the next
// game.
func TestCardNamesDuringAGame(t *testing.T) {
	st, srv := pgnServer(t, Opts{Hall: "club"})
	now := time.Date(2026, 3, 7, 19, 30, 0, 0, time.Local)
	hallGame(t, st, 4, "0004-aaaaaa", "control 300+2\n0 start\n4000 press white\n", store.Players{},
		`{"running":"black","started":true,"players":{"white":"Set, On The Clock","black":"Too, Black"}}`, now)
	b, _ := st.Board(4)
	if v := viewOf(b, now); v.White != "Set, On The Clock" || v.Black != "Too, Black" {
		t.Errorf("the card shows %q, %q; the clock has the names", v.White, v.Black)
	}
	srv.setPlayers(4, store.Players{White: "Ju, Wenjun", Black: "Lei, Tingjie"})
	b, _ = st.Board(4)
	if v := viewOf(b, now); v.White != "Ju, Wenjun" || v.Black != "Lei, Tingjie" {
		t.Errorf("the card shows %q, %q after the hall set the names during the game", v.White, v.Black)
	}
}
