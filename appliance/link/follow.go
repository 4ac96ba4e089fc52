package link

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/eclipse/paho.golang/paho"

	"github.com/zeitnot/zeitnot/appliance/control"
	"github.com/zeitnot/zeitnot/appliance/watch"
	"github.com/zeitnot/zeitnot/internal/wallclock"
	"github.com/zeitnot/zeitnot/protocol"
)

// follow follows the daemon's watch stream for as long as ctx lasts,
// coming back after the daemon went away.
func (l *Link) follow(ctx context.Context) {
	learn := false   // learn the current game at the next state
	learned := false // a game was learnt: the next learn catches up
	o := watch.Opts{
		Client: l.clock.Client,
		Retry:  l.o.ClockRetry,
		Sleep:  func(ctx context.Context, d time.Duration) bool { return wallclock.Sleep(ctx, l.o.Clock, d) },
		Down:   func(err error) { l.setClock(false, err) },
		Bad:    func(line string) { l.logf("clock: a watch line that is not JSON, ignored: %.80q", line) },
	}
	watch.Follow(ctx, o, func(m watch.Line) error {
		now := l.o.Clock.Now()
		if m.First {
			learn = true
		}
		switch {
		case m.State != nil:
			if learn {
				l.learnGame(ctx)
				learn = false
				if learned {
					// What was written while the link did not
					// follow comes from "log GAME FROM". (At the
					// start pushLog asks anyway, and a line the
					// stream skips shows as a gap.)
					kick(l.logKick)
				}
				learned = true
			}
			l.setClock(true, nil)
			l.setState(m.State, now, nil)
		case m.NewGame():
			learn = true
		}
		if m.Event.Seq > 0 && m.Event.Line != "" && protocol.ValidGame(m.Event.Game) {
			l.streamed(m.Event)
		}
		return nil
	})
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

// setState keeps the state the daemon gave at t for the publisher; with
// since (stateSeq when it was asked for), only if no other came since.
func (l *Link) setState(raw json.RawMessage, t time.Time, since *uint64) {
	m, err := protocol.NewStateMsg(l.cfg.Hall, l.cfg.Board, "", t.UnixMilli(), raw)
	if err != nil {
		l.logf("clock: %v; not sent", err)
		return
	}
	l.mu.Lock()
	if since != nil && *since != l.stateSeq {
		l.mu.Unlock()
		return // a state came after since: this one may be older
	}
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
	t := l.o.Clock.NewTimer(l.o.StateEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-l.stateKick:
		case <-t.C():
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
			due := wallclock.Until(l.o.Clock, time.UnixMilli(msg.Time).Add(d+100*time.Millisecond))
			next = max(min(next, due), 50*time.Millisecond)
		}
		l.mu.Unlock()
		if !t.Stop() {
			select {
			case <-t.C():
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

// refreshState asks the daemon for its state now. An answer is dropped
// when the watch brought a state while it was on its way: that one may
// be newer, and the answer must not replace it.
func (l *Link) refreshState(ctx context.Context) {
	l.mu.Lock()
	up, seq := l.st.ClockUp, l.stateSeq
	l.mu.Unlock()
	if !up {
		return
	}
	a, err := l.clock.Call(ctx, protocol.ReqStatus)
	if err != nil {
		return
	}
	l.setState(json.RawMessage(a), l.o.Clock.Now(), &seq)
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
			asked := l.asked
			l.mu.Unlock()
			if !asked {
				break // the subscription's answer kicks again
			}
			if m.Log == "" {
				m.Log = "ok"
			}
			payload, _ := json.Marshal(m)
			err := l.publish(ctx, &paho.Publish{Topic: l.t.Online, Payload: payload, QoS: 1, Retain: true})
			if err == nil || errors.Is(err, errDown) {
				break // a new connection kicks again
			}
			l.logf("online: %v", err)
			if !wallclock.Sleep(ctx, l.o.Clock, l.o.Timeout) {
				return
			}
		}
	}
}
