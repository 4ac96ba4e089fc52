package ui

import (
	"errors"
	"fmt"
	"time"

	"github.com/zeitnot/zeitnot/appliance/screen"
	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
)

// Results on the clock. When a game has ended (a flag; or the clock
// stopped, paused, for a resignation, a mate or a draw agreed), a short
// press of minus opens the result menu: 1-0, ½-½, 0-1, the cursor on what
// the clock proposes (plus and minus move it, ok takes it). Then each
// player confirms with their own lever, as each signs a scoresheet: the
// result is journaled as the players' once both have. The player who
// enters it presses at most four times (minus, one move, ok, their lever),
// the other once.
//
// The arbiter enters or corrects a result from the menu (the arbiter's
// menu while paused, Setup after a game; after the PIN on a locked clock):
// journaled as the arbiter's with no lever, and "none" takes it back. On a
// locked clock the players enter a result only while there is none: they
// cannot change one.
//
// After a flag the clock proposes the flagged side's loss but does not
// decide: FIDE 6.9 makes it a draw when the opponent cannot mate by any
// series of legal moves, which the clock cannot see, so the menu says
// "6.9: draw?". Both flags with no known order is 6.11: the game goes on,
// the arbiter decides, and the menu proposes nothing.

// resultChoices are the result menu's entries, in order.
var resultChoices = []clocklog.Result{clocklog.WhiteWins, clocklog.Draw, clocklog.BlackWins}

// resultLabel is how the clock shows a result.
func resultLabel(r clocklog.Result) string {
	if r == clocklog.Draw {
		return "½-½"
	}
	if r == clocklog.NoResult {
		return "none"
	}
	return r.String()
}

// proposal is the result the clock proposes for the game at st, and what
// it says of it.
func proposal(st clock.State) (clocklog.Result, string) {
	w, b := st.Player[clock.White].Flag, st.Player[clock.Black].Flag
	switch {
	case w && b && st.FirstFlag == clock.NoSide:
		return clocklog.Draw, "6.11: both flags: arbiter"
	case st.FirstFlag == clock.White:
		return clocklog.BlackWins, "flag W; 6.9: draw?"
	case st.FirstFlag == clock.Black:
		return clocklog.WhiteWins, "flag B; 6.9: draw?"
	}
	return clocklog.Draw, ""
}

// resultOpen reports whether a result may be entered at st: the game
// started and no clock runs.
func resultOpen(st clock.State) bool {
	return st.Started && (st.Running == clock.NoSide || st.Paused)
}

// playersResult opens the players' result menu (a short minus on the game
// screen), unless a locked clock already has a result.
func (c *Core) playersResult(at time.Duration) {
	st := c.game.State(at)
	if !resultOpen(st) {
		return
	}
	if r, _ := c.game.Result(); r != clocklog.NoResult && c.Locked() {
		c.say(at, "LOCKED "+resultLabel(r))
		return
	}
	c.push(c.resultPage(st, false))
}

// resultItem is the menus' entry for the arbiter's result.
func (c *Core) resultItem() item {
	return item{label: func() string {
		r, by := c.game.Result()
		if r == clocklog.NoResult {
			return "Result"
		}
		return fmt.Sprintf("Result %s %s", resultLabel(r), by)
	}, ok: func(c *Core, at time.Duration) {
		st := c.game.State(at)
		if !resultOpen(st) {
			c.say(at, "GAME GOES ON")
			return
		}
		c.push(c.resultPage(st, true))
	}}
}

// resultPage is the result menu: the arbiter's, or the players' (who then
// confirm with their levers).
type resultPage struct {
	arbiter bool
	choices []clocklog.Result
	cursor  int
	note    string
}

func (c *Core) resultPage(st clock.State, arbiter bool) *resultPage {
	p := &resultPage{arbiter: arbiter, choices: resultChoices}
	if arbiter {
		p.choices = append(p.choices[:len(p.choices):len(p.choices)], clocklog.NoResult)
	}
	prop, note := proposal(st)
	p.note = note
	for i, r := range p.choices {
		if r == prop {
			p.cursor = i
		}
	}
	return p
}

func (p *resultPage) view(c *Core) screen.Menu {
	m := screen.Menu{Title: "Result?", Cursor: p.cursor, Hint: "+- ok  pause: back"}
	if p.note != "" {
		m.Hint = p.note
	}
	for _, r := range p.choices {
		m.Items = append(m.Items, resultLabel(r))
	}
	return m
}

func (p *resultPage) button(c *Core, name string, at time.Duration) {
	n := len(p.choices)
	switch name {
	case Plus:
		p.cursor = (p.cursor + n - 1) % n
	case Minus:
		p.cursor = (p.cursor + 1) % n
	case OK:
		r := p.choices[p.cursor]
		if p.arbiter {
			c.closeMenu()
			c.enterResult(at, r, clocklog.Arbiter)
			return
		}
		c.pop()
		c.push(&confirmResult{result: r})
		c.speakProposal(at, r.String())
	case Pause:
		c.pop()
	}
}

// confirmResult waits for each player's lever: both confirm the result.
type confirmResult struct {
	result clocklog.Result
	signed [2]bool // by side
}

func (p *confirmResult) view(c *Core) screen.Menu {
	m := screen.Menu{Title: resultLabel(p.result) + "? your lever", Cursor: -1, Hint: "pause: back"}
	for _, lever := range []string{Left, Right} {
		s := c.sideOf(lever)
		mark := "..."
		if p.signed[s] {
			mark = "ok"
		}
		m.Items = append(m.Items, fmt.Sprintf("%s %s %s", c.mark(s), s, mark))
	}
	return m
}

func (p *confirmResult) button(c *Core, name string, at time.Duration) {
	switch name {
	case Left, Right:
		p.signed[c.sideOf(name)] = true
		if p.signed[clock.White] && p.signed[clock.Black] {
			c.closeMenu()
			c.enterResult(at, p.result, clocklog.Players)
		}
	case Pause:
		c.pop()
	}
}

// enterResult journals the result and says it.
func (c *Core) enterResult(at time.Duration, r clocklog.Result, by clocklog.Entrant) {
	if err := c.game.SetResult(at, r, by); err != nil {
		c.log(err.Error())
		c.say(at, "NO RESULT")
		return
	}
	c.say(at, "RESULT "+resultLabel(r))
}

// HallResult is the arbiter's result sent from the hall (the result
// command): "1-0", "1/2-1/2", "0-1", or "*" to take it back, journaled as
// the arbiter's. The hall's result is the arbiter's decision (FIDE 6.12):
// a game whose clock still runs is stopped by it, its clock paused with a
// note saying why, and then the result is journaled. Taking back a result
// of a game that runs is refused: there is none.
func (c *Core) HallResult(now time.Duration, result string) error {
	c.advance(now)
	r, err := clocklog.ParseResult(result)
	if err != nil {
		return err
	}
	if st := c.game.State(c.now); st.Running != clock.NoSide && !st.Paused {
		if r == clocklog.NoResult {
			return errors.New("the game goes on: it has no result to take back")
		}
		c.game.Note("hall: result " + r.String() + ": the arbiter's result stops the game")
		if !c.game.Pause(c.now) {
			return errors.New("the running clock could not be stopped")
		}
	}
	if err := c.game.SetResult(c.now, r, clocklog.Arbiter); err != nil {
		return err
	}
	c.say(c.now, "RESULT "+resultLabel(r))
	return nil
}
