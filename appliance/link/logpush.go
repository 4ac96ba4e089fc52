package link

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/zeitnot/zeitnot/appliance/control"
	"github.com/zeitnot/zeitnot/protocol"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/eclipse/paho.golang/paho"

	"github.com/zeitnot/zeitnot/internal/atomicfile"
	"github.com/zeitnot/zeitnot/internal/regfile"
	"github.com/zeitnot/zeitnot/internal/wallclock"
)

// ProgressFile is the file in the link's state directory that says how far
// the broker has acknowledged the log.
const ProgressFile = "progress.json"

// progress is how far the broker has acknowledged the log, for one broker,
// hall and board.
type progress struct {
	Broker string `json:"broker"`
	Hall   string `json:"hall"`
	Board  int    `json:"board"`
	Game   string `json:"game"`
	Acked  int64  `json:"acked"` // the last line of Game the broker acknowledged
}

func (l *Link) loadProgress() progress {
	p := progress{Broker: l.cfg.Broker.String(), Hall: l.cfg.Hall, Board: l.cfg.Board}
	if l.o.Dir == "" {
		return p
	}
	path := filepath.Join(l.o.Dir, ProgressFile)
	b, err := regfile.ReadFile(path, regfile.Opts{Max: 4096, NoFollow: true})
	if errors.Is(err, fs.ErrNotExist) {
		return p
	}
	var saved progress
	if err == nil {
		err = json.Unmarshal(b, &saved)
	}
	switch {
	case err != nil:
		l.logf("log: %s unreadable, the current game is sent from its first line: %v", path, err)
	case protocol.CheckGame(saved.Game) != nil || saved.Acked < 0:
		l.logf("log: %s holds no valid position, the current game is sent from its first line", path)
	case saved.Broker != p.Broker || saved.Hall != p.Hall || saved.Board != p.Board:
		l.logf("log: %s is for %s hall %s board %d; the current game is sent from its first line", path, saved.Broker, saved.Hall, saved.Board)
	default:
		l.logf("log: the broker had game %s up to line %d", saved.Game, saved.Acked)
		return saved
	}
	return p
}

func (l *Link) saveProgress(p progress) error {
	if l.o.Dir == "" {
		return nil
	}
	b, _ := json.Marshal(p)
	return atomicfile.WriteFile(filepath.Join(l.o.Dir, ProgressFile), append(b, '\n'), 0o600)
}

// streamLines are journal lines of the watch stream: lines first,
// first+1, ... of game.
type streamLines struct {
	game  string
	first int64
	lines []string
}

// pushLog sends the journal's lines to the log topic in order, each once
// the one before it is acknowledged, from where the broker last
// acknowledged. The lines come from the watch stream (follow), which
// carries each line the daemon writes with its number; the link asks the
// daemon ("log GAME FROM", which reads them from disk) only to catch up:
// at the start, after a new watch or a new connection to the broker, at a
// new game, and when the stream skipped a line. It holds at most
// MaxLogLines lines in memory.
func (l *Link) pushLog(ctx context.Context) {
	p := l.loadProgress()
	saved := p
	var pending []string // the lines after p.Acked
	catchUp := true      // ask the daemon before waiting for the stream
	var saveErr string   // the last failure to save, told once
	save := func() {
		if p != saved {
			if err := l.saveProgress(p); err != nil {
				if err.Error() != saveErr {
					saveErr = err.Error()
					l.logf("log: %v (the position is kept in memory; tried again every %s)", err, l.o.SaveEvery)
				}
				return
			}
			saved, saveErr = p, ""
		}
	}
	defer save()
	// A resend of another game than p's (the hall lost lines of an
	// earlier game) goes back to it; ret is where to return once it is
	// sent, resent the game being sent again.
	var ret *progress
	var resent string
	resend := func(a protocol.ResendArg) {
		l.mu.Lock()
		current := l.current
		l.mu.Unlock()
		switch {
		case a.Game == p.Game:
			if a.From-1 >= p.Acked {
				return // not sent yet: it comes in its turn
			}
			p.Acked = a.From - 1
		case ret != nil && a.Game == ret.Game:
			p, ret = *ret, nil
			p.Acked = min(p.Acked, a.From-1)
		case a.Game == current && p.Game != "":
			return // the link is on an earlier game; this one comes next
		default:
			if ret == nil {
				r := p
				ret = &r
			}
			p.Game, p.Acked, resent = a.Game, a.From-1, a.Game
		}
		l.logf("log: the hall asked for game %s from line %d", a.Game, a.From)
		pending, catchUp = nil, true
	}
	tick := l.o.Clock.NewTicker(l.o.SaveEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C():
			save()
			continue
		case <-l.logKick:
			catchUp = true
		case sl := <-l.lines:
			if !takeStreamed(p, &pending, sl) {
				catchUp = true
			}
		case a := <-l.resends:
			resend(a)
		}
		l.mu.Lock()
		if l.missed {
			l.missed, catchUp = false, true
		}
		l.mu.Unlock()
		for ctx.Err() == nil {
			if len(pending) == 0 {
				if !catchUp {
					break
				}
				more, err := l.fetch(ctx, &p, &pending)
				if ctx.Err() != nil {
					return
				}
				if err == nil && ret != nil && p.Game != resent {
					// fetch moved on from the game sent again: back.
					l.logf("log: game %s sent again; back to game %s after line %d", resent, ret.Game, ret.Acked)
					p, ret, pending, catchUp = *ret, nil, nil, true
					continue
				}
				if err != nil {
					l.setLog(err.Error())
					break
				}
				l.setLog("ok")
				catchUp = more // the stream brings what comes next
				if len(pending) == 0 && !more {
					break
				}
				continue
			}
			seq := p.Acked + 1
			payload, _ := json.Marshal(protocol.LogMsg{Game: p.Game, Seq: seq, Line: pending[0], Sig: l.sign(p.Game, seq, pending[0])})
			// A stop waits for the acknowledgement of a line on its way
			// (Timeout at most), so it is not sent again after a restart.
			err := l.publish(context.WithoutCancel(ctx), &paho.Publish{Topic: l.t.Log, Payload: payload, QoS: 1})
			if err != nil {
				if ctx.Err() != nil {
					return
				}
				if !errors.Is(err, errDown) {
					// Refused by the broker (not authorized to publish,
					// quota): try the same line again later.
					l.logf("log: game %s line %d: %v", p.Game, p.Acked+1, err)
					if !wallclock.Sleep(ctx, l.o.Clock, 5*l.o.Timeout) {
						return
					}
				}
				if l.awaitBroker(ctx) != nil {
					return
				}
				continue
			}
			p.Acked++
			pending = pending[1:]
			l.mu.Lock()
			l.st.Game, l.st.Acked = p.Game, p.Acked
			l.changed() // systemd's STATUS= says which line the broker has
			l.mu.Unlock()
			// Take what the stream and the hall brought meanwhile.
			for drained := false; !drained; {
				select {
				case sl := <-l.lines:
					if !takeStreamed(p, &pending, sl) {
						catchUp = true
					}
				case a := <-l.resends:
					resend(a)
				default:
					drained = true
				}
			}
		}
		select {
		case <-tick.C():
			save()
		default:
		}
	}
}

// takeStreamed appends the streamed lines that follow p and pending to
// pending. It reports false when they do not follow on (another game, a
// line skipped, more than pending may hold): the daemon is asked then.
func takeStreamed(p progress, pending *[]string, sl streamLines) bool {
	if p.Game == "" || sl.game != p.Game {
		return false
	}
	next := p.Acked + int64(len(*pending)) + 1
	last := sl.first + int64(len(sl.lines)) - 1
	switch {
	case last < next:
		return true // had them all
	case sl.first > next:
		return false // a gap
	}
	add := sl.lines[next-sl.first:]
	if len(*pending)+len(add) > protocol.MaxLogLines {
		return false
	}
	*pending = append(*pending, add...)
	return true
}

// fetch asks the daemon for the lines after p, moving on to the next game
// when p's game is complete. more says there is more to fetch now: the
// daemon has lines after these, or another game to go on with.
func (l *Link) fetch(ctx context.Context, p *progress, pending *[]string) (more bool, err error) {
	learnt := false
	if p.Game == "" {
		li, err := l.clock.logInfo(ctx)
		if err != nil {
			return false, logError(err)
		}
		p.Game, p.Acked, learnt = li.Game, 0, true
	}
	ll, err := l.clock.logLines(ctx, p.Game, p.Acked+1)
	var ce *control.Error
	if errors.As(err, &ce) && strings.HasPrefix(ce.Msg, "no game") && !learnt {
		l.logf("log: the clock no longer has game %s; its lines after %d are not sent", p.Game, p.Acked)
		p.Game, p.Acked = "", 0
		return true, nil
	}
	if err != nil {
		return false, logError(err)
	}
	*pending = ll.Lines
	l.mu.Lock()
	l.current = ll.Current
	l.mu.Unlock()
	if len(ll.Lines) == 0 && !ll.More && ll.Current != p.Game {
		// The game is complete on the broker: on to the current one.
		l.logf("log: game %s complete (%d lines); next game %s", p.Game, p.Acked, ll.Current)
		p.Game, p.Acked = ll.Current, 0
		return true, nil
	}
	// After these, more of this game, or on to the current one.
	return ll.More || ll.Current != p.Game, nil
}

func logError(err error) error {
	if control.UnknownCommand(err) {
		return errors.New(logUnavailable)
	}
	return fmt.Errorf("waiting for the clock: %v", err)
}

// setLog records the state of the log topic, telling of a change.
func (l *Link) setLog(s string) {
	l.mu.Lock()
	was := l.st.Log
	l.st.Log = s
	l.changed()
	l.mu.Unlock()
	if s != was {
		if s != "ok" {
			l.logf("log: %s", s)
		}
		if s == "ok" || was == "ok" || s == logUnavailable || was == logUnavailable {
			kick(l.onlineKick)
		}
	}
}
