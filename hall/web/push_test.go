package web

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/hall/broadcast"
	"github.com/zeitnot/zeitnot/hall/broadcast/lichesstest"
	"github.com/zeitnot/zeitnot/hall/store"
	"github.com/zeitnot/zeitnot/internal/wait"
	"github.com/zeitnot/zeitnot/internal/wallclock/wallclocktest"
	"github.com/zeitnot/zeitnot/protocol"
)

const pushToken = "lip_pushTokenForTheTests01"

// journal is a clock's journal as the test plays it: its lines with the
// log instant each is written at (the header's at 0).
type journal struct {
	board int
	game  string
	lines []timedLine
	fed   int // the lines the store has
	// A power cut: the clock came back after outage ms, at the log's
	// instant cut (its recovery's pause), and its log instants after
	// it are that much behind the wall's.
	cut, outage int64
}

// logAt is the log instant at wall instant ms after the game's start,
// and the instant of the last line written by then: while the clock is
// off, its lines end before the cut and the hall runs its clock on from
// them (it cannot know); once back, its lines go on behind the wall.
func (j *journal) logAt(ms int64) (at, written int64) {
	switch {
	case j.outage == 0 || ms < j.cut:
		return ms, ms
	case ms < j.cut+j.outage:
		return ms, j.cut - 1
	}
	return ms - j.outage, ms - j.outage
}

type timedLine struct {
	at   int64
	line string
}

// play reads "MS LINE" lines (a header line without an instant at 0).
func play(board int, game, text string) *journal {
	j := &journal{board: board, game: game}
	for _, l := range strings.Split(strings.TrimSpace(text), "\n") {
		l = strings.TrimSpace(l)
		at, err := strconv.ParseInt(strings.Fields(l)[0], 10, 64)
		if err != nil {
			at = 0
		}
		j.lines = append(j.lines, timedLine{at, l})
	}
	return j
}

// feed gives the store the lines written by log instant at.
func (j *journal) feed(t *testing.T, st *store.Store, at int64) {
	t.Helper()
	if j.fed == 0 {
		if _, err := st.PutLine(j.board, j.game, 1, clocklog.WithChecksum("format 2")); err != nil {
			t.Fatal(err)
		}
	}
	for ; j.fed < len(j.lines) && j.lines[j.fed].at <= at; j.fed++ {
		if _, err := st.PutLine(j.board, j.game, int64(j.fed+2), clocklog.WithChecksum(j.lines[j.fed].line)); err != nil {
			t.Fatalf("board %d: %q: %v", j.board, j.lines[j.fed].line, err)
		}
	}
}

// clocks are White's and Black's clocks of the journal's lines fed, at
// log instant at, as a broadcast should show them: the clock as it runs
// on to at, or where a result line (not taken back) ended the game.
func (j *journal) clocks(t *testing.T, at int64) (string, string) {
	t.Helper()
	var text strings.Builder
	text.WriteString("format 1\n")
	for _, l := range j.lines[:j.fed] {
		text.WriteString(l.line + "\n")
	}
	l, err := clocklog.Parse(j.game, strings.NewReader(text.String()))
	if err != nil {
		t.Fatal(err)
	}
	c, err := l.NewClock()
	if err != nil {
		t.Fatal(err)
	}
	var end *clock.State
	for _, e := range l.Events {
		if e.Verb == clocklog.GameResult && e.Result != clocklog.NoResult && end == nil {
			s := c.State(e.At)
			end = &s
		}
		clocklog.Apply(c, e)
	}
	s := c.State(max(at, c.Now()))
	if end != nil {
		s = *end
	}
	return clocklog.PGNTime(s.Player[clock.White].Ms), clocklog.PGNTime(s.Player[clock.Black].Ms)
}

// The push of a round of 8 games, each push checked as lichess's
// stand-in took it: board 1's first period runs out and its next is
// added, then its flag falls; board 2 is paused, corrected and resumed;
// board 3's players agree a draw and leave the clock running; board 4's
// clock dies and spare clock 9 carries on its game; boards 5 to 8 play
// on; board 8's clock loses its power and comes back. Every push has the 8 games, their Seven Tag Roster, the clocks at
// the push's instant as the clocks' journals give them (board 3's
// stopped where the draw was agreed), a %clk on every move (board 4's
// from before the takeover and after it, board 8's from before its
// recovery and after it), and is what /round.pgn gives
// at the same instant. The token is in the Authorization header only.
func TestPushRound(t *testing.T) {
	epoch := time.Date(2026, 12, 3, 18, 0, 0, 0, time.UTC)
	clk := wallclocktest.New(epoch) // the hall's clock, moved to each step
	now := clk.Now
	var logMu sync.Mutex
	var logs []string
	logf := func(f string, a ...any) {
		logMu.Lock()
		logs = append(logs, fmt.Sprintf(f, a...))
		logMu.Unlock()
	}
	st, srv := pgnServer(t, Opts{Hall: "club", Title: "Club Open", Round: "1", Clock: clk, Logf: logf})

	js := []*journal{
		play(1, "0001-aaaaaa", "control 1/60:30\n0 start"),
		play(2, "0002-aaaaaa", `control 5400+30
			0 start
			5000 press white
			5300 move 1 d4 d2d4
			20000 pause
			25000 add white +120000
			40000 resume
			45000 press black
			45300 move 2 d5 d7d5`),
		play(3, "0003-aaaaaa", `control 5400+30
			0 start
			4000 press white
			4300 move 1 e4 e2e4
			9000 press black
			9300 move 2 c5 c7c5
			30000 result 1/2-1/2 players`),
		play(4, "0004-aaaaaa", `control 5400+30
			0 start
			10000 press white
			10300 move 1 e4 e2e4`),
	}
	for n := 5; n <= 7; n++ {
		text := "control 5400+30\n0 start\n"
		for i, m := range boardGames[0].moves[:8] {
			press := int64(i+1) * 8000
			text += fmt.Sprintf("%d press %s\n%d move %d %s %s\n", press, []string{"white", "black"}[i%2], press+300, i+1, m[0], m[1])
		}
		js = append(js, play(n, fmt.Sprintf("%04d-aaaaaa", n), text))
	}
	// Board 8's clock loses its power at 12 s and is back at 27 s: it
	// goes on in the same journal with a pause at 12 s, its log 15 s
	// behind the wall from there.
	recovered := play(8, "0008-aaaaaa", `control 5400+30
		0 start
		4000 press white
		4300 move 1 Nf3 g1f3
		12000 pause
		20000 resume
		26000 press black
		26300 move 2 d5 d7d5
		31000 press white
		31300 move 3 g3 g2g3`)
	recovered.cut, recovered.outage = 12000, 15000
	js = append(js, recovered)
	// Spare clock 9 takes board 4's game over at 20 s: its journal sets
	// the times board 4's clock had (White moved once, Black to move),
	// and carries on.
	spare := play(9, "0009-bbbbbb", `control 5400+30
		0 set white 5420000
		0 moves white 1
		0 set black 5390000
		0 turn black
		0 start
		0 pause
		10000 resume
		16000 press black
		16300 move 1 e5 e7e5`)
	const takeoverAt = 20000
	state := func(n int, game string, started time.Time) {
		m, err := protocol.ParseStateMsg(fmt.Appendf(nil, `{"hall":"club","board":%d,"game":%q,"time":%d,"state":%s}`, n, game, started.UnixMilli(), fullState(t, `{"at":0,"started":true}`)))
		if err != nil {
			t.Fatal(err)
		}
		st.PutState(n, &m, started)
	}
	for _, j := range js {
		j.feed(t, st, 0)
		st.SetPlayers(j.board, j.game, store.Players{White: fmt.Sprintf("White %d", j.board), Black: fmt.Sprintf("Black %d", j.board)})
		state(j.board, j.game, epoch)
	}

	lichess := lichesstest.New(t, pushToken, "round001")
	p, err := broadcast.Start(broadcast.Opts{URL: lichess.URL, Token: []byte(pushToken), Ranges: []broadcast.Range{{Round: "round001"}},
		Interval: 2 * time.Second, Feed: srv.RoundPGN, Clock: clk, Logf: logf,
		After: func(time.Duration) <-chan time.Time { c := make(chan time.Time, 1); c <- now(); return c }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)

	var draw [2]string // board 3's clocks once the draw was agreed
	for step, ms := range []int64{0, 12000, 21000, 32000, 44000, 70000, 100000} {
		clk.Advance(epoch.Add(time.Duration(ms) * time.Millisecond).Sub(now()))
		for _, j := range js {
			_, written := j.logAt(ms)
			j.feed(t, st, written)
		}
		if ms >= recovered.cut+recovered.outage && recovered.outage > 0 {
			// The recovered clock's first state: its log instant 12 s
			// at 27 s on the wall.
			m, err := protocol.ParseStateMsg(fmt.Appendf(nil, `{"hall":"club","board":8,"game":%q,"time":%d,"state":%s}`, recovered.game, epoch.Add(27*time.Second).UnixMilli(), fullState(t, `{"at":12000,"started":true,"paused":true}`)))
			if err != nil {
				t.Fatal(err)
			}
			st.PutState(8, &m, epoch.Add(27*time.Second))
		}
		if ms >= takeoverAt && spare.fed == 0 {
			st.PutOnline(4, protocol.OnlineMsg{Online: false, Reason: "lost"}, now())
			st.AskTakeover(9, 4, "h-takeover")
			spare.feed(t, st, ms-takeoverAt)
			state(9, spare.game, epoch.Add(takeoverAt*time.Millisecond))
			st.PutReply(9, protocol.Reply{ID: "h-takeover", Cmd: "takeover", Board: 9, OK: true}, now())
		} else if spare.fed > 0 {
			spare.feed(t, st, ms-takeoverAt)
		}
		p.Changed()
		wait.For(t, 30*time.Second, fmt.Sprintf("push %d", step+1), func() bool { return len(lichess.Pushes()) == step+1 })
		push := lichess.Pushes()[step]
		if _, body := get(t, srv, "/round.pgn"); body != push.Body {
			t.Errorf("at %d ms: /round.pgn is not the push:\n%s\npush:\n%s", ms, body, push.Body)
		}
		if len(push.Games) != 8 {
			t.Fatalf("at %d ms: %d games in the push, want every one of the 8:\n%s", ms, len(push.Games), push.Body)
		}
		for i, g := range push.Games {
			n := lichesstest.Board(g)
			if n != i+1 {
				t.Errorf("at %d ms: game %d is board %d", ms, i+1, n)
				continue
			}
			j := js[n-1]
			jat, _ := j.logAt(ms)
			if n == 4 && spare.fed > 0 {
				j, jat = spare, ms-takeoverAt
			}
			w, b := j.clocks(t, jat)
			if g.Tags["WhiteClock"] != w || g.Tags["BlackClock"] != b {
				t.Errorf("at %d ms: board %d's clocks %s %s, want %s %s as its journal has them", ms, n, g.Tags["WhiteClock"], g.Tags["BlackClock"], w, b)
			}
			if n == 3 && ms >= 30000 {
				if draw[0] == "" {
					draw = [2]string{w, b}
				}
				if g.Tags["Result"] != "1/2-1/2" || [2]string{g.Tags["WhiteClock"], g.Tags["BlackClock"]} != draw {
					t.Errorf("at %d ms: board 3 after its draw: %s, clocks %s %s, want them stopped at %v", ms, g.Tags["Result"], g.Tags["WhiteClock"], g.Tags["BlackClock"], draw)
				}
			}
			for _, m := range g.Moves {
				if m.Clk == nil {
					t.Errorf("at %d ms: board %d's move %s has no %%clk", ms, n, m.SAN)
				}
			}
		}
		if ms == 100000 {
			if g := push.Games[3]; len(g.Moves) != 2 || g.Moves[0].SAN != "e4" || g.Moves[1].SAN != "e5" || g.Tags["White"] != "White 4" {
				t.Errorf("board 4 after the takeover: %+v, want e4 before it and e5 after it, board 4's players", g)
			}
			if g := push.Games[7]; len(g.Moves) != 3 || g.Moves[2].SAN != "g3" {
				t.Errorf("board 8 after its recovery: %+v, want its moves before and after it", g)
			}
			if g := push.Games[0]; g.Tags["WhiteClock"] != "0:00:00" {
				t.Errorf("board 1's flag: WhiteClock %s", g.Tags["WhiteClock"])
			}
		}
		if ms == 70000 {
			if g := push.Games[0]; g.Tags["WhiteClock"] != "0:00:20" {
				t.Errorf("board 1 at 70 s: WhiteClock %s, want 0:00:20 (60 s, then the second period's 30 s)", g.Tags["WhiteClock"])
			}
		}
		if strings.Contains(push.URL, pushToken) || strings.Contains(push.Body, pushToken) {
			t.Errorf("the token is in the URL or the body")
		}
		for k, v := range push.Header {
			if strings.Contains(strings.Join(v, " "), pushToken) != (k == "Authorization") {
				t.Errorf("header %s: %q", k, v)
			}
		}
		// The pusher takes in lichess's answer once the stand-in sent it.
		wait.Until(t, 30*time.Second, func() string {
			if s := p.Status().Ranges[0]; s.Pushes != step+1 || len(s.Games) != 8 || slices.ContainsFunc(s.Games, func(g broadcast.GameStatus) bool { return g.Error != "" }) {
				return fmt.Sprintf("status after push %d: %+v", step+1, s)
			}
			return ""
		})
	}
	if r := lichess.Refused(); len(r) > 0 {
		t.Errorf("the stand-in refused: %q", r)
	}
	logMu.Lock()
	defer logMu.Unlock()
	if strings.Contains(strings.Join(logs, "\n"), pushToken) {
		t.Errorf("the token is in the log")
	}
	if v := srv.pushView(); v != nil {
		t.Errorf("a pushView without Opts.Broadcast: %+v", v)
	}
}

// BenchmarkRoundPGNEachSecond is the round's feed of 100 running games
// of 160 presses, asked at a new second each time: what a push, or the
// first poll of a second, costs now that the clocks are read at the
// feed's instant (every game's PGN written anew).
func BenchmarkRoundPGNEachSecond(b *testing.B) {
	st, err := store.Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	epoch := time.Date(2026, 12, 3, 18, 0, 0, 0, time.UTC)
	srv, err := New(Opts{Store: st, Hall: "club", Clock: wallclocktest.New(epoch)})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(srv.Close)
	lines := []string{"format 2", "control 5400+30", "0 start"}
	for i := 0; i < 160; i++ {
		lines = append(lines, fmt.Sprintf("%d press %s", int64(i+1)*20000, []string{"white", "black"}[i%2]))
	}
	for n := 1; n <= 100; n++ {
		g := fmt.Sprintf("%04d-aaaaaa", n)
		for i, l := range lines {
			if _, err := st.PutLine(n, g, int64(i+1), clocklog.WithChecksum(l)); err != nil {
				b.Fatal(err)
			}
		}
		m, err := protocol.ParseStateMsg(fmt.Appendf(nil, `{"hall":"club","board":%d,"game":%q,"time":%d,"state":{"at":0,"running":"white","paused":false,"first_flag":"none","to_move":"white","started":true,"stopped":false,"white":{"ms":5400000,"moves":0,"period":1,"mode":"fischer"},"black":{"ms":5400000,"moves":0,"period":1,"mode":"fischer"}}}`, n, g, epoch.UnixMilli()))
		if err != nil {
			b.Fatal(err)
		}
		st.PutState(n, &m, epoch)
	}
	at := epoch.Add(time.Hour)
	b.ReportAllocs()
	for b.Loop() {
		at = at.Add(time.Second)
		if _, games, _, err := srv.RoundPGN("", at); err != nil || games != 100 {
			b.Fatalf("%d games: %v", games, err)
		}
	}
}
