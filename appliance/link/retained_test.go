package link_test

import (
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/link/linktest"
)

// A command published with retain while the link is connected is refused:
// the broker would hand it to every later subscriber.
func TestRetainedCommandRefusedLive(t *testing.T) {
	r := newRig(t, linktest.BrokerOpts{})
	r.hall = linktest.NewHall(t, r.broker.URL(), linktest.HallOpts{})
	r.start(r.config(), testOpts())
	r.online()
	for _, topic := range []string{r.topics.Cmd, "zeitnot/v1/club/all/cmd"} {
		n := len(r.hall.Messages(r.topics.Reply))
		if err := r.hall.Publish(topic, []byte(`{"id":"r1","cmd":"pause"}`), true, nil); err != nil {
			t.Fatal(err)
		}
		r.hall.Wait(10*time.Second, "the reply to a retained pause", func(h *linktest.Hall) bool {
			return len(h.Messages(r.topics.Reply)) > n
		})
		rep := replies(t, r.hall, r.topics.Reply)[n]
		if rep.OK || rep.ID != "r1" || !strings.Contains(rep.Error, "a retained command is never carried out") {
			t.Errorf("%s: reply %+v", topic, rep)
		}
		// Clear it, as the protocol asks of whoever sent it: the link
		// answers nothing to that.
		if err := r.hall.Publish(topic, nil, true, nil); err != nil {
			t.Fatal(err)
		}
	}
	// The next command's reply is the next reply.
	rep, _ := r.send(r.topics.Cmd, `{"id":"after","cmd":"players","white":"A"}`, nil)
	if rs := replies(t, r.hall, r.topics.Reply); rep.ID != "after" || len(rs) != 3 {
		t.Errorf("replies %+v: want the two refusals and the one to %q, none to the clearing", rs, "after")
	}
	for _, q := range r.clock.Requests() {
		if strings.Contains(q, "pause") {
			t.Errorf("the daemon got %s from a retained command", q)
		}
	}
}
