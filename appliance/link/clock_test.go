package link_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/link/linktest"
	"github.com/zeitnot/zeitnot/internal/wait"
	"github.com/zeitnot/zeitnot/internal/wallclock/wallclocktest"
	"github.com/zeitnot/zeitnot/protocol"
)

// TestStateRefreshOnTheLinksClock: with nothing happening at the clock,
// the link asks the daemon for a fresh state once StateEvery has passed on
// its clock (the watch stream brings no state without an event), and
// stamps the state it sends with that clock's time: here a fake one,
// which the test advances instead of waiting ten seconds.
func TestStateRefreshOnTheLinksClock(t *testing.T) {
	r := newRig(t, linktest.BrokerOpts{})
	r.hall = linktest.NewHall(t, r.broker.URL(), linktest.HallOpts{})
	start := time.Date(2026, 3, 7, 18, 0, 0, 0, time.UTC)
	clk := wallclocktest.New(start)
	o := testOpts()
	o.Clock = clk
	r.start(r.config(), o)
	r.online()
	stamp := func() (time.Time, bool) {
		m, ok := r.hall.Last(r.topics.State)
		var sm protocol.StateMsg
		if !ok || json.Unmarshal(m.Payload, &sm) != nil {
			return time.Time{}, false
		}
		return time.UnixMilli(sm.Time).UTC(), true
	}
	wait.For(t, 10*time.Second, "the first state", func() bool { _, ok := stamp(); return ok })
	if at, _ := stamp(); !at.Equal(start) {
		t.Fatalf("the first state is stamped %v, want the link's clock's %v", at, start)
	}
	// A second of the link's clock at a time, until a state comes
	// stamped StateEvery or more after the first.
	wait.Until(t, 10*time.Second, func() string {
		if at, _ := stamp(); !at.Before(start.Add(o.StateEvery)) {
			return ""
		}
		clk.Advance(time.Second)
		return fmt.Sprintf("no state stamped %v or later; the link's clock is at %v", start.Add(o.StateEvery), clk.Now())
	})
	if at, _ := stamp(); at.After(clk.Now()) {
		t.Errorf("the state is stamped %v, after the link's clock's now %v", at, clk.Now())
	}
}
