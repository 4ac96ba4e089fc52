package hall

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/link/linktest"
	"github.com/zeitnot/zeitnot/devtools/fakeclock"
	"github.com/zeitnot/zeitnot/internal/wallclock/wallclocktest"
	"github.com/zeitnot/zeitnot/protocol"
)

// TestLostLinesAskedAgain: lines a broker acknowledged and delivered to no
// one (Mosquitto restarted without the hall's session) are asked for
// again with resend, and the hall's copy becomes the clock's journal: in
// the middle of a game (the next line shows the gap) and at its end (the
// next connection of the clock's link shows it). The hall's own resend
// commands are not the board's last reply on the arbiter's pages.
func TestLostLinesAskedAgain(t *testing.T) {
	for _, outside := range []bool{false, true} {
		name := map[bool]string{false: "embedded broker", true: "Mosquitto"}[outside]
		t.Run(name, func(t *testing.T) {
			var h *Hall
			var u *url.URL
			if outside {
				b := linktest.StartBroker(t, linktest.BrokerOpts{})
				h = startHall(t, func(c *Config) { c.Broker = b.URL(); c.BrokerWithoutACL = true })
				u, _ = url.Parse(b.URL())
			} else {
				h = startHall(t, nil)
				u = brokerURL(h)
			}
			c := dialClock(t, u, 4, nil)
			clocks := map[int]*fakeclock.Clock{4: c}
			c.Press()
			c.Press()
			checkComplete(t, h, clocks)

			// Two lines lost in the middle: the third after them shows
			// the gap.
			// First the clock ends any resend the hall asked for at its
			// connection: a line sent again would be the one lost.
			waitIdle(t, c)
			resent := c.Resent()
			c.Lose(2)
			c.Press()
			c.Press()
			waitIdle(t, c)
			// The hall may have asked already: a reconnect of the clock's
			// connection, slow on a busy machine, publishes the online
			// message, and the hall asks for what it lacks. Then the lines
			// came by a resend, which is what this test is about.
			if lines, _ := h.Store().Lines(4, c.Game()); len(lines) == len(c.Lines()) && c.Resent() == resent {
				t.Fatal("the lines were not lost: the test tests nothing")
			}
			c.Press()
			checkComplete(t, h, clocks)
			if c.Resent() == 0 {
				t.Error("complete, but no resend was carried out")
			}

			// The last line lost: nothing comes after it until the link
			// connects again. (First the clock ends sending again what the
			// hall asked for: the hall may have had the lines already.)
			waitIdle(t, c)
			before := c.Resent()
			c.Lose(1)
			c.Press()
			waitIdle(t, c)
			if lines, waiting := h.Store().Lines(4, c.Game()); len(lines) != len(c.Lines())-1 || waiting != 0 {
				t.Fatalf("after the lost last line the hall has %d lines (%d waiting), the clock %d", len(lines), waiting, len(c.Lines()))
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if err := c.Online(ctx); err != nil {
				t.Fatal(err)
			}
			checkComplete(t, h, clocks)
			if c.Resent() == before {
				t.Error("complete, but no resend was carried out for the last line")
			}
			if b, _ := h.Store().Board(4); b.Reply != nil && b.Reply.Cmd == "resend" {
				t.Errorf("the board's last reply is the hall's resend: %+v", b.Reply)
			}
		})
	}
}

// TestRepeatAskedAtWindowEnd: the ask a link's online message makes (from
// the next line, nothing missing yet) must not hold back the ask of a gap
// that opens within resendEvery: no later line may come to ask it, so the
// repeat left out is asked at the end of the window, if the lines are
// still missing then.
func TestRepeatAskedAtWindowEnd(t *testing.T) {
	for _, tc := range []struct {
		name  string
		still bool
		want  int // asks queued in all
	}{
		{"still missing: asked again", true, 2},
		{"filled meanwhile: not asked", false, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk := wallclocktest.New(time.Unix(1772904600, 0))
			r := newResender("test", t.Logf, clk)
			r.still = func(board int, game string, from int64) bool {
				if board != 4 || game != "g1" || from != 7 {
					t.Errorf("still(%d, %q, %d): want board 4's g1 from 7", board, game, from)
				}
				return tc.still
			}
			r.ask(4, "g1", 7) // the link came online: the hall has lines 1 to 6
			clk.Advance(2 * time.Second)
			r.ask(4, "g1", 7) // lines 7 and 8 lost, 9 came: a repeat
			r.ask(4, "g1", 7) // and 10: deferred once only
			if wait, _ := clk.Next(); len(r.queue) != 1 || clk.Armed() != 1 || wait != resendEvery-2*time.Second {
				t.Fatalf("%d asks queued, %d deferred (after %v); want 1, 1 after %v", len(r.queue), clk.Armed(), wait, resendEvery-2*time.Second)
			}
			clk.Advance(resendEvery - 2*time.Second - time.Millisecond)
			if len(r.queue) != 1 {
				t.Fatalf("%d asks queued before the window's end, want 1", len(r.queue))
			}
			clk.Advance(time.Millisecond)
			if len(r.queue) != tc.want {
				t.Errorf("%d asks queued at the window's end, want %d", len(r.queue), tc.want)
			}
		})
	}
}

// TestResendAsksAreBounded: the hall asks a board for the same lines at
// most once every resendEvery, and a full queue drops asks rather than
// block the broker's delivery.
func TestResendAsksAreBounded(t *testing.T) {
	clk := wallclocktest.New(time.Unix(1772904600, 0))
	r := newResender("test", t.Logf, clk)
	r.ask(3, "g1", 5)
	r.ask(3, "g1", 5)
	r.ask(3, "g1", 6)
	r.ask(2, "g1", 5)
	if len(r.queue) != 3 {
		t.Fatalf("%d asks queued, want 3 (the repeat dropped)", len(r.queue))
	}
	clk.Advance(resendEvery)
	r.ask(3, "g1", 5)
	if len(r.queue) != 4 {
		t.Fatalf("%d asks queued after %v, want 4", len(r.queue), resendEvery)
	}
	for i := range 1000 {
		r.ask(1, "g2", int64(i+1)) // returns, queue full or not
	}
	if len(r.queue) != cap(r.queue) {
		t.Errorf("%d asks queued, want the queue full (%d)", len(r.queue), cap(r.queue))
	}
	var got []string
	r.run(func(topic string, payload []byte) error {
		if len(got) < 2 {
			got = append(got, topic+" "+string(payload))
		}
		if len(r.queue) == 0 {
			close(r.stop) // what close does; run returns after this
		}
		return nil
	})
	want := protocol.TopicsFor("test", 3).Cmd + ` {"id":"resend-5","cmd":"resend","game":"g1","from":5}`
	if len(got) == 0 || got[0] != want {
		t.Errorf("first published %q, want %q", strings.Join(got, " | "), want)
	}
}
