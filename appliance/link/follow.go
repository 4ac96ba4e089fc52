package link

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/zeitnot/zeitnot/appliance/control"
	"github.com/zeitnot/zeitnot/protocol"
	"time"

	"github.com/eclipse/paho.golang/paho"
	"github.com/zeitnot/zeitnot/internal/ctxwait"
)

// follow follows the daemon's watch stream for as long as ctx lasts,
// coming back after the daemon went away.
func (l *Link) follow(ctx context.Context) {
	wait := l.o.ClockRetry
	again := false // a watch after the first: catch up on what it missed
	for ctx.Err() == nil {
		learn := true // learn the current game at the first state
		err := l.clock.Watch(ctx, func(line string) error {
			now := time.Now()
			var m protocol.WatchLine
			if err := json.Unmarshal([]byte(line), &m); err != nil {
				l.logf("clock: a watch line that is not JSON, ignored: %.80q", line)
				return nil
			}
			switch {
			case m.State != nil:
				if learn {
					l.learnGame(ctx)
					learn = false
					if again {
						// What was written while the link did not
						// follow comes from "log GAME FROM". (At the
						// start pushLog asks anyway, and a line the
						// stream skips shows as a gap.)
						kick(l.logKick)
					}
					again = true
				}
				l.setClock(true, nil)
				wait = l.o.ClockRetry
				l.setState(m.State, now)
			case m.Event.Event == protocol.EventNewGame || m.Event.Event == protocol.EventRecovered:
				learn = true
			}
			if m.Event.Seq > 0 && m.Event.Line != "" && protocol.ValidGame(m.Event.Game) {
				l.streamed(m.Event)
			}
			return nil
		})
		if ctx.Err() != nil {
			return
		}
		l.setClock(false, err)
		if !ctxwait.Sleep(ctx, wait) {
			return
		}
		wait = min(2*wait, 5*time.Second)
	}
}

// learnGame asks the daemon which game is current, for the state
// messages.
func (l *Link) learnGame(ctx context.Context) {
	li, err := l.clock.logInfo(ctx)
	switch {
	case err == nil:
		l.mu.Lock()
		l.current = li.Game
		l.mu.Unlock()
	case control.UnknownCommand(err):
		l.setLog(logUnavailable)
	}
}

const logUnavailable = "unavailable: the clock does not answer the log request (it needs a newer zeitnot run)"

func (l *Link) setClock(up bool, err error) {
	l.mu.Lock()
	was, wasErr := l.st.ClockUp, l.st.ClockErr
	l.st.ClockUp, l.st.ClockErr = up, err
	l.changed()
	l.mu.Unlock()
	if up != was {
		kick(l.onlineKick)
		if up {
			l.logf("clock: following %s", l.o.Socket)
		}
	}
	if !up && (was || wasErr == nil || wasErr.Error() != err.Error()) {
		l.logf("clock: %v", err)
	}
}

// setState keeps the state the daemon gave at t for the publisher.
func (l *Link) setState(raw json.RawMessage, t time.Time) {
	m, err := protocol.NewStateMsg(l.cfg.Hall, l.cfg.Board, "", t.UnixMilli(), raw)
	if err != nil {
		l.logf("clock: %v; not sent", err)
		return
	}
	l.mu.Lock()
	l.state = m
	l.stateSeq++
	l.mu.Unlock()
	kick(l.stateKick)
}

// streamed hands the journal lines of a watch event to pushLog.
func (l *Link) streamed(e protocol.Event) {
	lines := append(e.Before[:len(e.Before):len(e.Before)], e.Line)
	sl := streamLines{game: e.Game, first: e.Seq - int64(len(e.Before)), lines: lines}
	select {
	case l.lines <- sl:
	default:
		// pushLog is behind: it asks the daemon for what it missed.
		l.mu.Lock()
		l.missed = true
		l.mu.Unlock()
		kick(l.logKick)
	}
}

// publishStates sends the state whenever there is a new one, asks the
// daemon for a fresh one every StateEvery and when the running clock
// reaches 0, and sends it again on every new connection.
func (l *Link) publishStates(ctx context.Context) {
	var sent uint64
	t := time.NewTimer(l.o.StateEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-l.stateKick:
		case <-t.C:
			l.refreshState(ctx)
		}
		l.mu.Lock()
		seq, again := l.stateSeq, l.republish
		msg := l.state
		if msg.Game == "" {
			msg.Game = l.current
		}
		next := l.o.StateEvery
		if d, ok := msg.State.UntilZero(); ok && d > 0 && msg.Raw != nil {
			due := time.Until(time.UnixMilli(msg.Time).Add(d + 100*time.Millisecond))
			next = max(min(next, due), 50*time.Millisecond)
		}
		l.mu.Unlock()
		if !t.Stop() {
			select {
			case <-t.C:
			default:
			}
		}
		t.Reset(next)
		if msg.Raw == nil || (seq == sent && !again) {
			continue
		}
		payload, err := json.Marshal(msg)
		if err != nil {
			continue
		}
		err = l.publish(ctx, &paho.Publish{Topic: l.t.State, Payload: payload, QoS: 1, Retain: true})
		if err == nil {
			sent = seq
			l.mu.Lock()
			if l.stateSeq == seq {
				l.republish = false
			}
			l.mu.Unlock()
		} else if !errors.Is(err, errDown) && ctx.Err() == nil {
			l.logf("state: %v", err)
		}
	}
}

// refreshState asks the daemon for its state now.
func (l *Link) refreshState(ctx context.Context) {
	l.mu.Lock()
	up := l.st.ClockUp
	l.mu.Unlock()
	if !up {
		return
	}
	a, err := l.clock.Call(ctx, "status")
	if err != nil {
		return
	}
	l.setState(json.RawMessage(a), time.Now())
}

// publishOnline keeps the retained online message true.
func (l *Link) publishOnline(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-l.onlineKick:
		}
		for ctx.Err() == nil {
			l.mu.Lock()
			m := protocol.OnlineMsg{Online: true, Clock: l.st.ClockUp, Log: l.st.Log, Version: l.o.Version, Since: l.start.UnixMilli()}
			l.mu.Unlock()
			if m.Log == "" {
				m.Log = "ok"
			}
			payload, _ := json.Marshal(m)
			err := l.publish(ctx, &paho.Publish{Topic: l.t.Online, Payload: payload, QoS: 1, Retain: true})
			if err == nil || errors.Is(err, errDown) {
				break // a new connection kicks again
			}
			l.logf("online: %v", err)
			if !ctxwait.Sleep(ctx, l.o.Timeout) {
				return
			}
		}
	}
}
