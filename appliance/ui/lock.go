package ui

import (
	"fmt"
	"time"

	"github.com/zeitnot/zeitnot/appliance/config"
)

// The settings lock: a locked clock opens no menu, takes no
// correction, starts no new game (after a flag neither) and imports no
// config from a USB stick, until the arbiter enters the PIN the club set
// ([lock] pin in zeitnot.toml, or Settings › Set PIN). Hold ok, then the
// PIN a digit at a time: plus and minus change it by 1, the levers by 5,
// ok takes it. A right PIN opens the menu; when the menus close the clock
// is locked again. Levers and pause always work the clock.

// pinTries is how many wrong PINs in a row are taken before the clock
// makes the next one wait, pinBackoff the first wait, doubled after each
// further wrong PIN up to pinBackoffMax.
const (
	pinTries      = 3
	pinBackoff    = 30 * time.Second
	pinBackoffMax = 10 * time.Minute
)

// Locked reports whether the lock keeps the menus, corrections, new games
// and imports from a stick closed now: the lock is on (with a PIN) and the
// arbiter has not opened the menus with it.
func (c *Core) Locked() bool { return c.set.Locked && c.set.PINHash != "" && !c.arbiter }

// unlockedEvery is how long the ready screen of a clock without a PIN
// shows the game's name, then the notice that it is unlocked, in turn.
const unlockedEvery = 3 * time.Second

// unlockedByDefault reports whether the clock is as the image ships it:
// unlocked, and no PIN set. Its ready screen says so (UNLOCKED: SET A
// PIN), so that no club puts it into play unlocked by mistake, until the
// club sets a PIN: Settings › Set PIN or Lock now on the clock, or
// [lock] pin in a config file. A PIN without the lock on is a choice too:
// the clock stays unlocked, and the arbiter can lock it at any time.
func (c *Core) unlockedByDefault() bool {
	return !c.set.Locked && c.set.PINHash == ""
}

// pinForm is a form of config.PINLen digits, each from 0; the digits
// already taken are shown as '*'.
func pinForm(title string, done func(c *Core, at time.Duration, pin string)) *formPage {
	p := &formPage{title: title, mask: true, hint: "+- 1 levers 5 ok", vals: make([]int, config.PINLen)}
	for i := range config.PINLen {
		p.fields = append(p.fields, field{label: fmt.Sprintf("digit %d", i+1), min: 0, max: 9, big: 5})
	}
	p.commit = func(c *Core, at time.Duration, v []int) {
		pin := make([]byte, len(v))
		for i, d := range v {
			pin[i] = byte('0' + d)
		}
		done(c, at, string(pin))
	}
	return p
}

// askPIN asks for the arbiter's PIN and runs then when it is right.
func (c *Core) askPIN(at time.Duration, then func(c *Core, at time.Duration)) {
	if at < c.pinWait {
		c.say(at, fmt.Sprintf("PIN: WAIT %ds", int((c.pinWait-at+time.Second-1)/time.Second)))
		return
	}
	c.push(pinForm("PIN", func(c *Core, at time.Duration, pin string) {
		if !config.PINMatches(c.set.PINHash, pin) {
			c.pinFails++
			if c.pinFails >= pinTries {
				c.pinWait = at + min(pinBackoff<<(c.pinFails-pinTries), pinBackoffMax)
			}
			c.closeMenu()
			c.say(at, "WRONG PIN")
			c.game.Note(fmt.Sprintf("lock: wrong PIN (%d in a row)", c.pinFails))
			return
		}
		c.pinFails, c.pinWait = 0, 0
		c.arbiter = true
		c.game.Note("lock: opened with the arbiter's PIN")
		then(c, at)
	}))
}

// lockItem locks the clock (asking for a PIN first when none is set), or,
// opened with the PIN, lifts the lock until it is locked again.
func (c *Core) lockItem() item {
	return item{label: func() string {
		if c.set.Locked {
			return "Unlock"
		}
		return "Lock now"
	}, ok: func(c *Core, at time.Duration) {
		if c.set.Locked {
			c.setLocked(false)
			c.saveSettings()
			c.say(at, "UNLOCKED")
			return
		}
		lock := func(c *Core, at time.Duration) {
			c.setLocked(true)
			c.saveSettings()
			c.closeMenu()
			c.say(at, "LOCKED")
		}
		if c.set.PINHash == "" {
			c.setPIN(at, lock)
			return
		}
		lock(c, at)
	}}
}

// setPIN asks for a new PIN twice and keeps it (as its hash); then runs
// after that.
func (c *Core) setPIN(at time.Duration, then func(c *Core, at time.Duration)) {
	c.push(pinForm("New PIN", func(c *Core, at time.Duration, first string) {
		c.push(pinForm("PIN again", func(c *Core, at time.Duration, again string) {
			if again != first {
				c.say(at, "PINS DIFFER")
				return
			}
			c.set.PINHash = config.HashPIN(first)
			c.saveSettings()
			c.game.Note("lock: a new PIN was set")
			c.say(at, "PIN SET")
			if then != nil {
				then(c, at)
			}
		}))
	}))
}

// setLocked turns the lock on or off, for the game under way too.
func (c *Core) setLocked(on bool) {
	c.set.Locked = on
	if c.keep != nil {
		c.keep.locked = on
	}
	c.game.Note("settings lock " + onOff(on))
	c.noteGameSettings()
}

// --- a game keeps the settings it started with -----------------------

// gameKeep holds what the config files say of the settings a game keeps
// (which lever plays White, the lock) while a recovered game goes on with
// its own: else a config imported during a game would swap its levers
// and lift its lock at the next restart. They apply from the next
// game; the files are not rewritten.
type gameKeep struct{ whiteLeft, locked bool }

// noteGameSettings writes the game's settings to its journal, where a
// recovery finds them.
func (c *Core) noteGameSettings() {
	c.game.NoteSettings(c.set.WhiteLeft, c.set.Locked && c.set.PINHash != "")
}

// keepGameSettings gives a recovered game the settings its journal says
// it had, if the files now say otherwise.
func (c *Core) keepGameSettings() {
	st := c.game.State(c.now)
	white, locked, ok := c.game.RecoveredSettings()
	if !ok || !st.Started || white == c.set.WhiteLeft && locked == (c.set.Locked && c.set.PINHash != "") {
		return
	}
	if locked && c.set.PINHash == "" {
		// No PIN left to lift it with (the settings file keeps the PIN of
		// a lock on, so only a hand-edited file gets here): a lock no one
		// can lift would keep the arbiter out too.
		c.log("recovery: the game was locked, but no PIN is set now: unlocked")
		locked = false
	}
	c.keep = &gameKeep{whiteLeft: c.set.WhiteLeft, locked: c.set.Locked}
	msg := fmt.Sprintf("recovery: the game keeps its settings (white %s, lock %s); the config's (white %s, lock %s) apply from the next game",
		whiteSide(white), onOff(locked), whiteSide(c.set.WhiteLeft), onOff(c.set.Locked))
	c.set.WhiteLeft, c.set.Locked = white, locked
	c.log(msg)
	c.game.Note(msg)
}

// toSave is what the settings file gets: the files' values of what a
// recovered game keeps.
func (c *Core) toSave() Settings {
	s := c.set
	if c.keep != nil {
		s.WhiteLeft, s.Locked = c.keep.whiteLeft, c.keep.locked
	}
	return s
}

// endKeep: the next game takes the files' settings.
func (c *Core) endKeep() {
	if c.keep != nil {
		c.set.WhiteLeft, c.set.Locked = c.keep.whiteLeft, c.keep.locked
		c.keep = nil
	}
}
