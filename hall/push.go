package hall

import (
	"sync"

	"github.com/zeitnot/zeitnot/hall/broadcast"
	"github.com/zeitnot/zeitnot/hall/store"
	"github.com/zeitnot/zeitnot/hall/web"
	"github.com/zeitnot/zeitnot/internal/wallclock"
)

// pusher is the push of the round to lichess ([broadcast]): a
// broadcast.Pusher fed by the round's feed, told of every change of the
// store.
type pusher struct {
	p    *broadcast.Pusher
	st   *store.Store
	done chan struct{}

	mu      sync.Mutex
	sub     *store.Sub
	closing bool
}

// startPush starts pushing the round as b says, the feed w's.
func startPush(b *Broadcast, st *store.Store, w *web.Server, clk wallclock.Clock, logf func(string, ...any)) (*pusher, error) {
	p, err := broadcast.Start(broadcast.Opts{URL: b.URL, Token: b.Token, Ranges: b.Ranges, Interval: b.Interval, Feed: w.RoundPGN, Clock: clk, Logf: logf})
	if err != nil {
		return nil, err
	}
	ps := &pusher{p: p, st: st, sub: st.Subscribe(256), done: make(chan struct{})}
	go ps.follow()
	for _, r := range b.Ranges {
		boards := r.Boards
		if boards == "" {
			boards = "every board"
		}
		logf("broadcast: pushing %s to lichess round %s, at most every %v", boards, r.Round, p.Interval())
	}
	return ps, nil
}

// follow tells the pusher of each change of the store; a subscription
// that fell behind is taken again (the pusher needs to know only that
// something changed).
func (ps *pusher) follow() {
	defer close(ps.done)
	ps.mu.Lock()
	sub := ps.sub
	ps.mu.Unlock()
	for {
		for range sub.C {
			ps.p.Changed()
		}
		ps.mu.Lock()
		if ps.closing {
			ps.mu.Unlock()
			return
		}
		sub = ps.st.Subscribe(256) // it fell behind
		ps.sub = sub
		ps.mu.Unlock()
		ps.p.Changed()
	}
}

// close stops the pushes.
func (ps *pusher) close() {
	ps.mu.Lock()
	ps.closing = true
	sub := ps.sub
	ps.mu.Unlock()
	ps.st.Unsubscribe(sub)
	<-ps.done
	ps.p.Close()
}
