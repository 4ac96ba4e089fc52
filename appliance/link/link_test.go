package link_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/internal/wait"
	"github.com/zeitnot/zeitnot/protocol"

	"github.com/zeitnot/zeitnot/appliance/link"
	"github.com/zeitnot/zeitnot/appliance/link/linktest"
)

// rig is a fake clock, a broker, the hall's client and a link between
// them.
type rig struct {
	t      *testing.T
	clock  *linktest.Clock
	broker *linktest.Broker
	hall   *linktest.Hall
	topics protocol.Topics
	sock   string
	dir    string // the link's state directory

	link   *link.Link
	cancel context.CancelFunc
	done   chan error
	logs   *logLines
}

type logLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *logLines) add(s string) {
	l.mu.Lock()
	l.lines = append(l.lines, s)
	l.mu.Unlock()
}

func (l *logLines) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.lines...)
}

func (l *logLines) has(sub string) bool {
	for _, s := range l.all() {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// testOpts are fast settings for tests.
func testOpts() link.Opts {
	return link.Opts{
		StateEvery:   10 * time.Second,
		Backoff:      link.ExponentialBackoff(50*time.Millisecond, 400*time.Millisecond),
		ClockRetry:   50 * time.Millisecond,
		CommandRate:  1,
		CommandBurst: 5,
		SaveEvery:    50 * time.Millisecond,
		Timeout:      2 * time.Second,
	}
}

func newRig(t *testing.T, bo linktest.BrokerOpts) *rig {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a mosquitto broker: not with -short")
	}
	linktest.Mosquitto(t)
	dir := t.TempDir()
	r := &rig{t: t, sock: filepath.Join(dir, "control.sock"), dir: filepath.Join(dir, "link")}
	if err := os.Mkdir(r.dir, 0o700); err != nil {
		t.Fatal(err)
	}
	r.clock = linktest.StartClock(t, r.sock, "300+2")
	r.broker = linktest.StartBroker(t, bo)
	r.topics = protocol.TopicsFor("club", 12)
	return r
}

func (r *rig) config() link.Config {
	u, err := url.Parse(r.broker.URL())
	if err != nil {
		r.t.Fatal(err)
	}
	return link.Config{File: "zeitnot.toml", Broker: u, Hall: "club", Board: 12}
}

// start runs a link with cfg and o; the socket and directory are the rig's.
func (r *rig) start(cfg link.Config, o link.Opts) {
	r.t.Helper()
	o.Socket = r.sock
	if o.Dir == "" {
		o.Dir = r.dir
	}
	r.logs = &logLines{}
	o.Log = func(s string) { r.logs.add(s); r.t.Log("link: " + s) }
	l, err := link.New(cfg, &o)
	if err != nil {
		r.t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.link, r.cancel, r.done = l, cancel, make(chan error, 1)
	go func() { r.done <- l.Run(ctx) }()
	r.t.Cleanup(r.stop)
}

// stop stops the link and waits for it.
func (r *rig) stop() {
	if r.cancel == nil {
		return
	}
	r.cancel()
	select {
	case err := <-r.done:
		if err != nil {
			r.t.Errorf("Run: %v", err)
		}
	case <-time.After(15 * time.Second):
		r.t.Error("the link did not stop within 15 s")
	}
	r.cancel = nil
}

func (r *rig) press(ms int64, side string) {
	r.t.Helper()
	if err := r.clock.Press(ms, side); err != nil {
		r.t.Fatal(err)
	}
}

// logMsgs decodes the log messages the hall got.
func logMsgs(t *testing.T, h *linktest.Hall, topic string) []protocol.LogMsg {
	t.Helper()
	var out []protocol.LogMsg
	for _, m := range h.Messages(topic) {
		var lm protocol.LogMsg
		if err := json.Unmarshal(m.Payload, &lm); err != nil {
			t.Fatalf("log message %q: %v", m.Payload, err)
		}
		out = append(out, lm)
	}
	return out
}

// waitLog waits until the hall has n log lines.
func (r *rig) waitLog(n int) {
	r.t.Helper()
	r.hall.Wait(15*time.Second, fmt.Sprintf("%d log lines", n), func(h *linktest.Hall) bool {
		return len(h.Messages(r.topics.Log)) >= n
	})
}

// checkLog checks that the hall's log is exactly the clock's games, in
// order, each line once. It first waits until the link has the broker's
// acknowledgement of the last game's last line: from then on it has
// nothing left to send, so nothing more may come.
func (r *rig) checkLog(games ...string) {
	r.t.Helper()
	if len(games) > 0 {
		g := games[len(games)-1]
		n := int64(len(r.clock.Lines(g)))
		wait.For(r.t, 15*time.Second, fmt.Sprintf("the link to have line %d of %s acknowledged", n, g), func() bool {
			st := r.link.Status()
			return st.Game == g && st.Acked >= n
		})
	}
	var want []protocol.LogMsg
	for _, g := range games {
		for i, l := range r.clock.Lines(g) {
			want = append(want, protocol.LogMsg{Game: g, Seq: int64(i + 1), Line: l})
		}
	}
	// The broker's acknowledgement can come before the hall's copy.
	r.waitLog(len(want))
	got := logMsgs(r.t, r.hall, r.topics.Log)
	// Every line is signed with the board's key (its state directory's).
	for i, m := range got {
		if err := protocol.VerifyLine(r.link.PublicKey(), "club", 12, m.Game, m.Seq, m.Line, m.Sig); err != nil {
			r.t.Errorf("line %d of %s: %v", m.Seq, m.Game, err)
		}
		got[i].Sig = ""
	}
	if !slices.Equal(got, want) {
		r.t.Errorf("the hall's log is not the clock's journal\n got %d: %v\nwant %d: %v", len(got), got, len(want), want)
	}
}

func (r *rig) lastState() (protocol.StateMsg, protocol.Status) {
	r.t.Helper()
	m, ok := r.hall.Last(r.topics.State)
	if !ok {
		r.t.Fatal("no state message")
	}
	sm, err := protocol.ParseStateMsg(m.Payload)
	if err != nil {
		r.t.Fatal(err)
	}
	return sm, sm.State
}

func TestPublishesStateAndLog(t *testing.T) {
	r := newRig(t, linktest.BrokerOpts{})
	r.hall = linktest.NewHall(t, r.broker.URL(), linktest.HallOpts{})
	r.start(r.config(), testOpts())
	r.waitLog(len(r.clock.Lines(r.clock.Game()))) // the header
	r.hall.Wait(10*time.Second, "online", func(h *linktest.Hall) bool {
		m, ok := h.Last(r.topics.Online)
		return ok && strings.Contains(string(m.Payload), `"online":true,"clock":true,"log":"ok"`)
	})

	r.press(0, "black") // starts White's clock
	r.press(12400, "white")
	r.clock.Checkpoint(1000)
	r.press(5000, "black")
	r.waitLog(len(r.clock.Lines(r.clock.Game())))
	r.checkLog(r.clock.Game())
	r.hall.Wait(10*time.Second, "the state after the presses", func(h *linktest.Hall) bool {
		m, _ := h.Last(r.topics.State)
		return strings.Contains(string(m.Payload), `"moves":1`) && strings.Contains(string(m.Payload), `"running":"white"`)
	})
	sm, st := r.lastState()
	if sm.Hall != "club" || sm.Board != 12 || sm.Game != r.clock.Game() {
		t.Errorf("state message of hall %q board %d game %q, want club, 12, %s", sm.Hall, sm.Board, sm.Game, r.clock.Game())
	}
	if d := time.Since(time.UnixMilli(sm.Time)); d < 0 || d > 10*time.Second {
		t.Errorf("state time %d is %s from now", sm.Time, d)
	}
	if st.White.Ms != 300000+2000-12400+2000 || st.Black.Moves != 1 {
		t.Errorf("state: white %+v black %+v", st.White, st.Black)
	}

	// A viewer that comes later gets the state and the online message
	// at once: they are retained.
	viewer := linktest.NewHall(t, r.broker.URL(), linktest.HallOpts{ClientID: "viewer", Filter: "zeitnot/v1/club/board/12/+"})
	viewer.Wait(5*time.Second, "the retained state and online", func(h *linktest.Hall) bool {
		s, ok1 := h.Last(r.topics.State)
		o, ok2 := h.Last(r.topics.Online)
		return ok1 && ok2 && s.Retain && o.Retain
	})
	if n := len(viewer.Messages(r.topics.Log)); n != 0 {
		t.Errorf("a late viewer got %d log lines: the log is not retained", n)
	}

	// A new game: its lines are numbered from 1 under its own id.
	first := r.clock.Game()
	if err := r.clock.NewGame("180+2"); err != nil {
		t.Fatal(err)
	}
	r.press(0, "black")
	r.waitLog(len(r.clock.Lines(first)) + len(r.clock.Lines(r.clock.Game())))
	r.checkLog(first, r.clock.Game())
	r.hall.Wait(10*time.Second, "the state of the new game", func(h *linktest.Hall) bool {
		m, _ := h.Last(r.topics.State)
		return strings.Contains(string(m.Payload), `"game":"`+r.clock.Game()+`"`)
	})
}

func TestStateRefreshedWhenTheClockReachesZero(t *testing.T) {
	r := newRig(t, linktest.BrokerOpts{})
	r.clock.Stop()
	r.clock = linktest.StartClock(t, r.sock, "2") // 2 seconds
	r.hall = linktest.NewHall(t, r.broker.URL(), linktest.HallOpts{})
	r.start(r.config(), testOpts())
	r.press(0, "black")
	r.hall.Wait(10*time.Second, "the running state", func(h *linktest.Hall) bool {
		m, _ := h.Last(r.topics.State)
		return strings.Contains(string(m.Payload), `"running":"white"`)
	})
	n := len(r.hall.Messages(r.topics.State))
	// No event comes from the fake at 0; the link asks by itself soon
	// after the 2 s run out, well before its 10 s.
	r.hall.Wait(6*time.Second, "a state sent when the running clock reached 0", func(h *linktest.Hall) bool {
		return len(h.Messages(r.topics.State)) > n
	})
}

func TestBrokerRestartLosesAndRepeatsNothing(t *testing.T) {
	r := newRig(t, linktest.BrokerOpts{})
	r.hall = linktest.NewHall(t, r.broker.URL(), linktest.HallOpts{})
	// Mosquitto (2.0.11 in these runs) does not give the hall's session
	// back after a restart (its CONNACK says no session present), so the
	// hall subscribes again, and a line the link sends before that reaches
	// no subscriber: lost to the hall by the broker, with the link told it
	// arrived. In 7 of 30 runs the link's 25 ms first retry won that race.
	// Here the link waits at least 0.5 s before it tries again, the hall
	// 50 ms, so the hall is back first and the test sees the link's part.
	o := testOpts()
	o.Backoff = link.ExponentialBackoff(time.Second, 2*time.Second)
	r.start(r.config(), o)
	r.press(0, "black")
	r.press(3000, "white")
	r.waitLog(len(r.clock.Lines(r.clock.Game())))

	r.broker.Stop()
	wait.For(t, 5*time.Second, "the link to see the broker gone", func() bool { return !r.link.Status().BrokerUp })
	for i := range 20 {
		r.clock.Checkpoint(1000)
		r.press(500, []string{"black", "white"}[i%2])
	}
	// The broker stays down until the link has failed to reach it once,
	// as the clock plays on. Whether the link has fetched the lines by
	// then or fetches them after, all must arrive.
	wait.For(t, 10*time.Second, "a failed attempt to reach the stopped broker", func() bool { return r.link.Status().Attempts >= 1 })
	r.broker.Start()
	r.waitLog(len(r.clock.Lines(r.clock.Game())))
	r.checkLog(r.clock.Game())
	if !r.logs.has("connection lost") {
		t.Error("the link did not log the lost connection")
	}
}

func TestLinkRestartGoesOnFromTheAcknowledgedLine(t *testing.T) {
	r := newRig(t, linktest.BrokerOpts{})
	r.hall = linktest.NewHall(t, r.broker.URL(), linktest.HallOpts{})
	r.start(r.config(), testOpts())
	r.press(0, "black")
	r.waitLog(len(r.clock.Lines(r.clock.Game())))
	r.stop()
	r.hall.Wait(5*time.Second, "offline after a clean stop", func(h *linktest.Hall) bool {
		m, _ := h.Last(r.topics.Online)
		return string(m.Payload) == `{"online":false,"reason":"stopped"}`
	})

	// While the link is away the game goes on, and a new one starts.
	first := r.clock.Game()
	r.press(4000, "white")
	r.clock.Checkpoint(1000)
	if err := r.clock.NewGame("600"); err != nil {
		t.Fatal(err)
	}
	r.press(0, "black")
	r.start(r.config(), testOpts())
	r.waitLog(len(r.clock.Lines(first)) + len(r.clock.Lines(r.clock.Game())))
	r.checkLog(first, r.clock.Game())
}

func TestClockRestartCatchesUp(t *testing.T) {
	r := newRig(t, linktest.BrokerOpts{})
	r.hall = linktest.NewHall(t, r.broker.URL(), linktest.HallOpts{})
	r.start(r.config(), testOpts())
	r.press(0, "black")
	r.waitLog(len(r.clock.Lines(r.clock.Game())))

	r.clock.Stop()
	wait.For(t, 5*time.Second, "the link to see the clock gone", func() bool { return !r.link.Status().ClockUp })
	r.hall.Wait(5*time.Second, "online with the clock gone", func(h *linktest.Hall) bool {
		m, _ := h.Last(r.topics.Online)
		return strings.Contains(string(m.Payload), `"online":true,`) && !strings.Contains(string(m.Payload), `"clock":true`)
	})
	// Lines the link never saw as events: they come from the journal.
	r.press(2000, "white")
	r.clock.Checkpoint(1000)
	r.press(2000, "black")
	r.clock.Restart(t)
	r.waitLog(len(r.clock.Lines(r.clock.Game())))
	r.checkLog(r.clock.Game())
}

func TestForgottenGameIsSkipped(t *testing.T) {
	r := newRig(t, linktest.BrokerOpts{})
	r.hall = linktest.NewHall(t, r.broker.URL(), linktest.HallOpts{})
	r.start(r.config(), testOpts())
	r.press(0, "black")
	first := r.clock.Game()
	r.waitLog(len(r.clock.Lines(first)))
	r.stop()
	r.press(1000, "white")
	if err := r.clock.NewGame("600"); err != nil {
		t.Fatal(err)
	}
	r.clock.Forget(first)
	r.start(r.config(), testOpts())
	r.hall.Wait(10*time.Second, "the new game's lines", func(h *linktest.Hall) bool {
		for _, m := range logMsgs(t, h, r.topics.Log) {
			if m.Game == r.clock.Game() && m.Seq == int64(len(r.clock.Lines(r.clock.Game()))) {
				return true
			}
		}
		return false
	})
	if !r.logs.has("no longer has game " + first) {
		t.Errorf("the link did not say that game %s's last lines are lost", first)
	}
}

func TestClockWithoutLogRequest(t *testing.T) {
	r := newRig(t, linktest.BrokerOpts{})
	r.clock.NoLog = true
	r.hall = linktest.NewHall(t, r.broker.URL(), linktest.HallOpts{})
	r.start(r.config(), testOpts())
	r.press(0, "black")
	r.hall.Wait(10*time.Second, "the state and an online message saying why there is no log", func(h *linktest.Hall) bool {
		m, _ := h.Last(r.topics.Online)
		_, ok := h.Last(r.topics.State)
		return ok && strings.Contains(string(m.Payload), "needs a newer zeitnot run")
	})
	if n := len(r.hall.Messages(r.topics.Log)); n != 0 {
		t.Errorf("%d log lines from a clock without log", n)
	}
}

func TestBrokerRefusesCredentials(t *testing.T) {
	r := newRig(t, linktest.BrokerOpts{Users: map[string]string{"board12": "right"}})
	var mu sync.Mutex
	var attempts []int
	var notes []string
	o := testOpts()
	o.Backoff = func(n int) time.Duration {
		mu.Lock()
		attempts = append(attempts, n)
		mu.Unlock()
		return time.Duration(n) * 40 * time.Millisecond
	}
	o.Notify = func(s string) { mu.Lock(); notes = append(notes, s); mu.Unlock() }
	cfg := r.config()
	cfg.Username, cfg.Password = "board12", []byte("wrong")
	r.start(cfg, o)
	wait.For(t, 10*time.Second, "three refused attempts", func() bool { return r.link.Status().Attempts >= 3 })
	st := r.link.Status()
	if st.BrokerUp || st.BrokerErr == nil || !strings.Contains(st.BrokerErr.Error(), "the broker refused the connection") ||
		!strings.Contains(st.BrokerErr.Error(), "check hall.username \"board12\"") {
		t.Errorf("status: %v", st)
	}
	mu.Lock()
	if !slices.IsSorted(attempts) || len(attempts) < 3 || attempts[0] != 0 || attempts[len(attempts)-1] < 3 {
		t.Errorf("backoff asked for attempts %v, want 0, 1, 2, 3...", attempts)
	}
	last := notes[len(notes)-1]
	mu.Unlock()
	if !strings.Contains(last, "broker not connected: the broker refused the connection: ") || !strings.Contains(last, "attempt") {
		t.Errorf("systemd status %q", last)
	}
	if !r.logs.has("attempt 3 failed, next in") {
		t.Errorf("the link did not log its attempts: %q", r.logs.all())
	}
	r.stop() // still running after every refusal; stops cleanly

	// With the right password it connects.
	r.hall = linktest.NewHall(t, r.broker.URL(), linktest.HallOpts{Username: "board12", Password: "right"})
	cfg.Password = []byte("right")
	r.start(cfg, testOpts())
	r.press(0, "black")
	r.waitLog(len(r.clock.Lines(r.clock.Game())))
}

// TestLogFromTheWatchStream: once caught up, the link publishes each
// press's journal line, and the checkpoints before it, from the watch
// stream: no "log GAME FROM" per press. The hall's log is the journal all
// the same.
func TestLogFromTheWatchStream(t *testing.T) {
	r := newRig(t, linktest.BrokerOpts{})
	r.hall = linktest.NewHall(t, r.broker.URL(), linktest.HallOpts{})
	r.start(r.config(), testOpts())
	r.waitLog(len(r.clock.Lines(r.clock.Game()))) // the header, from "log GAME FROM"
	r.press(0, "black")
	r.waitLog(len(r.clock.Lines(r.clock.Game())))
	asked := func() int {
		n := 0
		for _, q := range r.clock.Requests() {
			if strings.HasPrefix(q, "log "+r.clock.Game()+" ") {
				n++
			}
		}
		return n
	}
	before := asked()
	for i := range 20 {
		r.clock.Checkpoint(400)
		r.press(600, []string{"white", "black"}[i%2])
	}
	r.waitLog(len(r.clock.Lines(r.clock.Game())))
	r.checkLog(r.clock.Game())
	if n := asked() - before; n != 0 {
		t.Errorf("%d log requests for 20 presses, want none: %v", n, r.clock.Requests())
	}
}
