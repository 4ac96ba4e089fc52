package hall

import (
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/zeitnot/zeitnot/devtools/fakeclock"
	"github.com/zeitnot/zeitnot/hall/store"
	"github.com/zeitnot/zeitnot/protocol"
)

// takeoverOfBoard5 sets up a round of eight boards where board 5's clock,
// with an electronic board, dies after 1. e4 e5 and spare clock 9 (a fake
// clock, for the commands it gets) takes over its game; the spare plays
// 2. Nf3 on. It returns post, which sends a form of /arbiter as the
// arbiter and returns the page after it.
func takeoverOfBoard5(t *testing.T, h *Hall) (post func(form map[string][]string) string) {
	t.Helper()
	st := h.Store()
	if code, msg := apiDo(t, h, "PUT", "/api/tournament", testToken, []byte(eightBoards())); code != 200 {
		t.Fatalf("PUT /api/tournament: %d %s", code, msg)
	}
	now := time.Now()
	for n := 1; n <= 8; n++ {
		if n == 5 {
			continue
		}
		putGame(t, st, n, "000"+string(rune('0'+n))+"-aaaaaa", "control 5400+30\n0 start\n60000 press white\n", stateOf("black", true, false, 5370000, 5400000, 1, 0), now)
	}
	putGame(t, st, 5, "0005-aaaaaa", "control 5400+30\n0 start\n60000 press white\n60100 move 1 e4 e2e4\n90000 press black\n90200 move 2 e5 e7e5\n",
		stateOf("white", true, false, 5370000, 5370000, 1, 1), now)
	st.SetPlayers(5, "0005-aaaaaa", store.Players{White: "Schmidt, Anna", Black: "Papp, Ádám"})
	st.PutOnline(5, protocol.OnlineMsg{Online: false, Reason: "lost"}, now)

	cl := arbiterClient(t, h)
	base := "http://" + h.HTTPAddr()
	m := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindStringSubmatch(page(t, cl, base+"/arbiter"))
	if m == nil {
		t.Fatal("no CSRF token on /arbiter")
	}
	csrf := m[1]
	post = func(form map[string][]string) string {
		t.Helper()
		form["csrf"] = []string{csrf}
		resp, err := cl.PostForm(base+"/arbiter", form)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	// The takeover as the arbiter's form records it (the fake clock has
	// no takeover of its own: its reply would refuse it).
	st.AskTakeover(9, 5, "h-takeover-5")
	putGame(t, st, 9, "0010-aaaaaa", "control 5400+30\n0 set white 5370000\n0 moves white 1\n0 set black 5370000\n0 moves black 1\n0 start\n0 pause\n0 resume\n3000 press white\n3100 move 1 Nf3 g1f3\n",
		stateOf("black", true, false, 5367000, 5370000, 2, 1), now)
	st.PutReply(9, protocol.Reply{ID: "h-takeover-5", Cmd: "takeover", Board: 9, OK: true}, now)
	st.PutOnline(9, protocol.OnlineMsg{Online: true, Clock: true}, now)
	return post
}

// A takeover keeps the game whole: after spare clock 9 takes board 5's
// game, board 5's page and the live stream, /api/boards, the round's feed
// and the round page keep its players, the electronic board's moves
// before the takeover and after it, its board number and its place in
// the board order; a players correction for board 5 goes to the spare.
// (Board 5's page said "White / Black"; the feed's board 5 had no moves
// of the board's own clock and came after board 8; the correction went
// to the dead clock.)
func TestTakeoverKeepsTheGameWhole(t *testing.T) {
	h := startHall(t, func(c *Config) { c.APIToken = []byte(testToken) })
	spare := dialClock(t, brokerURL(h), 9, func(o *fakeclock.Opts) { o.Control = "5400+30" })
	waitIdle(t, spare)
	waitFor(t, 5*time.Second, "the spare clock at the hall", func() bool { b, ok := h.Store().Board(9); return ok && b.Game == spare.Game() })
	post := takeoverOfBoard5(t, h)
	base := "http://" + h.HTTPAddr()

	// Board 5's page follows its stream: the spare's view under board 5,
	// with the players and every move.
	frames := snapshotFrames(t, h, "/events?board=5")
	if len(frames) != 1 {
		t.Fatalf("/board/5's stream: %q", frames)
	}
	var v struct {
		Board    int `json:"board"`
		Spare    int `json:"spare"`
		Position *struct {
			Moves []string `json:"moves"`
		} `json:"position"`
	}
	json.Unmarshal([]byte(frames[0]), &v)
	var names struct{ White, Black string }
	json.Unmarshal([]byte(frames[0]), &names)
	if v.Board != 5 || v.Spare != 9 || names.White != "Schmidt, Anna" || names.Black != "Papp, Ádám" {
		t.Errorf("/board/5's view: board %d spare %d, %q – %q, want 5 on 9, Schmidt, Anna – Papp, Ádám", v.Board, v.Spare, names.White, names.Black)
	}
	if v.Position == nil || strings.Join(v.Position.Moves, " ") != "e4 e5 Nf3" {
		t.Errorf("/board/5's moves: %+v, want e4 e5 Nf3", v.Position)
	}

	// The API: the spare names the players of the game it carries.
	var entries []struct {
		Board, Carries int
		White, Black   string
	}
	json.Unmarshal([]byte(page(t, http.DefaultClient, base+"/api/boards")), &entries)
	found := false
	for _, e := range entries {
		if e.Board == 9 {
			found = true
			if e.Carries != 5 || e.White != "Schmidt, Anna" || e.Black != "Papp, Ádám" {
				t.Errorf("/api/boards' clock 9: %+v", e)
			}
		}
	}
	if !found {
		t.Error("/api/boards has no clock 9")
	}

	// The feed: board 5 in its place, its players, every move.
	feed := page(t, http.DefaultClient, base+"/round.pgn")
	var order []string
	for _, m := range regexp.MustCompile(`\[Board "(\d+)"\]`).FindAllStringSubmatch(feed, -1) {
		order = append(order, m[1])
	}
	if strings.Join(order, " ") != "1 2 3 4 5 6 7 8" {
		t.Errorf("the feed's boards: %v, want 1 to 8 in order", order)
	}
	games := strings.Split(feed, "[Event ")
	var five string
	for _, g := range games {
		if strings.Contains(g, `[Board "5"]`) {
			five = g
		}
	}
	for _, want := range []string{`[White "Schmidt, Anna"]`, `[Black "Papp, Ádám"]`, `[Result "*"]`, "1. e4 {", "1... e5 {", "2. Nf3 {"} {
		if !strings.Contains(five, want) {
			t.Errorf("the feed's board 5 has no %s:\n%s", want, five)
		}
	}

	// The round's PGN: board 5's game whole too.
	code, roundPGN := apiDo(t, h, "GET", "/api/rounds/1/games.pgn", testToken, nil)
	var five1 string
	for _, g := range strings.Split(roundPGN, "[Event ") {
		if strings.Contains(g, `[Board "5"]`) {
			five1 = g
		}
	}
	for _, want := range []string{`[White "Schmidt, Anna"]`, "1. e4 {", "1... e5 {", "2. Nf3 {"} {
		if code != 200 || !strings.Contains(five1, want) {
			t.Errorf("the round's PGN (%d) board 5 has no %s:\n%s", code, want, five1)
		}
	}

	// The round page: board 5 is the spare's game.
	if row := regexp.MustCompile(`(?s)<tr id="board-5".*?</tr>`).FindString(page(t, arbiterClient(t, h), base+"/arbiter/round")); !strings.Contains(row, "0010-aaaaaa") || !strings.Contains(row, "Schmidt, Anna") {
		t.Errorf("the round page's board 5: %s", row)
	}

	// A players correction for board 5 reaches the spare.
	out := post(map[string][]string{"action": {"players"}, "board": {"5"}, "white": {"Schmidt, Anna-Lena"}, "black": {"Papp, Ádám"}})
	if !strings.Contains(out, "players sent to board 9 (board 5&#39;s game is on clock 9)") {
		t.Errorf("the flash of the correction: %s", regexp.MustCompile(`(?s)<p class="[a-z]+" role="status" id="flash">.*?</p>`).FindString(out))
	}
	waitFor(t, 5*time.Second, "the correction at the spare", func() bool {
		for _, c := range spare.Commands() {
			if strings.Contains(string(c), `"white":"Schmidt, Anna-Lena"`) {
				return true
			}
		}
		return false
	})
}

// Board 5's page in a real browser after the takeover: its players, not
// "White" and "Black", every move of the game, and the spare named.
func TestBrowserTakeoverBoardPage(t *testing.T) {
	ctx := browser(t, 1280, 800)
	h := startHall(t, func(c *Config) { c.APIToken = []byte(testToken) })
	spare := dialClock(t, brokerURL(h), 9, func(o *fakeclock.Opts) { o.Control = "5400+30" })
	waitIdle(t, spare)
	waitFor(t, 5*time.Second, "the spare clock at the hall", func() bool { b, ok := h.Store().Board(9); return ok && b.Game == spare.Game() })
	takeoverOfBoard5(t, h)
	do(t, ctx, chromedp.Navigate("http://"+h.HTTPAddr()+"/board/5"), chromedp.WaitVisible(chromedp.CSS("#b5 .side .who")))
	who := run(t, ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#b5 .side .who"), e => e.textContent)`))
	if strings.Join(who, " / ") != "Schmidt, Anna / Papp, Ádám" {
		t.Errorf("/board/5's players: %q", who)
	}
	if mv := run(t, ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#b5 .movelist .mv"), e => e.textContent)`)); strings.Join(mv, " ") != "e4 e5 Nf3" {
		t.Errorf("/board/5's moves: %q, want e4 e5 Nf3", mv)
	}
	if tags := run(t, ctx, chromedp.Text(chromedp.CSS("#b5 .tags"))); !strings.Contains(tags, "on spare clock 9") {
		t.Errorf("/board/5's tags: %q", tags)
	}
}
