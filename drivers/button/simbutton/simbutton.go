// Package simbutton has the simulator's buttons: a button.Source whose
// events are pushed at run time, by the keys of `zeitnot-sim` or by a
// test, rather than read from GPIO lines. A hardware profile opens it for
// buttons wired to "sim:<key>".
package simbutton

import (
	"sync"
	"time"

	"github.com/zeitnot/zeitnot/drivers/button"
)

// Source is a button.Source whose events are pushed. Push never blocks:
// events queue until they are read.
type Source struct {
	events chan button.Event
	kick   chan struct{}
	stop   chan struct{}
	once   sync.Once

	mu     sync.Mutex
	queue  []button.Event
	last   time.Duration
	closed bool
}

var _ button.Source = (*Source)(nil)

// New returns a Source with nothing pushed yet. Close it.
func New() *Source {
	s := &Source{
		events: make(chan button.Event),
		kick:   make(chan struct{}, 1),
		stop:   make(chan struct{}),
	}
	go s.run()
	return s
}

// Push queues e. To keep the order a button.Source promises, an At earlier
// than the previous event's is raised to it. Push after Close does nothing.
func (s *Source) Push(e button.Event) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	e.At = max(e.At, s.last)
	s.last = e.At
	s.queue = append(s.queue, e)
	s.mu.Unlock()
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// Events implements button.Source.
func (s *Source) Events() <-chan button.Event { return s.events }

// Close implements button.Source. Events not yet read are dropped. It always
// returns nil.
func (s *Source) Close() error {
	s.once.Do(func() {
		s.mu.Lock()
		s.closed = true
		s.mu.Unlock()
		close(s.stop)
	})
	return nil
}

func (s *Source) run() {
	defer close(s.events)
	for {
		s.mu.Lock()
		var e button.Event
		ok := len(s.queue) > 0
		if ok {
			e = s.queue[0]
			s.queue = s.queue[1:]
		}
		s.mu.Unlock()
		if !ok {
			select {
			case <-s.kick:
				continue
			case <-s.stop:
				return
			}
		}
		select {
		case s.events <- e:
		case <-s.stop:
			return
		}
	}
}
