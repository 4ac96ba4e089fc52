package link_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/link/linktest"
	"github.com/zeitnot/zeitnot/internal/wait"
	"github.com/zeitnot/zeitnot/protocol"
)

// TestResendSendsLinesAgain: the hall's resend command makes the link
// publish a game's lines again from the line asked for: of the game it is
// on, and of an earlier one, after which it goes back to where it was and
// sends the current game's lines once. A game the clock does not have is
// refused, and nothing is sent.
func TestResendSendsLinesAgain(t *testing.T) {
	r := newRig(t, linktest.BrokerOpts{})
	r.hall = linktest.NewHall(t, r.broker.URL(), linktest.HallOpts{})
	o := testOpts()
	o.CommandBurst = 100
	r.start(r.config(), o)
	r.online()
	r.press(0, "black")
	r.press(3000, "white")
	r.press(2000, "black")
	first := r.clock.Game()
	n := len(r.clock.Lines(first))
	r.checkLog(first)

	count := func(game string, seq int64) int {
		c := 0
		for _, m := range logMsgs(t, r.hall, r.topics.Log) {
			if m.Game == game && m.Seq == seq {
				c++
			}
		}
		return c
	}
	resend := func(game string, from int64) protocol.Reply {
		t.Helper()
		rep, _ := r.send(r.topics.Cmd, string(protocol.ResendArg{Game: game, From: from}.Payload("rs")), nil)
		return rep
	}

	// The game it is on, from line 2.
	if rep := resend(first, 2); !rep.OK || rep.Detail != fmt.Sprintf("game %s from line 2", first) {
		t.Fatalf("resend: %+v", rep)
	}
	r.waitLog(n + n - 1)
	for seq := int64(1); seq <= int64(n); seq++ {
		if want := map[bool]int{true: 1, false: 2}[seq == 1]; count(first, seq) != want {
			t.Errorf("line %d of %s sent %d times, want %d", seq, first, count(first, seq), want)
		}
	}

	// An earlier game, while the link is on the next one.
	if err := r.clock.NewGame("600"); err != nil {
		t.Fatal(err)
	}
	r.press(0, "black")
	second := r.clock.Game()
	wait.For(t, 15*time.Second, "the second game's lines acknowledged", func() bool {
		st := r.link.Status()
		return st.Game == second && st.Acked == int64(len(r.clock.Lines(second)))
	})
	before := len(logMsgs(t, r.hall, r.topics.Log))
	if rep := resend(first, 1); !rep.OK {
		t.Fatalf("resend of the earlier game: %+v", rep)
	}
	r.waitLog(before + n)
	r.press(4000, "white")
	m := len(r.clock.Lines(second))
	wait.For(t, 15*time.Second, "the second game's last line after the resend", func() bool { return count(second, int64(m)) == 1 })
	for seq := int64(1); seq <= int64(m); seq++ {
		if count(second, seq) != 1 {
			t.Errorf("line %d of %s sent %d times, want once", seq, second, count(second, seq))
		}
	}
	if count(first, 1) != 2 || count(first, int64(n)) != 3 {
		t.Errorf("the earlier game: line 1 sent %d times, line %d %d times; want 2 and 3", count(first, 1), n, count(first, int64(n)))
	}
	if !r.logs.has("back to game " + second) {
		t.Error("the link did not log its return to the current game")
	}

	// A game the clock does not have.
	before = len(logMsgs(t, r.hall, r.topics.Log))
	rep := resend("nope", 1)
	if rep.OK || !strings.Contains(rep.Error, "the clock refused: no game nope") {
		t.Errorf("resend of an unknown game: %+v", rep)
	}
	r.press(1000, "black")
	r.waitLog(before + 1)
	if got := logMsgs(t, r.hall, r.topics.Log)[before:]; len(got) != 1 || got[0].Game != second {
		t.Errorf("after the refused resend: %v, want the second game's next line only", got)
	}
}
