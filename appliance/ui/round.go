package ui

import (
	"errors"
	"fmt"
	"github.com/zeitnot/zeitnot/protocol"
	"time"

	"github.com/zeitnot/zeitnot/appliance/journal"
	"github.com/zeitnot/zeitnot/appliance/screen"
	"github.com/zeitnot/zeitnot/appliance/session"
	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
)

// The round: its scheduled start (FIDE 6.5, "At the time determined for the
// start of the game, the clock of the player who has the white pieces is
// started") and its default time (6.6: a player who arrives at the
// chessboard more than the default time after the scheduled start loses,
// unless the rules of the event say otherwise). Both are settings of the
// round, from the hall (the link's `round`) or the setup menu.
//
// The core reads no clock: the daemon gives it the time of day with the
// monotonic instant it was read at (SetTimeOfDay), and the core maps the
// start onto the monotonic base with it, so the loop wakes at the start,
// to the millisecond of that reading.
//
// A clock that waits for the start (its game set up, not started, the
// time of day before the start) shows the start's time of day and the
// countdown where the game's banner goes, with the source of its time:
// 18:30 IN 4:59 NTP. Its levers and pause do not start it (a press says
// ROUND 18:30); the arbiter may start it early (Setup, Start now, or the
// hall's start), and the scheduled start still counts for the default
// time. At the start it starts White's clock, exactly at the start's
// instant. A clock that
// was off, or had no game waiting, at the start does not start by itself
// later: the arbiter starts it. Once the default time has passed since the
// scheduled start, a side of the game the schedule started that has not
// completed a move is marked DEFAULT on its display and in the status; the
// clock does not end the game, the arbiter decides.

// Round is the round's schedule.
type Round struct {
	StartMs   int64 `json:"start_ms"`   // the scheduled start, Unix ms; 0: none
	DefaultMs int64 `json:"default_ms"` // the default time (FIDE 6.6); 0 as in the current Laws: any lateness
	// Game is the id of the game the scheduled start started: the game
	// the default time applies to.
	Game string `json:"game,omitempty"`
	// GameStartMs and GameDefaultMs are Game's own schedule: a round
	// sent for the next game (another start) while Game is in progress
	// leaves Game's DEFAULT marks as they were. 0 in files written
	// before them: StartMs and DefaultMs then.
	GameStartMs   int64 `json:"game_start_ms,omitempty"`
	GameDefaultMs int64 `json:"game_default_ms,omitempty"`
}

// gameSchedule is the start and default time the DEFAULT marks of Game
// are counted from.
func (r Round) gameSchedule() (start, def int64) {
	if r.GameStartMs != 0 {
		return r.GameStartMs, r.GameDefaultMs
	}
	return r.StartMs, r.DefaultMs
}

// Players are the players' names, "" for none.
type Players = protocol.Players

// HallState is what the hall (or the arbiter, for the round) set on this
// board beyond the settings: kept in the state directory by a Store that
// is a HallStore, and given back to New in Opts.Hall.
type HallState struct {
	Round   Round   `json:"round"`
	Players Players `json:"players"`
	// Pairing is the round's pairing the game PairingGame was opened
	// for; nil when none.
	Pairing     *protocol.Pairing `json:"pairing,omitempty"`
	PairingGame string            `json:"pairing_game,omitempty"`
}

// HallStore is a Store that also keeps the HallState.
type HallStore interface {
	SaveHall(HallState) error
}

// MaxDefault is the longest default time.
const MaxDefault = 24 * time.Hour

// maxAhead bounds how far a start may be from the time of day, either
// way: a year (ms).
const maxAhead = 366 * 24 * 3600 * 1000

// roundView is what a round means at one instant of the time of day.
type roundView struct {
	waiting  bool    // the game waits for the scheduled start: the countdown shows
	startsIn int64   // while waiting: ms to the start
	due      bool    // the start has come for a waiting game: White's clock starts
	def      [2]bool // by clock.White, clock.Black: marked DEFAULT
	next     int64   // the next time of day (Unix ms) at which the view changes; 0: none
}

// roundGame is what roundAt needs of the game.
type roundGame struct {
	id      string
	started bool
	armed   bool   // the game was seen waiting before the start
	moves   [2]int // moves completed, by clock.White, clock.Black
}

// roundAt is round r at time of day wall (Unix ms) for game g. The
// countdown shows whole seconds rounded up (4:59 from 299 s to 298.001 s
// before the start), so it changes on the second before the start; the
// start is due at the start's millisecond.
func roundAt(r Round, wall int64, g roundGame) roundView {
	var v roundView
	if r.StartMs == 0 {
		return v
	}
	if !g.started {
		if !g.armed {
			return v
		}
		if wall >= r.StartMs {
			v.due = true
			return v
		}
		v.waiting = true
		v.startsIn = r.StartMs - wall
		v.next = wall + (v.startsIn-1)%1000 + 1
		return v
	}
	if g.id == "" || g.id != r.Game {
		return v
	}
	start, def := r.gameSchedule()
	at := start + def
	if wall < at {
		v.next = at
		return v
	}
	// The mark means "has not completed a move though it could have":
	// White from the start, Black once White has completed its first
	// move (Black cannot move before).
	v.def[clock.White] = g.moves[clock.White] == 0
	v.def[clock.Black] = g.moves[clock.Black] == 0 && g.moves[clock.White] > 0
	return v
}

// countdown writes ms as the displays show a countdown: whole seconds
// rounded up, m:ss or h:mm:ss.
func countdown(ms int64) string {
	s := (max(ms, 0) + 999) / 1000
	return screen.FormatTime(s*1000, 0, false)
}

// startOfDay is the round's scheduled start as the displays write it: the
// time of day in the clock's zone, 18:30.
func (c *Core) startOfDay() string {
	return time.UnixMilli(c.hall.Round.StartMs).In(c.zone()).Format("15:04")
}

// roundBanner is what a lever or pause says while the game waits for the
// round's scheduled start: ROUND 18:30.
func (c *Core) roundBanner() string { return "ROUND " + c.startOfDay() }

// sourceMark is how the displays name a time source.
func sourceMark(src string) string {
	switch src {
	case "ntp":
		return "NTP"
	case "rtc":
		return "RTC"
	case "arbiter":
		return "ARB"
	case "sim":
		return "SIM"
	case "host":
		return "HOST"
	}
	return "NO TIME"
}

// round is the round now.
func (c *Core) round() roundView {
	st := c.game.State(c.now)
	g := roundGame{id: c.game.GameID(), started: st.Started, armed: c.armed}
	for _, s := range []clock.Side{clock.White, clock.Black} {
		g.moves[s] = st.Player[s].Moves
	}
	return roundAt(c.hall.Round, c.wall(c.now), g)
}

// tickRound does what the round brings at now: White's clock started at
// the scheduled start, and the DEFAULT marks noted when they appear.
func (c *Core) tickRound(now time.Duration) {
	r := &c.hall.Round
	if r.StartMs == 0 {
		c.armed = false
		return
	}
	st := c.game.State(now)
	wall := c.wall(now)
	switch {
	case st.Started:
		c.armed = false
	case wall < r.StartMs && c.timeKnown():
		// A game waits for the start only by a time of day the clock
		// trusts; once waiting, it goes on by the system clock should
		// the source drop out (the NTP flag file gone for a moment).
		c.armed = true
	}
	v := c.round()
	if v.due {
		// At the start's own instant, mapped by the last reading: the
		// loop woke for it. A time of day that jumped past the start
		// (the system clock set) starts the clock no earlier than the
		// previous turn of the loop, when it still waited.
		at := min(max(c.mono(r.StartMs), c.prevTick), now)
		c.armed = false
		if c.game.Start(at) {
			c.switched, c.lastSwitch = true, at
			c.pages = nil // the running clock shows, not a menu left open
			r.Game, r.GameStartMs, r.GameDefaultMs = c.game.GameID(), r.StartMs, r.DefaultMs
			c.saveHall()
			c.game.Note(fmt.Sprintf("round: White's clock started at the scheduled start %s (FIDE 6.5); default time %s",
				utc(r.StartMs), time.Duration(r.DefaultMs)*time.Millisecond))
		}
		return
	}
	if c.defGame != c.game.GameID() {
		c.defGame, c.defHit = c.game.GameID(), [2]bool{}
	}
	for _, s := range []clock.Side{clock.White, clock.Black} {
		if v.def[s] && !c.defHit[s] {
			c.defHit[s] = true
			c.game.Note(fmt.Sprintf("default: %s has not completed a move %s after the scheduled start %s (FIDE 6.6): marked DEFAULT; the arbiter decides",
				s, time.Duration(r.DefaultMs)*time.Millisecond, utc(r.StartMs)))
			c.game.Emit(session.Event{Kind: session.Default, At: c.game.Ms(now), Side: s})
		}
	}
}

// utc writes a time of day for the journal: RFC 3339 in UTC.
func utc(ms int64) string {
	return time.UnixMilli(ms).UTC().Format("2006-01-02T15:04:05.000Z07:00")
}

// SetRound sets the round's scheduled start and default time, for the
// next game to start at the start, or the current one if it has not
// started; by says who (hall, arbiter) in the journal. A start needs a
// time of day the clock trusts. The detail says more than ok, for the
// hall: a start that has passed starts nothing.
func (c *Core) SetRound(now time.Duration, r Round, by string) (detail string, err error) {
	c.advance(now)
	if r.StartMs < 0 {
		return "", fmt.Errorf("start %d: want Unix milliseconds, or 0 for none", r.StartMs)
	}
	if r.DefaultMs < 0 || r.DefaultMs > MaxDefault.Milliseconds() {
		return "", fmt.Errorf("default time %d ms: want 0 to %d", r.DefaultMs, MaxDefault.Milliseconds())
	}
	if r.StartMs != 0 && !c.timeKnown() {
		return "", fmt.Errorf("the clock does not know the time of day (no NTP synchronization, no valid real-time clock, not set by the arbiter): set it in the menu (Setup, Time of day) before scheduling a start")
	}
	if d := r.StartMs - c.wall(c.now); r.StartMs != 0 && (d > maxAhead || d < -maxAhead) {
		return "", fmt.Errorf("start %s is more than a year from the clock's time of day, %s (%s): check the start, or the clock's time", utc(r.StartMs), utc(c.wall(c.now)), c.tod.Source)
	}
	old := c.hall.Round
	r.Game, r.GameStartMs, r.GameDefaultMs = "", 0, 0
	st0 := c.game.State(c.now)
	switch {
	case r.StartMs == old.StartMs && old.Game != "":
		// The same start again: the game it started takes the default
		// time as corrected.
		r.Game, r.GameStartMs, r.GameDefaultMs = old.Game, r.StartMs, r.DefaultMs
	case old.Game != "" && old.Game == c.game.GameID() && inProgress(st0):
		// A round for the next game: the game in progress keeps its own
		// schedule and its DEFAULT marks.
		r.Game = old.Game
		r.GameStartMs, r.GameDefaultMs = old.gameSchedule()
	}
	c.hall.Round = r
	c.armed = false
	st := c.game.State(c.now)
	wall := c.wall(c.now)
	if r.StartMs != 0 && !st.Started && wall < r.StartMs {
		c.armed = true
	}
	c.saveHall()
	note := "round: none"
	if r.StartMs != 0 {
		note = fmt.Sprintf("round start %s, default time %s", utc(r.StartMs), time.Duration(r.DefaultMs)*time.Millisecond)
	}
	c.game.Note(by + ": " + note)
	c.game.Emit(session.Event{Kind: session.Hall, At: c.game.Ms(c.now), Side: clock.NoSide, Text: "round"})
	switch {
	case r.StartMs != 0 && wall >= r.StartMs && !st.Started:
		detail = "the start has passed: the clock does not start by itself"
	case r.StartMs != 0 && st.Started && wall < r.StartMs:
		detail = "a game is in progress: the start applies to the next game"
	}
	return detail, nil
}

// Round returns the round's schedule.
func (c *Core) Round() Round { return c.hall.Round }

// SetPlayers sets the players' names; nil keeps a name, "" clears it.
func (c *Core) SetPlayers(now time.Duration, white, black *string, by string) {
	c.advance(now)
	if white != nil {
		c.hall.Players.White = *white
	}
	if black != nil {
		c.hall.Players.Black = *black
	}
	c.saveHall()
	c.game.Note(journal.PlayersNote(by, c.hall.Players.White, c.hall.Players.Black))
	c.game.Emit(session.Event{Kind: session.Hall, At: c.game.Ms(c.now), Side: clock.NoSide, Text: "players"})
}

// ErrGameRuns refuses a round's pairing while the clock's game has
// started and has no result: a game under way is not renamed nor ended by
// the next round.
var ErrGameRuns = errors.New("the game still runs")

// Pairing takes round's pairing for board: a game with a result is
// archived and a new game opened for the pairing (an unstarted one is
// replaced), with the names, and the round and board journaled in the new
// game (journal.PairingNote). It refuses while the game runs (started, no
// result): a finished game is never renamed, a running one never ended.
func (c *Core) Pairing(now time.Duration, round, board int, white, black string, by string) error {
	c.advance(now)
	st := c.game.State(c.now)
	if r, _ := c.game.Result(); st.Started && r == clocklog.NoResult {
		return fmt.Errorf("%w: round %d board %d waits for its result", ErrGameRuns, round, board)
	}
	if err := c.newGame(c.now, c.set.Control, c.set.Options); err != nil {
		return err
	}
	c.hall.Players = Players{White: white, Black: black}
	c.hall.Pairing, c.hall.PairingGame = &protocol.Pairing{Round: round, Board: board}, c.game.GameID()
	c.saveHall()
	c.game.Note(journal.PairingNote(by, round, board, white, black))
	c.game.Emit(session.Event{Kind: session.Hall, At: c.game.Ms(c.now), Side: clock.NoSide, Text: "players"})
	return nil
}

// Players returns the players' names.
func (c *Core) Players() Players { return c.hall.Players }

func (c *Core) saveHall() {
	if hs, ok := c.store.(HallStore); ok {
		if err := hs.SaveHall(c.hall); err != nil {
			c.storageTrouble(err)
		}
	}
}
