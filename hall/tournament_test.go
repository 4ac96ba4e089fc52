package hall

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/devtools/fakeclock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/hall/trf"
	"github.com/zeitnot/zeitnot/internal/pgnreaders"
	"github.com/zeitnot/zeitnot/internal/wait"
	"github.com/zeitnot/zeitnot/internal/wallclock/wallclocktest"
)

const testToken = "tok-0123456789abcdef"

// eightBoards is a TRF-2026 of 16 players paired for round 1 (player k
// has White against k+8: board k), none played yet; names with
// diacritics, a player without a FIDE id, the control in tag 222.
func eightBoards() string {
	names := []string{"Meier, Jürgen", "Łukasiewicz, Zofia", "Nguyễn, Văn An", "Dupont, Émile", "Schmidt, Anna", "Novák, Tomáš", "O'Brien, Seán", "Yılmaz, Ayşe",
		"Weiß, Jörg", "Søren, Kierk", "Çelik, Deniz", "Kovač, Ivan", "Müller, Lena", "Ortega, Iñigo", "Papp, Ádám", "Zhu, Wei"}
	var b strings.Builder
	b.WriteString("012 Zeitnot Open 2026\n062 16\n142 5\n222 5400+30\nXXR 5\n")
	for i, n := range names {
		start := i + 1
		opp, col := start+8, 'w'
		if start > 8 {
			opp, col = start-8, 'b'
		}
		id := fmt.Sprintf("%d", 4600000+start)
		if start == 7 {
			id = ""
		}
		fmt.Fprintf(&b, "001 %4d m    %-33s %4d GER %11s 1990/01/01 %4s %4d  %4d %c  \n", start, n, 2600-10*start, id, "0.0", start, opp, col)
	}
	return b.String()
}

// apiDo makes a request of the tournament API with the token (if tok).
func apiDo(t testing.TB, h *Hall, method, path, tok string, body []byte) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, "http://"+h.HTTPAddr()+path, bytes.NewReader(body))
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// roundForms logs in as the arbiter and returns a function that posts a
// form of the round page (nil: gets the page), and one that gets a page.
func roundForms(t *testing.T, h *Hall) (func(vals url.Values) string, func(path string) string) {
	t.Helper()
	cl := arbiterClient(t, h)
	base := "http://" + h.HTTPAddr()
	get := func(path string) string {
		resp, err := cl.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return html.UnescapeString(string(b))
	}
	page := func() string { return get("/arbiter/round") }
	return func(vals url.Values) string {
		if vals == nil {
			return page()
		}
		m := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindStringSubmatch(page())
		if m == nil {
			t.Fatal("no CSRF token on the round page: not logged in?")
		}
		vals.Set("csrf", m[1])
		resp, err := cl.PostForm(base+"/arbiter/round", vals)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}, get
}

// TestTournamentEndToEnd: a TRF of 8 boards, 8 clocks playing, the
// players sent from the round page, results confirmed on the clocks (a
// flag, a draw, an arbiter's correction in the hall, a confirmed result
// that disagrees with the flag), one missing; the exported TRF, CSV and
// PGN hold exactly those results, and re-importing the TRF changes
// nothing.
func TestTournamentEndToEnd(t *testing.T) {
	h := startHall(t, func(c *Config) { c.APIToken = []byte(testToken) })
	clocks := make([]*fakeclock.Clock, 9)
	for k := 1; k <= 8; k++ {
		clocks[k] = dialClock(t, brokerURL(h), k, func(o *fakeclock.Opts) { o.Control = "60" })
	}
	wait.For(t, 10*time.Second, "8 boards in the store", func() bool { return len(h.Store().Boards()) == 8 })

	if code, _ := apiDo(t, h, "PUT", "/api/tournament", "", []byte(eightBoards())); code != http.StatusUnauthorized {
		t.Fatalf("PUT without a token: %d", code)
	}
	if code, _ := apiDo(t, h, "PUT", "/api/tournament", "wrong-token-0123456", []byte(eightBoards())); code != http.StatusUnauthorized {
		t.Fatalf("PUT with a wrong token: %d", code)
	}
	code, msg := apiDo(t, h, "PUT", "/api/tournament", testToken, []byte(eightBoards()))
	if code != 200 || !strings.Contains(msg, "16 players, round 1: 8 boards") {
		t.Fatalf("PUT /api/tournament: %d %s", code, msg)
	}
	post, getPage := roundForms(t, h)
	if p := post(nil); !strings.Contains(p, "Meier, Jürgen") || !strings.Contains(p, `90'+30"`) || !strings.Contains(p, ">8</span> results missing") {
		t.Fatalf("round page before the send:\n%s", p)
	}
	post(url.Values{"action": {"send"}, "control": {"on"}})
	for k := 1; k <= 8; k++ {
		c := clocks[k]
		wait.For(t, 10*time.Second, fmt.Sprintf("board %d's players and control", k), func() bool {
			players, control := false, false
			for _, cmd := range c.Commands() {
				players = players || strings.Contains(string(cmd), `"cmd":"players"`) && strings.Contains(string(cmd), fmt.Sprintf(`"white":%q`, []string{"", "Meier, Jürgen", "Łukasiewicz, Zofia", "Nguyễn, Văn An", "Dupont, Émile", "Schmidt, Anna", "Novák, Tomáš", "O'Brien, Seán", "Yılmaz, Ayşe"}[k]))
				control = control || strings.Contains(string(cmd), `"control":"5400+30"`)
			}
			return players && control
		})
	}

	// Play: start, a move each; then the ends.
	for k := 1; k <= 8; k++ {
		clocks[k].Press()
		clocks[k].Press()
		clocks[k].Press()
	}
	flag := func(c *fakeclock.Clock) { c.Skip(61 * time.Second); c.Refresh() }
	flag(clocks[1]) // White's flag: 0-1, as the clock proposed
	clocks[1].Result(clocklog.BlackWins, clocklog.Players)
	clocks[2].Pause() // a draw agreed
	clocks[2].Result(clocklog.Draw, clocklog.Players)
	clocks[3].Pause() // 1-0 confirmed, corrected by the arbiter to 0-1
	clocks[3].Result(clocklog.WhiteWins, clocklog.Players)
	clocks[4].Pause()
	clocks[4].Result(clocklog.WhiteWins, clocklog.Arbiter) // the arbiter on the clock
	clocks[5].Pause()
	clocks[5].Result(clocklog.BlackWins, clocklog.Players)
	clocks[6].Pause()
	clocks[6].Result(clocklog.Draw, clocklog.Players)
	flag(clocks[7]) // White's flag, yet 1-0 confirmed: to check
	clocks[7].Result(clocklog.WhiteWins, clocklog.Players)
	clocks[8].Pause() // no result yet
	waitIdle(t, clocks[1:]...)
	if code, msg := apiDo(t, h, "PUT", "/api/boards/3/result", testToken, []byte("0-1")); code != 200 || !strings.Contains(msg, "sent to the clock") {
		t.Fatalf("the arbiter's correction: %d %s", code, msg)
	}
	wait.For(t, 10*time.Second, "the result command at board 3's clock", func() bool {
		for _, c := range clocks[3].Commands() {
			if strings.Contains(string(c), `"cmd":"result"`) && strings.Contains(string(c), `"result":"0-1"`) {
				return true
			}
		}
		return false
	})
	if code, msg := apiDo(t, h, "PUT", "/api/boards/3/result", testToken, []byte("2-0")); code != http.StatusUnprocessableEntity {
		t.Fatalf("a bad result: %d %s", code, msg)
	}
	want := map[int]string{1: "0-1", 2: "1/2-1/2", 3: "0-1", 4: "1-0", 5: "0-1", 6: "1/2-1/2", 7: "1-0"}
	wait.For(t, 10*time.Second, "the results in the hall, board 3's clock following the hall's", func() bool {
		_, csvText := apiDo(t, h, "GET", "/api/rounds/1/results.csv", testToken, nil)
		rows, _ := csv.NewReader(strings.NewReader(csvText)).ReadAll()
		return strings.Count(csvText, "players")+strings.Count(csvText, "hall")+strings.Count(csvText, "arbiter") >= 7 && len(rows) == 9 && rows[3][9] == ""
	})

	// The CSV.
	code, csvText := apiDo(t, h, "GET", "/api/rounds/1/results.csv", testToken, nil)
	rows, err := csv.NewReader(strings.NewReader(csvText)).ReadAll()
	if code != 200 || err != nil || len(rows) != 9 {
		t.Fatalf("results.csv: %d %v\n%s", code, err, csvText)
	}
	for _, r := range rows[1:] {
		var k int
		fmt.Sscan(r[1], &k)
		if r[6] != want[k] {
			t.Errorf("CSV board %d: result %q, want %q", k, r[6], want[k])
		}
		if (r[9] != "") != (k == 7) { // board 3's clock took the hall's correction
			t.Errorf("CSV board %d: problem %q", k, r[9])
		}
	}
	if rows[3][7] != "hall" || rows[4][7] != "arbiter" || rows[1][7] != "players" || rows[1][8] != "white" {
		t.Errorf("CSV entries: %v", rows)
	}
	if p := post(nil); !strings.Contains(p, ">1</span> results missing") || !strings.Contains(p, "1 to check") || !strings.Contains(p, "confirmed 1-0, but white's flag fell first") {
		t.Errorf("round page after the results:\n%s", p)
	}

	// /arbiter says it too.
	if a := getPage("/arbiter"); !strings.Contains(a, "1 results missing, 1 to check") || !strings.Contains(a, "Board 8: Yılmaz, Ayşe – Zhu, Wei: missing") {
		t.Errorf("/arbiter's round:\n%s", a)
	}

	// The TRF: exactly the results entered, the points updated.
	code, out := apiDo(t, h, "GET", "/api/tournament.trf", testToken, nil)
	if code != 200 {
		t.Fatalf("tournament.trf: %d %s", code, out)
	}
	tr, err := trf.Parse("exported.trf", []byte(out))
	if err != nil {
		t.Fatalf("the exported TRF does not read: %v\n%s", err, out)
	}
	codes := map[string][2]byte{"1-0": {'1', '0'}, "0-1": {'0', '1'}, "1/2-1/2": {'=', '='}, "": {' ', ' '}}
	for k := 1; k <= 8; k++ {
		w, _ := tr.Player(k)
		b, _ := tr.Player(k + 8)
		c := codes[want[k]]
		if w.Game(1).Result != c[0] || b.Game(1).Result != c[1] {
			t.Errorf("TRF board %d: %c %c, want %s", k, w.Game(1).Result, b.Game(1).Result, want[k])
		}
		pts := map[byte]trf.Points{'1': 2, '=': 1, '0': 0, ' ': 0}
		if w.Points != pts[c[0]] || b.Points != pts[c[1]] {
			t.Errorf("TRF board %d: points %v %v", k, w.Points, b.Points)
		}
	}
	// Re-importing it changes nothing.
	if code, msg := apiDo(t, h, "PUT", "/api/tournament", testToken, []byte(out)); code != 200 {
		t.Fatalf("re-import: %d %s", code, msg)
	}
	if _, again := apiDo(t, h, "GET", "/api/tournament.trf", testToken, nil); again != out {
		t.Errorf("re-import changed the export:\n%s\nwas\n%s", again, out)
	}

	// The round's PGN: one game a board with a game, each with its result.
	code, pgn := apiDo(t, h, "GET", "/api/rounds/1/games.pgn", testToken, nil)
	if code != 200 || strings.Count(pgn, "[Event ") != 8 {
		t.Fatalf("games.pgn: %d\n%s", code, pgn)
	}
	for k := 1; k <= 8; k++ {
		r := want[k]
		if r == "" {
			r = "*"
		}
		if !strings.Contains(pgn, fmt.Sprintf("[Board \"%d\"]", k)) {
			t.Errorf("no board %d in the PGN", k)
		}
		_ = r
	}
	if !testing.Short() {
		res := pgnreaders.Read(t, pgn)[0]
		for _, name := range pgnreaders.Readers {
			rd := res[name]
			if !rd.OK || len(rd.Games) != 8 {
				t.Errorf("%s: ok %v, %d games: %s", name, rd.OK, len(rd.Games), rd.Error)
				continue
			}
			for _, g := range rd.Games {
				var k int
				fmt.Sscan(g.Tags["Board"], &k)
				r := want[k]
				if r == "" {
					r = "*"
				}
				if g.Tags["Result"] != r || g.Tags["Round"] != "1" {
					t.Errorf("%s: board %d: Result %q Round %q, want %q 1", name, k, g.Tags["Result"], g.Tags["Round"], r)
				}
			}
		}
	}
}

// TestTournamentHostile: a TRF of 10 MB, a line of 100 kB, invalid UTF-8,
// start numbers that point nowhere, duplicate boards: each is refused with
// an error naming what and where, and the tournament kept is untouched.
func TestTournamentHostile(t *testing.T) {
	h := startHall(t, func(c *Config) { c.APIToken = []byte(testToken) })
	if code, msg := apiDo(t, h, "PUT", "/api/tournament", testToken, []byte(eightBoards())); code != 200 {
		t.Fatalf("PUT: %d %s", code, msg)
	}
	_, before := apiDo(t, h, "GET", "/api/tournament.trf", testToken, nil)
	good := eightBoards()
	lines := strings.Split(good, "\n")
	nowhere := strings.Replace(lines[5], "     9 w", "    99 w", 1) // player 1 against 99
	cases := []struct {
		name, path string
		body       string
		code       int
		want       string
	}{
		{"10 MB", "/api/tournament", good + strings.Repeat("### padding\n", 10<<20/12), http.StatusRequestEntityTooLarge, "at most"},
		{"100 kB line", "/api/tournament", good + "012 " + strings.Repeat("x", 100<<10) + "\n", http.StatusUnprocessableEntity, "tournament.trf:22"},
		{"invalid UTF-8", "/api/tournament", strings.Replace(good, "Jürgen", "J\xfcrgen", 1), http.StatusUnprocessableEntity, "tournament.trf:6"},
		{"opponent nowhere", "/api/tournament", strings.Replace(good, lines[5], nowhere, 1), http.StatusUnprocessableEntity, "tournament.trf:6"},
		{"start number nowhere", "/api/rounds/2", "2\n1 99\n2 3\n", http.StatusUnprocessableEntity, "line 2: board 1: no player 99"},
		{"duplicate boards", "/api/rounds/2", "2\n1 9\n1 10\n", http.StatusUnprocessableEntity, "round-2:3"},
		{"too many pairs", "/api/rounds/2", "1\n1 9\n2 10\n", http.StatusUnprocessableEntity, "round-2:3"},
		{"a bad result", "/api/boards/1/result", "1-1", http.StatusUnprocessableEntity, `result "1-1"`},
		{"no such board", "/api/boards/9/result", "1-0", http.StatusUnprocessableEntity, "board 9: the round has boards 1 to 8"},
	}
	for _, tc := range cases {
		code, msg := apiDo(t, h, "PUT", tc.path, testToken, []byte(tc.body))
		if code != tc.code || !strings.Contains(msg, tc.want) {
			t.Errorf("%s: %d %.300s, want %d and %q", tc.name, code, msg, tc.code, tc.want)
		}
		if _, after := apiDo(t, h, "GET", "/api/tournament.trf", testToken, nil); after != before {
			t.Errorf("%s: the tournament kept changed", tc.name)
		}
	}
	// The round page's order: each board once.
	post, _ := roundForms(t, h)
	for order, want := range map[string]string{
		"1 1 2 3 4 5 6 7":   `Not done: order: place 2: "1" is not a board of 1 to 8 given once`,
		"1 2":               "Not done: order: 2 boards given, the round has 8",
		"1 2 3 4 5 6 7 99":  `Not done: order: place 8: "99" is not a board of 1 to 8 given once`,
		"8 7 6 5 4 3 2 one": `Not done: order: place 8: "one" is not a board of 1 to 8 given once`,
	} {
		if p := html.UnescapeString(post(url.Values{"action": {"order"}, "order": {order}})); !strings.Contains(p, want) {
			t.Errorf("order %q: no %q on the page", order, want)
		}
	}
	if _, after := apiDo(t, h, "GET", "/api/rounds/1/results.csv", testToken, nil); !strings.Contains(after, `1,1,1,"Meier, Jürgen",9,`) {
		t.Errorf("a refused order changed the boards:\n%s", after)
	}

	// A pairing list that is right sets round 2 on the kept file.
	code, msg := apiDo(t, h, "PUT", "/api/rounds/2", testToken, []byte("8\n9 1\n10 2\n11 3\n12 4\n13 5\n14 6\n15 7\n16 8\n"))
	if code != 200 || !strings.Contains(msg, "round 2: 8 boards") {
		t.Fatalf("round 2: %d %s", code, msg)
	}
	_, csvText := apiDo(t, h, "GET", "/api/rounds/2/results.csv", testToken, nil)
	if !strings.Contains(csvText, "2,1,9,") {
		t.Errorf("round 2's board 1 is not 9 against 1:\n%s", csvText)
	}
}

// TestTournamentGolden: the golden TRFs of both formats (byes, forfeits,
// a player without a FIDE id, a withdrawn player's zero-point bye, names
// with diacritics) go in and come out byte for byte while no result is
// entered; round 4's boards are theirs, a result entered changes only
// its two players' lines, and the byes and forfeits are listed as they
// came.
func TestTournamentGolden(t *testing.T) {
	h := startHall(t, func(c *Config) { c.APIToken = []byte(testToken) })
	for _, name := range []string{"open16.trf", "open26.trf"} {
		data, err := os.ReadFile(filepath.Join("trf", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		if code, msg := apiDo(t, h, "PUT", "/api/tournament", testToken, data); code != 200 || !strings.Contains(msg, "8 players, round 4: 4 boards") {
			t.Fatalf("%s: %d %s", name, code, msg)
		}
		if _, out := apiDo(t, h, "GET", "/api/tournament.trf", testToken, nil); out != string(data) {
			t.Errorf("%s: the export without results differs:\n%s", name, out)
		}
		if code, msg := apiDo(t, h, "PUT", "/api/boards/1/result", testToken, []byte("1/2-1/2")); code != 200 {
			t.Fatalf("%s: %d %s", name, code, msg)
		}
		_, out := apiDo(t, h, "GET", "/api/tournament.trf", testToken, nil)
		changed := 0
		in, ex := strings.Split(string(data), "\n"), strings.Split(out, "\n")
		for i := range in {
			if i < len(ex) && in[i] != ex[i] {
				changed++
			}
		}
		if changed != 2 || len(in) != len(ex) {
			t.Errorf("%s: %d lines changed by one result, want 2:\n%s", name, changed, out)
		}
		// An empty body takes the hall's result back (a re-import of
		// the same round keeps it).
		if code, msg := apiDo(t, h, "PUT", "/api/boards/1/result", testToken, nil); code != 200 {
			t.Fatalf("%s: clearing: %d %s", name, code, msg)
		}
		tr, err := trf.Parse(name, []byte(out))
		if err != nil {
			t.Fatal(err)
		}
		boards, _ := tr.Round(4)
		w, _ := tr.Player(boards[0].White)
		if g := w.Game(4); g.Result != '=' {
			t.Errorf("%s: board 1 (%d) in round 4: %c", name, boards[0].White, g.Result)
		}
	}
}

// TestRefusedTokensLogBounded: every refused API token wrote a log line,
// so a stranger could fill the hall's log. At most a burst a minute is
// logged; the first line after the minute counts the rest.
func TestRefusedTokensLogBounded(t *testing.T) {
	var mu sync.Mutex
	clk := wallclocktest.New(time.Date(2026, 3, 7, 18, 0, 0, 0, time.UTC))
	var refused []string
	o := Opts{
		Clock: clk,
		Logf: func(format string, a ...any) {
			if s := fmt.Sprintf(format, a...); strings.Contains(s, "web: api:") && strings.Contains(s, "refused") {
				mu.Lock()
				refused = append(refused, s)
				mu.Unlock()
			}
		},
	}
	h := startHallOpts(t, func(c *Config) { c.APIToken = []byte(testToken) }, o)
	for i := range 200 {
		if code, _ := apiDo(t, h, "GET", "/api/tournament.trf", fmt.Sprintf("wrong-token-%04d", i), nil); code != http.StatusUnauthorized && code != http.StatusTooManyRequests {
			t.Fatalf("a wrong token: %d", code)
		}
	}
	mu.Lock()
	if len(refused) != 10 {
		t.Errorf("200 refused tokens wrote %d log lines, want 10", len(refused))
	}
	clk.Advance(time.Minute)
	mu.Unlock()
	apiDo(t, h, "GET", "/api/tournament.trf", "wrong-token", nil)
	mu.Lock()
	defer mu.Unlock()
	if len(refused) != 11 || !strings.Contains(refused[10], "(and 190 more like it left out of the log before, at most 10 a 1m0s)") {
		t.Errorf("%d lines; the line after the minute: %.300q", len(refused), refused[min(len(refused), 10):])
	}
}
