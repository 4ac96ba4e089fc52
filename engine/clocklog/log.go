package clocklog

import (
	"fmt"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
)

// Verb is what an event does.
type Verb uint8

const (
	Start Verb = iota + 1
	Press
	Pause
	Resume
	Show
	Checkpoint
	SetTime
	AddTime
	SetMoves
	SetPeriod
	SetTurn
	ClearOverstep
)

var verbNames = [...]string{
	Start:         "start",
	Press:         "press",
	Pause:         "pause",
	Resume:        "resume",
	Show:          "show",
	Checkpoint:    "checkpoint",
	SetTime:       "set",
	AddTime:       "add",
	SetMoves:      "moves",
	SetPeriod:     "period",
	SetTurn:       "turn",
	ClearOverstep: "clear-overstep",
}

func (v Verb) String() string {
	if v > 0 && int(v) < len(verbNames) {
		return verbNames[v]
	}
	return fmt.Sprintf("Verb(%d)", v)
}

// args is how many arguments a verb takes: 0, 1 (a side) or 2 (a side and a
// number). A checkpoint takes an optional side and the restated header,
// which are read apart.
func (v Verb) args() int {
	switch v {
	case Press, SetTurn, ClearOverstep:
		return 1
	case SetTime, AddTime, SetMoves, SetPeriod:
		return 2
	}
	return 0
}

func parseVerb(s string) (Verb, bool) {
	for i, n := range verbNames {
		if n == s && i > 0 {
			return Verb(i), true
		}
	}
	return 0, false
}

// Event is one event line.
type Event struct {
	At    int64
	Verb  Verb
	Side  clock.Side // for verbs that name a side, and a checkpoint's running side; NoSide otherwise
	Value int64      // the number of set, add, moves and period
}

// Apply applies e to c. It reports whether e changed the clock, and an error
// for a correction the clock refused (e.g. while running) or for a
// checkpoint naming a side whose clock does not run.
func Apply(c *clock.Clock, e Event) (bool, error) {
	switch e.Verb {
	case Start:
		return c.Start(e.At), nil
	case Press:
		return c.Press(e.At, e.Side), nil
	case Pause:
		return c.Pause(e.At), nil
	case Resume:
		return c.Resume(e.At), nil
	case Show:
		c.Advance(e.At)
		return false, nil
	case Checkpoint:
		c.Advance(e.At)
		if e.Side == clock.White || e.Side == clock.Black {
			if run := c.State(e.At).Running; run != e.Side {
				return false, fmt.Errorf("clocklog: the checkpoint says %s's clock runs, but the clock runs for %s", e.Side, run)
			}
		}
		return false, nil
	}
	var err error
	switch e.Verb {
	case SetTime:
		err = c.SetTime(e.At, e.Side, e.Value)
	case AddTime:
		err = c.AddTime(e.At, e.Side, e.Value)
	case SetMoves:
		err = c.SetMoves(e.At, e.Side, int(e.Value))
	case SetPeriod:
		err = c.SetPeriod(e.At, e.Side, int(e.Value))
	case SetTurn:
		err = c.SetTurn(e.At, e.Side)
	case ClearOverstep:
		err = c.ClearOverstep(e.At, e.Side)
	default:
		return false, fmt.Errorf("clocklog: unknown verb %d", e.Verb)
	}
	return err == nil, err
}

// String is the event's log line without its checksum and newline.
func (e Event) String() string {
	return string(appendEventText(nil, e))
}

// Header is what a log says before its events.
type Header struct {
	Format   int
	Controls timecontrol.Pair
	Options  clock.Options
}

// Log is a parsed clock log.
type Log struct {
	Header
	Events []Event
	Lines  []int // Lines[i] is the line number of Events[i]
}

// NewClock returns a clock set up as the log's header says.
func (l *Log) NewClock() (*clock.Clock, error) {
	return clock.New(l.Controls, l.Options)
}

// Error is a problem on one line of a log.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }
