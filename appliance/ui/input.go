package ui

import (
	"fmt"
	"time"

	"github.com/zeitnot/zeitnot/drivers/button"
	"github.com/zeitnot/zeitnot/engine/clock"
)

// Button names the profile gives the clock's buttons.
const (
	Left  = "left"  // the left lever
	Right = "right" // the right lever
	Pause = "pause"
	Plus  = "plus"
	Minus = "minus"
	OK    = "ok"
)

// Buttons lists every button the core understands.
var Buttons = []string{Left, Right, Pause, Plus, Minus, OK, AnnounceLeft, AnnounceRight}

// overrunShown is how long the displays say a press may have been lost.
const overrunShown = 10 * time.Second

// bannerTime is how long a short notice stays.
const bannerTime = 2 * time.Second

// sideOf is the clock side a lever plays.
func (c *Core) sideOf(lever string) clock.Side {
	if (lever == Left) == c.set.WhiteLeft {
		return clock.White
	}
	return clock.Black
}

// leverOf is the lever of a clock side.
func (c *Core) leverOf(s clock.Side) string {
	if (s == clock.White) == c.set.WhiteLeft {
		return Left
	}
	return Right
}

func (c *Core) advance(t time.Duration) {
	if t > c.now {
		c.now = t
	}
}

func (c *Core) say(t time.Duration, text string) {
	c.banner, c.until = text, t+bannerTime
}

// Button handles one debounced button event. ev.At is the instant of the
// button's first edge: a lever press counts from then, not from when the
// loop got to it.
func (c *Core) Button(ev button.Event) {
	c.advance(ev.At)
	name, at := ev.Button, ev.At
	if ev.Kind == button.Overrun {
		// The kernel dropped edges: a press near At may be missing. The
		// clock cannot know whose; the arbiter is told, and the journal
		// keeps it.
		msg := fmt.Sprintf("buttons: the kernel dropped %d edges before %v; a press may be lost", ev.Lost, at)
		if name != "" {
			msg = fmt.Sprintf("buttons: the kernel dropped %d edges of %s before %v; a press may be lost", ev.Lost, name, at)
		}
		c.log(msg)
		c.game.Note(msg)
		c.banner, c.until = "PRESS LOST?", at+overrunShown
		return
	}
	if name == AnnounceLeft || name == AnnounceRight {
		// Speech only: no menu, message or game sees these buttons.
		c.announceButton(name, ev.Kind, at)
		return
	}
	defer c.speakScreen(at)
	switch ev.Kind {
	case button.Press:
		c.down[name] = true
		if name == OK {
			c.heldOK = false
		}
		if name == Minus {
			c.heldMinus = false
		}
	case button.Release:
		delete(c.down, name)
		if c.used[name] {
			// Its press worked a menu (which may be closed now): its
			// release is not a short press on the game screen.
			delete(c.used, name)
			return
		}
	}
	if ev.Kind == button.Hold && name == Minus {
		c.heldMinus = true
	}
	lever := name == Left || name == Right
	if c.msgUntil > at && ev.Kind == button.Press {
		c.msgUntil = 0 // any press dismisses the start-up message
		if !lever {
			c.used[name] = true
			return
		}
	}
	if len(c.pages) > 0 {
		if ev.Kind == button.Press {
			c.used[name] = true
			c.pages[len(c.pages)-1].button(c, name, at)
			if len(c.pages) == 0 {
				c.arbiter = false // the menus closed: a locked clock is locked again
			}
		}
		if ev.Kind == button.Hold && name == OK {
			c.heldOK = true
		}
		return
	}
	c.gameButton(ev)
	c.Tick(at)
}

func (c *Core) gameButton(ev button.Event) {
	at := ev.At
	if !c.game.State(at).Started {
		// A press that came with the round's scheduled start, before
		// the loop's wake-up for it: the start is the schedule's, at its
		// own instant, and the game the round's.
		c.tickRound(at)
	}
	st := c.game.State(at)
	switch {
	case (ev.Button == Left || ev.Button == Right || ev.Button == Pause) && ev.Kind == button.Press && !st.Started && c.round().waiting:
		// The game waits for the round's scheduled start (FIDE 6.5): no
		// player starts it early. The press says when it starts; the
		// arbiter starts it early from the menu (Setup, Start now) or
		// the hall.
		c.say(at, c.roundBanner())
	case (ev.Button == Left || ev.Button == Right) && ev.Kind == button.Press:
		side := c.sideOf(ev.Button)
		if !st.Started {
			// Black's lever starts White's clock, as on common clocks.
			if side != st.ToMove {
				c.start(at)
			}
			return
		}
		// Both levers at once: the first edge wins. The lever of the side
		// that was just started cannot complete a move within
		// LeverLockout; no one replies to a move that fast over the board.
		if c.switched && at-c.lastSwitch < LeverLockout {
			return
		}
		if c.game.Press(at, side) {
			c.switched, c.lastSwitch = true, at
			// The time just given its increment, to check on displays
			// that hide seconds from an hour up.
			c.secsUntil[side] = at + SecondsShown
		}
	case ev.Button == Pause && ev.Kind == button.Press:
		switch {
		case !st.Started:
			c.start(at)
		case st.Paused:
			c.game.Resume(at)
		case st.Running != clock.NoSide:
			c.game.Pause(at)
		}
		c.hallPaused = false // a pause made or lifted at the clock is the arbiter's
	case ev.Button == OK && ev.Kind == button.Hold:
		c.heldOK = true
		switch {
		case st.Running != clock.NoSide:
			// The control, to check, beneath both times: a player
			// always sees both times while a clock runs, so no page
			// covers them. The full Control view is in
			// the arbiter's menu, for a paused clock.
			c.banner, c.until = c.controlBanner(), at+ControlShown
		case c.Locked():
			// The arbiter's PIN opens the menu for as long as it is open.
			c.askPIN(at, func(c *Core, at time.Duration) { c.openMenu(at) })
		default:
			c.openMenu(at)
		}
	case ev.Button == OK && ev.Kind == button.Release && !c.heldOK:
		switch {
		case gameOver(st) && c.Locked():
			// A new game would discard this one, its flag too: an
			// arbiter's act (hold ok, the PIN, then again).
			c.say(at, "LOCKED")
		case gameOver(st):
			// A short ok after a game: a new game on the same control.
			c.againSameControl(at)
		case flaggedPlayOn(st):
			// after-flag continue: the first ok stops the clock, the
			// next starts a new game.
			c.game.Pause(at)
			c.hallPaused = false
		}
	case ev.Button == Minus && ev.Kind == button.Release && resultOpen(st) && !c.heldMinus && !c.down[Plus]:
		// A short minus after a game, or paused for its end: the
		// players' result (a hold shows the seconds; plus and minus
		// together are no result).
		c.playersResult(at)
	case ev.Button == Plus && ev.Kind == button.Release:
		if st.Started && st.Paused && !st.Stopped {
			if c.Locked() {
				c.say(at, "LOCKED")
				return
			}
			c.pages = append(c.pages, c.plusTwoPrompt())
		}
	}
}

// gameOver: the game has ended and no clock runs; a short ok starts the
// next one.
func gameOver(st clock.State) bool {
	return st.Stopped || st.FirstFlag != clock.NoSide && st.Running == clock.NoSide
}

// flaggedPlayOn: a flag fell and play goes on (after-flag continue).
func flaggedPlayOn(st clock.State) bool {
	return st.FirstFlag != clock.NoSide && st.Running != clock.NoSide
}

func (c *Core) start(at time.Duration) {
	if c.game.Start(at) {
		c.switched, c.lastSwitch = true, c.now
	}
}

func (c *Core) againSameControl(at time.Duration) {
	if err := c.newGame(at, c.set.Control, c.set.Options); err != nil {
		c.say(at, "BAD CONTROL")
		return
	}
	c.say(at, "NEW GAME")
}

// Tick does what time alone brings: the session's checkpoints and its
// flag and low-time events (the sounds), and banners going away. The loop
// calls it at every wake-up.
func (c *Core) Tick(now time.Duration) {
	c.advance(now)
	c.tickRound(c.now)
	c.prevTick = c.now
	c.game.Tick(c.now)
	if c.banner != "" && c.now >= c.until {
		c.banner = ""
	}
	c.speakChanges(c.now)
}

// SecondsShown is how long a side's display shows its seconds after its
// press, on displays that hide them from an hour up; holding minus on the
// game screen shows them for as long as it is held.
const SecondsShown = 3 * time.Second

// LeverLockout is how soon after a clock was started a press of its own
// lever is taken as the other lever's twin (both pressed at once) and
// ignored.
const LeverLockout = 100 * time.Millisecond
