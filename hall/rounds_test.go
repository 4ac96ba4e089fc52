package hall

import (
	"encoding/csv"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/devtools/fakeclock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/hall/trf"
	"github.com/zeitnot/zeitnot/internal/wait"
)

// TestRoundTwoKeepsRoundOne: round 1 played to results on the clocks,
// round 2 set from a -p pairing list and sent while the clocks still hold
// their finished round-1 games (one still running): round 2's table shows
// every result missing, the running board waits for its game and gets its
// pairing when that game ends, and round 1's games keep their names and
// results in the store, the CSV, the PGN and the TRF.
func TestRoundTwoKeepsRoundOne(t *testing.T) {
	h := startHall(t, func(c *Config) { c.APIToken = []byte(testToken) })
	clocks := make([]*fakeclock.Clock, 9)
	for k := 1; k <= 8; k++ {
		clocks[k] = dialClock(t, brokerURL(h), k, func(o *fakeclock.Opts) { o.Control = "60" })
	}
	wait.For(t, 10*time.Second, "8 boards in the store", func() bool { return len(h.Store().Boards()) == 8 })
	if code, msg := apiDo(t, h, "PUT", "/api/tournament", testToken, []byte(eightBoards())); code != 200 {
		t.Fatalf("PUT /api/tournament: %d %s", code, msg)
	}
	post, _ := roundForms(t, h)
	csvOf := func(n int) [][]string {
		t.Helper()
		code, text := apiDo(t, h, "GET", fmt.Sprintf("/api/rounds/%d/results.csv", n), testToken, nil)
		rows, err := csv.NewReader(strings.NewReader(text)).ReadAll()
		if code != 200 || err != nil {
			t.Fatalf("round %d results.csv: %d %v %s", n, code, err, text)
		}
		return rows[1:]
	}
	// The clock's game for the round: its state's pairing.
	paired := func(k, round int) bool {
		b, ok := h.Store().Board(k)
		return ok && b.State != nil && b.State.State.Pairing != nil && b.State.State.Pairing.Round == round && b.State.State.Pairing.Board == k
	}
	// sent waits for the round's players at clock k and for what the
	// clock made of them: the game of the pairing, or (a hall that sends
	// names without a pairing) the names alone.
	sent := func(k, round int, white string) {
		t.Helper()
		wait.For(t, 10*time.Second, fmt.Sprintf("board %d's round-%d players", k, round), func() bool {
			for _, c := range clocks[k].Commands() {
				if cmd := string(c); strings.Contains(cmd, `"cmd":"players"`) && strings.Contains(cmd, fmt.Sprintf(`"white":%q`, white)) {
					return paired(k, round) || !strings.Contains(cmd, `"round"`)
				}
			}
			return false
		})
	}

	// Round 1: sent, played, 7 results confirmed; board 8 plays on.
	post(url.Values{"action": {"send"}, "control": {"on"}})
	for k := 1; k <= 8; k++ {
		sent(k, 1, strings.Split(eightBoardsName(k), "|")[0])
	}
	round1 := map[int]string{}
	results := []clocklog.Result{clocklog.NoResult, clocklog.WhiteWins, clocklog.BlackWins, clocklog.Draw, clocklog.WhiteWins, clocklog.BlackWins, clocklog.Draw, clocklog.WhiteWins, clocklog.NoResult}
	for k := 1; k <= 8; k++ {
		clocks[k].Press()
		clocks[k].Press()
		clocks[k].Press()
		round1[k] = clocks[k].Game()
		if k < 8 {
			clocks[k].Pause()
			clocks[k].Result(results[k], clocklog.Players)
		}
	}
	waitIdle(t, clocks[1:]...)
	wait.For(t, 10*time.Second, "round 1's 7 results", func() bool {
		n := 0
		for _, r := range csvOf(1) {
			if r[6] != "" {
				n++
			}
		}
		return n == 7
	})
	_, trf1 := apiDo(t, h, "GET", "/api/tournament.trf", testToken, nil)

	// Round 2 from a -p list: board k is k+8 against k+1 (8 against 1).
	var list strings.Builder
	list.WriteString("8\n")
	for k := 1; k <= 8; k++ {
		fmt.Fprintf(&list, "%d %d\n", k+8, k%8+1)
	}
	// The TRF the pairing program read holds round 1's results: the
	// hall's export.
	if code, msg := apiDo(t, h, "PUT", "/api/tournament", testToken, []byte(trf1)); code != 200 {
		t.Fatalf("re-import: %d %s", code, msg)
	}
	if code, msg := apiDo(t, h, "PUT", "/api/rounds/2", testToken, []byte(list.String())); code != 200 || !strings.Contains(msg, "round 2: 8 boards") {
		t.Fatalf("PUT /api/rounds/2: %d %s", code, msg)
	}
	post(url.Values{"action": {"send"}})
	for k := 1; k <= 7; k++ {
		sent(k, 2, strings.Split(eightBoardsName(k+8), "|")[0])
	}
	wait.For(t, 10*time.Second, "board 8's answer", func() bool {
		b, _ := h.Store().Board(8)
		n := 0
		for _, c := range clocks[8].Commands() {
			n += strings.Count(string(c), `"cmd":"players"`)
		}
		return b.Reply != nil && b.Reply.Cmd == "players" && n == 2
	})
	waitIdle(t, clocks[1:]...)
	if p := post(nil); !strings.Contains(p, ">8</span> results missing") || !strings.Contains(p, "board 8: the game still runs") {
		t.Errorf("round 2's page after the send:\n%s", p)
	}
	for _, r := range csvOf(2) {
		if r[6] != "" || r[0] != "2" {
			t.Errorf("round 2's CSV before any game: %v", r)
		}
	}

	// Round 1 stays whole.
	check1 := func(when string) {
		t.Helper()
		rows := csvOf(1)
		if len(rows) != 8 {
			t.Fatalf("%s: round 1's CSV has %d boards", when, len(rows))
		}
		for _, r := range rows {
			var k int
			fmt.Sscan(r[1], &k)
			want := ""
			if results[k] != clocklog.NoResult {
				want = results[k].String()
			}
			if r[6] != want || r[10] != round1[k] || r[2] != fmt.Sprint(k) {
				t.Errorf("%s: round 1's CSV board %d: %v, want %q game %s", when, k, r, want, round1[k])
			}
		}
		for k := 1; k <= 8; k++ {
			b, _ := h.Store().Board(k)
			w, _ := func() (string, bool) { p := b.Players[round1[k]]; return p.White, true }()
			if want := strings.Split(eightBoardsName(k), "|")[0]; w != want {
				t.Errorf("%s: board %d's round-1 game %s: White %q, want %q", when, k, round1[k], w, want)
			}
		}
		code, pgn := apiDo(t, h, "GET", "/api/rounds/1/games.pgn", testToken, nil)
		if code != 200 || strings.Count(pgn, "[Event ") != 8 || !strings.Contains(pgn, `[White "Meier, Jürgen"]`) || strings.Contains(pgn, `[Round "2"]`) ||
			!strings.Contains(pgn, `[WhiteElo "2590"]`) || !strings.Contains(pgn, `[WhiteFideId "4600001"]`) || !strings.Contains(pgn, `[BlackElo "2510"]`) {
			t.Errorf("%s: round 1's PGN: %d\n%s", when, code, pgn)
		}
		_, out := apiDo(t, h, "GET", "/api/tournament.trf", testToken, nil)
		tr, err := trf.Parse("exported.trf", []byte(out))
		if err != nil {
			t.Fatalf("%s: the TRF: %v", when, err)
		}
		codes := map[clocklog.Result]byte{clocklog.NoResult: ' ', clocklog.WhiteWins: '1', clocklog.BlackWins: '0', clocklog.Draw: '='}
		for k := 1; k <= 8; k++ {
			w, _ := tr.Player(k)
			want := codes[results[k]]
			if w.Game(1).Result != want {
				t.Errorf("%s: TRF round 1 board %d: %c, want %c", when, k, w.Game(1).Result, want)
			}
			if g := w.Game(2); g.Result != ' ' {
				t.Errorf("%s: TRF round 2: player %d has result %c of a game not played", when, k, g.Result)
			}
		}
	}
	check1("after round 2's send")

	// Board 8's game ends: the hall sends it its pairing again.
	clocks[8].Pause()
	clocks[8].Result(clocklog.WhiteWins, clocklog.Arbiter)
	wait.For(t, 10*time.Second, "board 8's round-2 game", func() bool { return paired(8, 2) })
	if clocks[8].Game() == round1[8] {
		t.Errorf("board 8's round-2 pairing kept round 1's game")
	}
	waitIdle(t, clocks[1:]...)
	if p := post(nil); !strings.Contains(p, ">8</span> results missing") || strings.Contains(p, "the game still runs") {
		t.Errorf("round 2's page once board 8 is paired:\n%s", p)
	}
	results[8] = clocklog.WhiteWins
	// Round 1's board 8 now has its result too.
	wait.For(t, 10*time.Second, "round 1's board 8 result", func() bool { return csvOf(1)[7][6] == "1-0" })
	check1("after board 8's result")
	// The live feed gives each board's round-2 game, tagged by its pairing.
	if code, feed := apiDo(t, h, "GET", "/round.pgn", "", nil); code != 200 || strings.Count(feed, `[Round "2"]`) != 8 || !strings.Contains(feed, `[White "Weiß, Jörg"]`) || strings.Contains(feed, `[White "Meier, Jürgen"]`) {
		t.Errorf("round.pgn after round 2's send: %d\n%s", code, feed)
	}
	if code, _ := apiDo(t, h, "GET", "/api/rounds/3/results.csv", testToken, nil); code != http.StatusNotFound {
		t.Errorf("round 3's CSV: %d, want 404", code)
	}
}

// eightBoardsName is "White|Black" of eightBoards' round-1 board k; k
// from 9 names player k first.
func eightBoardsName(k int) string {
	if k > 8 {
		return strings.Split(eightBoardsName(k-8), "|")[1]
	}
	names := []string{"Meier, Jürgen", "Łukasiewicz, Zofia", "Nguyễn, Văn An", "Dupont, Émile", "Schmidt, Anna", "Novák, Tomáš", "O'Brien, Seán", "Yılmaz, Ayşe",
		"Weiß, Jörg", "Søren, Kierk", "Çelik, Deniz", "Kovač, Ivan", "Müller, Lena", "Ortega, Iñigo", "Papp, Ádám", "Zhu, Wei"}
	return names[k-1] + "|" + names[k+7]
}
