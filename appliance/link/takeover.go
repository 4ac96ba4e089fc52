package link

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
)

// TakeoverArg is the argument of the takeover control request: the game of
// another board, as its last state showed it, for this clock to carry on
// (FIDE 6.10: a defective clock is replaced and the arbiter decides the
// times; the clock comes up paused so the arbiter confirms or corrects
// them before resuming).
type TakeoverArg struct {
	Board   int               `json:"board"`          // the board the game comes from
	Game    string            `json:"game,omitempty"` // its game id, if its state named one
	Control string            `json:"control"`        // the time control, as the source's status gives it
	Options map[string]string `json:"options,omitempty"`
	ToMove  string            `json:"to_move"` // who runs on resume
	White   TakeoverSide      `json:"white"`
	Black   TakeoverSide      `json:"black"`
	At      int64             `json:"at"` // Unix ms of the source state
}

// TakeoverSide is one side's clock in a takeover.
type TakeoverSide struct {
	Ms       int64 `json:"ms"`
	Moves    int   `json:"moves"`
	Period   int   `json:"period"`
	Overstep bool  `json:"overstep,omitempty"`
}

// takeoverArg builds the takeover request's argument from the retained
// state of board from, and its online message (nil if it has none). A
// running game is taken over only from a board whose link is gone.
func takeoverArg(hall string, from int, statePayload []byte, online *OnlineMsg) (string, error) {
	var sm StateMsg
	if err := json.Unmarshal(statePayload, &sm); err != nil {
		return "", fmt.Errorf("board %d's state message cannot be read: %v", from, err)
	}
	if sm.Hall != hall || sm.Board != from {
		return "", fmt.Errorf("the state on board %d's topic is of hall %q board %d", from, sm.Hall, sm.Board)
	}
	st, err := ParseState(sm.State)
	if err != nil {
		return "", fmt.Errorf("board %d's %v", from, err)
	}
	switch {
	case !st.Started:
		return "", fmt.Errorf("board %d's game has not started: nothing to take over", from)
	case st.Running != "none" && online != nil && online.Online && online.Clock:
		return "", fmt.Errorf("board %d's clock is running and online: pause it first", from)
	}
	if _, err := timecontrol.ParsePair(st.Control); err != nil {
		return "", fmt.Errorf("board %d's control %q: %v", from, st.Control, err)
	}
	if st.ToMove != "white" && st.ToMove != "black" {
		return "", fmt.Errorf("board %d's side to move %q: want white or black", from, st.ToMove)
	}
	var opt clock.Options
	for k, v := range st.Options {
		if err := opt.Set(k, v); err != nil {
			return "", fmt.Errorf("board %d's %v", from, err)
		}
	}
	side := func(name string, s Side) (TakeoverSide, error) {
		if s.Ms < 0 || s.Moves < 0 || s.Period < 1 {
			return TakeoverSide{}, fmt.Errorf("board %d's %s clock: ms %d, moves %d, period %d out of range", from, name, s.Ms, s.Moves, s.Period)
		}
		return TakeoverSide{Ms: s.Ms, Moves: s.Moves, Period: s.Period, Overstep: s.Overstep}, nil
	}
	w, err1 := side("white", st.White)
	b, err2 := side("black", st.Black)
	if err := errors.Join(err1, err2); err != nil {
		return "", err
	}
	game := sm.Game
	if checkGame(game) != nil {
		game = ""
	}
	return compact(TakeoverArg{Board: from, Game: game, Control: st.Control, Options: st.Options, ToMove: st.ToMove, White: w, Black: b, At: sm.Time}), nil
}
