package fakeclock

import (
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
	"github.com/zeitnot/zeitnot/protocol"
)

// offline is a fake clock as Dial sets it up, without a broker: its
// commands are carried out, their replies and states queued.
func offline(t *testing.T) *Clock {
	t.Helper()
	pair, err := timecontrol.ParsePair("300+2")
	if err != nil {
		t.Fatal(err)
	}
	c := &Clock{o: Opts{Hall: "club", Board: 3, Game: "g3"}, start: time.Now(), ctl: "300+2", kick: make(chan struct{}, 1)}
	c.header = clocklog.Header{Controls: pair, Options: clock.DefaultOptions}
	if c.clk, err = clock.New(c.header.Controls, c.header.Options); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestStart: the fake clock answers start as the daemon does: White's
// clock starts, the journal says the hall started it, and a game that
// has started or ended is refused with the daemon's reason.
func TestStart(t *testing.T) {
	c := offline(t)
	start, err := protocol.ParseCommand([]byte(`{"cmd":"start"}`), protocol.ScopeAll)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.hallCommand(start); err != nil {
		t.Fatalf("start: %v", err)
	}
	if st := c.clk.State(c.now()); !st.Started || st.Running != clock.White {
		t.Errorf("after start: %+v", st)
	}
	lines := strings.Join(c.Lines(), "\n")
	if !strings.Contains(lines, "# hall: start: White's clock started") || !strings.Contains(lines, " start ") {
		t.Errorf("the journal:\n%s", lines)
	}
	if _, err := c.hallCommand(start); err == nil || err.Error() != "the game has already started" {
		t.Errorf("second start: %v", err)
	}
	c.Result(clocklog.Draw, clocklog.Arbiter)
	if _, err := c.hallCommand(start); err == nil || err.Error() != "the game has ended: a new game comes first" {
		t.Errorf("start after the result: %v", err)
	}
}
