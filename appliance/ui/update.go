package ui

import (
	"time"

	"github.com/zeitnot/zeitnot/appliance/screen"
)

// An update offered on a USB stick asks at the clock before it installs
// (the daemon's update.go decides when): "Update to 1.4.0?", ok installs,
// pause cancels. On a locked clock ok asks for the arbiter's PIN first; a
// wrong PIN cancels the update, as a stick is no arbiter. The daemon's
// messages on the update's way ("UPDATING 40%", "UPDATED, RESTARTING",
// "REFUSED: ...") take the game screen's banner.

// RunningVersion is the version of the running system, as the About page
// shows it.
func (c *Core) RunningVersion() string { return c.version }

// GameUnderWay reports whether a game has started and not ended at now:
// running or paused. No update installs then.
func (c *Core) GameUnderWay(now time.Duration) bool {
	st := c.game.State(now)
	return st.Started && !gameOver(st)
}

// AskUpdate puts the question whether to install version on the
// displays, over any menu, and calls answer with the arbiter's choice:
// yes after ok (and the PIN on a locked clock), no after pause or a wrong
// PIN. answer runs in the caller's loop, from Button.
func (c *Core) AskUpdate(version string, answer func(at time.Duration, yes bool)) {
	c.DropUpdateQuestion()
	c.push(&updatePage{version: version, answer: answer})
}

// DropUpdateQuestion takes the question of AskUpdate away, unanswered.
func (c *Core) DropUpdateQuestion() {
	keep := c.pages[:0]
	for _, p := range c.pages {
		if _, ok := p.(*updatePage); !ok {
			keep = append(keep, p)
		}
	}
	clear(c.pages[len(keep):])
	c.pages = keep
}

// UpdateQuestion reports whether the question of AskUpdate is open: on
// the displays, or beneath the PIN's form it asked for.
func (c *Core) UpdateQuestion() bool {
	for _, p := range c.pages {
		if _, ok := p.(*updatePage); ok {
			return true
		}
	}
	return false
}

// SetUpdateMessage shows text where the game screen's banner goes, from
// now for d; an empty text takes it away.
func (c *Core) SetUpdateMessage(text string, now, d time.Duration) {
	c.updateMsg, c.updateUntil = text, now+d
}

type updatePage struct {
	version string
	answer  func(at time.Duration, yes bool)
}

func (p *updatePage) view(c *Core) screen.Menu {
	return screen.Menu{Title: "Update to " + p.version + "?", Items: []string{"ok: install", "pause: cancel"}, Cursor: -1}
}

func (p *updatePage) button(c *Core, name string, at time.Duration) {
	switch name {
	case OK:
		if !c.Locked() {
			c.pop()
			p.answer(at, true)
			return
		}
		// The PIN's form goes over the question: pause on it comes back
		// to the question, a right PIN installs, a wrong one closes the
		// menus and cancels the update.
		answered := false
		c.askPIN(at, func(c *Core, at time.Duration) {
			answered = true
			c.DropUpdateQuestion()
			p.answer(at, true)
		})
		if f, ok := c.top().(*formPage); ok {
			commit := f.commit
			f.commit = func(c *Core, at time.Duration, v []int) {
				commit(c, at, v)
				if !answered {
					c.DropUpdateQuestion()
					p.answer(at, false)
				}
			}
		}
	case Pause:
		c.pop()
		p.answer(at, false)
	}
}

// ShowUpdateProblem shows why an update was refused or failed, lines as
// a message screen from now for d (any press takes it away), as the
// config's problems at start-up; not while a game is under way, where the
// banner says it alone.
func (c *Core) ShowUpdateProblem(lines []string, now, d time.Duration) {
	if c.GameUnderWay(now) {
		return
	}
	c.messages, c.msgUntil = lines, now+d
}
