package session

import (
	"encoding/json"
	"time"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/protocol"
)

// Kind says what happened to the game.
type Kind uint8

// The kinds of event a session emits.
const (
	Started         Kind = iota + 1 // the first clock was started
	Pressed                         // a player completed a move (Side pressed)
	Paused                          // the running clock was stopped
	Resumed                         // play went on after a pause
	Corrected                       // an arbiter's correction (Line says which)
	Flagged                         // Side's flag fell; the first flag of the game
	LowTime                         // Side's time fell below the low-time threshold
	Recovered                       // the game came back from its journal
	NewGame                         // a new game was set up (Text names its control)
	SettingsChanged                 // the device's settings changed (emitted by the user interface)
	Storage                         // the journal could not be written (Text says why), or writes again (Text "")
	Default                         // Side has not completed a move when the round's default time passed (FIDE 6.6)
	Hall                            // a command from the hall was carried out (Text says which); the state changed
	Resulted                        // the game's result was entered (Line says which and by whom)
	BoardMoved                      // the e-board's move of press Press was journaled (board.go)
	BoardSet                        // the e-board's position after press Press was journaled
	BoardChanged                    // the e-board's state changed (Text says which; emitted by the daemon)
)

var kindNames = [...]string{
	Started: protocol.EventStarted, Pressed: protocol.EventPressed, Paused: protocol.EventPaused, Resumed: protocol.EventResumed,
	Corrected: protocol.EventCorrected, Flagged: protocol.EventFlagged, LowTime: protocol.EventLowTime, Recovered: protocol.EventRecovered,
	NewGame: protocol.EventNewGame, SettingsChanged: protocol.EventSettingsChanged, Storage: protocol.EventStorage,
	Default: protocol.EventDefault, Hall: protocol.EventHall, Resulted: protocol.EventResult,
	BoardMoved: protocol.EventMove, BoardSet: protocol.EventPosition, BoardChanged: protocol.EventBoard,
}

func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "unknown"
}

// MarshalText names the kind as in `zeitnot watch`.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Event is one thing that happened to the game, at a clock-log instant.
type Event struct {
	Kind Kind
	At   int64      // the clock log's milliseconds
	Side clock.Side // who, where it concerns one side; NoSide otherwise
	Line string     // the journal line written for it, if any
	Text string     // more detail, for people
	// Seq is Line's number in the game (docs/hall-protocol.md, "Line
	// numbers"), 0 when the session does not know it (the journal holds
	// lines in memory); Game is the game's id. Before are the numbered
	// lines written since the last event that carried one (checkpoints),
	// numbered Seq-len(Before) to Seq-1, at most protocol.MaxBefore.
	Seq    int64
	Game   string
	Before []string
	// Press is the number of the press a Pressed, BoardMoved or BoardSet
	// event concerns (board.go); Mono is a Pressed event's monotonic
	// instant, the lever's first edge, on the caller's time base.
	Press int
	Mono  time.Duration
}

// MarshalJSON writes the event as one JSON object:
// {"event":"pressed","at":12400,"side":"white","line":"12400 press white"}.
// Mono is not written: the daemon, which knows the time base, gives it
// with Protocol.
func (e Event) MarshalJSON() ([]byte, error) { return json.Marshal(e.Protocol()) }

// Protocol is the event as the watch stream writes it, without MonoNs.
func (e Event) Protocol() protocol.Event {
	j := protocol.Event{Event: e.Kind.String(), At: e.At, Line: e.Line, Text: e.Text, Seq: e.Seq, Game: e.Game, Before: e.Before, Press: e.Press}
	if e.Side != clock.NoSide {
		j.Side = e.Side.String()
	}
	return j
}
