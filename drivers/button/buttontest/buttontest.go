// Package buttontest has button.Source implementations for tests and the
// simulator: Script replays events given in advance, Pusher delivers events
// pushed at run time.
package buttontest

import (
	"slices"
	"sync"
	"time"

	"github.com/zeitnot/zeitnot/drivers/button"
)

// Script is a button.Source that delivers a fixed list of events, in order
// of At, as fast as they are read. Its channel stays open until Close.
type Script struct {
	events chan button.Event
	done   chan struct{}
	stop   chan struct{}
	once   sync.Once
}

// NewScript returns a Script of events. Events are sorted by At, keeping the
// given order for equal instants, as a button.Source promises.
func NewScript(events ...button.Event) *Script {
	evs := slices.Clone(events)
	slices.SortStableFunc(evs, func(a, b button.Event) int {
		switch {
		case a.At < b.At:
			return -1
		case a.At > b.At:
			return 1
		}
		return 0
	})
	s := &Script{
		events: make(chan button.Event),
		done:   make(chan struct{}),
		stop:   make(chan struct{}),
	}
	go func() {
		defer close(s.events)
		for _, e := range evs {
			select {
			case s.events <- e:
			case <-s.stop:
				return
			}
		}
		close(s.done)
		<-s.stop
	}()
	return s
}

// Events implements button.Source.
func (s *Script) Events() <-chan button.Event { return s.events }

// Done is closed once every event has been received.
func (s *Script) Done() <-chan struct{} { return s.done }

// Close implements button.Source. It always returns nil.
func (s *Script) Close() error {
	s.once.Do(func() { close(s.stop) })
	return nil
}

// Tap returns a press of name at at and its release down later.
func Tap(name string, at, down time.Duration) []button.Event {
	return []button.Event{
		{Button: name, Kind: button.Press, At: at},
		{Button: name, Kind: button.Release, At: at + down},
	}
}

// Pusher is a button.Source whose events are pushed at run time, by the
// simulator's keyboard or a test. Push never blocks: events queue until
// they are read.
type Pusher struct {
	events chan button.Event
	kick   chan struct{}
	stop   chan struct{}
	once   sync.Once

	mu     sync.Mutex
	queue  []button.Event
	last   time.Duration
	closed bool
}

// NewPusher returns an empty Pusher.
func NewPusher() *Pusher {
	p := &Pusher{
		events: make(chan button.Event),
		kick:   make(chan struct{}, 1),
		stop:   make(chan struct{}),
	}
	go p.run()
	return p
}

// Push queues e. To keep the order a button.Source promises, an At earlier
// than the previous event's is raised to it. Push after Close does nothing.
func (p *Pusher) Push(e button.Event) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	e.At = max(e.At, p.last)
	p.last = e.At
	p.queue = append(p.queue, e)
	p.mu.Unlock()
	select {
	case p.kick <- struct{}{}:
	default:
	}
}

// Events implements button.Source.
func (p *Pusher) Events() <-chan button.Event { return p.events }

// Close implements button.Source. Events not yet read are dropped. It always
// returns nil.
func (p *Pusher) Close() error {
	p.once.Do(func() {
		p.mu.Lock()
		p.closed = true
		p.mu.Unlock()
		close(p.stop)
	})
	return nil
}

func (p *Pusher) run() {
	defer close(p.events)
	for {
		p.mu.Lock()
		var e button.Event
		ok := len(p.queue) > 0
		if ok {
			e = p.queue[0]
			p.queue = p.queue[1:]
		}
		p.mu.Unlock()
		if !ok {
			select {
			case <-p.kick:
				continue
			case <-p.stop:
				return
			}
		}
		select {
		case p.events <- e:
		case <-p.stop:
			return
		}
	}
}

var (
	_ button.Source = (*Script)(nil)
	_ button.Source = (*Pusher)(nil)
)
