package hall

import (
	"fmt"
	"sync"
	"time"

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
	now  func() time.Time

	queue chan resendAsk
	stop  chan struct{}
	done  chan struct{}
	once  sync.Once

	mu   sync.Mutex
	last map[resendAsk]time.Time // when each was last queued
}

type resendAsk struct {
	board int
	game  string
	from  int64
}

func newResender(hall string, logf func(string, ...any)) *resender {
	return &resender{hall: hall, logf: logf, now: time.Now,
		queue: make(chan resendAsk, 256), stop: make(chan struct{}), done: make(chan struct{}),
		last: map[resendAsk]time.Time{}}
}

// ask queues a resend of board's game from line from, unless the same was
// asked in the last resendEvery or the queue is full (the next message
// of the board asks again). It never blocks.
func (r *resender) ask(board int, game string, from int64) {
	a := resendAsk{board, game, from}
	now := r.now()
	r.mu.Lock()
	if t, ok := r.last[a]; ok && now.Sub(t) < resendEvery {
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
	r.once.Do(func() { close(r.stop) })
	<-r.done
}
