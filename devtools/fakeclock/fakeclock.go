// Package fakeclock is a lightweight clock for the hall's tests and its
// benchmark: one MQTT connection publishing state, log and online as
// `zeitnot link` does (docs/hall-protocol.md), from a real engine clock
// on real time, without a daemon. Thousands fit in one process.
package fakeclock

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/eclipse/paho.golang/autopaho"
	"github.com/eclipse/paho.golang/paho"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
	"github.com/zeitnot/zeitnot/protocol"
)

// Opts say which board the clock is and where it publishes.
type Opts struct {
	Broker   *url.URL
	Hall     string
	Board    int
	Control  string // a time control notation, default 5400+30
	Game     string // the game id, default g{Board}-{unix ms}
	Username string
	Password string
	// ClientID, default the link's zeitnot-{hall}-{board}.
	ClientID string
	// TLS for an mqtts:// broker.
	TLS *tls.Config
	// Key, if set, signs the log lines, as a link with a state directory
	// does, and its public key goes into the online message; Sign makes
	// one when Key is nil. Without either the lines are unsigned, as from
	// an older clock.
	Key  ed25519.PrivateKey
	Sign bool
}

// Clock is one fake clock.
type Clock struct {
	o     Opts
	t     protocol.Topics
	cm    *autopaho.ConnectionManager
	stop  context.CancelFunc
	start time.Time
	ctl   string

	mu     sync.Mutex
	clk    *clock.Clock
	header clocklog.Header
	lines  []string // the game's log, line 1 first
	acked  int      // lines the broker acknowledged
	state  []byte   // the last state message
	states [][]byte // state messages to publish, oldest first: one per event
	resend bool     // a new connection: publish the state again
	cmds   [][]byte
	// hallPaused: the pause is the hall's (its pause command), which its
	// resume command may lift; Pause and Resume make it the arbiter's.
	hallPaused bool
	kick       chan struct{}
	started    bool
	result     clocklog.Event // the last result line; Verb 0 if none
	// board is the electronic board's status (Move); nil: no board.
	board *protocol.BoardStatus
	// lose is how many of the next log lines are taken as acknowledged
	// without being published (Lose).
	lose int
	// resent counts the resend commands carried out.
	resent int
	// players and pairing are the names and the round's pairing of the
	// game (the players command); pairing nil: none.
	players *protocol.Players
	pairing *protocol.Pairing
	// pending are an ended game's log lines not yet acknowledged,
	// published before the current game's.
	pending []protocol.LogMsg
	games   int // the games opened for pairings
	// refuse, if not "", is the error the clock answers the hall's
	// result command with (RefuseResults).
	refuse string
}

// Dial connects the clock and publishes its online message, its state
// and its game's header lines; it returns once connected.
func Dial(ctx context.Context, o Opts) (*Clock, error) {
	if o.Control == "" {
		o.Control = "5400+30"
	}
	if o.Game == "" {
		o.Game = fmt.Sprintf("g%d-%d", o.Board, time.Now().UnixMilli())
	}
	if o.ClientID == "" {
		o.ClientID = protocol.ClientID(o.Hall, o.Board)
	}
	if o.Key == nil && o.Sign {
		_, k, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			return nil, err
		}
		o.Key = k
	}
	pair, err := timecontrol.ParsePair(o.Control)
	if err != nil {
		return nil, err
	}
	c := &Clock{o: o, t: protocol.TopicsFor(o.Hall, o.Board), start: time.Now(), ctl: o.Control, kick: make(chan struct{}, 1)}
	c.header = clocklog.Header{Controls: pair, Options: clock.DefaultOptions}
	c.clk, err = clock.New(c.header.Controls, c.header.Options)
	if err != nil {
		return nil, err
	}
	c.lines = append(c.lines, strings.Split(strings.TrimSuffix(string(clocklog.AppendHeader(nil, c.header)), "\n"), "\n")...)
	c.snapshot(0)
	will, _ := json.Marshal(protocol.OnlineMsg{Online: false})
	cctx, cancel := context.WithCancel(context.Background())
	c.stop = cancel
	cfg := autopaho.ClientConfig{
		ServerUrls:                    []*url.URL{o.Broker},
		TlsCfg:                        o.TLS,
		KeepAlive:                     30,
		CleanStartOnInitialConnection: true,
		ReconnectBackoff:              autopaho.NewConstantBackoff(200 * time.Millisecond),
		ConnectTimeout:                10 * time.Second,
		ConnectUsername:               o.Username,
		ConnectPassword:               []byte(o.Password),
		WillMessage:                   &paho.WillMessage{Topic: c.t.Online, Payload: will, QoS: 1, Retain: true},
		OnConnectionUp: func(cm *autopaho.ConnectionManager, _ *paho.Connack) {
			go func() {
				sctx, cancel := context.WithTimeout(cctx, 10*time.Second)
				defer cancel()
				cm.Subscribe(sctx, &paho.Subscribe{Subscriptions: []paho.SubscribeOptions{{Topic: c.t.Cmd, QoS: 1, RetainHandling: 2}, {Topic: c.t.All, QoS: 1, RetainHandling: 2}}})
				cm.Publish(sctx, c.online())
				c.mu.Lock()
				c.resend = true // a new connection: the state again
				c.mu.Unlock()
				c.wake()
			}()
		},
		ClientConfig: paho.ClientConfig{
			ClientID: o.ClientID,
			OnPublishReceived: []func(paho.PublishReceived) (bool, error){func(pr paho.PublishReceived) (bool, error) {
				c.command(pr.Packet)
				return true, nil
			}},
			PacketTimeout: 10 * time.Second,
		},
	}
	cm, err := autopaho.NewConnection(cctx, cfg)
	if err != nil {
		cancel()
		return nil, err
	}
	c.cm = cm
	if err := cm.AwaitConnection(ctx); err != nil {
		cancel()
		return nil, fmt.Errorf("board %d: %v", o.Board, err)
	}
	go c.send(cctx)
	return c, nil
}

func (c *Clock) wake() {
	select {
	case c.kick <- struct{}{}:
	default:
	}
}

// now is the game's instant: ms since the clock was made.
func (c *Clock) now() int64 { return time.Since(c.start).Milliseconds() }

// snapshot makes the state message at instant at; c.mu held.
func (c *Clock) snapshot(at int64) time.Time {
	// It answers ok to every round, as a clock that trusts its time of
	// day (NTP) does.
	st := protocol.Status{StateJSON: clocklog.ToJSON(c.clk.State(at)), Screen: "game", Control: c.ctl, Game: c.o.Game, TimeSource: "ntp", Board: c.board}
	if c.result.Verb != 0 && c.result.Result != clocklog.NoResult {
		st.Result, st.ResultBy = c.result.Result.String(), c.result.By.String()
	}
	st.Players, st.Pairing = c.players, c.pairing
	raw, _ := json.Marshal(st)
	held := c.start.Add(time.Duration(at) * time.Millisecond)
	msg, _ := json.Marshal(protocol.StateMsg{Hall: c.o.Hall, Board: c.o.Board, Game: c.o.Game, Time: held.UnixMilli(), Raw: raw})
	c.state = msg
	c.states = append(c.states, msg)
	return held
}

// event applies e to the engine clock and queues its state and log line.
func (c *Clock) event(e clocklog.Event) (time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	changed, err := clocklog.Apply(c.clk, e)
	if err != nil || !changed {
		return time.Time{}, false
	}
	c.lines = append(c.lines, strings.TrimSuffix(string(clocklog.AppendEvent(nil, e)), "\n"))
	held := c.snapshot(e.At)
	c.wake()
	return held, true
}

// Press starts the clock, or presses the lever of the side to move. It
// returns the instant the state it publishes holds (its time field), and
// the moves made in all after it.
func (c *Clock) Press() (time.Time, int) {
	at := c.now()
	c.mu.Lock()
	started := c.started
	side := c.clk.State(at).ToMove
	c.mu.Unlock()
	e := clocklog.Event{At: at, Verb: clocklog.Press, Side: side}
	if !started {
		e = clocklog.Event{At: at, Verb: clocklog.Start}
	}
	held, _ := c.event(e)
	c.mu.Lock()
	c.started = true
	st := c.clk.State(at)
	c.mu.Unlock()
	return held, st.Player[clock.White].Moves + st.Player[clock.Black].Moves
}

// Move presses the lever of the side to move, as Press does once the
// clock runs, and journals the move the press completed as a clock with
// an electronic board does (FIDE 6.7a): a move line with san and uci, and
// fen, the position after it, in the state's board status. It returns
// what Press returns.
func (c *Clock) Move(san, uci, fen string) (time.Time, int) {
	c.mu.Lock()
	at := c.now()
	side := c.clk.State(at).ToMove
	e := clocklog.Event{At: at, Verb: clocklog.Press, Side: side}
	changed, err := clocklog.Apply(c.clk, e)
	if err != nil || !changed {
		c.mu.Unlock()
		return time.Time{}, 0
	}
	st := c.clk.State(at)
	ply := st.Player[clock.White].Moves + st.Player[clock.Black].Moves
	c.lines = append(c.lines, strings.TrimSuffix(string(clocklog.AppendEvent(nil, e)), "\n"))
	mv := clocklog.Event{At: at, Verb: clocklog.BoardMove, Value: int64(ply), Board: clocklog.BoardText{SAN: san, UCI: uci}}
	c.lines = append(c.lines, strings.TrimSuffix(string(clocklog.AppendEvent(nil, mv)), "\n"))
	c.board = &protocol.BoardStatus{State: protocol.BoardOK, FEN: fen, Ply: ply, SAN: san, UCI: uci}
	held := c.snapshot(at)
	c.wake()
	c.mu.Unlock()
	return held, ply
}

// SetBoard sets the electronic board's status the state reports (nil: no
// board) and publishes the state.
func (c *Clock) SetBoard(bs *protocol.BoardStatus) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.board = bs
	c.snapshot(c.now())
	c.wake()
}

// Result journals the game's result as the clock does once both players
// confirmed it (by Players) or the arbiter entered it, and publishes the
// line and the state that says it.
func (c *Clock) Result(r clocklog.Result, by clocklog.Entrant) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := clocklog.Event{At: c.now(), Verb: clocklog.GameResult, Side: clock.NoSide, Result: r, By: by}
	c.result = e
	c.lines = append(c.lines, strings.TrimSuffix(string(clocklog.AppendEvent(nil, e)), "\n"))
	c.snapshot(e.At)
	c.wake()
}

// Skip lets d pass for the clock at once (a flag without waiting for it):
// its instants from now on are d later.
func (c *Clock) Skip(d time.Duration) {
	c.mu.Lock()
	c.start = c.start.Add(-d)
	c.mu.Unlock()
}

// Pause pauses the running clock, as the arbiter at the board does.
func (c *Clock) Pause() {
	c.event(clocklog.Event{At: c.now(), Verb: clocklog.Pause})
	c.mu.Lock()
	c.hallPaused = false
	c.mu.Unlock()
}

// Resume resumes a paused clock, as the arbiter at the board does.
func (c *Clock) Resume() {
	c.event(clocklog.Event{At: c.now(), Verb: clocklog.Resume})
	c.mu.Lock()
	c.hallPaused = false
	c.mu.Unlock()
}

// hallCommand carries out the hall's pause, resume and start as the
// daemon does (core.HallPause, HallResume, HallStart): the resume lifts
// only the hall's pause; the start starts a game that has not started and
// journals that the hall started it.
func (c *Clock) hallCommand(cmd protocol.Command) (detail string, err error) {
	switch cmd.Name {
	case "resend":
		// As the link does: the game's lines again from the one asked.
		var a protocol.ResendArg
		json.Unmarshal([]byte(cmd.Arg), &a)
		c.mu.Lock()
		defer c.mu.Unlock()
		if a.Game != c.o.Game {
			return "", fmt.Errorf("no game %s", a.Game)
		}
		c.resent++
		if int(a.From)-1 < c.acked {
			c.acked = int(a.From) - 1
			c.wake()
		}
		return fmt.Sprintf("from line %d", a.From), nil
	case "players":
		var a protocol.PlayersArg
		if err := protocol.DecodeArg(cmd.Name, cmd.Arg, &a); err != nil {
			return "", err
		}
		return c.setPlayers(a)
	case "start":
		return "", c.hallStart()
	case "result":
		var a protocol.ResultArg
		if err := protocol.DecodeArg(cmd.Name, cmd.Arg, &a); err != nil {
			return "", err
		}
		return "", c.hallResult(a.Result)
	case "pause":
		if _, ok := c.event(clocklog.Event{At: c.now(), Verb: clocklog.Pause}); !ok {
			return "not running", nil
		}
		c.mu.Lock()
		c.hallPaused = true
		c.mu.Unlock()
	case "resume":
		c.mu.Lock()
		paused, hall := c.clk.State(c.now()).Paused, c.hallPaused
		c.mu.Unlock()
		switch {
		case !paused:
			return "not paused", nil
		case !hall:
			return "", errors.New("the game was paused at the clock, not by the hall: the arbiter resumes it at the board")
		}
		c.event(clocklog.Event{At: c.now(), Verb: clocklog.Resume})
		c.mu.Lock()
		c.hallPaused = false
		c.mu.Unlock()
	}
	return "", nil
}

// hallStart carries out the start command as the daemon does: refused
// for a game that has started or ended, with the reason the link's reply
// gives ("the clock refused: the game has already started").
func (c *Clock) hallStart() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	at := c.now()
	st := c.clk.State(at)
	switch {
	case c.result.Verb != 0 && c.result.Result != clocklog.NoResult || st.Stopped || st.FirstFlag != clock.NoSide:
		return errors.New("the game has ended: a new game comes first")
	case c.started || st.Started:
		return errors.New("the game has already started")
	}
	e := clocklog.Event{At: at, Verb: clocklog.Start}
	if _, err := clocklog.Apply(c.clk, e); err != nil {
		return fmt.Errorf("start: %v", err)
	}
	c.started = true
	c.lines = append(c.lines, strings.TrimSuffix(string(clocklog.AppendComment(nil, "hall: start: White's clock started")), "\n"))
	c.lines = append(c.lines, strings.TrimSuffix(string(clocklog.AppendEvent(nil, e)), "\n"))
	c.snapshot(at)
	c.wake()
	return nil
}

// setPlayers carries out the players command as the daemon does: with a
// round and board, a new game for the pairing, refused while the game runs
// (started, no result); without, the names of the game it holds.
func (c *Clock) setPlayers(a protocol.PlayersArg) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := protocol.Players{}
	if c.players != nil {
		p = *c.players
	}
	if a.White != nil {
		p.White = *a.White
	}
	if a.Black != nil {
		p.Black = *a.Black
	}
	if a.Round == 0 {
		c.players = &p
		c.snapshot(c.now())
		c.wake()
		return "", nil
	}
	if c.started && (c.result.Verb == 0 || c.result.Result == clocklog.NoResult) {
		return "", fmt.Errorf("players: the game still runs: round %d board %d waits for its result", a.Round, a.Board)
	}
	for i := c.acked; i < len(c.lines); i++ {
		c.pending = append(c.pending, c.logMsg(c.o.Game, int64(i+1), c.lines[i]))
	}
	c.games++
	c.o.Game = fmt.Sprintf("g%d-%d-%d", c.o.Board, time.Now().UnixMilli(), c.games)
	clk, err := clock.New(c.header.Controls, c.header.Options)
	if err != nil {
		return "", err
	}
	c.clk, c.started, c.result, c.board = clk, false, clocklog.Event{}, nil
	c.lines = strings.Split(strings.TrimSuffix(string(clocklog.AppendHeader(nil, c.header)), "\n"), "\n")
	c.acked = 0
	c.players, c.pairing = &p, &protocol.Pairing{Round: a.Round, Board: a.Board}
	c.snapshot(c.now())
	c.wake()
	return fmt.Sprintf("round %d board %d: game %s", a.Round, a.Board, c.o.Game), nil
}

// send publishes what is queued, in order: every state (one per event,
// none skipped, so a benchmark can look for each press), then the log
// lines one after the other, each once the one before was acknowledged.
func (c *Clock) send(ctx context.Context) {
	for {
		c.mu.Lock()
		var p *paho.Publish
		var line int
		if c.resend && len(c.states) == 0 {
			c.states = append(c.states, c.state)
		}
		c.resend = false
		switch {
		case len(c.states) > 0:
			p = &paho.Publish{Topic: c.t.State, Payload: c.states[0], QoS: 1, Retain: true}
		case len(c.pending) > 0:
			line = -1
			payload, _ := json.Marshal(c.pending[0])
			p = &paho.Publish{Topic: c.t.Log, Payload: payload, QoS: 1}
		case c.acked < len(c.lines) && c.lose > 0:
			// A broker that acknowledged the line and lost it.
			c.lose--
			c.acked++
			c.mu.Unlock()
			continue
		case c.acked < len(c.lines):
			line = c.acked + 1
			payload, _ := json.Marshal(c.logMsg(c.o.Game, int64(line), c.lines[line-1]))
			p = &paho.Publish{Topic: c.t.Log, Payload: payload, QoS: 1}
		}
		c.mu.Unlock()
		if p == nil {
			select {
			case <-ctx.Done():
				return
			case <-c.kick:
			}
			continue
		}
		pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		_, err := c.cm.Publish(pctx, p)
		cancel()
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			select {
			case <-ctx.Done():
				return
			case <-time.After(100 * time.Millisecond):
			}
			continue
		}
		c.mu.Lock()
		if line == -1 {
			c.pending = c.pending[1:]
		} else if line > 0 && c.acked == line-1 {
			c.acked = line
		} else if line == 0 && len(c.states) > 0 {
			c.states = c.states[1:]
		}
		c.mu.Unlock()
	}
}

// Idle reports whether everything queued has been acknowledged.
func (c *Clock) Idle() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.states) == 0 && len(c.pending) == 0 && c.acked == len(c.lines)
}

// Lines returns the game's log lines so far.
func (c *Clock) Lines() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.lines...)
}

// Game is the game's id.
func (c *Clock) Game() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.o.Game
}

// Topics are the clock's topics.
func (c *Clock) Topics() protocol.Topics { return c.t }

func (c *Clock) command(p *paho.Publish) {
	scope := protocol.ScopeBoard
	if p.Topic == c.t.All {
		scope = protocol.ScopeAll
	}
	cmd, err := protocol.ParseCommand(p.Payload, scope)
	if cmd.Name != "resend" { // the hall's own, counted by Resent
		c.mu.Lock()
		c.cmds = append(c.cmds, append([]byte(nil), p.Payload...))
		c.mu.Unlock()
	}
	r := protocol.Reply{ID: cmd.ID, Cmd: cmd.Name, Board: c.o.Board, OK: err == nil}
	if err != nil {
		r.Error = "refused: " + err.Error()
	} else if d, err := c.hallCommand(cmd); err != nil {
		r.OK, r.Error = false, "the clock refused: "+err.Error()
	} else {
		r.Detail = d
	}
	b, _ := json.Marshal(r)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		c.cm.Publish(ctx, &paho.Publish{Topic: c.t.Reply, Payload: b, QoS: 1})
	}()
}

// hallResult carries out the hall's result command as the daemon does
// (core.HallResult): a running clock is stopped by it, and the result is
// the arbiter's; "*" takes it back.
func (c *Clock) hallResult(result string) error {
	r, err := clocklog.ParseResult(result)
	if err != nil {
		return err
	}
	c.mu.Lock()
	refuse := c.refuse
	st := c.clk.State(c.now())
	c.mu.Unlock()
	if refuse != "" {
		return errors.New(refuse)
	}
	if st.Running != clock.NoSide && !st.Paused {
		if r == clocklog.NoResult {
			return errors.New("the game goes on: it has no result to take back")
		}
		c.event(clocklog.Event{At: c.now(), Verb: clocklog.Pause})
	}
	c.Result(r, clocklog.Arbiter)
	return nil
}

// RefuseResults makes the clock refuse the hall's result commands with
// reason, as a clock whose journal fails does; "" takes them again.
func (c *Clock) RefuseResults(reason string) {
	c.mu.Lock()
	c.refuse = reason
	c.mu.Unlock()
}

// Lose makes the broker lose the next n log lines: they are taken as
// acknowledged and never published, as by a broker that restarted before
// the hall subscribed again.
func (c *Clock) Lose(n int) {
	c.mu.Lock()
	c.lose += n
	c.mu.Unlock()
	c.wake()
}

// Resent returns how many resend commands the clock carried out.
func (c *Clock) Resent() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.resent
}

// Online publishes the online message again, as a link does at each
// connection to the broker.
func (c *Clock) Online(ctx context.Context) error {
	_, err := c.cm.Publish(ctx, c.online())
	return err
}

func (c *Clock) online() *paho.Publish {
	c.mu.Lock()
	since := c.start.UnixMilli() // Skip moves it
	c.mu.Unlock()
	m := protocol.OnlineMsg{Online: true, Clock: true, Log: "ok", Version: "fake", Since: since}
	if pub := c.PublicKey(); pub != nil {
		m.Key = protocol.FormatKey(pub)
	}
	on, _ := json.Marshal(m)
	return &paho.Publish{Topic: c.t.Online, Payload: on, QoS: 1, Retain: true}
}

// Commands returns the commands received so far, but the hall's resend
// commands (Resent).
func (c *Clock) Commands() [][]byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([][]byte(nil), c.cmds...)
}

// Publish publishes any payload on any topic, for tests of what the hall
// refuses; it returns the broker's refusal, if any.
func (c *Clock) Publish(ctx context.Context, topic string, payload []byte, retain bool) error {
	pr, err := c.cm.Publish(ctx, &paho.Publish{Topic: topic, Payload: payload, QoS: 1, Retain: retain})
	if err == nil && pr != nil && pr.ReasonCode >= 0x80 {
		return fmt.Errorf("refused by the broker: reason 0x%02x", pr.ReasonCode)
	}
	return err
}

// Close stops the clock as the link does on SIGTERM: offline, stopped.
func (c *Clock) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	off, _ := json.Marshal(protocol.OnlineMsg{Online: false, Reason: "stopped"})
	c.cm.Publish(ctx, &paho.Publish{Topic: c.t.Online, Payload: off, QoS: 1, Retain: true})
	c.cm.Disconnect(ctx)
	c.stop()
}

// Refresh publishes the state as it is now, as the link does every 10 s
// and when the running side's time reaches 0 (a flag).
func (c *Clock) Refresh() {
	c.mu.Lock()
	c.clk.Advance(c.now())
	c.snapshot(c.now())
	c.mu.Unlock()
	c.wake()
}

// logMsg is the log message of line seq of game, signed with the clock's
// key if it has one.
func (c *Clock) logMsg(game string, seq int64, line string) protocol.LogMsg {
	m := protocol.LogMsg{Game: game, Seq: seq, Line: line}
	if c.o.Key != nil {
		m.Sig = protocol.SignLine(c.o.Key, c.o.Hall, c.o.Board, game, seq, line)
	}
	return m
}

// PublicKey is the key the clock signs its lines with, nil if it signs
// none.
func (c *Clock) PublicKey() ed25519.PublicKey {
	if c.o.Key == nil {
		return nil
	}
	return c.o.Key.Public().(ed25519.PublicKey)
}

// SignLine signs line seq of game as the clock would, for a test that
// publishes a line of its own ("" if the clock signs none).
func (c *Clock) SignLine(game string, seq int64, line string) string {
	return c.logMsg(game, seq, line).Sig
}

// SignLineAs signs line seq of game with the clock's key as if it were
// board n's, for a test of a signature replayed on another board.
func (c *Clock) SignLineAs(n int, game string, seq int64, line string) string {
	if c.o.Key == nil {
		return ""
	}
	return protocol.SignLine(c.o.Key, c.o.Hall, n, game, seq, line)
}
