package link

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/zeitnot/zeitnot/engine/timecontrol"
)

// StateMsg is the payload of the retained state topic.
type StateMsg struct {
	Hall  string `json:"hall"`
	Board int    `json:"board"`
	Game  string `json:"game,omitempty"` // the game the state is of; "" when the clock does not say
	// Time is when State held: Unix milliseconds on the board's clock.
	// A viewer runs the clock on from there (see Shown).
	Time int64 `json:"time"`
	// State is the daemon's status JSON, as `zeitnot status` prints it.
	State json.RawMessage `json:"state"`
}

// LogMsg is the payload of the log topic: one line of the game's journal.
type LogMsg struct {
	Game string `json:"game"`
	Seq  int64  `json:"seq"` // from 1 within the game, no gaps
	Line string `json:"line"`
}

// OnlineMsg is the payload of the retained online topic; the will is
// {"online":false}.
type OnlineMsg struct {
	Online bool `json:"online"`
	// Clock says whether the link reaches the clock's daemon.
	Clock bool `json:"clock,omitempty"`
	// Log is "ok", or why the log topic gets no lines.
	Log     string `json:"log,omitempty"`
	Version string `json:"version,omitempty"`
	Since   int64  `json:"since,omitempty"`  // Unix ms the link started
	Reason  string `json:"reason,omitempty"` // with online false: "stopped" when the link was stopped
}

// Side is one side of a clock state, as far as a viewer needs it.
type Side struct {
	Ms       int64  `json:"ms"`
	Moves    int    `json:"moves"`
	Period   int    `json:"period"`
	Flag     bool   `json:"flag"`
	Overstep bool   `json:"overstep"`
	Mode     string `json:"mode"`
	DelayMs  int64  `json:"delay_ms"`
}

// ClockState is the part of the daemon's status JSON that the link reads:
// enough to run the displayed times on between messages and to take a
// game over. Other fields are passed on untouched.
type ClockState struct {
	At      int64             `json:"at"`
	Running string            `json:"running"` // white, black or none
	Paused  bool              `json:"paused"`
	Started bool              `json:"started"`
	Stopped bool              `json:"stopped"`
	ToMove  string            `json:"to_move"`
	Control string            `json:"control"`
	Game    string            `json:"game,omitempty"`
	White   Side              `json:"white"`
	Black   Side              `json:"black"`
	Options map[string]string `json:"options,omitempty"`
}

// ParseState reads the fields of ClockState from a status JSON.
func ParseState(raw []byte) (ClockState, error) {
	var s ClockState
	if err := json.Unmarshal(raw, &s); err != nil {
		return s, fmt.Errorf("state: %w", err)
	}
	switch s.Running {
	case "white", "black", "none":
	default:
		return s, fmt.Errorf("state: running %q, want white, black or none", s.Running)
	}
	return s, nil
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
func (s ClockState) Shown(elapsed time.Duration) (white, black int64) {
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

// untilZero is how long after the state the running side's display reaches
// 0 (the delay included), or false if nothing runs down.
func (s ClockState) untilZero() (time.Duration, bool) {
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
