package journal_test

import (
	"fmt"
	"os"

	"github.com/zeitnot/zeitnot/appliance/journal"
	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
)

// A game journaled, the process killed, the game recovered.
func Example() {
	dir, _ := os.MkdirTemp("", "state")
	defer os.RemoveAll(dir)

	j, r, err := journal.Open(dir, nil) // a fresh state directory: no game
	if err != nil || r.Clock != nil {
		fmt.Println(err)
		return
	}
	pair, _ := timecontrol.ParsePair("300+2")
	if err := j.Start(clocklog.Header{Format: clocklog.Format, Controls: pair, Options: clock.DefaultOptions}, false); err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range []clocklog.Event{
		{At: 0, Verb: clocklog.Start, Side: clock.NoSide},
		{At: 4000, Verb: clocklog.Press, Side: clock.White},
		{At: 9000, Verb: clocklog.Checkpoint, Side: clock.NoSide},
	} {
		if _, err := j.Append(e); err != nil {
			// Held in memory (err says how many lines): the next
			// Append or Retry writes it.
			fmt.Println(err)
		}
	}

	// The process dies here; the next one opens the same directory.
	_, r, err = journal.Open(dir, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	st := r.Clock.State(r.Last)
	fmt.Printf("%d events up to %d ms, paused %v, dropped %d\n", r.Events, r.Last, r.Paused, len(r.Dropped))
	fmt.Printf("white %d ms, black %d ms, %d move\n", st.Player[clock.White].Ms, st.Player[clock.Black].Ms, st.Player[clock.White].Moves)
	// Output:
	// 3 events up to 9000 ms, paused true, dropped 0
	// white 300000 ms, black 297000 ms, 1 move
}
