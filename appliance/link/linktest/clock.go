// Package linktest helps test the hall link: a fake clock daemon that
// speaks the control protocol the link needs (status, watch, and the
// requests docs/hall-protocol.md specifies for the daemon), a mosquitto
// broker started for a test, and a hall-side MQTT client.
package linktest

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/zeitnot/zeitnot/appliance/control"
	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
	"github.com/zeitnot/zeitnot/protocol"
)

// Clock is a fake clock daemon on a control socket. Its game is a real
// engine clock on virtual time: Press and the others say how many
// milliseconds passed since the last event. Every event goes to the
// journal (numbered lines, as "log" serves them) and to the watchers, as
// the daemon sends them.
type Clock struct {
	srv  *control.Server
	path string

	mu       sync.Mutex
	games    []*game
	clk      *clock.Clock
	ctl      string
	now      int64 // virtual ms of the current game
	watchers []*control.Watch
	requests []string
	// NoLog makes the clock answer "log" as a daemon without it does.
	NoLog  bool
	refuse string // SetRefuse
	nextID int
	// hold, when set, keeps the next status reply back (HoldStatus).
	hold chan struct{}
	held chan struct{}
}

type game struct {
	id     string
	lines  []string
	before []string // lines written since the last event that carried one
}

// StartClock serves a fake clock on the socket at path, playing control
// (a notation), until the test ends or Stop.
func StartClock(t testing.TB, path, control string) *Clock {
	t.Helper()
	c := &Clock{path: path}
	if err := c.newGame(control); err != nil {
		t.Fatal(err)
	}
	if err := c.listen(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Stop)
	return c
}

func (c *Clock) listen() error {
	srv, err := control.Listen(c.path)
	if err != nil {
		return err
	}
	c.srv = srv
	go c.serve(srv)
	return nil
}

// Stop closes the socket, as a daemon that stops; watchers see their
// stream end.
func (c *Clock) Stop() {
	c.mu.Lock()
	srv := c.srv
	c.srv = nil
	c.mu.Unlock()
	if srv != nil {
		srv.Close()
	}
}

// Restart listens again after Stop, with the same games.
func (c *Clock) Restart(t testing.TB) {
	t.Helper()
	c.mu.Lock()
	c.watchers = nil
	c.mu.Unlock()
	if err := c.listen(); err != nil {
		t.Fatal(err)
	}
}

func (c *Clock) serve(srv *control.Server) {
	for req := range srv.Requests {
		req.Reply(c.handle(req))
	}
}

// SetRefuse makes the clock refuse the hall commands (next-game, round,
// players, pause, resume, takeover, start) with the error text; "" accepts
// them again. A test sets it while the clock serves the link.
func (c *Clock) SetRefuse(text string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.refuse = text
}

// Requests returns the requests the clock got, except status and watch.
func (c *Clock) Requests() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.requests...)
}

// Game returns the current game's id.
func (c *Clock) Game() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.games[len(c.games)-1].id
}

// Lines returns the numbered lines of game id.
func (c *Clock) Lines(id string) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, g := range c.games {
		if g.id == id {
			return append([]string(nil), g.lines...)
		}
	}
	return nil
}

func (c *Clock) newGame(spec string) error {
	pair, err := timecontrol.ParsePair(spec)
	if err != nil {
		return err
	}
	clk, err := clock.New(pair, clock.DefaultOptions)
	if err != nil {
		return err
	}
	c.nextID++
	g := &game{id: fmt.Sprintf("g%04d", c.nextID)}
	h := clocklog.AppendHeader(nil, clocklog.Header{Format: clocklog.Format, Controls: pair, Options: clock.DefaultOptions})
	g.lines = append(g.lines, strings.Split(strings.TrimSpace(string(h)), "\n")...)
	c.games = append(c.games, g)
	c.clk, c.ctl, c.now = clk, timecontrol.FormatPair(pair), 0
	return nil
}

// NewGame ends the game and sets up a new one on spec.
func (c *Clock) NewGame(spec string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.newGame(spec); err != nil {
		return err
	}
	c.emit(event{Event: protocol.EventNewGame, Text: c.ctl})
	return nil
}

type event = protocol.Event

// record writes e to the journal and returns its event for the watchers.
func (c *Clock) record(e clocklog.Event, kind string) event {
	line := strings.TrimSpace(string(clocklog.AppendEvent(nil, e)))
	g := c.games[len(c.games)-1]
	g.lines = append(g.lines, line)
	if kind == "" {
		// No event: the line comes with the next one, as the daemon's
		// checkpoints do.
		g.before = append(g.before, line)
		return event{}
	}
	ev := event{Event: kind, At: e.At, Line: line, Seq: int64(len(g.lines)), Game: g.id, Before: g.before}
	g.before = nil
	if e.Side != clock.NoSide {
		ev.Side = e.Side.String()
	}
	return ev
}

// emit sends events, then the state, to every watcher (the caller holds
// mu).
func (c *Clock) emit(evs ...event) {
	lines := make([]string, 0, len(evs)+1)
	for _, e := range evs {
		b, _ := json.Marshal(e)
		lines = append(lines, string(b))
	}
	lines = append(lines, `{"state":`+c.status()+`}`)
	keep := c.watchers[:0]
	for _, w := range c.watchers {
		ok := true
		for _, l := range lines {
			if !w.Send(l) {
				ok = false
				break
			}
		}
		if ok {
			keep = append(keep, w)
		}
	}
	c.watchers = keep
}

// Press is side's press after ms milliseconds; the first press by Black
// starts the clock.
func (c *Clock) Press(ms int64, side string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now += ms
	s := clock.White
	if side == "black" {
		s = clock.Black
	}
	st := c.clk.State(c.now)
	if !st.Started {
		if !c.clk.Start(c.now) {
			return fmt.Errorf("linktest: the clock does not start")
		}
		c.emit(c.record(clocklog.Event{At: c.now, Verb: clocklog.Start, Side: clock.NoSide}, "started"))
		return nil
	}
	if !c.clk.Press(c.now, s) {
		return fmt.Errorf("linktest: %s's press does not count", side)
	}
	c.emit(c.record(clocklog.Event{At: c.now, Verb: clocklog.Press, Side: s}, protocol.EventPressed))
	return nil
}

// Checkpoint writes a checkpoint after ms milliseconds: a journal line
// with no event, as the daemon writes them while a clock runs.
func (c *Clock) Checkpoint(ms int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now += ms
	c.record(clocklog.Event{At: c.now, Verb: clocklog.Checkpoint, Side: clock.NoSide}, "")
}

// State returns the status JSON now.
func (c *Clock) State() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.status()
}

func (c *Clock) status() string {
	st := clocklog.ToJSON(c.clk.State(c.now))
	b, _ := json.Marshal(struct {
		clocklog.StateJSON
		Recovered bool   `json:"recovered"`
		Screen    string `json:"screen"`
		Control   string `json:"control"`
		Left      string `json:"left"`
		Locked    bool   `json:"locked"`
	}{st, false, "game", c.ctl, "white", false})
	return string(b)
}

// HoldStatus lets ms milliseconds pass, with no event, and keeps the
// answer to the next status request back: it is made at once, as the
// daemon makes it, and sent only when release is called, so that it
// comes after what the watchers got meanwhile. held is closed once the
// answer is made and waiting. Only that answer says the time now.
func (c *Clock) HoldStatus(ms int64) (held <-chan struct{}, release func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now += ms
	c.hold, c.held = make(chan struct{}), make(chan struct{})
	h := c.hold
	return c.held, sync.OnceFunc(func() { close(h) })
}

func (c *Clock) handle(req control.Request) string {
	c.mu.Lock()
	if req.Cmd == protocol.ReqStatus {
		st, hold, held := c.status(), c.hold, c.held
		c.hold, c.held = nil, nil
		c.mu.Unlock()
		if hold != nil {
			close(held)
			<-hold
		}
		return st
	}
	defer c.mu.Unlock()
	switch req.Cmd {
	case protocol.ReqWatch:
		c.watchers = append(c.watchers, req.Watch)
		return `{"state":` + c.status() + `}`
	}
	c.requests = append(c.requests, strings.TrimSpace(req.Cmd+" "+req.Arg))
	switch req.Cmd {
	case protocol.ReqLog:
		if c.NoLog {
			break
		}
		return c.log(req.Arg)
	case "next-game":
		return c.hallCommand(req.Cmd, req.Arg, &protocol.NextGameArg{})
	case "round":
		return c.hallCommand(req.Cmd, req.Arg, &protocol.RoundArg{})
	case "players":
		return c.hallCommand(req.Cmd, req.Arg, &protocol.PlayersArg{})
	case "takeover":
		return c.hallCommand(req.Cmd, req.Arg, &protocol.TakeoverArg{})
	case protocol.ReqUpdateOffer:
		var o protocol.UpdateOffer
		if a := c.hallCommand(req.Cmd, req.Arg, &o); a != "ok" {
			return a
		}
		if err := o.Check(); err != nil {
			return "error: update-offer: " + err.Error()
		}
		return "ok"
	case "start":
		if c.refuse != "" {
			return "error: " + c.refuse
		}
		if !c.clk.Start(c.now) {
			return "error: start: the game has already started"
		}
		c.emit(c.record(clocklog.Event{At: c.now, Verb: clocklog.Start, Side: clock.NoSide}, "started"))
		return "ok"
	case "pause", "resume":
		if c.refuse != "" {
			return "error: " + c.refuse
		}
		verb, did, not, done := clocklog.Pause, c.clk.Pause, "ok not running", "paused"
		if req.Cmd == "resume" {
			verb, did, not, done = clocklog.Resume, c.clk.Resume, "ok not paused", "resumed"
		}
		if !did(c.now) {
			return not
		}
		c.emit(c.record(clocklog.Event{At: c.now, Verb: verb, Side: clock.NoSide}, done))
		return "ok"
	}
	return fmt.Sprintf("error: unknown command %q, want status, watch, press or hold", req.Cmd)
}

// hallCommand checks a command's JSON argument as the daemon must: one
// object of the documented fields.
func (c *Clock) hallCommand(cmd, arg string, v any) string {
	if err := protocol.DecodeArg(cmd, arg, v); err != nil {
		return "error: " + err.Error()
	}
	if c.refuse != "" {
		return "error: " + c.refuse
	}
	return "ok"
}

// log answers "log" and "log GAME FROM".
func (c *Clock) log(arg string) string {
	cur := c.games[len(c.games)-1]
	if arg == "" {
		b, _ := json.Marshal(protocol.LogInfo{Game: cur.id, Lines: int64(len(cur.lines))})
		return string(b)
	}
	id, fromS, ok := strings.Cut(arg, " ")
	from, err := strconv.ParseInt(fromS, 10, 64)
	if !ok || err != nil || from < 1 {
		return fmt.Sprintf("error: log %s: want log GAME FROM, FROM from 1", arg)
	}
	var g *game
	for _, x := range c.games {
		if x.id == id {
			g = x
		}
	}
	if g == nil {
		return "error: no game " + id
	}
	ans := protocol.LogLines{Game: id, From: from, Lines: []string{}, Current: cur.id}
	size := 0
	for i := from - 1; i < int64(len(g.lines)); i++ {
		if len(ans.Lines) == protocol.MaxLogLines || size+len(g.lines[i]) > protocol.MaxLogBytes {
			ans.More = true
			break
		}
		ans.Lines = append(ans.Lines, g.lines[i])
		size += len(g.lines[i])
	}
	b, _ := json.Marshal(ans)
	return string(b)
}

// Forget drops game id, as a daemon whose archive no longer keeps it.
func (c *Clock) Forget(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, g := range c.games {
		if g.id == id && i < len(c.games)-1 {
			c.games = append(c.games[:i], c.games[i+1:]...)
			return
		}
	}
}
