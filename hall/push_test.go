package hall

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/devtools/fakeclock"
	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/hall/broadcast"
	"github.com/zeitnot/zeitnot/hall/broadcast/lichesstest"
	"github.com/zeitnot/zeitnot/internal/pgnreaders"
	"github.com/zeitnot/zeitnot/internal/wait"
)

// hall.toml's [broadcast]: a round for every board, or ranges; the token
// from its file; each mistake named at its line.
func TestBroadcastConfig(t *testing.T) {
	dir := t.TempDir()
	tok := filepath.Join(dir, "lichess.token")
	if err := os.WriteFile(tok, []byte("lip_abcdefghijklmnop\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	short := filepath.Join(dir, "short.token")
	os.WriteFile(short, []byte("lip\n"), 0o600)
	c, err := ParseConfig(filepath.Join(dir, "hall.toml"), []byte("[broadcast]\nround = \"aBcD1234\"\ntoken_file = \"lichess.token\"\ninterval = \"3s\"\n"), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	if b := c.Broadcast; b == nil || len(b.Ranges) != 1 || b.Ranges[0] != (broadcast.Range{Round: "aBcD1234"}) || string(b.Token) != "lip_abcdefghijklmnop" || b.Interval != 3*time.Second || b.URL != "" {
		t.Errorf("[broadcast]: %+v", c.Broadcast)
	}
	c, err = ParseConfig(filepath.Join(dir, "hall.toml"), []byte("[broadcast]\ntoken_file = \"lichess.token\"\nurl = \"http://127.0.0.1:9\"\n[[broadcast.range]]\nboards = \"1-100\"\nround = \"round001\"\n[[broadcast.range]]\nboards = \"101-150\"\nround = \"round002\"\n"), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	if b := c.Broadcast; b == nil || fmt.Sprint(b.Ranges) != "[{round001 1-100} {round002 101-150}]" || b.URL != "http://127.0.0.1:9" {
		t.Errorf("[[broadcast.range]]: %+v", c.Broadcast)
	}
	for _, tc := range []struct{ toml, want string }{
		{"[broadcast]\ntoken_file = \"lichess.token\"\n", "1: broadcast: missing: round"},
		{"[broadcast]\nround = \"abcd1234\"\n", "broadcast.token_file: missing"},
		{"[broadcast]\nround = \"abcd123\"\ntoken_file = \"lichess.token\"\n", `2: broadcast.round: round "abcd123": want the lichess round's id`},
		{"[broadcast]\nround = \"abcd1234\"\ntoken_file = \"short.token\"\n", "the token has 3 characters"},
		{"[broadcast]\nround = \"abcd1234\"\ntoken_file = \"none.token\"\n", "3: broadcast.token_file: cannot read"},
		{"[broadcast]\nround = \"abcd1234\"\ntoken_file = \"lichess.token\"\ninterval = \"100ms\"\n", `4: broadcast.interval: want a duration from "1s" to "10m"`},
		{"[broadcast]\nround = \"abcd1234\"\ntoken_file = \"lichess.token\"\nurl = \"lichess.org\"\n", "4: broadcast.url: want lichess's address"},
		{"[broadcast]\nround = \"abcd1234\"\ntoken_file = \"lichess.token\"\n[[broadcast.range]]\nboards = \"1-8\"\nround = \"abcd1235\"\n", "round and [[broadcast.range]] both"},
		{"[broadcast]\ntoken_file = \"lichess.token\"\n[[broadcast.range]]\nround = \"abcd1235\"\n", "broadcast.range.boards: missing"},
		{"[broadcast]\ntoken_file = \"lichess.token\"\n[[broadcast.range]]\nboards = \"8-1\"\nround = \"abcd1235\"\n", `4: broadcast.range.boards: boards: "8-1" is not a board number or range`},
		{"[broadcast]\ntoken_file = \"lichess.token\"\n[[broadcast.range]]\nboards = \"1-8\"\nround = \"abcd1235\"\n[[broadcast.range]]\nboards = \"9-16\"\nround = \"abcd1235\"\n", "round abcd1235 is given twice"},
	} {
		_, err := ParseConfig(filepath.Join(dir, "hall.toml"), []byte(tc.toml), DefaultConfig())
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.toml, err, tc.want)
		}
	}
}

// journalClocks are White's and Black's clocks at the end of a fake
// clock's journal, as PGN writes them: the clock paused, stopped by a
// flag, or (at) where a result line ended the game.
func journalClocks(t *testing.T, c *fakeclock.Clock, result bool) (string, string) {
	t.Helper()
	l, err := clocklog.ReadLog(c.Game(), []byte(strings.Join(c.Lines(), "\n")+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if result {
		for i, e := range l.Events {
			if e.Verb == clocklog.GameResult {
				l.Events = l.Events[:i+1]
				break
			}
		}
	}
	clk, err := clocklog.Replay(l, clocklog.Handlers{})
	if err != nil {
		t.Fatal(err)
	}
	s := clk.State(clk.Now())
	return clocklog.PGNTime(s.Player[clock.White].Ms), clocklog.PGNTime(s.Player[clock.Black].Ms)
}

// A hall of 150 boards pushes to two lichess rounds, boards 1 to 100 and
// 101 to 150, each push every game of its range; the clocks on boards 1
// to 3 are real clocks on the hall's broker: board 1's flag falls, board
// 2 is paused, board 3's game is won. The pushes carry each clock's
// journal (the flag at 0, the paused clocks where they stand, the won
// game's clocks stopped at its result), and /arbiter shows lichess's
// answers; the token is never in the log.
func TestPushHall(t *testing.T) {
	const token = "lip_hallPushToken0123456"
	lichess := lichesstest.New(t, token, "round001", "round002")
	var logMu sync.Mutex
	var logs []string
	h := startHallOpts(t, func(c *Config) {
		c.Broadcast = &Broadcast{URL: lichess.URL, Token: []byte(token), Interval: 200 * time.Millisecond,
			Ranges: []broadcast.Range{{Round: "round001", Boards: "1-100"}, {Round: "round002", Boards: "101-150"}}}
	}, Opts{Logf: func(f string, a ...any) {
		logMu.Lock()
		logs = append(logs, fmt.Sprintf(f, a...))
		logMu.Unlock()
		t.Logf(f, a...)
	}})
	st := h.Store()
	now := time.Now()
	for n := 4; n <= 150; n++ {
		putGame(t, st, n, fmt.Sprintf("%04d-aaaaaa", n), "control 5400+30\n0 start\n", stateOf("white", true, false, 5400000, 5400000, 0, 0), now)
	}
	u := brokerURL(h)
	flag, paused, won := dialClock(t, u, 1, nil), dialClock(t, u, 2, nil), dialClock(t, u, 3, nil)
	flag.Press()
	paused.Press()
	paused.Press()
	paused.Pause()
	won.Press()
	won.Move("e4", "e2e4", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
	won.Result(clocklog.WhiteWins, clocklog.Players)
	flag.Skip(10 * time.Minute) // White's 5 minutes run out
	flag.Refresh()
	waitIdle(t, flag, paused, won)

	last := func(round string) (lichesstest.Push, int) {
		var p lichesstest.Push
		n := 0
		for _, x := range lichess.Pushes() {
			if x.Round == round {
				p, n = x, n+1
			}
		}
		return p, n
	}
	byBoard := func(p lichesstest.Push) map[int]pgnreaders.Game {
		m := map[int]pgnreaders.Game{}
		for _, g := range p.Games {
			m[lichesstest.Board(g)] = g
		}
		return m
	}
	pw, pb := journalClocks(t, paused, false)
	ww, wb := journalClocks(t, won, true)
	wait.Until(t, 60*time.Second, func() string {
		a, _ := last("round001")
		b, _ := last("round002")
		ga, gb := byBoard(a), byBoard(b)
		switch {
		case len(a.Games) != 100 || len(ga) != 100 || ga[1].Tags == nil || ga[100].Tags == nil:
			return fmt.Sprintf("round001's last push has %d games, want boards 1 to 100", len(a.Games))
		case len(b.Games) != 50 || len(gb) != 50 || gb[101].Tags == nil || gb[150].Tags == nil:
			return fmt.Sprintf("round002's last push has %d games, want boards 101 to 150", len(b.Games))
		case ga[1].Tags["WhiteClock"] != "0:00:00":
			return fmt.Sprintf("board 1's WhiteClock %s, want its flag, 0:00:00", ga[1].Tags["WhiteClock"])
		case ga[2].Tags["WhiteClock"] != pw || ga[2].Tags["BlackClock"] != pb:
			return fmt.Sprintf("board 2's clocks %s %s, want the paused clocks %s %s", ga[2].Tags["WhiteClock"], ga[2].Tags["BlackClock"], pw, pb)
		case ga[3].Tags["Result"] != "1-0" || ga[3].Tags["WhiteClock"] != ww || ga[3].Tags["BlackClock"] != wb || len(ga[3].Moves) != 1 || ga[3].Moves[0].Clk == nil:
			return fmt.Sprintf("board 3: %v, want 1-0 with the clocks %s %s of its result and e4 with its %%clk", ga[3], ww, wb)
		}
		return ""
	})
	// Every push of a range holds every game the feed had then: the
	// games only grow in number as the boards come in, and never leave.
	for _, round := range []string{"round001", "round002"} {
		prev := 0
		for _, p := range lichess.Pushes() {
			if p.Round != round {
				continue
			}
			if len(p.Games) < prev {
				t.Errorf("%s: a push of %d games after one of %d", round, len(p.Games), prev)
			}
			prev = len(p.Games)
		}
	}
	// Board 3 won: every push after its result has the same clocks.
	for _, p := range lichess.Pushes() {
		if g, ok := byBoard(p)[3]; ok && g.Tags["Result"] == "1-0" && (g.Tags["WhiteClock"] != ww || g.Tags["BlackClock"] != wb) {
			t.Errorf("board 3 after its result: clocks %s %s, want %s %s", g.Tags["WhiteClock"], g.Tags["BlackClock"], ww, wb)
		}
	}
	body := page(t, arbiterClient(t, h), "http://"+h.HTTPAddr()+"/arbiter")
	for _, want := range []string{`id="broadcast"`, `Round <code>round001</code>, boards 1-100`, `Round <code>round002</code>, boards 101-150`, "with 100 games", "with 50 games", "<td>150</td>", "1 moves"} {
		if !strings.Contains(body, want) {
			t.Errorf("/arbiter has no %q", want)
		}
	}
	if strings.Contains(body, token) {
		t.Errorf("/arbiter shows the token")
	}
	if r := lichess.Refused(); len(r) > 0 {
		t.Errorf("the stand-in refused: %q", r)
	}
	h.Close()
	logMu.Lock()
	defer logMu.Unlock()
	if strings.Contains(strings.Join(logs, "\n"), token) {
		t.Errorf("the token is in the hall's log")
	}
}
