// Package buttontest has a button.Source for tests: Script replays events
// given in advance, as fast as they are read. For events pushed at run
// time, as the simulator's keys do, see simbutton.
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

var _ button.Source = (*Script)(nil)
