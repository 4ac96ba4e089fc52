package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/control"
	"github.com/zeitnot/zeitnot/appliance/link/linktest"
	"github.com/zeitnot/zeitnot/appliance/ui"
	"github.com/zeitnot/zeitnot/internal/wait"
	"github.com/zeitnot/zeitnot/protocol"
)

// startDaemonArgs starts zeitnot run on dir's zeitnot.toml with more flags.
func startDaemonArgs(t *testing.T, dir string, extra ...string) *proc {
	t.Helper()
	return launchDaemon(t, dir, extra, nil)
}

// hallBoard is board 12 of hall "club" as the hall sees it: a real
// daemon, a real zeitnot link and mosquitto.
type hallBoard struct {
	t      *testing.T
	dir    string
	cfg    string
	d      *proc
	broker *linktest.Broker
	hall   *linktest.Hall
	link   *linkProc
	notify *notifyListener // the link's systemd notifications
	links  int             // links started
	topics protocol.Topics
	n      int                 // commands sent
	gone   map[string][]string // lines of games the daemon no longer has
}

// journal returns the daemon's numbered lines of game, as it serves them.
func (b *hallBoard) journal(game string) []string {
	b.t.Helper()
	var all []string
	for from := 1; ; {
		a, err := control.Call(b.d.sock, "log", game, strconv.Itoa(from))
		if err != nil {
			b.t.Fatalf("log %s %d: %v", game, from, err)
		}
		var ll protocol.LogLines
		if err := json.Unmarshal([]byte(a), &ll); err != nil {
			b.t.Fatal(err)
		}
		all = append(all, ll.Lines...)
		from += len(ll.Lines)
		if !ll.More {
			return all
		}
	}
}

func (b *hallBoard) game() string {
	b.t.Helper()
	a, err := control.Call(b.d.sock, "log")
	if err != nil {
		b.t.Fatal(err)
	}
	var li protocol.LogInfo
	json.Unmarshal([]byte(a), &li)
	return li.Game
}

// hallLog is the hall's log messages, in the order they came.
func (b *hallBoard) hallLog() []protocol.LogMsg {
	// Each line is signed with the key of the link's online message. The
	// link says online once the broker has its subscription to the
	// commands, and may push lines before that (the hall takes lines
	// before it knows a key): wait for an online message with the key,
	// the board's one key in every such message.
	var om protocol.OnlineMsg
	b.hall.Wait(60*time.Second, "the link's online message with its key", func(h *linktest.Hall) bool {
		for _, m := range h.Messages(b.topics.Online) {
			var o protocol.OnlineMsg
			if json.Unmarshal(m.Payload, &o) == nil && o.Online && o.Key != "" {
				om = o
			}
		}
		return om.Key != ""
	})
	key, err := protocol.ParseKey(om.Key)
	if err != nil {
		b.t.Errorf("the link's online message has a bad key: %v", err)
	}
	var out []protocol.LogMsg
	for _, m := range b.hall.Messages(b.topics.Log) {
		var lm protocol.LogMsg
		if err := json.Unmarshal(m.Payload, &lm); err != nil {
			b.t.Fatalf("log message %q: %v", m.Payload, err)
		}
		if key != nil {
			if err := protocol.VerifyLine(key, "club", 12, lm.Game, lm.Seq, lm.Line, lm.Sig); err != nil {
				b.t.Errorf("line %d of %s: %v", lm.Seq, lm.Game, err)
			}
		}
		lm.Sig = ""
		out = append(out, lm)
	}
	return out
}

// wantLog is the daemon's journal of games as the hall must hold it:
// every line once, in order, numbered from 1 in each game.
func (b *hallBoard) wantLog(games ...string) []protocol.LogMsg {
	var want []protocol.LogMsg
	for _, g := range games {
		lines, ok := b.gone[g]
		if !ok {
			lines = b.journal(g)
		}
		for i, l := range lines {
			want = append(want, protocol.LogMsg{Game: g, Seq: int64(i + 1), Line: l})
		}
	}
	return want
}

// checkLog waits until the hall has as many lines as the daemon's games,
// then checks that they are exactly those: nothing lost, nothing twice.
func (b *hallBoard) checkLog(games ...string) {
	b.t.Helper()
	want := b.wantLog(games...)
	defer func() {
		if b.t.Failed() { // what the link did, for a wait that failed
			b.t.Logf("hall has %d log lines, want %d\nlink log:\n%s", len(b.hall.Messages(b.topics.Log)), len(want), b.link.output())
		}
	}()
	// After a broker restart the link reconnects on its own backoff (1 s,
	// doubling): on a loaded machine the broker can take long enough to
	// come back that the next attempt is 16 s away.
	b.hall.Wait(60*time.Second, fmt.Sprintf("%d log lines", len(want)), func(h *linktest.Hall) bool {
		return len(h.Messages(b.topics.Log)) >= len(want)
	})
	// Nothing more may come: the link says it has the broker's
	// acknowledgement of the last line, so it has none left to send.
	if len(want) > 0 {
		last := want[len(want)-1]
		b.notify.waitContains(b.t, 30*time.Second, fmt.Sprintf("log: game %s line %d sent", last.Game, last.Seq))
	}
	if got := b.hallLog(); !slices.Equal(got, want) {
		b.t.Fatalf("the hall's log is not the daemon's journal\n got %d: %v\nwant %d: %v\nlink log:\n%s", len(got), got, len(want), want, b.link.output())
	}
}

// cmd publishes a command on the board's cmd topic and returns the reply.
func (b *hallBoard) cmd(payload string) protocol.Reply {
	b.t.Helper()
	b.n++
	id := "c" + strconv.Itoa(b.n)
	payload = `{"id":"` + id + `",` + strings.TrimPrefix(payload, "{")
	if err := b.hall.Publish(b.topics.Cmd, []byte(payload), false, nil); err != nil {
		b.t.Fatal(err)
	}
	var r protocol.Reply
	b.hall.Wait(15*time.Second, "the reply to "+payload, func(h *linktest.Hall) bool {
		for _, m := range h.Messages(b.topics.Reply) {
			var x protocol.Reply
			if json.Unmarshal(m.Payload, &x) == nil && x.ID == id {
				r = x
				return true
			}
		}
		return false
	})
	return r
}

// state waits for a state message for which ok holds and returns it.
func (b *hallBoard) state(what string, ok func(st ui.Status) bool) (protocol.StateMsg, ui.Status) {
	b.t.Helper()
	var sm protocol.StateMsg
	var st ui.Status
	found := false
	defer func() {
		if !found { // the wait failed: what the daemon and the link have
			a, err := control.Call(b.d.sock, "status")
			b.t.Logf("the daemon's status: %s %v\nlink log:\n%s", a, err, b.link.output())
		}
	}()
	wait.Until(b.t, 15*time.Second, func() string {
		m, got := b.hall.Last(b.topics.State)
		sm, st = protocol.StateMsg{}, ui.Status{} // fields left out are zero
		if got && json.Unmarshal(m.Payload, &sm) == nil && json.Unmarshal(sm.Raw, &st) == nil && ok(st) {
			return ""
		}
		return fmt.Sprintf("the state: %s\nlast state message: %s", what, m.Payload)
	})
	found = true
	return sm, st
}

// startLink starts a zeitnot link process with a notify socket of its own.
func (b *hallBoard) startLink() {
	b.t.Helper()
	b.links++
	path := filepath.Join(b.dir, fmt.Sprintf("link-notify-%d", b.links))
	b.notify = listenNotify(b.t, path)
	b.link = startLink(b.t, b.dir, b.cfg, b.d.sock, "NOTIFY_SOCKET="+path)
}

// press presses the buttons in turn. A lever is pressed until its move
// is made (pressMove: a press within the lever lockout is ignored); the
// daemon has acted on any other press once the call returns.
func (b *hallBoard) press(names ...string) {
	for _, n := range names {
		if n == "left" || n == "right" {
			b.d.pressMove(n)
		} else {
			b.d.press(n)
		}
	}
}

// TestHallWithLinkAndDaemon runs the daemon and zeitnot link as processes
// against mosquitto: a press reaches the hall's log topic under its line
// number; a broker restart and a link restart lose and repeat nothing;
// and each command of the hall does what docs/hall-protocol.md says.
func TestHallWithLinkAndDaemon(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real daemon and link processes and a broker: not with -short")
	}
	linktest.Mosquitto(t)
	dir := t.TempDir()
	b := &hallBoard{t: t, dir: dir, topics: protocol.TopicsFor("club", 12)}
	b.broker = linktest.StartBroker(t, linktest.BrokerOpts{})
	b.cfg = filepath.Join(dir, "zeitnot.toml")
	os.WriteFile(b.cfg, []byte(fmt.Sprintf("profile = \"sim\"\n[game]\ncontrol = \"300+2\"\n\n[hall]\nbroker = %q\nhall = \"club\"\nboard = 12\n", b.broker.URL())), 0o644)
	// The daemon trusts the system clock as NTP's: the flag file exists.
	synced := filepath.Join(dir, "synchronized")
	os.WriteFile(synced, nil, 0o644)
	b.d = startDaemonArgs(t, dir, "--time-synced-file", synced)
	b.hall = linktest.NewHall(t, b.broker.URL(), linktest.HallOpts{})
	b.startLink()
	b.hall.Wait(15*time.Second, "online with the clock and its log", func(h *linktest.Hall) bool {
		m, ok := h.Last(b.topics.Online)
		return ok && strings.Contains(string(m.Payload), `"online":true,"clock":true,"log":"ok"`)
	})
	first := b.game()
	b.checkLog(first)
	// An unstarted game replaced by another is not archived: the hall
	// keeps what it got of it.
	b.gone = map[string][]string{first: b.journal(first)}

	// players: the names in the state.
	if r := b.cmd(`{"cmd":"players","white":"Carlsen, Magnus","black":"Caruana, Fabiano"}`); !r.OK {
		t.Fatalf("players: %+v", r)
	}
	b.state("the players' names", func(st ui.Status) bool {
		return st.Players != nil && st.Players.White == "Carlsen, Magnus" && st.Players.Black == "Caruana, Fabiano"
	})
	// next-game: the game has not started, so it is this one, a new
	// journal with a new id.
	if r := b.cmd(`{"cmd":"next-game","control":"180+2","options":{"after-flag":"continue"}}`); !r.OK {
		t.Fatalf("next-game: %+v", r)
	}
	sm, _ := b.state("the new control", func(st ui.Status) bool {
		return st.Control == "180+2" && st.Options["after-flag"] == "continue"
	})
	game := b.game()
	if game == first || sm.Game != game {
		t.Errorf("next-game: game %s (was %s), state of game %q", game, first, sm.Game)
	}
	// round: the start 3 s ahead; the clock counts down, then starts
	// White's clock at the start.
	start := time.Now().Truncate(time.Second).Add(3 * time.Second)
	if r := b.cmd(`{"cmd":"round","start":"` + start.Format(time.RFC3339) + `","default_time":"0s"}`); !r.OK {
		t.Fatalf("round: %+v", r)
	}
	b.state("the countdown", func(st ui.Status) bool {
		return st.Round != nil && st.Round.StartsIn != nil && st.TimeSource == "ntp" && !st.Started
	})
	_, st := b.state("White's clock started by the round", func(st ui.Status) bool { return st.Running == "white" })
	// Default time 0 (FIDE 6.6): White has not moved and is marked; Black
	// cannot move before White has, and is not.
	if !slices.Equal(st.Default, []string{"white"}) {
		t.Errorf("default marks at the start: %v", st.Default)
	}
	// White's time ran from the start's own instant: the daemon says so
	// now, the time of day of the call tells how long since the start.
	a, _ := control.Call(b.d.sock, "status")
	now := time.Now()
	st = ui.Status{}
	json.Unmarshal([]byte(a), &st)
	if ran := 182000 - st.White.Ms; abs64(ran-now.Sub(start).Milliseconds()) > 100 {
		t.Errorf("White's clock ran %d ms; %d ms since the start", ran, now.Sub(start).Milliseconds())
	}
	b.press("left") // White's move
	b.state("White's move", func(st ui.Status) bool { return st.White.Moves == 1 && slices.Equal(st.Default, []string{"black"}) })
	// The press reaches the log topic with its line number.
	lines := b.journal(game)
	seq := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, " press white ") }) + 1
	b.hall.Wait(15*time.Second, "the press in the log", func(h *linktest.Hall) bool {
		return slices.ContainsFunc(b.hallLog(), func(m protocol.LogMsg) bool {
			return m.Game == game && m.Seq == int64(seq) && m.Line == lines[seq-1]
		})
	})

	// pause: the running clock stops; again, nothing ran.
	if r := b.cmd(`{"cmd":"pause"}`); !r.OK || r.Detail != "" {
		t.Fatalf("pause: %+v", r)
	}
	b.state("paused", func(st ui.Status) bool { return st.Paused })
	if r := b.cmd(`{"cmd":"pause"}`); !r.OK || r.Detail != "not running" {
		t.Errorf("pause of a paused clock: %+v", r)
	}
	b.checkLog(first, game)

	// The broker restarts while the game goes on: nothing lost, nothing
	// twice.
	b.broker.Stop()
	b.press("pause", "right", "left", "pause")
	b.broker.Start()
	b.checkLog(first, game)

	// The link restarts: it goes on from the line the broker acknowledged.
	b.link.cmd.Process.Signal(syscall.SIGTERM)
	<-b.link.done
	b.press("pause", "right", "pause")
	b.startLink()
	b.checkLog(first, game)

	// takeover of board 7 (its link is gone: its will): refused while
	// this clock's game is in progress.
	seven := protocol.TopicsFor("club", 7)
	t7 := time.Now().Add(-5 * time.Second) // when board 7's last state held
	sevenState := fmt.Sprintf(`{"hall":"club","board":7,"game":"0042-abcdef","time":%d,"state":{"at":100000,"running":"black","paused":false,"first_flag":"none",`+
		`"white":{"ms":4200000,"moves":21,"period":1,"flag":false,"overstep":false,"mode":"fischer","delay_ms":0},`+
		`"black":{"ms":4100500,"moves":20,"period":1,"flag":false,"overstep":false,"mode":"fischer","delay_ms":0},`+
		`"to_move":"black","started":true,"stopped":false,"control":"40/5400+30:1800+30","options":{"after-flag":"freeze","first-increment":"on","period-trigger":"flag"}}}`,
		t7.UnixMilli())
	b.hall.Publish(seven.State, []byte(sevenState), true, nil)
	b.hall.Publish(seven.Online, []byte(`{"online":false}`), true, nil)
	if r := b.cmd(`{"cmd":"takeover","board":7}`); r.OK || r.Error != "the clock refused: a game is in progress on this clock" {
		t.Errorf("takeover during a game: %+v", r)
	}
	// The arbiter ends the game (hold ok, up twice to End game, ok, ok)
	// and leaves the menu.
	if code, _, errOut := prog.Run("hold", "--socket", b.d.sock, "ok"); code != 0 {
		t.Fatal(errOut)
	}
	b.press("plus", "plus", "ok", "ok", "pause")
	b.state("the game ended", func(st ui.Status) bool { return !st.Started && st.Screen == "game" })
	// Its successor waits unstarted; the takeover replaces it.
	next := b.game()
	b.checkLog(first, game, next)
	b.gone[next] = b.journal(next)
	asked := time.Now()
	r := b.cmd(`{"cmd":"takeover","board":7}`)
	if !r.OK || !strings.HasPrefix(r.Detail, "board 7's state was ") {
		t.Fatalf("takeover: %+v", r)
	}
	answered := time.Now()
	_, st = b.state("board 7's game, paused", func(st ui.Status) bool { return st.TakenOver })
	// Black ran on board 7: settled to the takeover's instant from the
	// state's own time, between the command and its reply.
	lo, hi := 4100500-answered.Sub(t7).Milliseconds(), 4100500-asked.Sub(t7).Milliseconds()
	if !st.Paused || st.ToMove != "black" || st.White.Ms != 4200000 || st.Black.Ms < lo || st.Black.Ms > hi || st.White.Moves != 21 || st.Black.Moves != 20 || st.Control != "40/5400+30:1800+30" {
		t.Errorf("taken over: %+v", st)
	}
	third := b.game()
	b.checkLog(first, game, next, third)
	if l := b.journal(third); !slices.ContainsFunc(l, func(s string) bool { return strings.HasPrefix(s, "0 set white 4200000 ") }) {
		t.Errorf("the takeover's journal: %q", l)
	}
	// The arbiter resumes.
	b.press("pause")
	b.state("resumed", func(st ui.Status) bool { return !st.TakenOver && st.Running == "black" })

	// Every command is in the journal: the players' note went with the
	// first game, which next-game replaced (an unstarted game is not
	// archived); the others are in the archived game's journal.
	archived, _ := filepath.Glob(filepath.Join(dir, "state", "games", "*.log"))
	var all []byte
	for _, p := range archived {
		data, _ := os.ReadFile(p)
		all = append(all, data...)
	}
	for _, want := range []string{"# hall: next-game 180+2 (after-flag continue)", "# hall: round start ", "# hall: pause *", "# hall: pause: no clock was running"} {
		if !strings.Contains(string(all), want) {
			t.Errorf("no %q in the archived journal:\n%s", want, all)
		}
	}
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
