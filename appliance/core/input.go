package core

import (
	"strings"
	"time"

	"github.com/zeitnot/zeitnot/drivers/button"
	"github.com/zeitnot/zeitnot/drivers/buzzer"
	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
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
var Buttons = []string{Left, Right, Pause, Plus, Minus, OK}

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
	switch ev.Kind {
	case button.Press:
		c.down[name] = true
		if name == OK {
			c.heldOK = false
		}
		if c.inCombo(name) {
			c.combo = false
		}
	case button.Release:
		delete(c.down, name)
	}
	lever := name == Left || name == Right
	if c.msgUntil > at && ev.Kind == button.Press {
		c.msgUntil = 0 // any press dismisses the start-up message
		if !lever {
			return
		}
	}
	// The lock combination: its buttons held down together.
	if ev.Kind == button.Hold && c.inCombo(name) && c.comboDown() {
		if c.combo {
			return // the second button's hold of the same combination
		}
		c.combo = true
		c.set.Locked = !c.set.Locked
		c.saveSettings()
		c.pages = nil
		if c.set.Locked {
			c.say(at, "LOCKED")
		} else {
			c.say(at, "UNLOCKED")
		}
		c.note("settings lock " + map[bool]string{true: "on", false: "off"}[c.set.Locked])
		return
	}
	if len(c.pages) > 0 {
		if ev.Kind == button.Press {
			c.pages[len(c.pages)-1].button(c, name, at)
		}
		if ev.Kind == button.Hold && name == OK {
			c.heldOK = true
		}
		return
	}
	c.gameButton(ev)
	c.Tick(at)
}

// combo returns the buttons of the lock combination.
func (c *Core) comboButtons() []string {
	if b := strings.Split(c.set.LockCombo, "+"); len(b) >= 2 {
		return b
	}
	return strings.Split(DefaultSettings.LockCombo, "+")
}

func (c *Core) inCombo(name string) bool {
	for _, b := range c.comboButtons() {
		if b == name {
			return true
		}
	}
	return false
}

func (c *Core) comboDown() bool {
	for _, b := range c.comboButtons() {
		if !c.down[b] {
			return false
		}
	}
	return true
}

func (c *Core) gameButton(ev button.Event) {
	at := ev.At
	t := c.logMs(at)
	st := c.clk.State(t)
	switch {
	case (ev.Button == Left || ev.Button == Right) && ev.Kind == button.Press:
		side := c.sideOf(ev.Button)
		if !st.Started {
			// Black's lever starts White's clock, as on common clocks.
			if side != st.ToMove {
				c.start(t)
			}
			return
		}
		// Both levers at once: the first edge wins. The lever of the side
		// that was just started cannot complete a move within
		// LeverLockout; no one replies to a move that fast over the board.
		if c.switched && at-c.lastSwitch < LeverLockout {
			return
		}
		if c.clk.Press(t, side) {
			c.switched, c.lastSwitch = true, at
			c.record(clocklog.Event{At: t, Verb: clocklog.Press, Side: side})
			if c.set.PressBeep {
				c.play(buzzer.Beep)
			}
		}
	case ev.Button == Pause && ev.Kind == button.Press:
		switch {
		case !st.Started:
			c.start(t)
		case st.Paused:
			if c.clk.Resume(t) {
				c.record(clocklog.Event{At: t, Verb: clocklog.Resume, Side: clock.NoSide})
				c.recovered = false
			}
		case st.Running != clock.NoSide:
			if c.clk.Pause(t) {
				c.record(clocklog.Event{At: t, Verb: clocklog.Pause, Side: clock.NoSide})
			}
		}
	case ev.Button == OK && ev.Kind == button.Hold:
		c.heldOK = true
		if c.inCombo(OK) && len(c.down) > 1 {
			return // on its way to the lock combination
		}
		switch {
		case st.Running != clock.NoSide:
			c.say(at, "PAUSE FIRST")
		case c.set.Locked:
			c.say(at, "LOCKED")
		default:
			c.openMenu(at)
		}
	case ev.Button == OK && ev.Kind == button.Release && !c.heldOK && !c.combo:
		// A short ok after a game: a new game on the same control.
		if gameOver(st) {
			c.againSameControl(at)
		}
	case ev.Button == Plus && ev.Kind == button.Release && !c.combo:
		if st.Started && st.Paused && !st.Stopped {
			if c.set.Locked {
				c.say(at, "LOCKED")
				return
			}
			c.pages = append(c.pages, c.plusTwoPrompt())
		}
	}
}

func gameOver(st clock.State) bool {
	return st.Stopped || st.FirstFlag != clock.NoSide && st.Running == clock.NoSide
}

func (c *Core) start(t int64) {
	if c.clk.Start(t) {
		c.started = true
		c.switched, c.lastSwitch = true, c.now
		c.record(clocklog.Event{At: t, Verb: clocklog.Start, Side: clock.NoSide})
	}
}

func (c *Core) againSameControl(at time.Duration) {
	if err := c.newGame(at, c.set.Control, c.set.Options); err != nil {
		c.say(at, "BAD CONTROL")
		return
	}
	c.say(at, "NEW GAME")
}

// Tick does what time alone brings: checkpoints while a clock runs, the
// low-time warning, the flag alarm. The daemon calls it at every wake-up.
func (c *Core) Tick(now time.Duration) {
	c.advance(now)
	t := c.ms(c.now)
	st := c.clk.State(t)
	if st.Running != clock.NoSide && t-c.lastLog >= CheckpointEvery {
		c.record(clocklog.Event{At: t, Verb: clocklog.Checkpoint, Side: clock.NoSide})
	}
	if st.FirstFlag != clock.NoSide && !c.alarm {
		c.alarm = true
		if c.set.FlagAlarm {
			c.play(buzzer.Alarm)
		}
	}
	if st.Running != clock.NoSide && c.set.LowTimeMs > 0 {
		p := st.Player[st.Running]
		low := p.Ms < c.set.LowTimeMs && !p.Flag && p.Mode != timecontrol.CountUp
		if low && !c.lowHit[st.Running] {
			c.lowHit[st.Running] = true
			c.play(buzzer.DoubleBeep)
		} else if !low && p.Ms >= c.set.LowTimeMs {
			c.lowHit[st.Running] = false
		}
	}
	if c.banner != "" && c.now >= c.until {
		c.banner = ""
	}
}

// LeverLockout is how soon after a clock was started a press of its own
// lever is taken as the other lever's twin (both pressed at once) and
// ignored.
const LeverLockout = 100 * time.Millisecond

// CheckpointEvery is the longest a running clock goes without a journal
// line: a power cut costs the running side at most this much.
const CheckpointEvery = 1000
