package protocol

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/engine/fen"
)

// The e-board process's requests (appliance/eboard/relay, `zeitnot
// eboard`; docs/hall-protocol.md, "What the daemon serves the e-board
// process"). The process follows the game on the watch stream (a
// "pressed" event carries the press's number and its CLOCK_MONOTONIC
// instant, Event.Press and Event.MonoNs), learns the game with
// "eboard-game", and hands the daemon what the board showed at each
// press with "eboard-move", "eboard-position" and "eboard-state". The
// daemon takes none of it on trust: it checks every argument's form and
// that the press it names is one of the current game that the board has
// not answered yet.

// EBoardGame is the answer to "eboard-game": what the process needs to
// follow the current game from where it stands.
type EBoardGame struct {
	Game    string `json:"game"`
	Presses int    `json:"presses"` // the presses of the game so far: the last one's number
	ToMove  string `json:"to_move"` // the side the clock has to move: white or black
	Running bool   `json:"running"` // a clock runs (not before the start, not paused)
	// FullMove is the number of the move the side to move makes, by the
	// clock's move counts (FEN's fullmove number; a game taken over from
	// another clock goes on with its count).
	FullMove int `json:"fullmove"`
	// From and FEN are the position the moves start from: the one after
	// press From (the game's last position line; 0 and the initial
	// position when it has none).
	From int    `json:"from"`
	FEN  string `json:"fen"`
	// Moves are the UCI moves of presses From+1 to Presses as the journal
	// has them, "" where it has none.
	Moves []string `json:"moves"`
	// SetUp says the arbiter chose to start the game from the board's
	// set-up (a composed start, Chess960): the set-up the board shows at
	// the start is taken as the game's position. Otherwise a game starts
	// from FEN, and a board set up otherwise is a mismatch (BOARD?).
	SetUp bool `json:"set_up,omitempty"`
}

// Check checks an answer to "eboard-game".
func (g *EBoardGame) Check() error {
	switch {
	case CheckGame(g.Game) != nil:
		return CheckGame(g.Game)
	case g.Presses < 0 || g.Presses > clocklog.MaxPly || g.From < 0 || g.From > g.Presses:
		return fmt.Errorf("eboard-game: presses %d, from %d out of range", g.Presses, g.From)
	case g.FullMove < 1 || g.FullMove > clocklog.MaxPly:
		return fmt.Errorf("eboard-game: fullmove %d out of range", g.FullMove)
	case g.ToMove != "white" && g.ToMove != "black":
		return fmt.Errorf("eboard-game: to_move %q: want white or black", short(g.ToMove))
	case len(g.Moves) != g.Presses-g.From:
		return fmt.Errorf("eboard-game: %d moves for presses %d to %d", len(g.Moves), g.From+1, g.Presses)
	}
	if err := fen.Check(g.FEN); err != nil {
		return fmt.Errorf("eboard-game: %v", err)
	}
	for i, m := range g.Moves {
		if m != "" && !clocklog.IsUCI(m) {
			return fmt.Errorf("eboard-game: move %d: %q is not UCI", g.From+1+i, short(m))
		}
	}
	return nil
}

// EBoardMoveArg is the argument of "eboard-move": the move the board
// showed at press Press of game Game (FIDE 6.7a: the press completes the
// move), and the position after it. The daemon journals it as the line
// "MS move N SAN UCI".
type EBoardMoveArg struct {
	Game  string `json:"game"`
	Press int    `json:"press"`
	SAN   string `json:"san"`
	UCI   string `json:"uci"`
	FEN   string `json:"fen"`
}

// Check checks a move's form.
func (a *EBoardMoveArg) Check() error {
	if err := CheckGame(a.Game); err != nil {
		return err
	}
	if a.Press < 1 || a.Press > clocklog.MaxPly {
		return fmt.Errorf("press %d: want 1 to %d", a.Press, clocklog.MaxPly)
	}
	if !clocklog.IsSAN(a.SAN) || !clocklog.IsUCI(a.UCI) {
		return fmt.Errorf("move %q %q is not SAN and UCI", short(a.SAN), short(a.UCI))
	}
	if err := fen.Check(a.FEN); err != nil {
		return err
	}
	return nil
}

// EBoardPositionArg is the argument of "eboard-position": a position the
// board showed when the clock started or resumed and that the game's
// moves do not lead to (the arbiter set it up: a game resumed, FIDE
// 7.5's position put back otherwise, a game taken over), taken as the
// position after press Press. The daemon journals it as the line "MS
// position N FEN"; later moves go on from it.
type EBoardPositionArg struct {
	Game  string `json:"game"`
	Press int    `json:"press"`
	FEN   string `json:"fen"`
}

// Check checks a position's form.
func (a *EBoardPositionArg) Check() error {
	if err := CheckGame(a.Game); err != nil {
		return err
	}
	if a.Press < 0 || a.Press > clocklog.MaxPly {
		return fmt.Errorf("press %d: want 0 to %d", a.Press, clocklog.MaxPly)
	}
	if err := fen.Check(a.FEN); err != nil {
		return err
	}
	return nil
}

// EBoardStateArg is the argument of "eboard-state": how the board stands,
// sent when it changes and every EBoardBeat as a sign of life.
type EBoardStateArg struct {
	Game string `json:"game"`
	// State is BoardOK, BoardIllegal (no legal move explains the board at
	// press Illegal: ILLEGAL? on the clock), BoardMismatch (the board is
	// not in the position the game stands at) or BoardLost (the board is
	// unplugged or does not answer).
	State string `json:"state"`
	// Press and FEN are the position the process follows the game from:
	// the one after press Press. FEN "" while it knows none (moves are
	// missing and no position has been taken from the board).
	Press int    `json:"press"`
	FEN   string `json:"fen,omitempty"`
	// Illegal is the press no legal move explained, with BoardIllegal.
	Illegal int `json:"illegal,omitempty"`
	// Detail says more for the arbiter (the squares that differ, why the
	// board was lost): printable ASCII, at most MaxEBoardDetail bytes.
	Detail string `json:"detail,omitempty"`
}

// MaxEBoardDetail is the longest Detail of an eboard-state.
const MaxEBoardDetail = 120

// EBoardBeat is how often the process sends its state when nothing
// changes; EBoardSilence is how long the daemon waits for a sign of life
// before it takes the board as lost.
const (
	EBoardBeat    = 2 * time.Second
	EBoardSilence = 3 * EBoardBeat
)

// Check checks a state's form.
func (a *EBoardStateArg) Check() error {
	if err := CheckGame(a.Game); err != nil {
		return err
	}
	switch a.State {
	case BoardOK, BoardIllegal, BoardMismatch, BoardLost:
	default:
		return fmt.Errorf("state %q, want ok, illegal, mismatch or lost", short(a.State))
	}
	if a.Press < 0 || a.Press > clocklog.MaxPly || a.Illegal < 0 || a.Illegal > clocklog.MaxPly {
		return fmt.Errorf("press %d, illegal %d out of range", a.Press, a.Illegal)
	}
	if (a.State == BoardIllegal) != (a.Illegal > 0) {
		return errors.New("illegal names the press no legal move explains, with state illegal only")
	}
	if a.FEN != "" {
		if err := fen.Check(a.FEN); err != nil {
			return err
		}
	}
	if strings.ContainsFunc(a.Detail, func(r rune) bool { return r < 0x20 || r > 0x7e }) || len(a.Detail) > MaxEBoardDetail {
		return fmt.Errorf("detail: printable ASCII, at most %d bytes", MaxEBoardDetail)
	}
	return nil
}
