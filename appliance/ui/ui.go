package ui

import (
	"cmp"
	"fmt"
	"time"

	"github.com/zeitnot/zeitnot/appliance/config"
	"github.com/zeitnot/zeitnot/appliance/journal"
	"github.com/zeitnot/zeitnot/appliance/session"
	"github.com/zeitnot/zeitnot/drivers/buzzer"
	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/preset"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
	"github.com/zeitnot/zeitnot/protocol"
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
	// Hall is what the hall (or the arbiter) set on this board: the round
	// and the players (round.go), as the Store last saved it.
	Hall HallState
	// SetTime, if set, keeps the time of day the arbiter sets in the menu
	// (the daemon cannot set the system clock: it keeps the difference);
	// it says why it cannot.
	SetTime func(at time.Duration, unixMs int64) error
	// Life is the tag of a new state directory's game ids (tests); see
	// session.Opts.
	Life string
	// Version is the version the About page shows; "" shows Version
	// (about.go).
	Version string
}

// Core is the clock's user interface: buttons in, pages, menus, banners and
// sounds out, over a game session (appliance/session) that it drives and
// listens to. It is not safe for concurrent use: the daemon's event loop
// owns it.
type Core struct {
	set   Settings
	saved []preset.Preset
	store Store
	sound buzzer.Buzzer
	logf  func(string)
	game  *session.Session

	devWarning   string        // device trouble reported by the daemon
	powerWarning string        // the power supply's state, from the daemon
	powerLevel   string        // the battery's charge, for the control view
	stickMsg     string        // a USB stick's export, on the game screen
	stickUntil   time.Duration // until then
	updateMsg    string        // an update's way (update.go), on the game screen
	updateUntil  time.Duration // until then
	messages     []string
	msgUntil     time.Duration

	pages      []page           // the menu stack; empty: the game screen
	down       map[string]bool  // buttons held now
	heldOK     bool             // ok's hold was seen since its press
	heldMinus  bool             // minus's hold was seen since its press (its seconds, not the result menu)
	used       map[string]bool  // buttons whose press a menu or message took
	arbiter    bool             // the arbiter's PIN opened the menus, until they close
	hallPaused bool             // the game's pause is the hall's: HallResume may lift it
	pinFails   int              // wrong PINs in a row
	pinWait    time.Duration    // no PIN is taken before then
	keep       *gameKeep        // the files' values, while a recovered game keeps its own
	banner     string           // short-lived notice
	until      time.Duration    // when the banner goes
	now        time.Duration    // latest instant seen
	secsUntil  [2]time.Duration // a side's seconds are shown until then (after its press)
	switched   bool             // a clock was started by a lever or pause
	lastSwitch time.Duration    // when

	board *protocol.BoardStatus // the e-board's, from the daemon (board.go); nil: none
	// setUpGame is the game the arbiter chose to start from the board's
	// set-up (SetUpStart); "" none.
	setUpGame string

	tod      TimeOfDay // the daemon's last reading of the time of day
	setTime  func(at time.Duration, unixMs int64) error
	hall     HallState
	armed    bool          // the game was seen waiting for the round's start
	prevTick time.Duration // the previous Tick's instant
	defGame  string        // the game defHit is of
	defHit   [2]bool       // the DEFAULT marks noted for it
	version  string        // shown on the About page
	speak    speaker       // the spoken clock (speech.go)
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
		down:     map[string]bool{},
		used:     map[string]bool{},
		messages: opts.Messages,
		now:      opts.Now,
		hall:     opts.Hall,
		setTime:  opts.SetTime,
		prevTick: opts.Now,
		tod:      TimeOfDay{Mono: opts.Now, Source: SourceNone},
		version:  cmp.Or(opts.Version, Version),
	}
	c.game = session.New(session.Opts{StateDir: opts.StateDir, Log: opts.Log, Name: c.nameOf, LowTimeMs: c.set.LowTimeMs, Life: opts.Life})
	c.game.Subscribe(c.sounds)
	c.game.Subscribe(c.spokenEvents)
	c.speak.menuOn = c.set.SpokenMenu
	if len(c.messages) > 0 {
		c.msgUntil = opts.Now + 15*time.Second
		for _, m := range c.messages {
			c.log(m)
		}
	}
	if c.sound != nil {
		c.sound.SetMuted(!c.set.Sound)
	}
	if c.game.Recover(opts.Now) {
		c.keepGameSettings()
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

// resolve turns a control key (a preset's key or a notation) into
// controls and the name the clock shows.
func (c *Core) resolve(control string) (timecontrol.Pair, string, error) {
	r, err := config.Presets(c.saved).Resolve(control)
	return r.Pair, r.Name, err
}

func (c *Core) allPresets() []preset.Preset {
	return append(preset.All[:len(preset.All):len(preset.All)], c.saved...)
}

// newGame ends the current game and sets up a new one on control under
// opt; the control and options become the settings' last used ones.
func (c *Core) newGame(now time.Duration, control string, opt clock.Options) error {
	pair, name, err := c.resolve(control)
	if err != nil {
		return err
	}
	oldID := c.game.GameID()
	carry := c.hall.Pairing != nil && oldID != "" && c.hall.PairingGame == oldID && !c.game.State(now).Started
	if err := c.game.NewGame(now, pair, opt, name); err != nil {
		return err
	}
	c.endKeep()
	c.noteGameSettings()
	if p := c.hall.Pairing; carry {
		// An unstarted game replaced (the round's control sent after
		// its pairing): the new game is the pairing's.
		c.hall.PairingGame = c.game.GameID()
		c.saveHall()
		c.game.Note(journal.PairingNote("clock", p.Round, p.Board, c.hall.Players.White, c.hall.Players.Black))
	}
	if c.set.Control != control || c.set.Options != opt {
		c.set.Control, c.set.Options = control, opt
		c.saveSettings()
	}
	return nil
}

// nameOf names controls by their preset, or their notation.
func (c *Core) nameOf(p timecontrol.Pair) string {
	spec := timecontrol.FormatPair(p)
	if _, name, err := c.resolve(spec); err == nil {
		return name
	}
	return spec
}

// sounds is the buzzer's subscription to the game's events.
func (c *Core) sounds(e session.Event) {
	switch e.Kind {
	case session.Pressed:
		if c.set.PressBeep {
			c.play(buzzer.Beep)
		}
	case session.Flagged:
		if c.set.FlagAlarm {
			c.play(buzzer.Alarm)
		}
	case session.LowTime:
		c.play(buzzer.DoubleBeep)
	}
}

// storageTrouble reports a settings or presets file that could not be
// written, as the session reports the journal's.
func (c *Core) storageTrouble(err error) { c.game.Trouble(err) }

func (c *Core) saveSettings() {
	c.game.SetLowTime(c.set.LowTimeMs)
	c.game.Emit(session.Event{Kind: session.SettingsChanged, Side: clock.NoSide})
	if c.store == nil {
		return
	}
	if err := c.store.SaveSettings(c.toSave()); err != nil {
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

// Session returns the game session, to subscribe to its events.
func (c *Core) Session() *session.Session { return c.game }

// Clock returns the game's clock (for tests and status).
func (c *Core) Clock() *clock.Clock { return c.game.Clock() }

// Stats returns the journal write counters since start.
func (c *Core) Stats() journal.Stats { return c.game.Stats() }

// Close closes the journal.
func (c *Core) Close() { c.game.Close() }
