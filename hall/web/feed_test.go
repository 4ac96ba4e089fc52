package web

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/hall/store"
	"github.com/zeitnot/zeitnot/internal/pgnreaders"
	"github.com/zeitnot/zeitnot/internal/wallclock/wallclocktest"
	"github.com/zeitnot/zeitnot/protocol"
)

// boardGame is a game played on an electronic board: each move's SAN and
// UCI, the position it starts from ("" the initial one), and the press
// whose move line is missing (0 none: the board was lost at it).
type boardGame struct {
	name    string
	moves   [][2]string
	fen     string
	missing int
}

// pairs reads "e4 e2e4 e5 e7e5 ..." as moves.
func pairs(s string) [][2]string {
	f := strings.Fields(s)
	var out [][2]string
	for i := 0; i+1 < len(f); i += 2 {
		out = append(out, [2]string{f[i], f[i+1]})
	}
	return out
}

var boardGames = []boardGame{
	{name: "ruy-lopez-castling", moves: pairs("e4 e2e4 e5 e7e5 Nf3 g1f3 Nc6 b8c6 Bb5 f1b5 a6 a7a6 Ba4 b5a4 Nf6 g8f6 O-O e1g1 Be7 f8e7 Re1 f1e1 b5 b7b5 Bb3 a4b3 d6 d7d6 c3 c2c3 O-O e8g8 h3 h2h3 Nb8 c6b8 d4 d2d4 Nbd7 b8d7")},
	{name: "en-passant", moves: pairs("e4 e2e4 Nf6 g8f6 e5 e4e5 d5 d7d5 exd6 e5d6 exd6 e7d6")},
	{name: "promotion", moves: pairs("e4 e2e4 d5 d7d5 exd5 e4d5 c6 c7c6 dxc6 d5c6 Qc7 d8c7 cxb7 c6b7 Qd8 c7d8 bxa8=Q b7a8q")},
	{name: "underpromotion", moves: pairs("e4 e2e4 d5 d7d5 exd5 e4d5 c6 c7c6 dxc6 d5c6 Qc7 d8c7 cxb7 c6b7 Qd8 c7d8 bxc8=N b7c8n")},
	{name: "mate", moves: pairs("f3 f2f3 e5 e7e5 g4 g2g4 Qh4# d8h4")},
	{name: "board-lost-at-press-5", moves: pairs("d4 d2d4 d5 d7d5 c4 c2c4 e6 e7e6 Nc3 b1c3 Nf6 g8f6"), missing: 5},
	{name: "set-up-position-black-to-move", moves: pairs("Kf3 e3f3 O-O+ e1g1 Kg3 f3g3"), fen: "8/8/8/8/8/4k3/8/4K2R b K - 0 60"},
}

// log is g's journal as the clock writes it: a press a minute, each move
// line 300 ms after its press.
func (g boardGame) log() string {
	var b strings.Builder
	b.WriteString("control 5400+30\n")
	if g.fen != "" {
		fmt.Fprintf(&b, "0 position 0 %s\n", g.fen)
	}
	b.WriteString("0 start\n")
	side := []string{"white", "black"}
	first := 0
	if strings.Contains(g.fen, " b ") {
		first = 1
	}
	for i, m := range g.moves {
		at := int64(i+1) * 60000
		// A game from a set-up position with Black to move: the clock's
		// turn is set before the start (the arbiter's correction).
		fmt.Fprintf(&b, "%d press %s\n", at, side[(i+first)%2])
		if i+1 != g.missing {
			fmt.Fprintf(&b, "%d move %d %s %s\n", at+300, i+1, m[0], m[1])
		}
	}
	s := b.String()
	if first == 1 {
		s = strings.Replace(s, "0 start\n", "0 turn black\n0 start\n", 1)
	}
	return s
}

// The hall's PGN of games played on an electronic board has the real
// moves, each with [%clk] and [%emt], through the one writer, and reads
// back move for move in the four PGN readers; a move the board lost
// and the ones after it go to the clock record; a set-up position gives
// SetUp and FEN.
func TestHallPGNWithBoardMovesReadsBack(t *testing.T) {
	played := time.Date(2026, 3, 7, 19, 30, 0, 0, time.Local)
	st, srv := pgnServer(t, Opts{Hall: "club", Title: "Spring Open", Clock: wallclocktest.New(played)})
	var pgns []string
	var wants [][]pgnreaders.Want
	for i, g := range boardGames {
		n, id := i+1, fmt.Sprintf("%04d-eb0a4d", i+1)
		hallGame(t, st, n, id, g.log(), store.Players{White: "W " + g.name, Black: "B"}, `{"running":"none","started":true,"stopped":true}`, played)
		l, err := clocklog.ReadLog(g.name, []byte("format 1\n"+g.log()))
		if err != nil {
			t.Fatalf("%s: %v", g.name, err)
		}
		var san []string
		for _, m := range g.moves {
			san = append(san, m[0])
		}
		if g.missing > 0 {
			san = san[:g.missing-1]
		}
		want := pgnreaders.Expect(t, l, clocklog.PGNGame{Event: "Spring Open", Date: "2026.03.07", White: "W " + g.name, Black: "B", Moves: san,
			Extra: [][2]string{{"Board", fmt.Sprint(n)}, {"ZeitnotGame", id}}})
		if g.fen != "" {
			want.Tags["SetUp"], want.Tags["FEN"] = "1", g.fen
		}
		rec, body := get(t, srv, fmt.Sprintf("/api/boards/%d/pgn", n))
		if rec.Code != 200 {
			t.Fatalf("%s: %d %s", g.name, rec.Code, body)
		}
		if text := strings.Join(strings.Fields(body), " "); len(san) > 0 && !strings.Contains(text, " "+san[len(san)-1]+" {[%clk ") {
			t.Errorf("%s: the PGN has not the moves:\n%s", g.name, body)
		}
		pgns = append(pgns, body)
		wants = append(wants, []pgnreaders.Want{want})
	}
	pgnreaders.CheckAll(t, pgns, wants)
}

// /round.pgn, the round's feed for broadcasts: every board's game, in
// board order, ?boards= a part of them; with a broadcast delay each game
// as it stood that long ago (moves, clocks and result), and a board's
// game that started within the delay not yet (its game before it); a
// game whose time on the wall is not known is left out rather than shown
// early.
func TestRoundFeed(t *testing.T) {
	epoch := time.Date(2026, 3, 7, 19, 0, 0, 0, time.UTC)
	clk := wallclocktest.New(epoch) // the hall's now (the live streams read it too)
	setNow := func(d time.Duration) { clk.Advance(epoch.Add(d).Sub(clk.Now())) }
	st, srv := pgnServer(t, Opts{Hall: "club", Clock: clk, BroadcastDelay: 15 * time.Minute})
	live, err := New(Opts{Store: st, Hall: "club", Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(live.Close)
	g := boardGames[0]
	// Board 1: the Ruy Lopez, a move a minute, White wins at 21 minutes.
	// Its state held 21 minutes in, at instant 21 minutes.
	log := g.log() + "1260000 result 1-0 arbiter\n"
	hallGame(t, st, 1, "0001-aaaaaa", log, store.Players{}, `{"at":1260000,"running":"none","started":true,"stopped":true}`, epoch.Add(21*time.Minute))
	// Board 2: a game with no state (its wall time not known).
	hallGame2 := func(n int, id, log string) {
		for i, l := range strings.Split(strings.TrimSuffix("format 2\n"+log, "\n"), "\n") {
			if _, err := st.PutLine(n, id, int64(i+1), clocklog.WithChecksum(l)); err != nil {
				t.Fatal(err)
			}
		}
	}
	hallGame2(2, "0002-aaaaaa", boardGames[1].log())
	// Board 3: a game over at 5 minutes, then the next one started at 30.
	hallGame(t, st, 3, "0003-aaaaaa", boardGames[4].log(), store.Players{}, `{"at":300000,"running":"none","started":true,"stopped":true}`, epoch.Add(5*time.Minute))
	hallGame(t, st, 3, "0003-bbbbbb", boardGames[1].log(), store.Players{}, `{"at":0,"running":"white","started":true}`, epoch.Add(30*time.Minute))

	feed := func(h *Server, url string) (string, []string) {
		t.Helper()
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", url, nil))
		if rec.Code != 200 {
			t.Fatalf("%s: %d %s", url, rec.Code, rec.Body)
		}
		body := rec.Body.String()
		var games []string
		for i, p := range strings.Split(body, "\n\n[Event ") {
			if i > 0 {
				p = "[Event " + p
			}
			if strings.TrimSpace(p) != "" {
				games = append(games, p)
			}
		}
		return body, games
	}
	// Not delayed: every board's current game, in board order.
	setNow(31 * time.Minute)
	body, _ := feed(live, "/round.pgn")
	for _, want := range []string{`[ZeitnotGame "0001-aaaaaa"]`, `[ZeitnotGame "0002-aaaaaa"]`, `[ZeitnotGame "0003-bbbbbb"]`, `10... Nbd7`, `[Result "1-0"]`} {
		if !strings.Contains(body, want) {
			t.Errorf("not delayed: no %s in\n%s", want, body)
		}
	}
	if i, j := strings.Index(body, "0001-aaaaaa"), strings.Index(body, "0003-bbbbbb"); i < 0 || j < i {
		t.Errorf("not delayed: the games are not in board order")
	}
	if body, _ := feed(live, "/round.pgn?boards=2-3"); strings.Contains(body, "0001-aaaaaa") || !strings.Contains(body, "0002-aaaaaa") || !strings.Contains(body, "0003-bbbbbb") {
		t.Errorf("?boards=2-3:\n%s", body)
	}
	// Delayed 15 minutes, at 31 minutes: as at 16 minutes. Board 1 has
	// 16 moves (the 16th at 16:00.3 is not yet), no result; board 2 is
	// left out; board 3 shows its first game, over.
	body, games := feed(srv, "/round.pgn")
	if strings.Contains(body, "0002-aaaaaa") || strings.Contains(body, "0003-bbbbbb") || !strings.Contains(body, "0003-aaaaaa") {
		t.Errorf("delayed: the wrong games:\n%s", body)
	}
	one := games[0]
	if len(games) != 2 || !strings.Contains(one, "0001-aaaaaa") || !strings.Contains(one, "8. c3 {") || strings.Contains(one, "8... O-O") || !strings.Contains(one, `[Result "*"]`) || !strings.HasSuffix(strings.TrimSpace(one), "*") {
		t.Errorf("delayed: board 1 as at 16 minutes, 15 moves, no result:\n%s", one)
	}
	if strings.Contains(one, "Nbd7") || strings.Contains(one, "1-0") {
		t.Errorf("delayed: board 1 shows what came after 16 minutes:\n%s", one)
	}
	// At 36 minutes, as at 21: every move and the result.
	setNow(36 * time.Minute)
	body, _ = feed(srv, "/round.pgn?boards=1")
	if !strings.Contains(body, "10... Nbd7") || !strings.Contains(body, `[Result "1-0"]`) || strings.Contains(body, "0003-") {
		t.Errorf("delayed, at 36 minutes: board 1 whole with its result:\n%s", body)
	}
	// At 46, board 3's second game (started at 30) shows, 1 minute in.
	setNow(46*time.Minute + time.Second)
	if body, _ := feed(srv, "/round.pgn?boards=3"); !strings.Contains(body, "0003-bbbbbb") || !strings.Contains(body, "1. e4 {") || strings.Contains(body, "Nf6") {
		t.Errorf("delayed, at 46 minutes: board 3's second game, one move in:\n%s", body)
	}
	for _, bad := range []string{"x", "0", "5-2", "1-100000", "-3"} {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest("GET", "/round.pgn?boards="+bad, nil))
		if rec.Code != 400 {
			t.Errorf("?boards=%s: %d, want 400", bad, rec.Code)
		}
	}
}

// A hall of more boards than a broadcast takes: the feed gives the first
// MaxFeedGames in board order and says how many it left out; a range
// gives the rest.
func TestRoundFeedAtMostAHundred(t *testing.T) {
	epoch := time.Date(2026, 3, 7, 19, 0, 0, 0, time.UTC)
	st, srv := pgnServer(t, Opts{Hall: "club", Clock: wallclocktest.New(epoch.Add(time.Hour))})
	const boards = MaxFeedGames + 5
	for n := 1; n <= boards; n++ {
		hallGame(t, st, n, fmt.Sprintf("%04d-aaaaaa", n), boardGames[0].log(), store.Players{}, `{"at":60000,"running":"black","started":true}`, epoch.Add(time.Minute))
	}
	count := func(url string) (int, *httptest.ResponseRecorder) {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest("GET", url, nil))
		if rec.Code != 200 {
			t.Fatalf("%s: %d %s", url, rec.Code, rec.Body)
		}
		return strings.Count(rec.Body.String(), "[Event "), rec
	}
	n, rec := count("/round.pgn")
	if n != MaxFeedGames || rec.Header().Get("X-Zeitnot-Games") != fmt.Sprint(MaxFeedGames) || rec.Header().Get("X-Zeitnot-Left-Out") != "5" {
		t.Errorf("/round.pgn of %d boards: %d games, headers %v", boards, n, rec.Header())
	}
	if body := rec.Body.String(); !strings.Contains(body, `[Board "100"]`) || strings.Contains(body, `[Board "101"]`) {
		t.Errorf("/round.pgn: not the first %d boards", MaxFeedGames)
	}
	if n, rec := count(fmt.Sprintf("/round.pgn?boards=101-%d", boards)); n != 5 || rec.Header().Get("X-Zeitnot-Left-Out") != "" {
		t.Errorf("?boards=101-%d: %d games, headers %v", boards, n, rec.Header())
	}
}

// A takeover in a feed that runs behind: until the feed reaches the
// takeover, board 5 is its own clock's game as it stood; from then on the
// spare's, whole, as board 5. Board 5 is never missing from it (it was
// while the spare's game was not yet in the feed).
func TestRoundFeedDelayedTakeover(t *testing.T) {
	epoch := time.Date(2026, 3, 7, 19, 0, 0, 0, time.UTC)
	clk := wallclocktest.New(epoch)
	st, srv := pgnServer(t, Opts{Hall: "club", Clock: clk, BroadcastDelay: 15 * time.Minute})
	g := boardGame{moves: boardGames[0].moves[:8]} // 1. e4 e5 ... 4. Ba4 Nf6, a move a minute
	hallGame(t, st, 5, "0005-aaaaaa", g.log(), store.Players{White: "Schmidt, Anna", Black: "Papp, Ádám"}, `{"at":480000,"running":"white","started":true}`, epoch.Add(8*time.Minute))
	// Board 5's clock dies; at 12 minutes spare clock 9 takes over.
	st.AskTakeover(9, 5, "h-1")
	hallGame(t, st, 9, "0009-bbbbbb", "control 5400+30\n0 set white 5190000\n0 moves white 4\n0 set black 5190000\n0 moves black 4\n0 start\n0 pause\n0 resume\n60000 press white\n60300 move 1 O-O e1g1\n",
		store.Players{}, `{"at":60000,"running":"black","started":true}`, epoch.Add(13*time.Minute))
	st.PutReply(9, protocol.Reply{ID: "h-1", Cmd: "takeover", Board: 9, OK: true}, epoch.Add(12*time.Minute))
	feed := func() string {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest("GET", "/round.pgn", nil))
		return rec.Body.String()
	}
	clk.Advance(20 * time.Minute) // as at 5 minutes: before the takeover
	if body := feed(); strings.Count(body, `[Board "5"]`) != 1 || !strings.Contains(body, `[ZeitnotGame "0005-aaaaaa"]`) || !strings.Contains(body, "1. e4 {") || strings.Contains(body, "Nf6") {
		t.Errorf("as at 5 minutes, want board 5's own clock's game, 5 moves in:\n%s", body)
	}
	clk.Advance(10 * time.Minute) // at 30, as at 15 minutes: after it
	body := feed()
	if strings.Count(body, `[Board "5"]`) != 1 || !strings.Contains(body, `[ZeitnotGame "0009-bbbbbb"]`) || !strings.Contains(body, "1. e4 {") || !strings.Contains(body, "5. O-O {") || !strings.Contains(body, `[White "Schmidt, Anna"]`) {
		t.Errorf("as at 15 minutes, want the spare's game as board 5's, whole:\n%s", body)
	}
}
