package link

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/zeitnot/zeitnot/appliance/control"
	"github.com/zeitnot/zeitnot/protocol"
	"strings"
	"time"

	"github.com/eclipse/paho.golang/paho"

	"github.com/zeitnot/zeitnot/internal/ratelimit"
)

// command carries out the hall's commands one at a time: rate limit,
// validation, the daemon's answer, the reply.
func (l *Link) command(ctx context.Context) {
	lim := ratelimit.New(l.o.CommandRate, l.o.CommandBurst)
	// The hall's asks for log lines (resend, when a clock comes online,
	// at each new game and at a gap) have a budget of their own: they
	// never use up the arbiter's, whose round start must not be refused
	// because the hall asked for lines a moment before.
	asks := ratelimit.New(l.o.CommandRate, l.o.CommandBurst)
	var lastRateReply time.Time
	for {
		var in incoming
		select {
		case <-ctx.Done():
			return
		case in = <-l.cmds:
		}
		now := l.o.Clock.Now()
		budget := lim
		if isResend(in.payload) {
			budget = asks
		}
		if ok, _ := budget.Take(now); !ok {
			l.mu.Lock()
			l.st.Refused++
			l.mu.Unlock()
			if now.Sub(lastRateReply) >= time.Second {
				lastRateReply = now
				c, _ := protocol.ParseCommand(in.payload, in.scope)
				l.reply(ctx, in, protocol.Reply{ID: c.ID, Cmd: c.Name, Error: fmt.Sprintf("refused: too many commands, at most %d at once and %g a second; commands are dropped unanswered until then", l.o.CommandBurst, l.o.CommandRate)})
			}
			continue
		}
		c, err := l.check(in)
		if err != nil {
			l.reply(ctx, in, protocol.Reply{ID: c.ID, Cmd: c.Name, Error: "refused: " + err.Error()})
			continue
		}
		if c.Name == "update" {
			// Answered when the bundle is fetched and offered.
			if err := l.update(ctx, in, c); err != nil {
				l.reply(ctx, in, protocol.Reply{ID: c.ID, Cmd: c.Name, Error: err.Error()})
			}
			continue
		}
		detail, err := l.carryOut(ctx, c)
		if err != nil {
			l.reply(ctx, in, protocol.Reply{ID: c.ID, Cmd: c.Name, Error: err.Error()})
			continue
		}
		l.logf("command %s from the hall: done", c.Name)
		l.reply(ctx, in, protocol.Reply{ID: c.ID, Cmd: c.Name, OK: true, Detail: detail})
	}
}

// isResend reports whether payload is the hall's ask for log lines, as
// far as its name says: a budget is chosen by it before the command is
// checked (check refuses what is not a resend whole).
func isResend(payload []byte) bool {
	c, _ := protocol.ParseCommand(payload, protocol.ScopeBoard)
	return c.Name == "resend"
}

// check validates a command as it arrived.
func (l *Link) check(in incoming) (protocol.Command, error) {
	if in.size > protocol.MaxCommand {
		return protocol.Command{}, fmt.Errorf("command of %d bytes, at most %d", in.size, protocol.MaxCommand)
	}
	c, err := protocol.ParseCommand(in.payload, in.scope)
	if err != nil {
		return c, err
	}
	if in.retained {
		return c, errors.New("a retained command is never carried out (it would run again at every connection); publish it without retain")
	}
	if c.Name == "takeover" && c.From == l.cfg.Board {
		return c, fmt.Errorf("takeover: board %d cannot take over its own game", c.From)
	}
	return c, nil
}

// carryOut hands a valid command to the daemon and returns what it said
// beyond ok.
func (l *Link) carryOut(ctx context.Context, c protocol.Command) (string, error) {
	if c.Name == "resend" {
		return l.resend(ctx, c)
	}
	if c.Name == "takeover" {
		arg, err := l.fetchBoard(ctx, c.From)
		if err != nil {
			return "", fmt.Errorf("refused: %v", err)
		}
		c.Arg = arg
		if len(c.Request()) > protocol.MaxRequest {
			return "", fmt.Errorf("refused: board %d's state makes a request of %d bytes, the control socket takes %d", c.From, len(c.Request()), protocol.MaxRequest)
		}
	}
	a, err := l.clock.Call(ctx, c.Request())
	if err != nil {
		return "", l.clockError(c.Name, err)
	}
	return strings.TrimSpace(strings.TrimPrefix(a, "ok")), nil
}

// resend is the link's own command: the hall lost lines of a game, and
// pushLog sends them again. The daemon is asked first whether it has the
// game and the line, so that a refusal is answered.
func (l *Link) resend(ctx context.Context, c protocol.Command) (string, error) {
	var a protocol.ResendArg
	if err := json.Unmarshal([]byte(c.Arg), &a); err != nil {
		return "", fmt.Errorf("refused: %v", err) // ParseCommand made it: never
	}
	if _, err := l.clock.logLines(ctx, a.Game, a.From); err != nil {
		return "", l.clockError(c.Name, err)
	}
	select {
	case l.resends <- a:
	default:
		return "", errors.New("refused: resend: four are waiting already")
	}
	return fmt.Sprintf("game %s from line %d", a.Game, a.From), nil
}

// clockError is the reply's error for a request of command name the
// daemon refused or did not answer.
func (l *Link) clockError(name string, err error) error {
	var ce *control.Error
	if !errors.As(err, &ce) {
		return fmt.Errorf("the clock did not answer: %v", err)
	}
	if control.UnknownCommand(err) {
		return fmt.Errorf("the clock does not know %s (it needs a newer zeitnot run)", name)
	}
	// The reply names its command: the daemon's "round: ..." is said once.
	return fmt.Errorf("the clock refused: %s", strings.TrimPrefix(ce.Msg, name+": "))
}

// fetchBoard reads another board's retained state and online messages
// and builds the takeover request from them.
func (l *Link) fetchBoard(ctx context.Context, from int) (string, error) {
	t := protocol.TopicsFor(l.cfg.Hall, from)
	state, online := make(chan []byte, 1), make(chan []byte, 1)
	l.mu.Lock()
	l.waiters[t.State], l.waiters[t.Online] = state, online
	l.mu.Unlock()
	defer func() {
		l.mu.Lock()
		delete(l.waiters, t.State)
		delete(l.waiters, t.Online)
		l.mu.Unlock()
	}()
	ctx, cancel := context.WithTimeout(ctx, l.o.Timeout)
	defer cancel()
	sa, err := l.cm.Subscribe(ctx, &paho.Subscribe{Subscriptions: []paho.SubscribeOptions{
		{Topic: t.State, QoS: 1}, {Topic: t.Online, QoS: 1},
	}})
	if e := subackError(sa, t.State, t.Online); e != nil {
		err = e // names the topic, where paho does not
	}
	if err != nil {
		return "", fmt.Errorf("cannot read board %d's state: %v", from, err)
	}
	defer func() {
		uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), l.o.Timeout)
		defer cancel()
		l.cm.Unsubscribe(uctx, &paho.Unsubscribe{Topics: []string{t.State, t.Online}})
	}()
	var sp []byte
	var om *protocol.OnlineMsg
	// The broker sends retained messages right after the subscription;
	// either may not exist.
	grace := l.o.Clock.NewTimer(time.Second)
	defer grace.Stop()
	for sp == nil || om == nil {
		select {
		case sp = <-state:
			grace.Reset(500 * time.Millisecond)
		case b := <-online:
			om = &protocol.OnlineMsg{}
			if err := json.Unmarshal(b, om); err != nil {
				om = &protocol.OnlineMsg{}
			}
		case <-grace.C():
			if sp == nil {
				return "", fmt.Errorf("the broker has no state of board %d", from)
			}
			return takeoverArg(l.cfg.Hall, from, sp, om)
		case <-ctx.Done():
			if sp == nil {
				return "", fmt.Errorf("the broker has no state of board %d", from)
			}
			return takeoverArg(l.cfg.Hall, from, sp, om)
		}
	}
	return takeoverArg(l.cfg.Hall, from, sp, om)
}

// reply publishes the answer to a command on the board's reply topic,
// with the command's correlation data.
func (l *Link) reply(ctx context.Context, in incoming, r protocol.Reply) {
	r.Board = l.cfg.Board
	if r.Error != "" {
		l.logf("command %s from the hall: %s", orUnknown(r.Cmd), r.Error)
	}
	payload, _ := json.Marshal(r)
	p := &paho.Publish{Topic: l.t.Reply, Payload: payload, QoS: 1}
	if len(in.corr) > 0 {
		p.Properties = &paho.PublishProperties{CorrelationData: in.corr}
	}
	if err := l.publish(ctx, p); err != nil && ctx.Err() == nil {
		l.logf("reply: %v", err)
	}
}

func orUnknown(s string) string {
	if s == "" {
		return "(unreadable)"
	}
	return s
}

// subackError reports the subscriptions the broker refused.
func subackError(sa *paho.Suback, topics ...string) error {
	if sa == nil {
		return nil
	}
	var errs []error
	for i, code := range sa.Reasons {
		if code >= 0x80 && i < len(topics) {
			errs = append(errs, fmt.Errorf("the broker refused the subscription to %s: %s", topics[i], reasonText(code)))
		}
	}
	return errors.Join(errs...)
}
