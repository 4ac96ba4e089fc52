package clocklog

import (
	"fmt"
	"strconv"

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
	SetIncrement
	GameResult
	BoardMove
	BoardPosition
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
	SetIncrement:  "increment",
	GameResult:    "result",
	BoardMove:     "move",
	BoardPosition: "position",
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
	case SetTime, AddTime, SetMoves, SetPeriod, SetIncrement:
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
	Side  clock.Side // for verbs that name a side, and a checkpoint's running side; NoSide otherwise, and for an increment both sides
	Value int64      // the number of set, add, moves, period and increment
	// Result and By are a result line's: the result entered and who
	// entered it.
	Result Result
	By     Entrant
	// Board is a move or position line's (an electronic board's): Value
	// is the number of the press it belongs to.
	Board BoardText
}

// BoardText is what a move or a position line says of the board: the
// move's SAN and UCI, or the position's FEN. The clock log checks their
// form, not the chess rules: the rules are the e-board helper's, and the
// engine knows no chess (appliance/eboard/moves).
type BoardText struct {
	SAN, UCI string // a move line's
	FEN      string // a position line's
}

// Result is a game's result as a result line writes it.
type Result uint8

// The results a result line can hold. NoResult is "*": a result taken
// back (the arbiter's), or none yet.
const (
	NoResult Result = iota
	WhiteWins
	Draw
	BlackWins
)

var resultNames = [...]string{NoResult: "*", WhiteWins: "1-0", Draw: "1/2-1/2", BlackWins: "0-1"}

// String is the result as PGN and the journal write it: "1-0", "1/2-1/2",
// "0-1" or "*".
func (r Result) String() string {
	if int(r) < len(resultNames) {
		return resultNames[r]
	}
	return fmt.Sprintf("Result(%d)", r)
}

// ParseResult reads "1-0", "1/2-1/2" (or "½-½"), "0-1" or "*".
func ParseResult(s string) (Result, error) {
	if s == "½-½" {
		return Draw, nil
	}
	for i, n := range resultNames {
		if n == s {
			return Result(i), nil
		}
	}
	return 0, fmt.Errorf("result %q: want 1-0, 1/2-1/2, 0-1 or *", s)
}

// Entrant is who entered a result: both players, each with their own
// lever (a signed scoresheet), or the arbiter.
type Entrant uint8

const (
	Players Entrant = iota + 1
	Arbiter
)

// String is how a result line names the entrant: "players" or "arbiter".
func (b Entrant) String() string {
	switch b {
	case Players:
		return "players"
	case Arbiter:
		return "arbiter"
	}
	return fmt.Sprintf("Entrant(%d)", b)
}

// parseResultArgs reads a result line's arguments, "RESULT players|arbiter",
// into e. It returns what is wrong with them, or "".
func parseResultArgs(e *Event, args []string) string {
	if len(args) != 2 {
		return fmt.Sprintf("result takes 2 argument(s), got %d: want 'result 1-0|1/2-1/2|0-1|* players|arbiter'", len(args))
	}
	r, err := ParseResult(args[0])
	if err != nil || args[0] == "½-½" {
		return fmt.Sprintf("result: want 1-0, 1/2-1/2, 0-1 or *, got %q", args[0])
	}
	switch args[1] {
	case "players":
		e.By = Players
	case "arbiter":
		e.By = Arbiter
	default:
		return fmt.Sprintf("result %s: want players or arbiter, got %q", args[0], args[1])
	}
	if r == NoResult && e.By != Arbiter {
		return "result *: only the arbiter takes a result back"
	}
	e.Result = r
	return ""
}

// ResultOf is the game's result as the last result line of l says, and who
// entered it; NoResult and 0 if it has none.
func ResultOf(l *Log) (Result, Entrant) {
	for i := len(l.Events) - 1; i >= 0; i-- {
		if e := l.Events[i]; e.Verb == GameResult {
			return e.Result, e.By
		}
	}
	return NoResult, 0
}

// sideWord is how e's line names its side: an increment for both sides
// says "both".
func sideWord(e Event) string {
	if e.Verb == SetIncrement && e.Side == clock.NoSide {
		return "both"
	}
	return e.Side.String()
}

// parseIncrement reads the arguments of an increment, "white|black|both
// MS", into e. It returns what is wrong with them, or "".
func parseIncrement(e *Event, args []string) string {
	if len(args) != 2 {
		return fmt.Sprintf("%s takes 2 argument(s), got %d", SetIncrement, len(args))
	}
	switch args[0] {
	case "both":
		e.Side = clock.NoSide
	default:
		side, err := clock.ParseSide(args[0])
		if err != nil {
			return fmt.Sprintf("%s: want white, black or both, got %q", SetIncrement, args[0])
		}
		e.Side = side
	}
	s := args[1]
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 || v > timecontrol.MaxExtra*1000 || s[0] == '+' {
		return fmt.Sprintf("%s %s: bad number %q, want milliseconds from 0 to %d", SetIncrement, args[0], s, timecontrol.MaxExtra*1000)
	}
	e.Value = v
	return ""
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
	case Show, GameResult, BoardMove, BoardPosition:
		// A result changes no clock: the result is the arbiter's record;
		// nor does what the board shows.
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
	case SetIncrement:
		if e.Side != clock.NoSide {
			err = c.SetIncrement(e.At, e.Side, e.Value)
			break
		}
		// Both sides, or neither if one refuses.
		both := *c
		if err = both.SetIncrement(e.At, clock.White, e.Value); err == nil {
			err = both.SetIncrement(e.At, clock.Black, e.Value)
		}
		if err == nil {
			*c = both
		} else {
			c.Advance(e.At)
		}
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
