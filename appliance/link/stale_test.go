package link_test

import (
	"slices"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/link/linktest"
	"github.com/zeitnot/zeitnot/protocol"
)

// statesAt is the clock's virtual time in each state message the hall
// got, in order.
func statesAt(t *testing.T, h *linktest.Hall, topic string) []int64 {
	t.Helper()
	var at []int64
	for _, m := range h.Messages(topic) {
		sm, err := protocol.ParseStateMsg(m.Payload)
		if err != nil {
			t.Fatalf("state %s: %v", m.Payload, err)
		}
		at = append(at, sm.State.At)
	}
	return at
}

// A state the link asked the clock for goes stale when the clock's watch
// brings a newer one while the answer is on its way: the link must not
// send the older one after it. (It did: the periodic refresh overwrote
// the newer state, and the hall showed the older one until the next
// refresh.)
func TestRefreshNeverSendsAnOlderState(t *testing.T) {
	r := newRig(t, linktest.BrokerOpts{})
	r.hall = linktest.NewHall(t, r.broker.URL(), linktest.HallOpts{})
	o := testOpts()
	o.StateEvery = 100 * time.Millisecond // the refresh comes soon
	r.start(r.config(), o)
	r.online()
	if err := r.clock.Press(1000, "black"); err != nil { // starts the clock at 1 s
		t.Fatal(err)
	}
	r.hall.Wait(10*time.Second, "the state at 1 s", func(h *linktest.Hall) bool {
		at := statesAt(t, h, r.topics.State)
		return len(at) > 0 && at[len(at)-1] == 1000
	})

	// 0.5 s pass with no event, and the next refresh's answer is made
	// then, at 1.5 s, and held back: no other state says 1.5 s.
	held, release := r.clock.HoldStatus(500)
	defer release()
	select {
	case <-held:
	case <-time.After(10 * time.Second):
		t.Fatal("no refresh of the state within 10 s")
	}
	lines := len(r.hall.Messages(r.topics.Log))
	if err := r.clock.Press(2000, "white"); err != nil { // White's move at 3.5 s
		t.Fatal(err)
	}
	// The link takes the watch's state before it hands on the event's
	// journal line: once the hall has the line, the link has the state.
	r.hall.Wait(10*time.Second, "the journal line of White's move", func(h *linktest.Hall) bool {
		return len(h.Messages(r.topics.Log)) > lines
	})
	release()
	r.hall.Wait(10*time.Second, "the state at 3.5 s", func(h *linktest.Hall) bool {
		return slices.Contains(statesAt(t, h, r.topics.State), 3500)
	})
	if at := statesAt(t, r.hall, r.topics.State); slices.Contains(at, 1500) {
		t.Errorf("the hall got the held answer (1.5 s) after the watch's newer state: %v", at)
	}
}
