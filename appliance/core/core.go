package core

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/zeitnot/zeitnot/appliance/journal"
	"github.com/zeitnot/zeitnot/drivers/buzzer"
	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/engine/preset"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
)

// Opts configure a Core.
type Opts struct {
	StateDir string          // where the journal lives; "" keeps it in memory only
	Settings Settings        // settings from the config files
	Presets  []preset.Preset // saved custom presets
	Store    Store           // where menu changes are saved; nil: not saved
	Sound    buzzer.Buzzer   // nil: silent
	Log      func(string)    // where notices go (the daemon's log); nil: dropped
	Messages []string        // problems to show at start (bad config files)
	Now      time.Duration   // the monotonic instant of start-up
}

// Core is the appliance's state. It is not safe for concurrent use: the
// daemon's event loop owns it.
type Core struct {
	set     Settings
	saved   []preset.Preset
	store   Store
	sound   buzzer.Buzzer
	logf    func(string)
	dir     string
	jr      *journal.Journal
	clk     *clock.Clock
	ctlName string // what the game screen and menu call the control
	offset  int64  // log ms = monotonic ms + offset
	lastLog int64  // log instant of the last line written
	started bool   // the current game has started (its journal has a start)

	recovered  bool   // the game came back from its journal; shown until resumed
	warning    string // storage trouble, shown as a banner
	devWarning string // device trouble reported by the daemon
	messages   []string
	msgUntil   time.Duration

	pages      []page          // the menu stack; empty: the game screen
	down       map[string]bool // buttons held now
	heldOK     bool            // ok's hold was seen since its press
	combo      bool            // the lock combination fired since the press
	banner     string          // short-lived notice
	until      time.Duration   // when the banner goes
	lowHit     [2]bool         // low-time warning given
	alarm      bool            // flag alarm given
	now        time.Duration   // latest instant seen
	switched   bool            // a clock was started by a lever or pause
	lastSwitch time.Duration   // when
	stats      journal.Stats   // write counters of finished journals
}

// New returns a core ready to run: the game recovered from the journal in
// opts.StateDir if there is one, else a new game on the last used control.
func New(opts Opts) *Core {
	c := &Core{
		set:      opts.Settings,
		saved:    opts.Presets,
		store:    opts.Store,
		sound:    opts.Sound,
		logf:     opts.Log,
		dir:      opts.StateDir,
		down:     map[string]bool{},
		messages: opts.Messages,
		now:      opts.Now,
	}
	if len(c.messages) > 0 {
		c.msgUntil = opts.Now + 15*time.Second
		for _, m := range c.messages {
			c.log(m)
		}
	}
	if c.sound != nil {
		c.sound.SetMuted(!c.set.Sound)
	}
	if c.dir != "" && c.recover(opts.Now) {
		return c
	}
	if err := c.newGame(opts.Now, c.set.Control, c.set.Options); err != nil {
		c.log(fmt.Sprintf("control %q: %v; using %s", c.set.Control, err, DefaultSettings.Control))
		c.set.Control = DefaultSettings.Control
		c.newGame(opts.Now, DefaultSettings.Control, DefaultSettings.Options)
	}
	return c
}

func (c *Core) log(s string) {
	if c.logf != nil {
		c.logf(s)
	}
}

// ms maps a monotonic instant to the clock log's milliseconds.
func (c *Core) ms(t time.Duration) int64 { return t.Milliseconds() + c.offset }

// logMs is the log instant of an input at t. A press reaches the core a
// debounce interval after its first edge, and a checkpoint may have been
// written in between; the journal's instants never go back, so such a
// press counts from the checkpoint, at most the debounce interval late.
func (c *Core) logMs(t time.Duration) int64 { return max(c.ms(t), c.lastLog) }

// resolve turns a preset key (or name) or a notation into controls and the
// name the clock shows.
func (c *Core) resolve(control string) (timecontrol.Pair, string, error) {
	for _, p := range c.allPresets() {
		if p.Key == control || p.Name == control {
			pair, err := p.Controls()
			return pair, p.Name, err
		}
	}
	pair, err := timecontrol.ParsePair(control)
	if err != nil {
		return pair, "", err
	}
	return pair, c.nameOf(pair), nil
}

func (c *Core) allPresets() []preset.Preset {
	return append(preset.All[:len(preset.All):len(preset.All)], c.saved...)
}

// newGame ends the current game (archiving its journal if it started) and
// sets the clock to control under opt.
func (c *Core) newGame(now time.Duration, control string, opt clock.Options) error {
	pair, name, err := c.resolve(control)
	if err != nil {
		return err
	}
	clk, err := clock.New(pair, opt)
	if err != nil {
		return err
	}
	archive := c.started
	c.clk, c.ctlName, c.started, c.recovered = clk, name, false, false
	c.offset = -now.Milliseconds()
	c.lastLog = 0
	c.lowHit, c.alarm = [2]bool{}, false
	if c.set.Control != control || c.set.Options != opt {
		c.set.Control, c.set.Options = control, opt
		c.saveSettings()
	}
	if c.jr != nil {
		// The finished game goes to the archive, an unstarted one is
		// replaced.
		if err := c.jr.Start(clocklog.Header{Format: clocklog.Format, Controls: pair, Options: opt}, archive); err != nil {
			c.storageTrouble(err)
		} else if c.jr.Cleared() {
			c.warning = ""
		}
	}
	return nil
}

func (c *Core) closeJournal() {
	if c.jr != nil {
		st := c.jr.Stats()
		c.stats.Bytes += st.Bytes
		c.stats.Syncs += st.Syncs
		c.jr.Close()
		c.jr = nil
	}
}

// recover brings back the game in the state directory, if any, and opens
// its journal.
func (c *Core) recover(now time.Duration) bool {
	jr, r, err := journal.Open(c.dir, nil)
	c.jr = jr
	for _, n := range r.Notes {
		c.log(n)
	}
	if r.Lost != nil {
		c.log(r.Lost.Error())
		c.warning = "JOURNAL LOST"
	}
	if err != nil {
		c.storageTrouble(err)
	}
	if r.Clock == nil {
		return false
	}
	for _, d := range r.Dropped {
		c.log("recovery: " + d.Error())
	}
	c.clk = r.Clock
	c.ctlName = c.nameOf(r.Header.Controls)
	// Log time goes on from the last instant the journal proves: the time
	// the clock was off counts for nobody.
	c.offset = max(r.Last, now.Milliseconds()) - now.Milliseconds()
	c.lastLog = r.Last
	st := c.clk.State(r.Last)
	c.started = st.Started
	c.recovered = st.Started && !st.Stopped
	if c.recovered {
		msg := fmt.Sprintf("recovered after restart at %d ms, paused", r.Last)
		if len(r.Dropped) > 0 {
			msg += "; dropped: " + errors.Join(r.Dropped...).Error()
		}
		c.note(msg)
		c.log(msg)
	}
	return true
}

// nameOf names controls by their preset, or their notation.
func (c *Core) nameOf(p timecontrol.Pair) string {
	spec := timecontrol.FormatPair(p)
	for _, pr := range c.allPresets() {
		if pr.Spec == spec {
			return pr.Name
		}
	}
	return spec
}

// record applies nothing: it writes e to the journal, durably, before the
// display shows its effect.
func (c *Core) record(e clocklog.Event) {
	c.lastLog = e.At
	if c.jr == nil {
		return
	}
	if err := c.jr.Append(e); err != nil {
		c.storageTrouble(err)
	} else if c.jr.Cleared() {
		c.warning = ""
		c.log("journal: written again: the lines held in memory are on disk")
	}
}

func (c *Core) note(text string) {
	if c.jr != nil {
		if err := c.jr.Note(text); err != nil {
			c.storageTrouble(err)
		} else if c.jr.Cleared() {
			c.warning = ""
			c.log("journal: written again: the lines held in memory are on disk")
		}
	}
}

// storageTrouble keeps the clock running and says what went wrong: in the
// log when the warning changes (a journal holding its lines fails at every
// line until the disk takes them).
func (c *Core) storageTrouble(err error) {
	msg := err.Error()
	w := "SAVE FAILED"
	switch {
	case strings.Contains(msg, "no space"):
		w = "DISK FULL"
	case strings.Contains(msg, "read-only"), strings.Contains(msg, "permission denied"):
		w = "READ-ONLY"
	}
	if w != c.warning {
		c.log(msg)
	}
	c.warning = w
}

func (c *Core) saveSettings() {
	if c.store == nil {
		return
	}
	if err := c.store.SaveSettings(c.set); err != nil {
		c.storageTrouble(err)
	}
}

func (c *Core) play(p buzzer.Pattern) {
	if c.sound != nil && c.set.Sound {
		c.sound.Play(p)
	}
}

// Settings returns the current settings.
func (c *Core) Settings() Settings { return c.set }

// Clock returns the game's clock (for tests and status).
func (c *Core) Clock() *clock.Clock { return c.clk }

// Stats returns the journal write counters since start.
func (c *Core) Stats() journal.Stats {
	st := c.stats
	if c.jr != nil {
		s := c.jr.Stats()
		st.Bytes += s.Bytes
		st.Syncs += s.Syncs
	}
	return st
}

// Close closes the journal.
func (c *Core) Close() { c.closeJournal() }
