package hall

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/hall/store"
	"github.com/zeitnot/zeitnot/hall/trf"
	"github.com/zeitnot/zeitnot/protocol"
)

// putGame gives the store board n's game id: its log lines (format 2
// added, each with its checksum) and its state.
func putGame(t *testing.T, st *store.Store, n int, id, log, state string, at time.Time) {
	t.Helper()
	for i, l := range strings.Split(strings.TrimSuffix("format 2\n"+log, "\n"), "\n") {
		if _, err := st.PutLine(n, id, int64(i+1), clocklog.WithChecksum(l)); err != nil {
			t.Fatalf("board %d line %d: %v", n, i+1, err)
		}
	}
	m, err := protocol.ParseStateMsg([]byte(fmt.Sprintf(`{"hall":"test","board":%d,"game":%q,"time":%d,"state":%s}`, n, id, at.UnixMilli(), state)))
	if err != nil {
		t.Fatalf("board %d state: %v", n, err)
	}
	st.PutState(n, &m, at)
}

// page is the page at url, fetched with c, its HTML entities left as
// they are.
func page(t *testing.T, c *http.Client, url string) string {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// snapshotFrames are the board frames a live stream starts with (up to
// its ready event), each frame's JSON.
func snapshotFrames(t *testing.T, h *Hall, path string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", "http://"+h.HTTPAddr()+path, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out []string
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		l := sc.Text()
		if l == "event: ready" {
			return out
		}
		if d, ok := strings.CutPrefix(l, "data: "); ok {
			out = append(out, d)
		}
	}
	t.Fatalf("%s: the stream ended before its ready event: %v", path, sc.Err())
	return nil
}

func stateOf(running string, started, paused bool, whiteMs, blackMs int64, whiteMoves, blackMoves int) string {
	return fmt.Sprintf(`{"at":0,"running":%q,"paused":%v,"first_flag":"none","to_move":"black","started":%v,"stopped":false,`+
		`"white":{"ms":%d,"moves":%d,"period":1,"mode":"fischer"},"black":{"ms":%d,"moves":%d,"period":1,"mode":"fischer"},"control":"5400+30"}`,
		running, paused, started, whiteMs, whiteMoves, blackMs, blackMoves)
}

// After a takeover (FIDE 6.10) the game stays on its board: board 3's
// clock breaks, spare clock 9 takes its game over; the pages, the PGN,
// the round's results and the TRF have the game as board 3's, and board
// 3's dead clock is retired from the pages: the game does not go on as
// board 9's while the dead board counts down, and the spare's result
// reaches the pairing program.
func TestTakeoverStaysOnItsBoard(t *testing.T) {
	h := startHall(t, func(c *Config) { c.APIToken = []byte(testToken) })
	st := h.Store()
	if code, msg := apiDo(t, h, "PUT", "/api/tournament", testToken, []byte(eightBoards())); code != 200 {
		t.Fatalf("PUT /api/tournament: %d %s", code, msg)
	}
	now := time.Now()
	// Board 3: Nguyễn against Çelik, one move, Black to move; then its
	// clock dies.
	putGame(t, st, 3, "0003-aaaaaa", "control 5400+30\n0 start\n60000 press white\n", stateOf("black", true, false, 5370000, 5400000, 1, 0), now)
	st.SetPlayers(3, "0003-aaaaaa", store.Players{White: "Nguyễn, Văn An", Black: "Çelik, Deniz"})
	st.PutOnline(3, protocol.OnlineMsg{Online: false, Reason: "lost"}, now)
	// Board 9, the spare: an unstarted game of its own.
	putGame(t, st, 9, "0009-aaaaaa", "control 300+2\n", stateOf("none", false, false, 300000, 300000, 0, 0), now)
	st.PutOnline(9, protocol.OnlineMsg{Online: true, Clock: true}, now)

	// The arbiter's takeover: the hall records it, the spare sets up its
	// game (its state first, with Black's time settled to the takeover:
	// no state of board 3 has it), then says ok.
	cl := arbiterClient(t, h)
	m := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindStringSubmatch(page(t, cl, "http://"+h.HTTPAddr()+"/arbiter"))
	if m == nil {
		t.Fatal("no CSRF token on /arbiter")
	}
	csrf := m[1]
	resp, err := cl.PostForm("http://"+h.HTTPAddr()+"/arbiter", map[string][]string{"csrf": {csrf}, "action": {"takeover"}, "spare": {"9"}, "board": {"3"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	sp, _ := st.Board(9)
	if sp.AskedTakeover == nil || sp.AskedTakeover.Board != 3 || sp.AskedTakeover.Game != "0003-aaaaaa" {
		t.Fatalf("the hall did not record the takeover it asked: %+v", sp.AskedTakeover)
	}
	putGame(t, st, 9, "0010-aaaaaa", "control 5400+30\n0 set white 5400000\n0 moves white 1\n0 set black 5352000\n0 turn black\n0 start\n0 pause\n",
		stateOf("black", true, true, 5400000, 5352000, 1, 0), now)
	st.PutReply(9, protocol.Reply{ID: sp.AskedTakeover.ID, Cmd: "takeover", Board: 9, OK: true, Detail: "board 3's state was 48s old"}, now)

	// The pages: board 3 is the spare's game; no board 9; the dead
	// clock's times are nowhere.
	var views []struct {
		Board int             `json:"board"`
		Spare int             `json:"spare"`
		Game  string          `json:"game"`
		State json.RawMessage `json:"state"`
	}
	for _, path := range []string{"/", "/arbiter"} {
		c := http.DefaultClient
		if path == "/arbiter" {
			c = cl
		}
		body := page(t, c, "http://"+h.HTTPAddr()+path)
		if strings.Contains(body, `id="b9"`) || !strings.Contains(body, `id="b3"`) {
			t.Errorf("%s: want board 3's card and none of board 9:\n%s", path, body)
		}
	}
	frames := snapshotFrames(t, h, "/events")
	json.Unmarshal([]byte("["+strings.Join(frames, ",")+"]"), &views)
	if len(views) != 1 || views[0].Board != 3 || views[0].Spare != 9 || views[0].Game != "0010-aaaaaa" {
		t.Errorf("the live stream's boards: %s", frames)
	}
	frames = snapshotFrames(t, h, "/events?board=3")
	if len(frames) != 1 || !strings.Contains(frames[0], `"game":"0010-aaaaaa"`) || !strings.Contains(frames[0], `"spare":9`) {
		t.Errorf("/board/3's stream: %s", frames)
	}
	// The API lists clocks by their own number, and says which carries
	// which board's game.
	var entries []struct {
		Board, Carries int
		CarriedBy      int `json:"carried_by"`
	}
	if err := json.Unmarshal([]byte(page(t, http.DefaultClient, "http://"+h.HTTPAddr()+"/api/boards")), &entries); err != nil {
		t.Fatal(err)
	}
	carry := map[int][2]int{}
	for _, e := range entries {
		carry[e.Board] = [2]int{e.Carries, e.CarriedBy}
	}
	if carry[9] != [2]int{3, 0} || carry[3] != [2]int{0, 9} {
		t.Errorf("/api/boards: carries and carried_by %v, want 9 carrying 3", carry)
	}
	// The PGN: board 3's, with its players, carrying on its game.
	pgn := page(t, http.DefaultClient, "http://"+h.HTTPAddr()+"/api/boards/9/pgn")
	for _, want := range []string{`[Board "3"]`, `[White "Nguyễn, Văn An"]`, `[Black "Çelik, Deniz"]`, `[ZeitnotContinues "0003-aaaaaa"]`} {
		if !strings.Contains(pgn, want) {
			t.Errorf("the spare's PGN has no %s:\n%s", want, pgn)
		}
	}
	// The arbiter's pause of board 3 goes to the clock that has its game.
	resp, err = cl.PostForm("http://"+h.HTTPAddr()+"/arbiter", map[string][]string{"csrf": {csrf}, "action": {"pause"}, "boards": {"3"}})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := io.ReadAll(resp.Body) // the page after the form, with its flash
	resp.Body.Close()
	if !strings.Contains(string(a), "pause sent to board 9 (board 3&#39;s game is on clock 9)") {
		t.Errorf("the pause of board 3 after the takeover: %s", a)
	}

	// The players agree a draw on the spare: the round's board 3 has it,
	// in the results and in the TRF for the pairing program.
	if _, err := st.PutLine(9, "0010-aaaaaa", 9, clocklog.WithChecksum("0 resume")); err != nil {
		t.Fatal(err)
	}
	st.PutLine(9, "0010-aaaaaa", 10, clocklog.WithChecksum("4000 press black"))
	st.PutLine(9, "0010-aaaaaa", 11, clocklog.WithChecksum("5000 pause"))
	st.PutLine(9, "0010-aaaaaa", 12, clocklog.WithChecksum("5000 result 1/2-1/2 players"))
	_, csvText := apiDo(t, h, "GET", "/api/rounds/1/results.csv", testToken, nil)
	if !strings.Contains(csvText, `1,3,3,"Nguyễn, Văn An",11,"Çelik, Deniz",1/2-1/2,players,,,0010-aaaaaa`) {
		t.Errorf("results.csv has not board 3's draw on the spare:\n%s", csvText)
	}
	_, out := apiDo(t, h, "GET", "/api/tournament.trf", testToken, nil)
	tr, err := trf.Parse("exported.trf", []byte(out))
	if err != nil {
		t.Fatal(err)
	}
	if w, _ := tr.Player(3); w.Game(1).Result != '=' {
		t.Errorf("the TRF's board 3: %c, want =", w.Game(1).Result)
	}
	rpgn := func() string { _, p := apiDo(t, h, "GET", "/api/rounds/1/games.pgn", testToken, nil); return p }()
	if !strings.Contains(rpgn, `[Board "3"]`) || !strings.Contains(rpgn, `[Result "1/2-1/2"]`) || !strings.Contains(rpgn, `[ZeitnotGame "0010-aaaaaa"]`) {
		t.Errorf("the round's PGN has not board 3's game on the spare:\n%s", rpgn)
	}

	// The spare goes on to a game of its own: it is board 9 again, and
	// board 3's own clock shows again (offline, its times frozen).
	putGame(t, st, 9, "0011-aaaaaa", "control 300+2\n", stateOf("none", false, false, 300000, 300000, 0, 0), now)
	frames = snapshotFrames(t, h, "/events")
	if len(frames) != 2 || !strings.Contains(frames[0], `"board":3,"online":false`) || !strings.Contains(frames[1], `"board":9`) {
		t.Errorf("after the spare's next game: %s", frames)
	}
}

// A takeover ends with its round: board 3's clock broke in round 1 and
// the spare carried its game to a result; in round 2 board 3 is another
// pairing, whose result is missing after the send, whose players go to
// board 3's clock (a new one), and whose start goes there too, not to the
// spare. The spare's result of round 1 was taken for round 2's board 3 as
// well, the send left board 3 out as if its clock had opened round 2's
// game already, and the hall's commands to board 3 went on going to the
// spare, which still held round 1's finished game.
func TestTakeoverEndsWithItsRound(t *testing.T) {
	h := startHall(t, func(c *Config) { c.APIToken = []byte(testToken) })
	st := h.Store()
	if code, msg := apiDo(t, h, "PUT", "/api/tournament", testToken, []byte(eightBoards())); code != 200 {
		t.Fatalf("PUT /api/tournament: %d %s", code, msg)
	}
	post, _ := roundForms(t, h)
	post(url.Values{"action": {"send"}, "control": {"on"}})
	now := time.Now()
	// paired is board 3's game id of round's pairing, in state.
	paired := func(id, log, state string, round int) {
		putGame(t, st, 3, id, log, state, now)
		m, err := protocol.ParseStateMsg([]byte(fmt.Sprintf(`{"hall":"test","board":3,"game":%q,"time":%d,"state":%s}`, id, now.UnixMilli(),
			strings.TrimSuffix(state, "}")+fmt.Sprintf(`,"pairing":{"round":%d,"board":3}}`, round))))
		if err != nil {
			t.Fatal(err)
		}
		st.PutState(3, &m, now)
	}
	paired("0003-aaaaaa", "control 5400+30\n# hall: round 1 board 3: players white \"Nguyễn, Văn An\", black \"Çelik, Deniz\"\n0 start\n60000 press white\n", stateOf("black", true, false, 5370000, 5400000, 1, 0), 1)
	st.PutOnline(3, protocol.OnlineMsg{Online: false, Reason: "lost"}, now)
	putGame(t, st, 9, "0009-aaaaaa", "control 300+2\n", stateOf("none", false, false, 300000, 300000, 0, 0), now)
	st.PutOnline(9, protocol.OnlineMsg{Online: true, Clock: true}, now)
	if _, csvText := apiDo(t, h, "GET", "/api/rounds/1/results.csv", testToken, nil); !strings.Contains(csvText, ",0003-aaaaaa") {
		t.Fatalf("round 1's board 3 is not bound to its clock's game:\n%s", csvText)
	}

	// The takeover, and the draw on the spare.
	cl := arbiterClient(t, h)
	csrf := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindStringSubmatch(page(t, cl, "http://"+h.HTTPAddr()+"/arbiter"))[1]
	resp, err := cl.PostForm("http://"+h.HTTPAddr()+"/arbiter", url.Values{"csrf": {csrf}, "action": {"takeover"}, "spare": {"9"}, "board": {"3"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	sp, _ := st.Board(9)
	putGame(t, st, 9, "0010-aaaaaa", "control 5400+30\n0 set white 5400000\n0 moves white 1\n0 set black 5352000\n0 turn black\n0 start\n0 pause\n0 resume\n4000 press black\n5000 pause\n5000 result 1/2-1/2 players\n",
		strings.TrimSuffix(stateOf("none", true, true, 5400000, 5352000, 1, 1), "}")+`,"result":"1/2-1/2","result_by":"players"}`, now)
	st.PutReply(9, protocol.Reply{ID: sp.AskedTakeover.ID, Cmd: "takeover", Board: 9, OK: true}, now)
	if _, csvText := apiDo(t, h, "GET", "/api/rounds/1/results.csv", testToken, nil); !strings.Contains(csvText, "1/2-1/2,players,,,0010-aaaaaa") {
		t.Fatalf("round 1's board 3 has not the spare's draw:\n%s", csvText)
	}

	// Round 2: board 3 pairs Dupont and Kovač.
	if code, msg := apiDo(t, h, "PUT", "/api/rounds/2", testToken, []byte("8\n1 9\n2 10\n4 12\n3 11\n5 13\n6 14\n7 15\n8 16\n")); code != 200 {
		t.Fatalf("PUT /api/rounds/2: %d %s", code, msg)
	}
	flash := post(url.Values{"action": {"send"}, "control": {"on"}})
	if !strings.Contains(html.UnescapeString(flash), "players sent to 8 boards") {
		t.Errorf("round 2's send: want players sent to 8 boards, board 3 among them:\n%s", regexp.MustCompile(`(?s)id="flash"[^>]*>.*?<`).FindString(flash))
	}
	_, csvText := apiDo(t, h, "GET", "/api/rounds/2/results.csv", testToken, nil)
	rows, err := csv.NewReader(strings.NewReader(csvText)).ReadAll()
	if err != nil || len(rows) != 9 {
		t.Fatalf("round 2's results.csv: %v\n%s", err, csvText)
	}
	if r := rows[3]; r[1] != "3" || r[6] != "" || r[7] != "" || r[10] != "" {
		t.Errorf("round 2's board 3 has a result or a game before its clock opened one: %q", r)
	}

	// Board 3's new clock opens round 2's game; the round's start goes to
	// it, and the round's board 3 is that game.
	paired("0001-cccccc", "control 5400+30\n# hall: round 2 board 3: players white \"Dupont, Émile\", black \"Kovač, Ivan\"\n", stateOf("none", false, false, 5400000, 5400000, 0, 0), 2)
	st.PutOnline(3, protocol.OnlineMsg{Online: true, Clock: true}, now)
	if code, msg := apiDo(t, h, "POST", "/api/rounds/2/start", testToken, nil); code != 200 || strings.Contains(msg, "clock 9") {
		t.Errorf("round 2's start: %d %s; want it sent to board 3's own clock", code, msg)
	}
	_, csvText = apiDo(t, h, "GET", "/api/rounds/2/results.csv", testToken, nil)
	if rows, _ = csv.NewReader(strings.NewReader(csvText)).ReadAll(); len(rows) != 9 || rows[3][6] != "" || rows[3][10] != "0001-cccccc" {
		t.Errorf("round 2's board 3 is not the new clock's game:\n%s", csvText)
	}
}
