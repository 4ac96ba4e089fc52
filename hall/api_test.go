package hall

import (
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/devtools/fakeclock"
	"github.com/zeitnot/zeitnot/internal/wait"
	"github.com/zeitnot/zeitnot/internal/wallclock/wallclocktest"
	"github.com/zeitnot/zeitnot/protocol"
)

// smallEvent is a TRF-2026 of 2n players with the control in tag 222:
// with paired, player k has White against k+n in round 1 (board k);
// without, no one is paired yet (a new event, for bbpPairings or JaVaFo
// to pair).
func smallEvent(n int, paired bool) string {
	var b strings.Builder
	b.WriteString("012 Zeitnot Rapid 2026\n")
	fmt.Fprintf(&b, "062 %d\n142 5\n222 5400+30\nXXR 5\n", 2*n)
	for start := 1; start <= 2*n; start++ {
		fmt.Fprintf(&b, "001 %4d      %-33s %4d GER %11d 1990/01/01 %4s %4d", start, fmt.Sprintf("Player, No%02d", start), 2400-10*start, 4700000+start, "0.0", start)
		if paired {
			opp, col := start+n, 'w'
			if start > n {
				opp, col = start-n, 'b'
			}
			fmt.Fprintf(&b, "  %4d %c  ", opp, col)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// sent is a command a clock should receive: its name and what its
// control request says (Command.Request), or a part of it.
type sent struct {
	board   int
	name    string
	request string
}

// TestAPIActions: every action of the arbiter as an API call against
// four fake clocks: the answer's code and text, and the commands each
// clock receives, decoded as the clock does (protocol.ParseCommand); the
// refusals (no token, a bad body naming its field, an unknown board, a
// round that is not the current one) send nothing.
func TestAPIActions(t *testing.T) {
	vienna, err := time.LoadLocation("Europe/Vienna")
	if err != nil {
		t.Skip(err)
	}
	clk := wallclocktest.New(time.Date(2026, 3, 7, 17, 0, 0, 0, vienna))
	h := startHallOpts(t, func(c *Config) { c.APIToken = []byte(testToken); c.Zone = "Europe/Vienna" },
		Opts{Logf: t.Logf, Clock: clk})
	clocks := make([]*fakeclock.Clock, 5)
	for k := 1; k <= 4; k++ {
		clocks[k] = dialClock(t, brokerURL(h), k, nil)
	}
	wait.For(t, 10*time.Second, "4 boards in the store", func() bool { return len(h.Store().Boards()) == 4 })
	if code, msg := apiDo(t, h, "PUT", "/api/tournament", testToken, []byte(smallEvent(4, true))); code != 200 || !strings.Contains(msg, "8 players, round 1: 4 boards") {
		t.Fatalf("PUT /api/tournament: %d %s", code, msg)
	}
	every := func(name, request string) []sent {
		var out []sent
		for k := 1; k <= 4; k++ {
			out = append(out, sent{k, name, request})
		}
		return out
	}
	var pairings []sent
	for k := 1; k <= 4; k++ {
		pairings = append(pairings,
			sent{k, "players", fmt.Sprintf(`players {"white":"Player, No%02d","black":"Player, No%02d","round":1,"board":%d}`, k, k+4, k)},
			sent{k, "next-game", `next-game {"control":"5400+30"}`})
	}
	start := time.Date(2026, 3, 7, 18, 30, 0, 0, vienna).UnixMilli()
	tests := []struct {
		method, path, tok, body string
		code                    int
		text                    string // a part of the answer
		sent                    []sent
	}{
		// Round 1: sent, scheduled, started.
		{"POST", "/api/rounds/2/send", testToken, "", 404, "round 2: the hall set rounds up to 1", nil},
		{"POST", "/api/rounds/x/start", testToken, "", 404, `round "x": want a number`, nil},
		{"POST", "/api/rounds/1/send?control=maybe", testToken, "", 422, `control: want yes or no, got "maybe"`, nil},
		{"POST", "/api/rounds/1/send", testToken, "", 200, `round 1: players sent to 4 boards; control 90'+30"`, pairings},
		{"POST", "/api/rounds/1/start?default=30", testToken, "2026-03-07T18:30:00+01:00", 200, "round sent to boards 1, 2, 3, 4",
			every("round", fmt.Sprintf(`round {"start_ms":%d,"default_ms":1800000}`, start))},
		{"POST", "/api/rounds/1/start", testToken, "2026-03-07T16:30:00+01:00", 422,
			"round: the start 2026-03-07 16:30 (Europe/Vienna (CET, UTC+01:00)) has passed: it is 2026-03-07 17:00:00", nil},
		{"POST", "/api/rounds/1/start", testToken, "tonight", 422, `start: want an RFC 3339 instant like "2026-03-07T18:00:00+01:00", or nothing to start now; got "tonight"`, nil},
		{"POST", "/api/rounds/1/start?default=soon", testToken, "2026-03-07T18:30:00+01:00", 422, `default time: want minutes`, nil},
		{"POST", "/api/rounds/1/start?default=30", testToken, "", 422, "default: a default time goes with a scheduled start", nil},
		{"POST", "/api/rounds/1/start", testToken, "", 200, "start sent to boards 1, 2, 3, 4", every("start", "start")},
		{"POST", "/api/boards/2/start", testToken, "", 200, "start sent to board 2", []sent{{2, "start", "start"}}},
		{"POST", "/api/boards/77/start", testToken, "", 404, "start: no clock has reported as board 77", nil},
		{"POST", "/api/boards/abc/start", testToken, "", 404, `no board "abc"`, nil},
		// Pause and resume: a selection, or every board.
		{"POST", "/api/pause", testToken, "1 3", 200, "pause sent to boards 1, 3", []sent{{1, "pause", "pause"}, {3, "pause", "pause"}}},
		{"POST", "/api/pause", testToken, "1-x", 422, `boards: "1-x" is not a board number or range`, nil},
		{"POST", "/api/pause", testToken, "77", 422, "pause: no clock has reported as board 77: nothing sent", nil},
		{"POST", "/api/resume", testToken, "", 200, "resume sent to every board", every("resume", "resume")},
		// The control, confirmed when ambiguous.
		{"PUT", "/api/control", testToken, "5+3", 422, `not sent: "5+3" has no units: read as 5 min + 3 s a move`, nil},
		{"PUT", "/api/control?confirm=5", testToken, "5+3", 422, "send it again with ?confirm=300%2B3", nil},
		{"PUT", "/api/control?confirm=300%2B3", testToken, "5+3", 200, "next-game 5'+3\" (5 min + 3 s a move) sent to every board", every("next-game", `next-game {"control":"300+3"}`)},
		{"PUT", "/api/control?boards=2", testToken, "90'+30\"", 200, "sent to board 2", []sent{{2, "next-game", `next-game {"control":"5400+30"}`}}},
		{"PUT", "/api/control?boards=1,3&after-flag=freeze", testToken, "fide-classical", 200, "sent to boards 1, 3",
			[]sent{{1, "next-game", `next-game {"control":"fide-classical","options":{"after-flag":"freeze"}}`}, {3, "next-game", `next-game {"control":"fide-classical","options":{"after-flag":"freeze"}}`}}},
		{"PUT", "/api/control?after-flag=melt", testToken, "fide-classical", 422, "after-flag", nil},
		{"PUT", "/api/control", testToken, "ninety", 422, "control: ", nil},
		// The names of a game.
		{"PUT", "/api/boards/3/players", testToken, `{"white":"Kovač, Ivan","black":" Zhu, Wei "}`, 200, "players sent to board 3",
			[]sent{{3, "players", `players {"white":"Kovač, Ivan","black":"Zhu, Wei"}`}}},
		{"PUT", "/api/boards/3/players", testToken, `{"white":1,"black":"B"}`, 422, `white`, nil},
		{"PUT", "/api/boards/3/players", testToken, `{"white":"A"}`, 422, `body: missing field "black"`, nil},
		{"PUT", "/api/boards/3/players", testToken, `{"white":"A","black":"B","colour":"w"}`, 422, `unknown field "colour"`, nil},
		{"PUT", "/api/boards/3/players", testToken, `{"white":"` + strings.Repeat("x", 65) + `","black":""}`, 422, "players: white: 65 characters, at most 64", nil},
		{"PUT", "/api/boards/77/players", testToken, `{"white":"A","black":"B"}`, 404, "players: no clock has reported as board 77", nil},
		// The arbiter's result, routed as before.
		{"PUT", "/api/boards/1/result", testToken, "1-0", 200, "board 1: 1-0 (the arbiter's); sent to the clock", []sent{{1, "result", `result {"result":"1-0"}`}}},
		// A takeover: clock 4, the spare, takes board 1's game.
		{"POST", "/api/boards/1/takeover", testToken, "one", 422, `body: want the spare clock's board number, 1 to 9999, got "one"`, nil},
		{"POST", "/api/boards/1/takeover", testToken, "1", 422, "takeover: the spare clock and the board are the same", nil},
		{"POST", "/api/boards/1/takeover", testToken, "77", 422, "takeover: no clock has reported as board 77 (the spare): nothing sent", nil},
		{"POST", "/api/boards/77/takeover", testToken, "4", 404, "takeover: no clock has reported as board 77", nil},
		{"POST", "/api/boards/1/takeover", testToken, "4", 200, "takeover sent to board 4 to take over board 1's game", []sent{{4, "takeover", "takeover"}}},
		// No token, a wrong one: 401, nothing sent. A failure holds the
		// address back (the login's rate limit) until the hall's time
		// moves on: the test moves it an hour after each.
		{"POST", "/api/pause", "", "", 401, "want Authorization: Bearer TOKEN", nil},
		{"POST", "/api/rounds/1/send", "wrong-token-0123456", "", 401, "", nil},
		{"PUT", "/api/boards/2/players", "", `{"white":"A","black":"B"}`, 401, "", nil},
		{"POST", "/api/pause", testToken, "2", 200, "pause sent to board 2", []sent{{2, "pause", "pause"}}},
	}
	seen := make([]int, 5)
	for i, tt := range tests {
		name := fmt.Sprintf("%d %s %s %.30q", i, tt.method, tt.path, tt.body)
		code, text := apiDo(t, h, tt.method, tt.path, tt.tok, []byte(tt.body))
		if code != tt.code || !strings.Contains(text, tt.text) || strings.Count(strings.TrimSpace(text), "\n") > 0 {
			t.Errorf("%s: %d %q, want %d and one line with %q", name, code, text, tt.code, tt.text)
		}
		if code == http.StatusUnauthorized {
			clk.Advance(time.Hour)
		}
		want := map[int][]sent{}
		for _, s := range tt.sent {
			want[s.board] = append(want[s.board], s)
		}
		// Every clock gets what the call sends and nothing more: a refused
		// call before it would have arrived first.
		for k := 1; k <= 4; k++ {
			wait.For(t, 10*time.Second, fmt.Sprintf("%s: board %d's %d commands", name, k, len(want[k])), func() bool { return len(clocks[k].Commands()) >= seen[k]+len(want[k]) })
			got := clocks[k].Commands()[seen[k]:]
			if len(got) > len(want[k]) {
				t.Errorf("%s: board %d got %d commands, want %d: %q", name, k, len(got), len(want[k]), got)
			}
			for j, w := range want[k] {
				if j >= len(got) {
					break
				}
				scope := protocol.ScopeBoard
				if tt.path == "/api/resume" || tt.path == "/api/control?confirm=300%2B3" {
					scope = protocol.ScopeAll
				}
				c, err := protocol.ParseCommand(got[j], scope)
				if err != nil || c.Name != w.name || !strings.HasPrefix(c.Request(), w.request) || c.ID == "" {
					t.Errorf("%s: board %d's command %d: %s (%v): %+v, want %s %s with an id", name, k, j, got[j], err, c, w.name, w.request)
				}
				if w.name == "takeover" && c.From != 1 {
					t.Errorf("%s: takeover of board %d, want 1", name, c.From)
				}
			}
			seen[k] += len(got)
		}
	}

	// Round 2 set: round 1 is past, and no longer the one to send or
	// start.
	if code, msg := apiDo(t, h, "PUT", "/api/rounds/2", testToken, []byte("4\n5 2\n6 1\n7 4\n8 3\n")); code != 200 || !strings.Contains(msg, "round 2: 4 boards") {
		t.Fatalf("PUT /api/rounds/2: %d %s", code, msg)
	}
	for _, path := range []string{"/api/rounds/1/send", "/api/rounds/1/start"} {
		if code, msg := apiDo(t, h, "POST", path, testToken, nil); code != http.StatusConflict || !strings.Contains(msg, "round 1 is not the hall's current round: that is round 2") {
			t.Errorf("POST %s after round 2 was set: %d %s, want 409", path, code, msg)
		}
	}
	if code, msg := apiDo(t, h, "POST", "/api/rounds/3/start", testToken, nil); code != http.StatusNotFound {
		t.Errorf("POST /api/rounds/3/start: %d %s, want 404", code, msg)
	}
	if code, msg := apiDo(t, h, "POST", "/api/pause", testToken, []byte(strings.Repeat("1 ", 3000))); code != http.StatusRequestEntityTooLarge {
		t.Errorf("a pause of 6000 bytes: %d %s, want 413", code, msg)
	}
}

// TestRoundOneFromPlayers: a players-only TRF (a new event) is kept with
// no round, and round 1 comes from the pairing program's -p list: by the
// API, and by the round page's pairing-list field; then it is sent to the
// clocks as any round.
func TestRoundOneFromPlayers(t *testing.T) {
	for _, via := range []string{"api", "page"} {
		t.Run(via, func(t *testing.T) {
			h := startHall(t, func(c *Config) { c.APIToken = []byte(testToken) })
			clocks := make([]*fakeclock.Clock, 3)
			for k := 1; k <= 2; k++ {
				clocks[k] = dialClock(t, brokerURL(h), k, nil)
			}
			wait.For(t, 10*time.Second, "2 boards in the store", func() bool { return len(h.Store().Boards()) == 2 })
			players := []byte(smallEvent(2, false))
			list := "2\n3 1\n2 4\n"
			post, _ := roundForms(t, h)
			if via == "api" {
				code, msg := apiDo(t, h, "PUT", "/api/tournament", testToken, players)
				if code != 200 || msg != "tournament.trf: 4 players, no round paired yet: set round 1 with its pairing list (PUT /api/rounds/1, or the round page)\n" {
					t.Fatalf("PUT /api/tournament of the players: %d %q", code, msg)
				}
				if code, msg := apiDo(t, h, "POST", "/api/rounds/1/send", testToken, nil); code != http.StatusNotFound || !strings.Contains(msg, "round 1: no round paired yet") {
					t.Errorf("send before round 1 is paired: %d %s", code, msg)
				}
				if code, _ := apiDo(t, h, "GET", "/api/tournament.trf", testToken, nil); code != 200 {
					t.Errorf("GET /api/tournament.trf of the players: %d", code)
				}
				if code, msg := apiDo(t, h, "PUT", "/api/rounds/1", testToken, []byte(list)); code != 200 || msg != "round 1: 2 boards\n" {
					t.Fatalf("PUT /api/rounds/1: %d %q", code, msg)
				}
			} else {
				if p := uploadTRF(t, h, "players.trf", players); !strings.Contains(p, "players.trf: 4 players, no round paired yet") {
					t.Fatalf("the round page's import of the players:\n%s", p)
				}
				if p := post(url.Values{"action": {"pairings"}, "pair_round": {"1"}, "pairings": {"2\n3 1\n2 9\n"}}); !strings.Contains(p, "line 3") {
					t.Errorf("a list pairing player 9 of 4:\n%s", p)
				}
				if p := post(nil); !strings.Contains(p, `id="form-pairings"`) || !strings.Contains(p, `name="pair_round" inputmode="numeric" required value="1"`) {
					t.Fatalf("the round page has no pairing-list field for round 1:\n%s", p)
				}
				post(url.Values{"action": {"pairings"}, "pair_round": {"1"}, "pairings": {list}})
			}
			if p := post(nil); !strings.Contains(p, "round 1: 2 boards") || !strings.Contains(p, "3 Player, No03") {
				t.Fatalf("round page once round 1 is set:\n%s", p)
			}
			if code, msg := apiDo(t, h, "POST", "/api/rounds/1/send?control=no", testToken, nil); code != 200 || msg != "round 1: players sent to 2 boards\n" {
				t.Fatalf("POST /api/rounds/1/send: %d %q", code, msg)
			}
			for k, want := range map[int]string{1: `players {"white":"Player, No03","black":"Player, No01","round":1,"board":1}`, 2: `players {"white":"Player, No02","black":"Player, No04","round":1,"board":2}`} {
				wait.For(t, 10*time.Second, fmt.Sprintf("board %d's pairing", k), func() bool { return len(clocks[k].Commands()) == 1 })
				if c, err := protocol.ParseCommand(clocks[k].Commands()[0], protocol.ScopeBoard); err != nil || c.Request() != want {
					t.Errorf("board %d got %s (%v), want %s", k, clocks[k].Commands()[0], err, want)
				}
			}
		})
	}
}

// uploadTRF imports a TRF with the round page's import form, as the
// arbiter's browser sends it, and returns the page it leads to.
func uploadTRF(t *testing.T, h *Hall, name string, data []byte) string {
	t.Helper()
	cl := arbiterClient(t, h)
	base := "http://" + h.HTTPAddr()
	resp, err := cl.Get(base + "/arbiter/round")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	m := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindSubmatch(page)
	if m == nil {
		t.Fatal("no CSRF token on the round page")
	}
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	mw.WriteField("csrf", string(m[1]))
	mw.WriteField("action", "import")
	fw, _ := mw.CreateFormFile("trf", name)
	fw.Write(data)
	mw.Close()
	resp, err = cl.Post(base+"/arbiter/round", mw.FormDataContentType(), &b)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return string(out)
}
