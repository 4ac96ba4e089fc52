package hall

import (
	"fmt"
	"sync"
	"time"

	"github.com/zeitnot/zeitnot/internal/wallclock"
	"github.com/zeitnot/zeitnot/protocol"
)

// resendEvery is how often the hall asks a board again for the same lines.
const resendEvery = 5 * time.Second

// resender asks the boards' links for log lines the hall is missing
// (protocol command resend): a broker that restarted without the hall's
// session delivered some to no one. The asks come from the broker's
// delivery (Receiver), which must not publish itself: they are queued,
// and published from a goroutine of their own.
type resender struct {
	hall string
	logf func(format string, a ...any)
	// clock times the window of each ask; still reports whether the
	// board's game still lacks lines from from while later ones wait
	// (store.Missing): an ask left out as a repeat is asked again at
	// the end of its window if so, since no later line of the board
	// may come to ask it.
	clock wallclock.Clock
	still func(board int, game string, from int64) bool

	queue chan resendAsk
	stop  chan struct{}
	done  chan struct{}
	once  sync.Once

	mu       sync.Mutex
	last     map[resendAsk]time.Time // when each was last queued
	deferred map[resendAsk]bool      // asked again at the end of the window
	stopped  bool
}

type resendAsk struct {
	board int
	game  string
	from  int64
}

func newResender(hall string, logf func(string, ...any), clock wallclock.Clock) *resender {
	return &resender{hall: hall, logf: logf, clock: clock,
		queue: make(chan resendAsk, 256), stop: make(chan struct{}), done: make(chan struct{}),
		last: map[resendAsk]time.Time{}, deferred: map[resendAsk]bool{}}
}

// ask queues a resend of board's game from line from, unless the same was
// asked in the last resendEvery or the queue is full (the next message
// of the board asks again). A repeat left out is asked again when its
// window ends, if the lines are still missing then: the ask made when a
// link comes online (nothing missing yet, or lines lost later) must not
// hold back the ask of a gap that opens within the window. It never
// blocks.
func (r *resender) ask(board int, game string, from int64) {
	a := resendAsk{board, game, from}
	now := r.clock.Now()
	r.mu.Lock()
	if t, ok := r.last[a]; ok && now.Sub(t) < resendEvery {
		if !r.deferred[a] && !r.stopped && r.still != nil && len(r.deferred) < cap(r.queue) {
			r.deferred[a] = true
			r.clock.AfterFunc(resendEvery-now.Sub(t), func() { r.again(a) })
		}
		r.mu.Unlock()
		return
	}
	if len(r.last) >= 1024 {
		for k, t := range r.last {
			if now.Sub(t) >= resendEvery {
				delete(r.last, k)
			}
		}
	}
	r.last[a] = now
	r.mu.Unlock()
	select {
	case r.queue <- a:
	default:
		r.mu.Lock()
		delete(r.last, a)
		r.mu.Unlock()
	}
}

// again asks a once left out as a repeat, if the lines are still missing.
func (r *resender) again(a resendAsk) {
	r.mu.Lock()
	delete(r.deferred, a)
	stopped := r.stopped
	r.mu.Unlock()
	if !stopped && r.still(a.board, a.game, a.from) {
		r.ask(a.board, a.game, a.from)
	}
}

// run publishes the queued asks with publish until close.
func (r *resender) run(publish func(topic string, payload []byte) error) {
	defer close(r.done)
	for {
		select {
		case <-r.stop:
			return
		case a := <-r.queue:
			select {
			case <-r.stop: // stopping comes first, however many wait
				return
			default:
			}
			payload := protocol.ResendArg{Game: a.game, From: a.from}.Payload(fmt.Sprintf("resend-%d", a.from))
			if err := publish(protocol.TopicsFor(r.hall, a.board).Cmd, payload); err != nil {
				r.logf("board %d: asking for game %s from line %d: %v", a.board, a.game, a.from, err)
			}
		}
	}
}

// close stops run, once it has published what it is publishing; asks
// still queued are dropped. run must have been started.
func (r *resender) close() {
	r.mu.Lock()
	r.stopped = true
	r.mu.Unlock()
	r.once.Do(func() { close(r.stop) })
	<-r.done
}
