package clocklogtest

import (
	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
)

// LongJournal is the journal of a clock left running for days, at least
// size bytes of lines, as the clock's journal writes it: the header of
// 40/5400+30:1800+30, the start, then a checkpoint a second naming the
// running side and restating the header, a press every 20 seconds, and
// zeros after the lines (the journal's preallocated end). presses is the
// number of presses in it: the moves a recovery must find.
func LongJournal(size int) (data []byte, presses int) {
	pair, _ := timecontrol.ParsePair("40/5400+30:1800+30")
	h := clocklog.Header{Format: clocklog.Format, Controls: pair, Options: clock.DefaultOptions}
	data = clocklog.AppendHeader(nil, h)
	data = clocklog.AppendEvent(data, clocklog.Event{At: 0, Verb: clocklog.Start, Side: clock.NoSide})
	for i := 1; len(data) < size; i++ {
		side := []clock.Side{clock.White, clock.Black}[presses%2]
		if i%20 == 0 {
			data = clocklog.AppendEvent(data, clocklog.Event{At: int64(i) * 1000, Verb: clocklog.Press, Side: side})
			presses++
		} else {
			data = clocklog.AppendCheckpoint(data, int64(i)*1000, side, h)
		}
	}
	return append(data, make([]byte, 60000)...), presses
}
