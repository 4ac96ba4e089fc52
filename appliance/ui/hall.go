package ui

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/zeitnot/zeitnot/appliance/config"
	"github.com/zeitnot/zeitnot/appliance/session"
	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
)

// What the hall asks of the clock through the daemon's control socket
// (docs/hall-protocol.md, "What the daemon serves the link"). None of it
// changes a running game's times or moves: a new control waits for the
// next game, and a takeover is refused while this clock's own game is in
// progress. Every command carried out is a comment line in the journal
// ("hall: ..."); a refused one changes nothing.

// ErrInProgress refuses a takeover while the clock's own game is under way.
var ErrInProgress = errors.New("a game is in progress on this clock")

// inProgress: the game has started and not ended.
func inProgress(st clock.State) bool { return st.Started && !gameOver(st) }

// NextGame sets the control of the next game: a preset key or a notation
// (as the config's [game] control), with options by name over the
// preset's (or the defaults). The current game gets it too if it has not
// started. It reports whether the current game changed.
func (c *Core) NextGame(now time.Duration, control string, options map[string]string, by string) (bool, error) {
	c.advance(now)
	r, err := config.Presets(c.saved).Resolve(control)
	if err != nil {
		return false, fmt.Errorf("control %q: %v", control, err)
	}
	opt := r.Options
	keys := make([]string, 0, len(options))
	for k := range options {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var words []string
	for _, k := range keys {
		if err := opt.Set(k, options[k]); err != nil {
			return false, err
		}
		words = append(words, k+" "+options[k])
	}
	note := by + ": next-game " + control
	if len(words) > 0 {
		note += " (" + strings.Join(words, ", ") + ")"
	}
	if st := c.game.State(c.now); !st.Started {
		if err := c.newGame(c.now, control, opt); err != nil {
			return false, err
		}
		c.game.Note(note)
		c.game.Emit(session.Event{Kind: session.Hall, At: c.game.Ms(c.now), Side: clock.NoSide, Text: "next-game"})
		return true, nil
	}
	// The game under way keeps its control; the next one ("again", a new
	// game after this one) gets this.
	c.game.Note(note + ": for the next game")
	if c.set.Control != control || c.set.Options != opt {
		c.set.Control, c.set.Options = control, opt
		c.saveSettings()
	}
	c.game.Emit(session.Event{Kind: session.Hall, At: c.game.Ms(c.now), Side: clock.NoSide, Text: "next-game"})
	return false, nil
}

// HallPause pauses the running clock (the hall's pause, or pause all). It
// reports whether a clock ran.
func (c *Core) HallPause(now time.Duration, by string) bool {
	c.advance(now)
	st := c.game.State(c.now)
	if st.Running == clock.NoSide {
		c.game.Note(by + ": pause: no clock was running")
		c.game.Emit(session.Event{Kind: session.Hall, At: c.game.Ms(c.now), Side: clock.NoSide, Text: "pause"})
		return false
	}
	c.game.Note(by + ": pause")
	ok := c.game.Pause(c.now)
	if ok {
		c.hallPaused = true
	}
	return ok
}

// ErrNotHallPause refuses the hall's resume of a pause the hall did not
// make.
var ErrNotHallPause = errors.New("the game was paused at the clock, not by the hall: the arbiter resumes it at the board")

// HallResume resumes a game the hall paused (HallPause) and nothing else:
// a pause made at the clock (the arbiter's, FIDE 6.11.1, or a takeover's
// for checking) is the arbiter's to lift there. It reports whether a
// clock was resumed: false, with no error, when the game is not paused.
// After a restart the clock does not know who paused: it refuses, and the
// arbiter resumes at the board.
func (c *Core) HallResume(now time.Duration, by string) (bool, error) {
	c.advance(now)
	st := c.game.State(c.now)
	if !st.Paused || st.Stopped {
		c.game.Note(by + ": resume: the game was not paused")
		c.game.Emit(session.Event{Kind: session.Hall, At: c.game.Ms(c.now), Side: clock.NoSide, Text: "resume"})
		return false, nil
	}
	if !c.hallPaused {
		c.game.Note(by + ": resume refused: paused at the clock")
		c.game.Emit(session.Event{Kind: session.Hall, At: c.game.Ms(c.now), Side: clock.NoSide, Text: "resume"})
		return false, ErrNotHallPause
	}
	c.game.Note(by + ": resume")
	c.hallPaused = false
	return c.game.Resume(c.now), nil
}

// TakeOver sets up another board's game on this clock (FIDE 6.10): see
// session.Takeover. It is refused while this clock's own game is in
// progress; the game comes up paused, marked TAKEN OVER until the arbiter
// resumes it.
func (c *Core) TakeOver(now time.Duration, t session.Takeover, by string) error {
	c.advance(now)
	if inProgress(c.game.State(c.now)) {
		return ErrInProgress
	}
	if t.Note != "" {
		t.Note = by + ": " + t.Note
	}
	if err := c.game.TakeOver(c.now, t); err != nil {
		return err
	}
	c.hallPaused = false // it comes up paused for the arbiter to check, at the board
	c.endKeep()
	c.noteGameSettings()
	c.pages = nil
	c.armed = false
	c.game.Emit(session.Event{Kind: session.Hall, At: c.game.Ms(c.now), Side: clock.NoSide, Text: "takeover"})
	return nil
}

// ErrStarted refuses the hall's start of a game that has already started.
var ErrStarted = errors.New("the game has already started")

// ErrEnded refuses the hall's start of a game that has ended.
var ErrEnded = errors.New("the game has ended: a new game comes first")

// HallStart starts the game now: White's clock runs (the hall's start
// command, the arbiter's). A game waiting for the round's scheduled start
// starts early; the scheduled start still counts for the default time
// (FIDE 6.6). A locked clock takes it without the PIN: the hall is the
// arbiter. It is refused for a game that has started or ended. The detail
// says more than ok, for the hall.
func (c *Core) HallStart(now time.Duration, by string) (detail string, err error) {
	c.advance(now)
	return c.startNow(c.now, by)
}

// startNow starts the game at at for by (hall, arbiter), and journals it.
func (c *Core) startNow(at time.Duration, by string) (string, error) {
	st := c.game.State(at)
	r, _ := c.game.Result()
	switch {
	case gameOver(st) || r != clocklog.NoResult:
		return "", ErrEnded
	case st.Started:
		return "", ErrStarted
	}
	rv := c.round()
	round := &c.hall.Round
	note, detail := by+": start: White's clock started", ""
	if rv.waiting {
		note = fmt.Sprintf("%s: start: White's clock started early, %s before the round's scheduled start %s; the default time %s counts from the scheduled start (FIDE 6.6)",
			by, countdown(rv.startsIn), utc(round.StartMs), time.Duration(round.DefaultMs)*time.Millisecond)
		detail = "early: " + countdown(rv.startsIn) + " before the round's start"
	}
	c.game.Note(note)
	if !c.game.Start(at) {
		return "", ErrStarted
	}
	c.switched, c.lastSwitch = true, at
	c.armed = false
	if len(c.pages) > 0 {
		// The running clock shows, not a menu left open; a locked
		// clock is locked again.
		c.pages, c.arbiter = nil, false
	}
	if rv.waiting {
		round.Game, round.GameStartMs, round.GameDefaultMs = c.game.GameID(), round.StartMs, round.DefaultMs
		c.saveHall()
	}
	c.game.Emit(session.Event{Kind: session.Hall, At: c.game.Ms(at), Side: clock.NoSide, Text: "start"})
	return detail, nil
}
