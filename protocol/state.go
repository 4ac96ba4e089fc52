package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/engine/fen"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
)

// Side is one side of a clock state (clocklog's JSON form).
type Side = clocklog.PlayerJSON

// LEDs is what a clock's LEDs show, by lever: lit beside the clock that
// runs.
type LEDs struct {
	Left  bool `json:"left"`
	Right bool `json:"right"`
}

// Battery is a clock's battery as its gauge last read it.
type Battery struct {
	Percent float64  `json:"percent"`        // estimated state of charge, 0 to 100
	Volts   float64  `json:"volts"`          // the battery's (pack's) voltage
	Amps    *float64 `json:"amps,omitempty"` // the gauge's current, as the chip signs it; nil if it measures none
	Low     bool     `json:"low"`            // at or below the clock's low level (cleared 5 points above it)
	// Error is why the last read failed; the values are then the last
	// good ones.
	Error string `json:"error,omitempty"`
}

// Status is the daemon's status JSON: what `zeitnot status` prints, each
// "state" line of `zeitnot watch`, and the state of the hall's state
// topic.
type Status struct {
	clocklog.StateJSON
	Recovered bool     `json:"recovered"`
	Dropped   int      `json:"dropped,omitempty"` // journal lines the recovery could not use
	Screen    string   `json:"screen"`
	Control   string   `json:"control"`
	Left      string   `json:"left"`
	Locked    bool     `json:"locked"`
	Warning   string   `json:"warning,omitempty"`
	Messages  []string `json:"messages,omitempty"`

	// For the hall (docs/hall-protocol.md, "The status JSON, for the
	// hall"): the game's id, its options, the players' names, the round
	// and what the clock makes of it, and the source of the time of day.
	Game       string            `json:"game,omitempty"`
	Options    map[string]string `json:"options,omitempty"`
	Players    *Players          `json:"players,omitempty"`
	Round      *RoundStatus      `json:"round,omitempty"`
	Pairing    *Pairing          `json:"pairing,omitempty"`    // the round and board the current game was opened for
	Default    []string          `json:"default,omitempty"`    // the sides marked DEFAULT (FIDE 6.6)
	TakenOver  bool              `json:"taken_over,omitempty"` // a game taken over from another board, until resumed
	PausedBy   string            `json:"paused_by,omitempty"`  // while paused: "hall" for the hall's pause (the hall may resume it), "" otherwise
	TimeSource string            `json:"time_source"`          // ntp, rtc, arbiter, sim, host or none

	// Played is the control as played when an arbiter's increment
	// (FIDE Guidelines III.4) changed it, 300+5@31 (clock.Played); left
	// out otherwise. Control stays the game's own.
	Played string `json:"played,omitempty"`

	// Result is the game's result as the journal's last result line
	// says, 1-0, 1/2-1/2 or 0-1, and ResultBy who entered it, players
	// or arbiter; both left out while there is none.
	Result   string `json:"result,omitempty"`
	ResultBy string `json:"result_by,omitempty"`

	// Board is what an electronic board on the clock shows (FIDE 6.14),
	// left out when the clock has none: no e-board process has spoken
	// since the daemon started, or not yet of the current game.
	Board *BoardStatus `json:"board,omitempty"`

	// The clock's devices, where its hardware has them: what its LEDs
	// show, its battery as the gauge last read it, and whether the
	// power-loss input says the supply is lost (it runs on the battery).
	LEDs      *LEDs    `json:"leds,omitempty"`
	Battery   *Battery `json:"battery,omitempty"`
	PowerLost bool     `json:"power_lost,omitempty"`

	// Update is the running system's version and slot, and the update
	// under way (protocol/update.go); left out by a daemon that has none.
	Update *UpdateStatus `json:"update,omitempty"`
}

// BoardStatus is the e-board's part of the status: the position and the
// last move the clock knows, and whether the board can be believed. The
// moves themselves are the journal's move lines (clocklog.BoardOf), which
// the log topic carries.
type BoardStatus struct {
	// State is BoardOK, BoardIllegal, BoardMismatch or BoardLost.
	State string `json:"state"`
	// FEN is the position after press Ply, the last the board explained
	// (0: the start: the initial position, or the one set up).
	FEN string `json:"fen"`
	Ply int    `json:"ply"`
	// SAN and UCI are press Ply's move; left out at Ply 0.
	SAN string `json:"san,omitempty"`
	UCI string `json:"uci,omitempty"`
	// MissingFrom is the first press whose move the clock does not know
	// (the board was lost, or showed no legal move, at that press); the
	// hall marks the game's moves incomplete from there. 0: none missing.
	MissingFrom int `json:"missing_from,omitempty"`
}

// The states of a BoardStatus.
const (
	BoardOK       = "ok"       // the board's position is the game's
	BoardIllegal  = "illegal"  // no legal move explains the board's position: ILLEGAL? on the clock, for the arbiter (FIDE 7.5)
	BoardMismatch = "mismatch" // at the start, or while no clock runs, the board is not in the game's position
	BoardLost     = "lost"     // the board stopped answering or was unplugged
)

// Check checks a board status's form.
func (b *BoardStatus) Check() error {
	switch b.State {
	case BoardOK, BoardIllegal, BoardMismatch, BoardLost:
	default:
		return fmt.Errorf("board: state %q, want ok, illegal, mismatch or lost", short(b.State))
	}
	if err := fen.Check(b.FEN); err != nil {
		return fmt.Errorf("board: %v", err)
	}
	if b.Ply < 0 || b.Ply > clocklog.MaxPly || b.MissingFrom < 0 || b.MissingFrom > clocklog.MaxPly+1 {
		return fmt.Errorf("board: ply %d, missing_from %d out of range", b.Ply, b.MissingFrom)
	}
	if b.Ply == 0 && (b.SAN != "" || b.UCI != "") {
		return errors.New("board: a move at ply 0")
	}
	if b.Ply > 0 && (b.SAN != "" || b.UCI != "") && (!clocklog.IsSAN(b.SAN) || !clocklog.IsUCI(b.UCI)) {
		return fmt.Errorf("board: move %q %q is not SAN and UCI", short(b.SAN), short(b.UCI))
	}
	return nil
}

// Players are the players' names, "" for none.
type Players struct {
	White string `json:"white,omitempty"`
	Black string `json:"black,omitempty"`
}

// Pairing is the round and board a game was opened for (the players
// command with round and board).
type Pairing struct {
	Round int `json:"round"`
	Board int `json:"board"`
}

// RoundStatus is the round in the status.
type RoundStatus struct {
	StartMs   int64  `json:"start_ms"`
	DefaultMs int64  `json:"default_ms"`
	Game      string `json:"game,omitempty"`         // the game its start started
	StartsIn  *int64 `json:"starts_in_ms,omitempty"` // the countdown, while the game waits for the start
}

// stateKeys are the members every status has (clocklog.StateJSON's);
// sideKeys those of each side a viewer needs.
var (
	stateKeys = []string{"at", "running", "paused", "first_flag", "white", "black", "to_move", "started", "stopped"}
	sideKeys  = []string{"ms", "moves", "period", "mode"}
)

// ParseStatus reads a status JSON and checks its structure: one object
// with every member of the engine's state, white and black objects with
// their times, sides and modes the engine can have. Members it does not
// know are ignored, as version 1 allows.
func ParseStatus(raw []byte) (Status, error) {
	var s Status
	obj, err := members(raw)
	if err != nil {
		return s, fmt.Errorf("state: %v", err)
	}
	for _, k := range stateKeys {
		if _, ok := obj[k]; !ok {
			return s, fmt.Errorf("state: no %s", k)
		}
	}
	for _, side := range []string{"white", "black"} {
		so, err := members(obj[side])
		if err != nil {
			return s, fmt.Errorf("state: %s: %v", side, err)
		}
		for _, k := range sideKeys {
			if _, ok := so[k]; !ok {
				return s, fmt.Errorf("state: %s: no %s", side, k)
			}
		}
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return s, fmt.Errorf("state: %v", trimJSON(err))
	}
	for _, f := range []struct{ name, v string }{{"running", s.Running}, {"to_move", s.ToMove}, {"first_flag", s.FirstFlag}} {
		if f.v != "white" && f.v != "black" && f.v != "none" {
			return s, fmt.Errorf("state: %s %q, want white, black or none", f.name, short(f.v))
		}
	}
	for i, p := range []Side{s.White, s.Black} {
		name := [2]string{"white", "black"}[i]
		if _, err := timecontrol.ParseMode(p.Mode); err != nil {
			return s, fmt.Errorf("state: %s: mode %q is no mode", name, short(p.Mode))
		}
		if p.Ms < 0 || p.Ms > clock.MaxTime || p.DelayMs < 0 || p.DelayMs > clock.MaxTime || p.Moves < 0 || p.Period < 0 {
			return s, fmt.Errorf("state: %s: ms %d, delay_ms %d, moves %d, period %d out of range", name, p.Ms, p.DelayMs, p.Moves, p.Period)
		}
	}
	if s.Result != "" || s.ResultBy != "" {
		r, err := clocklog.ParseResult(s.Result)
		if err != nil || r == clocklog.NoResult || s.Result == "½-½" {
			return s, fmt.Errorf("state: result %q, want 1-0, 1/2-1/2 or 0-1", short(s.Result))
		}
		if s.ResultBy != "players" && s.ResultBy != "arbiter" {
			return s, fmt.Errorf("state: result_by %q, want players or arbiter", short(s.ResultBy))
		}
	}
	if s.Game != "" {
		if err := CheckGame(s.Game); err != nil {
			return s, fmt.Errorf("state: %v", err)
		}
	}
	if s.Board != nil {
		if err := s.Board.Check(); err != nil {
			return s, fmt.Errorf("state: %v", err)
		}
	}
	return s, nil
}

// members reads one JSON object's members, each kept raw. A member given
// twice is refused (a decoder would keep the last one silently).
func members(b []byte) (map[string]json.RawMessage, error) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '{' {
		return nil, errors.New("want a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil {
		return nil, trimJSON(err)
	}
	m := map[string]json.RawMessage{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, trimJSON(err)
		}
		k, _ := t.(string)
		if _, dup := m[k]; dup {
			return nil, fmt.Errorf("member %q given twice", short(k))
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, trimJSON(err)
		}
		m[k] = v
	}
	if _, err := dec.Token(); err != nil {
		return nil, trimJSON(err)
	}
	if dec.More() {
		return nil, errors.New("more after the JSON object")
	}
	return m, nil
}

// StateMsg is the payload of the retained state topic.
type StateMsg struct {
	Hall  string `json:"hall"`
	Board int    `json:"board"`
	Game  string `json:"game,omitempty"` // the game the state is of; "" when the clock does not say
	// Time is when the state held: Unix milliseconds on the board's clock.
	// A viewer runs the clock on from there (Status.Shown).
	Time int64 `json:"time"`
	// Raw is the daemon's status JSON as it came, passed on untouched
	// (with the daemon's own fields): the message's "state".
	Raw json.RawMessage `json:"state"`
	// State is Raw decoded: ParseStateMsg and NewStateMsg fill it in,
	// and so does decoding a StateMsg from JSON.
	State Status `json:"-"`
}

// NewStateMsg makes the state message of board in hall from the daemon's
// status JSON raw, which held at Unix ms t, checking it.
func NewStateMsg(hall string, board int, game string, t int64, raw []byte) (StateMsg, error) {
	st, err := ParseStatus(raw)
	if err != nil {
		return StateMsg{}, err
	}
	if game == "" {
		game = st.Game
	}
	return StateMsg{Hall: hall, Board: board, Game: game, Time: t, Raw: bytes.Clone(raw), State: st}, nil
}

// UnmarshalJSON decodes a state message and its status, as a store reads
// back what it kept; it checks nothing (ParseStateMsg does).
func (m *StateMsg) UnmarshalJSON(b []byte) error {
	type plain StateMsg
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*m = StateMsg(p)
	m.State = Status{}
	if len(m.Raw) > 0 && string(m.Raw) != "null" {
		return json.Unmarshal(m.Raw, &m.State)
	}
	return nil
}

// ParseStateMsg reads one state message and checks it: one JSON object
// with nothing after it, a hall name, a board number, a game id if it
// names one, and a status ParseStatus takes.
func ParseStateMsg(payload []byte) (StateMsg, error) {
	type plain StateMsg // the status is read below, with its checks
	var p plain
	if err := Strict(payload, &p); err != nil {
		return StateMsg{}, err
	}
	m := StateMsg(p)
	if err := CheckHall(m.Hall); err != nil {
		return m, fmt.Errorf("hall: %v", err)
	}
	if err := CheckBoard(m.Board); err != nil {
		return m, err
	}
	if m.Game != "" {
		if err := CheckGame(m.Game); err != nil {
			return m, err
		}
	}
	st, err := ParseStatus(m.Raw)
	if err != nil {
		return m, err
	}
	m.State = st
	return m, nil
}

// Shown returns the times a display shows elapsed milliseconds after the
// state held, when nothing happens in between (the next message says what
// did). Only the running side's clock moves:
//
//   - count-up: its time goes up by the elapsed time;
//   - otherwise a simple delay (delay_ms) is used up first, then its time
//     goes down, and stops at 0;
//   - hourglass: what it loses, the other side gains.
//
// At 0 the display waits for the next message: a new period, an overtime
// period or the flag. The link sends one as soon as that happens.
func (s Status) Shown(elapsed time.Duration) (white, black int64) {
	white, black = s.White.Ms, s.Black.Ms
	e := max(elapsed.Milliseconds(), 0)
	var run, other *int64
	var side Side
	switch s.Running {
	case "white":
		run, other, side = &white, &black, s.White
	case "black":
		run, other, side = &black, &white, s.Black
	default:
		return white, black
	}
	if side.Mode == timecontrol.CountUp.String() {
		*run += e
		return white, black
	}
	used := min(max(e-side.DelayMs, 0), *run)
	*run -= used
	if side.Mode == timecontrol.Hourglass.String() {
		*other += used
	}
	return white, black
}

// UntilZero is how long after the state the running side's display
// reaches 0 (the delay included), or false if nothing runs down.
func (s Status) UntilZero() (time.Duration, bool) {
	var side Side
	switch s.Running {
	case "white":
		side = s.White
	case "black":
		side = s.Black
	default:
		return 0, false
	}
	if side.Mode == timecontrol.CountUp.String() {
		return 0, false
	}
	return time.Duration(side.DelayMs+side.Ms) * time.Millisecond, true
}
