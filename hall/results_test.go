package hall

import (
	"encoding/csv"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/devtools/fakeclock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/hall/trf"
	"github.com/zeitnot/zeitnot/internal/wait"
)

// roundOfEight starts a hall with the API token, 8 clocks of one-minute
// games, imports eightBoards and sends round 1; it returns once every
// clock holds the round's game.
func roundOfEight(t *testing.T) (*Hall, []*fakeclock.Clock, func(url.Values) string, func(string) string) {
	t.Helper()
	h := startHall(t, func(c *Config) { c.APIToken = []byte(testToken) })
	clocks := make([]*fakeclock.Clock, 9)
	for k := 1; k <= 8; k++ {
		clocks[k] = dialClock(t, brokerURL(h), k, func(o *fakeclock.Opts) { o.Control = "60" })
	}
	wait.For(t, 10*time.Second, "8 boards in the store", func() bool { return len(h.Store().Boards()) == 8 })
	if code, msg := apiDo(t, h, "PUT", "/api/tournament", testToken, []byte(eightBoards())); code != 200 {
		t.Fatalf("PUT /api/tournament: %d %s", code, msg)
	}
	post, getPage := roundForms(t, h)
	post(url.Values{"action": {"send"}})
	wait.For(t, 10*time.Second, "every clock's game of round 1", func() bool {
		rows := resultRows(t, h, 1)
		for _, r := range rows {
			if r[10] == "" {
				return false
			}
		}
		return len(rows) == 8
	})
	return h, clocks, post, getPage
}

// resultRows are round n's rows of results.csv, without the header.
func resultRows(t *testing.T, h *Hall, n int) [][]string {
	t.Helper()
	code, text := apiDo(t, h, "GET", fmt.Sprintf("/api/rounds/%d/results.csv", n), testToken, nil)
	rows, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if code != 200 || err != nil || len(rows) == 0 {
		t.Fatalf("results.csv: %d %v\n%s", code, err, text)
	}
	return rows[1:]
}

// exported is the hall's TRF, read.
func exported(t *testing.T, h *Hall) (*trf.Tournament, string) {
	t.Helper()
	code, out := apiDo(t, h, "GET", "/api/tournament.trf", testToken, nil)
	if code != 200 {
		t.Fatalf("tournament.trf: %d %s", code, out)
	}
	tr, err := trf.Parse("exported.trf", []byte(out))
	if err != nil {
		t.Fatalf("the exported TRF does not read: %v\n%s", err, out)
	}
	return tr, out
}

// TestForfeits: the arbiter enters +/-, -/+ and -/- (a player, or both,
// did not come), through the API and the round page. The TRF gets + and
// -, with a forfeit win's point; results.csv shows them; games.pgn and
// /round.pgn do not publish the clocks' empty games as games played.
func TestForfeits(t *testing.T) {
	h, clocks, post, _ := roundOfEight(t)
	if code, msg := apiDo(t, h, "PUT", "/api/boards/1/result", testToken, []byte("+/-")); code != 200 || !strings.Contains(msg, "forfeit") {
		t.Fatalf("PUT +/-: %d %s", code, msg)
	}
	if code, msg := apiDo(t, h, "PUT", "/api/boards/2/result", testToken, []byte("-/+")); code != 200 {
		t.Fatalf("PUT -/+: %d %s", code, msg)
	}
	if p := post(url.Values{"action": {"result"}, "board": {"3"}, "result": {"-/-"}}); !strings.Contains(p, "-/-") {
		t.Fatalf("the round page's -/-: %s", p)
	}
	if code, msg := apiDo(t, h, "PUT", "/api/boards/4/result", testToken, []byte("+/+")); code != http.StatusUnprocessableEntity || !strings.Contains(msg, "+/-") {
		t.Errorf("PUT +/+: %d %s", code, msg)
	}
	// Board 4 is played: 1-0 on the clock.
	clocks[4].Press()
	clocks[4].Press()
	clocks[4].Press()
	clocks[4].Pause()
	clocks[4].Result(clocklog.WhiteWins, clocklog.Players)
	waitIdle(t, clocks[1:]...)
	wait.For(t, 10*time.Second, "board 4's result", func() bool { return resultRows(t, h, 1)[3][6] == "1-0" })

	rows := resultRows(t, h, 1)
	for k, want := range map[int]string{1: "+/-", 2: "-/+", 3: "-/-", 4: "1-0", 5: ""} {
		if got := rows[k-1][6]; got != want {
			t.Errorf("CSV board %d: %q, want %q", k, got, want)
		}
	}
	for _, c := range clocks[1:4] {
		for _, cmd := range c.Commands() {
			if strings.Contains(string(cmd), `"cmd":"result"`) {
				t.Errorf("a forfeit was sent to a clock: %s", cmd)
			}
		}
	}

	tr, _ := exported(t, h)
	for k, want := range map[int]struct {
		w, b   byte
		pw, pb trf.Points
	}{1: {'+', '-', 2, 0}, 2: {'-', '+', 0, 2}, 3: {'-', '-', 0, 0}, 4: {'1', '0', 2, 0}, 5: {' ', ' ', 0, 0}} {
		w, _ := tr.Player(k)
		b, _ := tr.Player(k + 8)
		if w.Game(1).Result != want.w || b.Game(1).Result != want.b || w.Points != want.pw || b.Points != want.pb {
			t.Errorf("TRF board %d: %c %c, points %v %v; want %c %c, %v %v", k, w.Game(1).Result, b.Game(1).Result, w.Points, b.Points, want.w, want.b, want.pw, want.pb)
		}
	}

	_, pgn := apiDo(t, h, "GET", "/api/rounds/1/games.pgn", testToken, nil)
	for k := 1; k <= 8; k++ {
		if in := strings.Contains(pgn, fmt.Sprintf("[Board \"%d\"]", k)); in != (k > 3) {
			t.Errorf("games.pgn: board %d in it: %v", k, in)
		}
	}
	_, feed := get(t, h, "/round.pgn")
	for k := 1; k <= 8; k++ {
		if in := strings.Contains(feed, fmt.Sprintf("[Board \"%d\"]", k)); in != (k > 3) {
			t.Errorf("/round.pgn: board %d in it: %v", k, in)
		}
	}

	// Cleared, board 1 has no result again and its game is published.
	if code, msg := apiDo(t, h, "PUT", "/api/boards/1/result", testToken, nil); code != 200 {
		t.Fatalf("clear: %d %s", code, msg)
	}
	if r := resultRows(t, h, 1)[0][6]; r != "" {
		t.Errorf("board 1 after the clear: %q", r)
	}
	if _, feed := get(t, h, "/round.pgn"); !strings.Contains(feed, `[Board "1"]`) {
		t.Error("/round.pgn: board 1's game left out after the forfeit was cleared")
	}
}

// TestArbiterResultStopsRunningGame: a result entered on the round page
// for a game that still runs asks for confirmation first, and changes
// nothing until then; confirmed, or PUT through the API, the hall sends
// it to the clock, which stops the game and journals it as the
// arbiter's: the hall, the clock and the TRF agree.
func TestArbiterResultStopsRunningGame(t *testing.T) {
	h, clocks, post, getPage := roundOfEight(t)
	for _, k := range []int{5, 6} {
		clocks[k].Press()
		clocks[k].Press()
		clocks[k].Press()
	}
	waitIdle(t, clocks[1:]...)
	wait.For(t, 10*time.Second, "boards 5 and 6 running", func() bool {
		p := getPage("/arbiter/round")
		return strings.Count(p, "game runs") == 2
	})

	post(url.Values{"action": {"result"}, "board": {"5"}, "result": {"1-0"}})
	p := getPage("/arbiter/round")
	if !strings.Contains(p, "Confirm: board 5's game still runs; stop it with 1-0?") || !strings.Contains(p, `id="form-confirm-result"`) {
		t.Fatalf("no confirmation asked:\n%s", p)
	}
	if r := resultRows(t, h, 1)[4][6]; r != "" {
		t.Errorf("board 5's result before the confirmation: %q", r)
	}
	for _, cmd := range clocks[5].Commands() {
		if strings.Contains(string(cmd), `"cmd":"result"`) {
			t.Fatalf("the result went to the clock before the confirmation: %s", cmd)
		}
	}
	msg := post(url.Values{"action": {"result"}, "board": {"5"}, "result": {"1-0"}, "confirm": {"1-0"}})
	if !strings.Contains(msg, "stops the game") {
		t.Errorf("confirmed: %s", msg)
	}
	if code, msg := apiDo(t, h, "PUT", "/api/boards/6/result", testToken, []byte("1/2-1/2")); code != 200 || !strings.Contains(msg, "stops the game") {
		t.Fatalf("PUT for a running game: %d %s", code, msg)
	}
	for k, r := range map[int]string{5: "1-0", 6: "1/2-1/2"} {
		wait.For(t, 10*time.Second, fmt.Sprintf("board %d's clock stopped with the arbiter's result", k), func() bool {
			log := strings.Join(clocks[k].Lines(), "\n")
			return strings.Contains(log, " pause") && strings.Contains(log, " result "+r+" arbiter")
		})
	}
	waitIdle(t, clocks[1:]...)
	wait.For(t, 10*time.Second, "the clocks' results in the hall", func() bool {
		rows := resultRows(t, h, 1)
		return rows[4][6] == "1-0" && rows[4][9] == "" && rows[5][6] == "1/2-1/2" && rows[5][9] == ""
	})
	if p := getPage("/arbiter/round"); strings.Contains(p, "form-confirm-result") || strings.Contains(p, "game runs") {
		t.Errorf("the round page after the confirmation:\n%s", p)
	}
	tr, _ := exported(t, h)
	if w, _ := tr.Player(5); w.Game(1).Result != '1' {
		t.Errorf("TRF board 5: %c", w.Game(1).Result)
	}
	if w, _ := tr.Player(6); w.Game(1).Result != '=' {
		t.Errorf("TRF board 6: %c", w.Game(1).Result)
	}
}

// TestRefusedResult: a result the clock refuses (its error reply) shows
// as refused on the round page, /arbiter and results.csv's problem
// column, and stays out of the TRF and the PGN until the arbiter enters
// it again and the clock takes it.
func TestRefusedResult(t *testing.T) {
	h, clocks, _, getPage := roundOfEight(t)
	c := clocks[2]
	c.Press()
	c.Press()
	c.Press()
	c.Pause()
	c.RefuseResults("journal: no space left")
	waitIdle(t, clocks[1:]...)
	if code, msg := apiDo(t, h, "PUT", "/api/boards/2/result", testToken, []byte("0-1")); code != 200 {
		t.Fatalf("PUT: %d %s", code, msg)
	}
	wait.For(t, 10*time.Second, "the refusal in results.csv", func() bool {
		return strings.Contains(resultRows(t, h, 1)[1][9], "refused")
	})
	if p := getPage("/arbiter/round"); !strings.Contains(p, "refused by the clock") || !strings.Contains(p, "journal: no space left") {
		t.Errorf("the round page does not show the refusal:\n%s", p)
	}
	if a := getPage("/arbiter"); !strings.Contains(a, "Board 2: the clock refused the hall's 0-1") {
		t.Errorf("/arbiter does not show the refusal:\n%s", a)
	}
	tr, _ := exported(t, h)
	if w, _ := tr.Player(2); w.Game(1).Result != ' ' || w.Points != 0 {
		t.Errorf("TRF: a refused result exported: %c %v", w.Game(1).Result, w.Points)
	}
	if _, pgn := apiDo(t, h, "GET", "/api/rounds/1/games.pgn", testToken, nil); strings.Contains(pgn, `[Result "0-1"]`) {
		t.Errorf("games.pgn: a refused result exported:\n%s", pgn)
	}

	// Resolved: the clock takes it the second time.
	c.RefuseResults("")
	if code, msg := apiDo(t, h, "PUT", "/api/boards/2/result", testToken, []byte("0-1")); code != 200 {
		t.Fatalf("PUT again: %d %s", code, msg)
	}
	waitIdle(t, clocks[1:]...)
	wait.For(t, 10*time.Second, "the clock's 0-1 in the hall", func() bool {
		r := resultRows(t, h, 1)[1]
		return r[6] == "0-1" && r[9] == ""
	})
	tr, _ = exported(t, h)
	if w, _ := tr.Player(2); w.Game(1).Result != '0' {
		t.Errorf("TRF after the resolution: %c", w.Game(1).Result)
	}
	if _, pgn := apiDo(t, h, "GET", "/api/rounds/1/games.pgn", testToken, nil); !strings.Contains(pgn, `[Result "0-1"]`) {
		t.Errorf("games.pgn after the resolution:\n%s", pgn)
	}
}

// bbpPairings is the real pairing engine the tests check the exported TRF
// against (swissBBP: ZEITNOT_BBPPAIRINGS, or ../shared/tools from the
// module root); "" when this machine has none.
func bbpPairings(t *testing.T) string { return swissBBP() }

// pairNext pairs the next round from the TRF data with bbpPairings (Dutch)
// and returns its -p list.
func pairNext(t *testing.T, bbp, data string) []byte {
	t.Helper()
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.trf"), filepath.Join(dir, "out.txt")
	os.WriteFile(in, []byte(data), 0o644)
	if b, err := exec.Command(bbp, "--dutch", in, "-p", out).CombinedOutput(); err != nil {
		t.Fatalf("bbpPairings: %v\n%s\n%s", err, b, data)
	}
	list, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return list
}

// sevenPlayers is a TRF of 7 players, none paired yet but the first
// round's pairs in the file (1-4, 5-2, 3-6; 7 not paired).
func sevenPlayers() string {
	var b strings.Builder
	b.WriteString("012 Odd Open\n142 3\nXXR 3\nXXC white1\n")
	opp := map[int]string{1: "   4 w  ", 4: "   1 b  ", 5: "   2 w  ", 2: "   5 b  ", 3: "   6 w  ", 6: "   3 b  "}
	for s := 1; s <= 7; s++ {
		line := fmt.Sprintf("001 %4d m    %-33s %4d GER %11d 1990/01/01 %4s %4d", s, fmt.Sprintf("Player, %c", 'A'+s-1), 2500-50*s, 4700000+s, "0.0", s)
		if o, ok := opp[s]; ok {
			line += "  " + o
		}
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	return b.String()
}

// TestByesAndAbsences: a -p list's "7 0" is the pairing-allocated bye
// (U, a win's point) in the exported TRF; players marked absent for the
// next round (PUT /api/rounds/2/absent: H, Z, F) are written into their
// round 2 blocks, and bbpPairings, pairing round 2 from the export,
// leaves them unpaired and gives them their points. Bad lines are refused
// naming the line, and nothing changes.
func TestByesAndAbsences(t *testing.T) {
	h := startHall(t, func(c *Config) { c.APIToken = []byte(testToken) })
	if code, msg := apiDo(t, h, "PUT", "/api/tournament", testToken, []byte(sevenPlayers())); code != 200 {
		t.Fatalf("PUT /api/tournament: %d %s", code, msg)
	}
	if code, msg := apiDo(t, h, "PUT", "/api/rounds/1", testToken, []byte("4\n1 4\n5 2\n3 6\n7 0\n")); code != 200 || !strings.Contains(msg, "3 boards") {
		t.Fatalf("PUT /api/rounds/1: %d %s", code, msg)
	}
	for k, r := range map[int]string{1: "1-0", 2: "1/2-1/2", 3: "0-1"} {
		if code, msg := apiDo(t, h, "PUT", fmt.Sprintf("/api/boards/%d/result", k), testToken, []byte(r)); code != 200 {
			t.Fatalf("board %d: %d %s", k, code, msg)
		}
	}
	before, _ := exported(t, h)
	for _, c := range []struct{ body, want string }{
		{"4 X\n", "line 1"},
		{"4 H\n\n9 Z\n", "line 3"},
		{"4 H\n4 Z\n", "line 2"},
		{"4\n", "want START_RANK CODE"},
		{"# nobody\n", "no player given"},
	} {
		code, msg := apiDo(t, h, "PUT", "/api/rounds/2/absent", testToken, []byte(c.body))
		if code != http.StatusUnprocessableEntity || !strings.Contains(msg, c.want) {
			t.Errorf("absent %q: %d %s, want 422 naming %q", c.body, code, msg, c.want)
		}
	}
	if code, msg := apiDo(t, h, "PUT", "/api/rounds/1/absent", testToken, []byte("1 H\n")); code != http.StatusUnprocessableEntity || !strings.Contains(msg, "paired in round 1") {
		t.Errorf("absent in a paired round: %d %s", code, msg)
	}
	if after, _ := exported(t, h); !reflect.DeepEqual(after.Players(), before.Players()) {
		t.Error("a refused absence changed the tournament")
	}
	if code, msg := apiDo(t, h, "PUT", "/api/rounds/3/absent", testToken, []byte("1 H\n")); code != http.StatusUnprocessableEntity || !strings.Contains(msg, "round 2 at the latest") {
		t.Errorf("absent two rounds ahead: %d %s", code, msg)
	}
	code, msg := apiDo(t, h, "PUT", "/api/rounds/2/absent", testToken, []byte("4 H\r\n2 z\n# late\n"))
	if code != 200 || !strings.Contains(msg, "4 Player, D (H)") {
		t.Fatalf("absent: %d %s", code, msg)
	}

	post, _ := roundForms(t, h)
	if msg := post(url.Values{"action": {"absent"}, "round": {"2"}, "absent": {"6 F"}}); !strings.Contains(msg, "round 2: absent: 6 Player, F (F)") {
		t.Errorf("the round page's absence: %s", msg)
	}
	if p := post(nil); !strings.Contains(p, "Absent in round 2") || !strings.Contains(p, "4 Player, D: half-point bye") || !strings.Contains(p, "6 Player, F: full-point bye") {
		t.Errorf("the round page does not list round 2's absences:\n%s", p)
	}
	if msg := html.UnescapeString(post(url.Values{"action": {"absent"}, "round": {"2"}, "absent": {"1 Q"}})); !strings.Contains(msg, "line 1") || !strings.Contains(msg, `code "Q"`) {
		t.Errorf("the round page's bad absence: %s", msg)
	}
	if code, msg := apiDo(t, h, "PUT", "/api/rounds/3/absent", testToken, []byte("1 H\n")); code != http.StatusUnprocessableEntity {
		t.Errorf("absent two rounds ahead, after round 2's absences: %d %s", code, msg)
	}
	tr, out := exported(t, h)
	for _, c := range []struct {
		start, round int
		game         trf.Game
		points       trf.Points
	}{
		{7, 1, trf.Game{Colour: '-', Result: 'U'}, 2},
		{4, 2, trf.Game{Colour: '-', Result: 'H'}, 1},
		{2, 2, trf.Game{Colour: '-', Result: 'Z'}, 1},
		{6, 2, trf.Game{Colour: '-', Result: 'F'}, 4},
	} {
		p, _ := tr.Player(c.start)
		if p.Game(c.round) != c.game || p.Points != c.points {
			t.Errorf("player %d round %d: %+v, %v points; want %+v, %v", c.start, c.round, p.Game(c.round), p.Points, c.game, c.points)
		}
	}
	bbp := bbpPairings(t)
	if bbp == "" {
		t.Skip("no bbpPairings on this machine: the export is not paired")
	}
	list := pairNext(t, bbp, out)
	boards, err := trf.ParsePairingList("out.txt", list)
	if err != nil {
		t.Fatal(err)
	}
	paired := map[int]bool{}
	for _, b := range boards {
		paired[b.White] = true
		if b.Black != 0 {
			paired[b.Black] = true
		}
	}
	for _, s := range []int{2, 4, 6} {
		if paired[s] {
			t.Errorf("bbpPairings paired %d, absent in round 2:\n%s", s, list)
		}
	}
	if len(boards) != 2 || !paired[1] || !paired[3] || !paired[5] || !paired[7] {
		t.Errorf("round 2: want players 1, 3, 5, 7 on 2 boards:\n%s", list)
	}
	if code, msg := apiDo(t, h, "PUT", "/api/rounds/2", testToken, list); code != 200 {
		t.Fatalf("round 2 from bbpPairings: %d %s", code, msg)
	}
	tr, _ = exported(t, h)
	if p, _ := tr.Player(4); p.Game(2).Result != 'H' {
		t.Errorf("round 2's pairing lost player 4's H: %+v", p.Game(2))
	}
}

// TestShortGames: a game whose log shows White completed no move has, with
// its result, TRF-2026's W, D, L (less than one move, not rated); a game
// in which White moved once has the ordinary codes.
func TestShortGames(t *testing.T) {
	h, clocks, _, _ := roundOfEight(t)
	clocks[5].Press() // started; White resigns without a move
	clocks[5].Pause()
	clocks[5].Result(clocklog.BlackWins, clocklog.Players)
	clocks[6].Press() // started; a draw agreed before White's first move
	clocks[6].Pause()
	clocks[6].Result(clocklog.Draw, clocklog.Players)
	clocks[7].Press()
	clocks[7].Press() // White's first move; Black resigns
	clocks[7].Pause()
	clocks[7].Result(clocklog.WhiteWins, clocklog.Players)
	waitIdle(t, clocks[1:]...)
	wait.For(t, 10*time.Second, "the three results in the hall", func() bool {
		rows := resultRows(t, h, 1)
		return rows[4][6] != "" && rows[5][6] != "" && rows[6][6] != ""
	})
	tr, _ := exported(t, h)
	for k, want := range map[int][2]byte{5: {'L', 'W'}, 6: {'D', 'D'}, 7: {'1', '0'}} {
		w, _ := tr.Player(k)
		b, _ := tr.Player(k + 8)
		if w.Game(1).Result != want[0] || b.Game(1).Result != want[1] {
			t.Errorf("TRF board %d: %c %c, want %c %c", k, w.Game(1).Result, b.Game(1).Result, want[0], want[1])
		}
	}
	if w, _ := tr.Player(5); w.Points != 0 {
		t.Errorf("board 5's White: %v points", w.Points)
	}
	if b, _ := tr.Player(13); b.Points != 2 {
		t.Errorf("board 5's Black: %v points", b.Points)
	}
	if bbp := bbpPairings(t); bbp != "" {
		// The round's other boards forfeited, bbpPairings pairs round 2:
		// it reads W, D, L.
		for _, k := range []int{1, 2, 3, 4, 8} {
			if code, msg := apiDo(t, h, "PUT", fmt.Sprintf("/api/boards/%d/result", k), testToken, []byte("+/-")); code != 200 {
				t.Fatalf("board %d: %d %s", k, code, msg)
			}
		}
		_, out := exported(t, h)
		if boards, err := trf.ParsePairingList("out.txt", pairNext(t, bbp, out)); err != nil || len(boards) != 8 {
			t.Errorf("round 2 from bbpPairings: %v %v", boards, err)
		}
	}
}

// playRoundOne ends every board of roundOfEight's round 1 on the clocks
// (board k: White wins if k is odd, else a draw) and waits for the hall
// to have them.
func playRoundOne(t *testing.T, h *Hall, clocks []*fakeclock.Clock) map[int]string {
	t.Helper()
	want := map[int]string{}
	for k := 1; k <= 8; k++ {
		c := clocks[k]
		c.Press()
		c.Press()
		c.Press()
		c.Pause()
		if k%2 == 1 {
			c.Result(clocklog.WhiteWins, clocklog.Players)
			want[k] = "1-0"
		} else {
			c.Result(clocklog.Draw, clocklog.Players)
			want[k] = "1/2-1/2"
		}
	}
	waitIdle(t, clocks[1:]...)
	wait.For(t, 10*time.Second, "round 1's results in the hall", func() bool {
		for i, r := range resultRows(t, h, 1) {
			if r[6] != want[i+1] {
				return false
			}
		}
		return true
	})
	return want
}

// TestReimportKeepsResults: importing the TRF again (the first file,
// without results; the hall's export; the same pairing list) keeps every
// result the hall has; a file or a list that pairs the round otherwise,
// or that would drop a round with results, is refused naming the
// results it would lose, and nothing changes; a file with another result
// keeps the hall's and says so.
func TestReimportKeepsResults(t *testing.T) {
	h, clocks, _, _ := roundOfEight(t)
	playRoundOne(t, h, clocks)
	if code, msg := apiDo(t, h, "PUT", "/api/boards/2/result", testToken, []byte("0-1")); code != 200 {
		t.Fatalf("the arbiter's 0-1: %d %s", code, msg)
	}
	waitIdle(t, clocks[1:]...)
	wait.For(t, 10*time.Second, "board 2's clock following the hall's 0-1", func() bool { r := resultRows(t, h, 1)[1]; return r[6] == "0-1" && r[9] == "" })
	_, export := exported(t, h)
	check := func(when string) {
		t.Helper()
		if _, again := exported(t, h); again != export {
			t.Errorf("%s: the export changed:\n%s\nwas\n%s", when, again, export)
		}
	}
	if code, msg := apiDo(t, h, "PUT", "/api/tournament", testToken, []byte(eightBoards())); code != 200 {
		t.Fatalf("the first file again: %d %s", code, msg)
	}
	check("the first file again")
	if code, msg := apiDo(t, h, "PUT", "/api/tournament", testToken, []byte(export)); code != 200 || strings.Contains(msg, "kept") {
		t.Fatalf("the export again: %d %s", code, msg)
	}
	check("the export again")
	list := "8\n1 9\n2 10\n3 11\n4 12\n5 13\n6 14\n7 15\n8 16\n"
	if code, msg := apiDo(t, h, "PUT", "/api/rounds/1", testToken, []byte(list)); code != 200 {
		t.Fatalf("the same pairing list: %d %s", code, msg)
	}
	check("the same pairing list")

	// Another result in the file: the hall's stays, named.
	lines := strings.Split(export, "\n")
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, "001    2 "): // 1-0 in the file, the points with it
			lines[i] = strings.Replace(strings.Replace(l, "   10 w 0", "   10 w 1", 1), " 0.0    2", " 1.0    2", 1)
		case strings.HasPrefix(l, "001   10 "):
			lines[i] = strings.Replace(strings.Replace(l, "    2 b 1", "    2 b 0", 1), " 1.0   10", " 0.0   10", 1)
		}
	}
	other := strings.Join(lines, "\n")
	if code, msg := apiDo(t, h, "PUT", "/api/tournament", testToken, []byte(other)); code != 200 || !strings.Contains(msg, "round 1 board 2: 0-1 (the file 1)") {
		t.Fatalf("a file with another result: %d %s", code, msg)
	}
	check("a file with another result")

	// Other pairings for round 1: refused, naming the results.
	swapped := "8\n1 10\n2 9\n3 11\n4 12\n5 13\n6 14\n7 15\n8 16\n"
	if code, msg := apiDo(t, h, "PUT", "/api/rounds/1", testToken, []byte(swapped)); code != http.StatusUnprocessableEntity || !strings.Contains(msg, "round 1 board 1 1-9 1-0") || !strings.Contains(msg, "pairs the round otherwise") {
		t.Errorf("other pairings for a played round: %d %s", code, msg)
	}
	check("other pairings refused")
	var b strings.Builder
	for _, l := range strings.SplitAfter(eightBoards(), "\n") {
		l = strings.Replace(l, "     9 w", "    10 w", 1)
		if strings.HasPrefix(l, "001    2 ") {
			l = strings.Replace(l, "    10 w", "     9 w", 1)
		}
		if strings.HasPrefix(l, "001    9 ") {
			l = strings.Replace(l, "     1 b", "     2 b", 1)
		}
		if strings.HasPrefix(l, "001   10 ") {
			l = strings.Replace(l, "     2 b", "     1 b", 1)
		}
		b.WriteString(l)
	}
	if code, msg := apiDo(t, h, "PUT", "/api/tournament", testToken, []byte(b.String())); code != http.StatusUnprocessableEntity || !strings.Contains(msg, "round 1 board 1") {
		t.Errorf("a file pairing round 1 otherwise: %d %s", code, msg)
	}
	check("a file pairing round 1 otherwise")

	// Round 2 set, then a file of round 1 only: round 2 has no result
	// yet, so it may go; once it has one, it may not.
	if bbp := bbpPairings(t); bbp != "" {
		list2 := pairNext(t, bbp, export)
		if code, msg := apiDo(t, h, "PUT", "/api/rounds/2", testToken, list2); code != 200 {
			t.Fatalf("round 2: %d %s", code, msg)
		}
		if code, msg := apiDo(t, h, "PUT", "/api/boards/1/result", testToken, []byte("+/-")); code != 200 {
			t.Fatalf("round 2's board 1: %d %s", code, msg)
		}
		if code, msg := apiDo(t, h, "PUT", "/api/tournament", testToken, []byte(export)); code != http.StatusUnprocessableEntity || !strings.Contains(msg, "round 2 board 1") {
			t.Errorf("a round-1 file after round 2's results: %d %s", code, msg)
		}
		if rows := resultRows(t, h, 2); rows[0][6] != "+/-" {
			t.Errorf("round 2 after the refused import: %v", rows[0])
		}
	}
}

// TestLatePlayer: between rounds the arbiter imports an amended TRF, the
// hall's export with a new player line (Z for the round missed); the
// hall keeps round 1's results bound to its games, bbpPairings pairs the
// late player in round 2, and the export carries both.
func TestLatePlayer(t *testing.T) {
	h, clocks, _, _ := roundOfEight(t)
	want := playRoundOne(t, h, clocks)
	_, export := exported(t, h)
	late := fmt.Sprintf("001 %4d m    %-33s %4d GER %11d 1990/01/01 %4s %4d  0000 - Z", 17, "Late, Lars", 2300, 4600017, "0.0", 17)
	amended := strings.TrimRight(export, "\n") + "\n" + late + "\n"
	code, msg := apiDo(t, h, "PUT", "/api/tournament", testToken, []byte(amended))
	if code != 200 || !strings.Contains(msg, "17 players, round 1: 8 boards") {
		t.Fatalf("the amended TRF: %d %s", code, msg)
	}
	for i, r := range resultRows(t, h, 1) {
		if r[6] != want[i+1] || r[10] == "" {
			t.Errorf("round 1 board %d after the amendment: result %q game %q, want %q and its game", i+1, r[6], r[10], want[i+1])
		}
	}
	tr, out := exported(t, h)
	if p, ok := tr.Player(17); !ok || p.Game(1) != (trf.Game{Colour: '-', Result: 'Z'}) {
		t.Fatalf("the late player in the export: %+v\n%s", p, out)
	}
	bbp := bbpPairings(t)
	if bbp == "" {
		t.Skip("no bbpPairings on this machine")
	}
	list := pairNext(t, bbp, out)
	boards, err := trf.ParsePairingList("out.txt", list)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, b := range boards {
		found = found || b.White == 17 || b.Black == 17
	}
	if !found {
		t.Fatalf("bbpPairings did not pair the late player:\n%s", list)
	}
	if code, msg := apiDo(t, h, "PUT", "/api/rounds/2", testToken, list); code != 200 {
		t.Fatalf("round 2: %d %s", code, msg)
	}
	tr, out = exported(t, h)
	for k := 1; k <= 8; k++ {
		w, _ := tr.Player(k)
		if got := fileResultOf(w.Game(1).Result); got != want[k] {
			t.Errorf("round 1 board %d in the export after round 2: %q, want %q", k, got, want[k])
		}
	}
	if p, _ := tr.Player(17); p.Game(1).Result != 'Z' || (p.Game(2).Opponent == 0 && p.Game(2).Result != 'U') {
		t.Errorf("the late player after round 2's pairing: %+v %+v\n%s", p.Game(1), p.Game(2), out)
	}
}

func fileResultOf(c byte) string {
	return map[byte]string{'1': "1-0", '=': "1/2-1/2", '0': "0-1"}[c]
}
