package link

import (
	"fmt"

	"github.com/zeitnot/zeitnot/protocol"
)

// takeoverArg builds the takeover request's argument from the retained
// state of board from, and its online message (nil if it has none). A
// running game is taken over only from a board whose link is gone.
func takeoverArg(hall string, from int, statePayload []byte, online *protocol.OnlineMsg) (string, error) {
	sm, err := protocol.ParseStateMsg(statePayload)
	if err != nil {
		return "", fmt.Errorf("board %d's state message: %v", from, err)
	}
	if sm.Hall != hall || sm.Board != from {
		return "", fmt.Errorf("the state on board %d's topic is of hall %q board %d", from, sm.Hall, sm.Board)
	}
	st := sm.State
	switch {
	case !st.Started:
		return "", fmt.Errorf("board %d's game has not started: nothing to take over", from)
	case st.Running != "none" && online != nil && online.Online && online.Clock:
		return "", fmt.Errorf("board %d's clock is running and online: pause it first", from)
	}
	game := sm.Game
	if !protocol.ValidGame(game) {
		game = ""
	}
	a := protocol.TakeoverArg{Board: from, Game: game, Control: st.Control, Options: st.Options, ToMove: st.ToMove, White: &st.White.SideClock, Black: &st.Black.SideClock, At: sm.Time}
	if st.Running == "white" || st.Running == "black" {
		a.Running = st.Running // the spare settles it to the takeover's instant
	}
	if _, _, err := a.Check(); err != nil {
		return "", fmt.Errorf("board %d's state: %v", from, err)
	}
	return protocol.Compact(a), nil
}
