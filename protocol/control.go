package protocol

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
)

// The daemon's control socket, as far as other processes use it
// (docs/hall-protocol.md, "What the daemon serves the link"): one request
// line, COMMAND [ARG], one answer line, "error: TEXT" for a refusal. The
// arguments of the hall's commands are compact JSON, one object of the
// types below; the daemon decodes them with DecodeArg and checks them
// again with their Check.

// The control socket's requests, by name: the first word of the request
// line. The hall's commands (cmdSpecs) reach the daemon under their own
// names, as the link forwards them.
const (
	ReqStatus         = "status"          // the clock's state as JSON (ui.Status)
	ReqWatch          = "watch"           // the state, then the watch stream (WatchLine)
	ReqLog            = "log"             // LogInfo; "log GAME FROM": LogLines
	ReqPress          = "press"           // "press BUTTON": a simulated clock's button
	ReqHold           = "hold"            // "hold BUTTON": pressed and held
	ReqHang           = "hang"            // stops the event loop, for the watchdog test (test hooks only)
	ReqImport         = "import"          // "import PATH": the USB exporter's config file
	ReqUSBMessage     = "usb-message"     // "usb-message [TEXT]": the USB exporter's message
	ReqUpdateOffer    = "update-offer"    // UpdateOffer, from the stick's exporter or the link
	ReqUpdateReport   = "update-report"   // UpdateReport, from the installer
	ReqEBoardGame     = "eboard-game"     // the e-board process's first request (eboard.go)
	ReqEBoardMove     = "eboard-move"     // EBoardMoveArg
	ReqEBoardPosition = "eboard-position" // EBoardPositionArg
	ReqEBoardState    = "eboard-state"    // EBoardStateArg
)

// LogInfo is the answer to "log": the clock's current game and how many
// numbered lines its journal has on disk.
type LogInfo struct {
	Game  string `json:"game"`
	Lines int64  `json:"lines"`
}

// LogLines is the answer to "log GAME FROM": the lines of game GAME from
// number FROM on, at most MaxLogLines of them and MaxLogBytes of text.
type LogLines struct {
	Game    string   `json:"game"`
	From    int64    `json:"from"`
	Lines   []string `json:"lines"`
	More    bool     `json:"more"`    // the game has lines after these: ask again
	Current string   `json:"current"` // the clock's current game
}

// Check checks an answer to "log game from".
func (ll LogLines) Check(game string, from int64) error {
	switch {
	case ll.Game != game || ll.From != from:
		return fmt.Errorf("the answer is for game %q from %d", short(ll.Game), ll.From)
	case len(ll.Lines) > MaxLogLines:
		return fmt.Errorf("%d lines, at most %d", len(ll.Lines), MaxLogLines)
	}
	if err := CheckGame(ll.Current); err != nil {
		return err
	}
	for _, l := range ll.Lines {
		if strings.ContainsAny(l, "\n\r") {
			return errors.New("a line with a line break")
		}
	}
	return nil
}

// Event is one line of the "watch" stream other than a state: something
// that happened to the game, at a clock-log instant. An event that wrote
// a journal line carries it, with its number in the game (Seq, 0 while the
// journal holds lines in memory, as after a full disk) and the game's id;
// Before are the numbered lines written since the previous event that
// carried one (checkpoints), numbered Seq-len(Before) to Seq-1. A line
// seen here is on disk: the link publishes the log from the stream, and
// asks "log GAME FROM" only for what the stream did not give it.
//
// A "pressed" event also carries the press's number in the game (Press:
// 1 for the first press that completed a move, as the journal's move
// lines count them) and the instant of the lever's first edge on
// CLOCK_MONOTONIC in nanoseconds (MonoNs), the clock the kernel stamps
// GPIO events with and drivers/monotonic reads: a process on the same
// machine (the e-board process) puts the press on its own time base
// with monotonic.FromKernel, exactly, without measuring an offset. At is
// the clock log's instant, which a recovered game shifts.
type Event struct {
	Event  string   `json:"event"`
	At     int64    `json:"at"`
	Side   string   `json:"side,omitempty"`
	Line   string   `json:"line,omitempty"`
	Seq    int64    `json:"seq,omitempty"`
	Game   string   `json:"game,omitempty"`
	Before []string `json:"before,omitempty"`
	Text   string   `json:"text,omitempty"`
	Press  int      `json:"press,omitempty"`
	MonoNs int64    `json:"mono_ns,omitempty"`
}

// The watch stream's event names (Event.Event), as the daemon writes them
// and the link, the e-board process and the hall read them.
const (
	EventStarted         = "started"          // the first clock was started
	EventPressed         = "pressed"          // a player completed a move
	EventPaused          = "paused"           // the running clock was stopped
	EventResumed         = "resumed"          // play went on after a pause
	EventCorrected       = "corrected"        // an arbiter's correction
	EventFlagged         = "flagged"          // the game's first flag fell
	EventLowTime         = "low-time"         // a side's time fell below the low-time threshold
	EventRecovered       = "recovered"        // the game came back from its journal
	EventNewGame         = "new-game"         // a new game was set up
	EventSettingsChanged = "settings-changed" // the device's settings changed
	EventStorage         = "storage"          // the journal could not be written, or writes again
	EventDefault         = "default"          // a side has not moved by the default time (FIDE 6.6)
	EventHall            = "hall"             // a command of the hall was carried out
	EventResult          = "result"           // the game's result was entered
	EventMove            = "move"             // the e-board's move of a press was journaled
	EventPosition        = "position"         // the e-board's position after a press was journaled
	EventBoard           = "board"            // the e-board's state changed
)

// EventNames are the watch stream's event names, each once.
var EventNames = []string{EventStarted, EventPressed, EventPaused, EventResumed, EventCorrected, EventFlagged,
	EventLowTime, EventRecovered, EventNewGame, EventSettingsChanged, EventStorage, EventDefault, EventHall,
	EventResult, EventMove, EventPosition, EventBoard}

// MaxBefore is the most lines an Event carries in Before; older ones are
// left to "log GAME FROM".
const MaxBefore = 64

// WatchLine is one line of the "watch" stream: an event, or the state.
type WatchLine struct {
	Event
	State json.RawMessage `json:"state,omitempty"`
}

// NextGameArg is the argument of next-game.
type NextGameArg struct {
	Control string            `json:"control"`           // a preset key or a notation
	Options map[string]string `json:"options,omitempty"` // clock options by name
}

// Check checks what the daemon can of a next-game without its presets:
// a control is given and not too long, the options are options.
func (a NextGameArg) Check() error {
	if a.Control == "" {
		return errors.New("missing field control")
	}
	if len(a.Control) > MaxControl {
		return fmt.Errorf("control longer than %d bytes", MaxControl)
	}
	var opt clock.Options
	for k, v := range a.Options {
		if err := opt.Set(k, v); err != nil {
			return fmt.Errorf("options: %v", err)
		}
	}
	return nil
}

// MaxDefault is the longest default time of a round (FIDE 6.6), in
// milliseconds.
const MaxDefault = 24 * 3600 * 1000

// RoundArg is the argument of round.
type RoundArg struct {
	StartMs   *int64 `json:"start_ms"`   // the scheduled start, Unix milliseconds; 0: none
	DefaultMs int64  `json:"default_ms"` // the default time (FIDE 6.6), milliseconds
}

// Check checks a round's fields.
func (a RoundArg) Check() error {
	if a.StartMs == nil {
		return errors.New("missing field start_ms")
	}
	if *a.StartMs < 0 || a.DefaultMs < 0 || a.DefaultMs > MaxDefault {
		return fmt.Errorf("start_ms %d, default_ms %d out of range", *a.StartMs, a.DefaultMs)
	}
	return nil
}

// ResultArg is the argument of result: the game's result, entered by the
// arbiter in the hall: 1-0, 1/2-1/2, 0-1, or * to take it back.
type ResultArg struct {
	Result string `json:"result"`
}

// Check checks the result.
func (a *ResultArg) Check() error {
	switch a.Result {
	case "1-0", "1/2-1/2", "0-1", "*":
		return nil
	}
	return fmt.Errorf("result %q: want 1-0, 1/2-1/2, 0-1 or *", short(a.Result))
}

// PlayersArg is the argument of players: a side left out keeps its name,
// "" clears it. With Round and Board (both, or neither) it is a round's
// pairing: the clock opens a new game for it, unless its game still runs.
type PlayersArg struct {
	White *string `json:"white,omitempty"`
	Black *string `json:"black,omitempty"`
	Round int     `json:"round,omitempty"`
	Board int     `json:"board,omitempty"`
}

// Check trims the names and checks them.
func (a *PlayersArg) Check() error {
	if a.White == nil && a.Black == nil {
		return errors.New("give white, black or both")
	}
	if (a.Round == 0) != (a.Board == 0) {
		return errors.New("a pairing gives round and board, both")
	}
	if a.Round < 0 || a.Round > MaxRound {
		return fmt.Errorf("round %d: want 1 to %d", a.Round, MaxRound)
	}
	if a.Board != 0 {
		if err := CheckBoard(a.Board); err != nil {
			return err
		}
	}
	for _, p := range []*string{a.White, a.Black} {
		if p == nil {
			continue
		}
		*p = strings.TrimSpace(*p)
		if err := CheckName(*p); err != nil {
			return err
		}
	}
	return nil
}

// TakeoverArg is the argument of takeover: the game of another board, as
// its last state showed it, for this clock to carry on (FIDE 6.10: a
// defective clock is replaced and the arbiter decides the times; the clock
// comes up paused so the arbiter confirms or corrects them before
// resuming).
type TakeoverArg struct {
	Board   int                 `json:"board"`          // the board the game comes from
	Game    string              `json:"game,omitempty"` // its game id, if its state named one
	Control string              `json:"control"`        // the time control, as the source's status gives it
	Options map[string]string   `json:"options,omitempty"`
	ToMove  string              `json:"to_move"` // who runs on resume
	White   *clocklog.SideClock `json:"white"`
	Black   *clocklog.SideClock `json:"black"`
	At      int64               `json:"at"` // Unix ms of the source state
	// Running is the side whose clock ran when the source state held
	// ("white" or "black"), left out when none did: the spare settles
	// that side's time to the takeover's instant from At.
	Running string `json:"running,omitempty"`
}

// Check checks a takeover's fields and returns its controls and options.
func (a TakeoverArg) Check() (timecontrol.Pair, clock.Options, error) {
	opt := clock.DefaultOptions
	if err := CheckBoard(a.Board); err != nil {
		return timecontrol.Pair{}, opt, err
	}
	if a.Game != "" {
		if err := CheckGame(a.Game); err != nil {
			return timecontrol.Pair{}, opt, err
		}
	}
	pair, err := timecontrol.ParsePair(a.Control)
	if err != nil {
		return pair, opt, fmt.Errorf("control %q: %v", short(a.Control), err)
	}
	for k, v := range a.Options {
		if err := opt.Set(k, v); err != nil {
			return pair, opt, fmt.Errorf("options: %v", err)
		}
	}
	if a.ToMove != "white" && a.ToMove != "black" {
		return pair, opt, fmt.Errorf("to_move %q: want white or black", short(a.ToMove))
	}
	if a.Running != "" && a.Running != a.ToMove {
		return pair, opt, fmt.Errorf("running %q: want the side to move, %s, or none given", short(a.Running), a.ToMove)
	}
	for i, s := range []*clocklog.SideClock{a.White, a.Black} {
		name := [2]string{"white", "black"}[i]
		if s == nil {
			return pair, opt, fmt.Errorf("missing field %s", name)
		}
		if s.Ms < 0 || s.Ms > clock.MaxTime || s.Moves < 0 || s.Moves > 9999 || s.Period < 1 || s.Period > 9999 {
			return pair, opt, fmt.Errorf("%s: ms %d, moves %d, period %d out of range", name, s.Ms, s.Moves, s.Period)
		}
	}
	return pair, opt, nil
}

// DecodeArg reads a control request's argument as the daemon must: one
// JSON object of v's fields and nothing after it; an unknown field is
// refused. cmd names the request in the error.
func DecodeArg(cmd, arg string, v any) error {
	if !strings.HasPrefix(arg, "{") {
		return fmt.Errorf("%s needs a JSON object, got %q", cmd, short(arg))
	}
	dec := json.NewDecoder(strings.NewReader(arg))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%s: %v", cmd, strings.TrimPrefix(err.Error(), "json: "))
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("%s: more after the JSON object", cmd)
	}
	return nil
}

// Compact is v as compact JSON, for a request's argument.
func Compact(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // the argument types marshal
	}
	return string(b)
}

// The USB exporter's requests (appliance/usb): "usb-message TEXT" puts TEXT
// on the displays ("usb-message" alone takes it away), "import PATH"
// imports a config file from the stick, answered ImportChanged or
// ImportUnchanged (or "error: refused: PROBLEM").
const (
	// MaxUSBMessage is the longest usb-message text, in bytes.
	MaxUSBMessage   = 120
	ImportChanged   = "imported"
	ImportUnchanged = "unchanged"
)

// CheckUSBMessage checks a usb-message text: printable ASCII, at most
// MaxUSBMessage bytes.
func CheckUSBMessage(text string) error {
	if strings.ContainsFunc(text, func(r rune) bool { return r < 0x20 || r > 0x7e }) {
		return errors.New("printable ASCII only")
	}
	if len(text) > MaxUSBMessage {
		return fmt.Errorf("at most %d bytes", MaxUSBMessage)
	}
	return nil
}
