package ui

import (
	"time"

	"github.com/zeitnot/zeitnot/protocol"
)

// An electronic board (FIDE 6.14): the daemon gives the core what its
// process reports, and the game screen shows what the arbiter must see.
// A board that is lost, or was never there, shows nothing: the clock is
// the clock it is without one.

// Banners of the board on the game screen.
const (
	// BannerIllegal: no legal move explains the board's position at the
	// last press (FIDE 7.5; the clock never guesses). It goes once the
	// arbiter has put the position back.
	BannerIllegal = "ILLEGAL?"
	// BannerMismatch: the board is not in the game's position: the
	// initial one at the start, the one a game resumes from.
	BannerMismatch = "BOARD?"
)

// SetBoard sets the e-board's part of the status; nil: no board.
func (c *Core) SetBoard(b *protocol.BoardStatus) {
	if b == nil {
		c.board = nil
		return
	}
	bb := *b
	c.board = &bb
}

// boardBanner is the board's banner on the game screen, or "".
func (c *Core) boardBanner() string {
	if c.board == nil {
		return ""
	}
	switch c.board.State {
	case protocol.BoardIllegal:
		return BannerIllegal
	case protocol.BoardMismatch:
		return BannerMismatch
	}
	return ""
}

// boardStatus is the status's board: a copy, so the status is the
// caller's.
func (c *Core) boardStatus() *protocol.BoardStatus {
	if c.board == nil {
		return nil
	}
	b := *c.board
	return &b
}

// SetUpStart reports whether the arbiter chose to start the current game
// from the e-board's set-up (a composed start, Chess960; Setup, Start
// position): the board's set-up at the start is then the game's
// position. Otherwise a game starts from the initial position, and a
// board set up otherwise is BOARD? (protocol.EBoardGame's SetUp).
func (c *Core) SetUpStart() bool { return c.setUpGame != "" && c.setUpGame == c.game.GameID() }

// startPosItem is the arbiter's choice of the game's start: the initial
// position, or the e-board's set-up. It shows before the game starts
// while a board is there; the choice is the game's and is journaled.
func (c *Core) startPosItem() item {
	return item{label: func() string {
		if c.SetUpStart() {
			return "Start pos board"
		}
		return "Start pos std"
	}, ok: func(c *Core, at time.Duration) {
		if c.game.State(at).Started {
			return
		}
		if c.SetUpStart() {
			c.setUpGame = ""
			c.game.Note("arbiter: the game starts from the initial position")
			c.say(at, "START POS STD")
			return
		}
		c.setUpGame = c.game.GameID()
		c.game.Note("arbiter: the game starts from the e-board's set-up (a composed start): the position the board shows at the start is the game's")
		c.say(at, "START POS BOARD")
	}}
}
