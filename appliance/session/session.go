// Package session is the game session: the clock, its journal and its
// recovery after a power cut. It says what happens to the game as typed
// events (started, pressed, paused, resumed, corrected, flagged, low time,
// recovered, new game, storage trouble, default, hall) to whoever
// subscribes: the user interface, the sounds, `zeitnot watch` on the
// control socket and through it the hall's link. It knows none of them.
//
// Each game's journal has an id (gameid.go), and the session serves the
// journal's numbered lines back, of the current game and of the archive
// (loglines.go), for the hall (docs/hall-protocol.md). A takeover sets up
// another clock's game (takeover.go).
//
// A Session is deterministic: it never reads a clock and starts no
// goroutine. Every call carries the monotonic instant it happens at (the
// instant of the button's first edge for presses). Instants are
// time.Duration on the drivers' monotonic base; the clock log counts
// milliseconds from the start of the game's journal. A recovered game keeps
// its log instants: the session maps the new boot's monotonic base onto them
// with an offset.
//
// Every change to the game is written to the journal, durably, before the
// call returns, and so before any display shows it.
package session

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/zeitnot/zeitnot/appliance/journal"
	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
	"github.com/zeitnot/zeitnot/protocol"
)

// CheckpointEvery is the longest a running clock goes without a journal
// line: a power cut costs the running side at most this much.
const CheckpointEvery = clocklog.MaxLineGap

// CheckpointSlack is how much earlier than CheckpointEvery a checkpoint is
// due: the loop's wake-up may come late (a loaded CPU, a slow display bus),
// and a wake-up up to this late still writes within CheckpointEvery.
const CheckpointSlack = clocklog.MaxLineGap - clocklog.CheckpointDue

// checkpointDue is how long after the last line a running clock writes a
// checkpoint.
const checkpointDue = clocklog.CheckpointDue // salvage puts a lost press back this long before the next checkpoint

// Opts configure a Session.
type Opts struct {
	StateDir string       // where the journal lives; "" keeps the game in memory only
	Log      func(string) // where notices go (the daemon's log); nil drops them
	// Name names controls for people (a preset's name, or the notation);
	// nil uses the notation.
	Name func(timecontrol.Pair) string
	// LowTimeMs is the low-time threshold: a LowTime event when the running
	// side's time falls below it; 0 is off.
	LowTimeMs int64
	// Life, if set, is the tag of the game ids of a state directory that
	// has none yet (tests); default: 6 random hex digits (gameid.go).
	Life string
}

// Session is one game and its journal. It is not safe for concurrent use:
// the daemon's event loop owns it.
type Session struct {
	dir     string
	logf    func(string)
	nameOf  func(timecontrol.Pair) string
	lowTime int64
	subs    []func(Event)

	jr        *journal.Journal
	clk       *clock.Clock
	name      string // what the game screen and menu call the control
	offset    int64  // log ms = monotonic ms + offset
	lastLog   int64  // log instant of the last line written
	started   bool   // the current game has started (its journal has a start)
	recovered bool   // the game came back from its journal; until resumed
	warning   string // storage trouble, shown as a banner
	dropped   int    // journal lines the recovery could not use
	flagged   bool   // the Flagged event was emitted for this game
	lowHit    [2]bool

	id        string   // the game's id (gameid.go)
	seq       int64    // numbered lines of the game on disk; 0: not known
	unsent    []string // numbered lines written since the last event that carried one
	ids       idState
	life      string
	archive   map[string]archivedGame // the archive's games by file name
	cur       *lineIndex              // the current journal's lines
	arch      []*lineIndex            // archived games' lines, the last asked first
	mem       []string                // the game's numbered lines, without a journal
	carried   [2]bool                 // overstep marks a takeover carried over (takeover.go)
	takenOver bool                    // the game was taken over; until resumed
	settings  *gameSettings           // what the recovered game's journal last noted of its settings
	logErr    string                  // the last trouble reading the journal's lines, logged once
	result    clocklog.Event          // the game's last result line; Verb 0 if none
	presses   int                     // presses of the game that completed a move (board.go)
	board     boardRecord             // the journal's move and position lines (board.go)
}

// New returns a session with no game yet: call Recover, then NewGame if
// there was nothing to recover.
func New(o Opts) *Session {
	if o.Name == nil {
		o.Name = timecontrol.FormatPair
	}
	return &Session{dir: o.StateDir, logf: o.Log, nameOf: o.Name, lowTime: o.LowTimeMs, life: o.Life}
}

func (s *Session) newLife() string {
	if s.life != "" {
		return s.life
	}
	return newLife()
}

// Subscribe adds f to the functions every event is given to, in the order
// they subscribed. f runs in the caller's goroutine and must not block.
func (s *Session) Subscribe(f func(Event)) { s.subs = append(s.subs, f) }

// Emit gives e to the subscribers. The session emits the game's events
// itself; the user interface emits the ones it originates (SettingsChanged)
// through here, so subscribers have one source.
func (s *Session) Emit(e Event) {
	for _, f := range s.subs {
		f(e)
	}
}

func (s *Session) log(msg string) {
	if s.logf != nil {
		s.logf(msg)
	}
}

// LogMs is the clock log's instant for an input at monotonic instant t. A
// press reaches the session a debounce interval after its first edge, and a
// checkpoint may have been written in between; the journal's instants never
// go back, so such a press counts from the checkpoint, at most the debounce
// interval late.
func (s *Session) LogMs(t time.Duration) int64 { return max(t.Milliseconds()+s.offset, s.lastLog) }

// Ms is the clock log's instant for monotonic instant t, unclamped.
func (s *Session) Ms(t time.Duration) int64 { return t.Milliseconds() + s.offset }

// mono maps a clock-log instant back to the monotonic base.
func (s *Session) mono(ms int64) time.Duration { return time.Duration(ms-s.offset) * time.Millisecond }

// State is the clock at monotonic instant now. A side's overstep mark
// carried over by a takeover counts as the clock's own.
func (s *Session) State(now time.Duration) clock.State {
	st := s.clk.State(s.LogMs(now))
	for _, side := range []clock.Side{clock.White, clock.Black} {
		if s.carried[side] {
			st.Player[side].Overstep = true
		}
	}
	return st
}

// Clock returns the game's clock (for tests and status).
func (s *Session) Clock() *clock.Clock { return s.clk }

// Name is what the displays call the game's control.
func (s *Session) Name() string { return s.name }

// Recovered reports whether the game came back from its journal and has
// not been resumed since.
func (s *Session) Recovered() bool { return s.recovered }

// Warning is the storage trouble to show ("DISK FULL", ...), or "".
func (s *Session) Warning() string { return s.warning }

// SetLowTime sets the low-time threshold in milliseconds; 0 is off.
func (s *Session) SetLowTime(ms int64) { s.lowTime = ms }

// NewGame ends the current game (archiving its journal if it started) and
// sets up a new one on ctl under opt, at monotonic instant now. name is
// what the displays call the control; "" names it with Opts.Name.
func (s *Session) NewGame(now time.Duration, ctl timecontrol.Pair, opt clock.Options, name string) error {
	clk, err := clock.New(ctl, opt)
	if err != nil {
		return err
	}
	if name == "" {
		name = s.nameOf(ctl)
	}
	archive := s.started
	s.clk, s.name, s.started, s.recovered, s.dropped = clk, name, false, false, 0
	s.offset = -now.Milliseconds()
	s.lastLog = 0
	s.lowHit, s.flagged = [2]bool{}, false
	s.carried, s.takenOver = [2]bool{}, false
	s.settings = nil
	s.result = clocklog.Event{}
	s.presses, s.board = 0, newBoardRecord()
	// Every new journal has an id of its own, an unstarted game replaced
	// by another too; IDFile has it before the journal does.
	s.id = s.nextID()
	hdr := clocklog.Header{Format: clocklog.Format, Controls: ctl, Options: opt}
	s.mem, s.cur = s.mem[:0], nil // the new journal is indexed afresh
	s.seq, s.unsent = 0, s.unsent[:0]
	s.remember(clocklog.AppendHeader(nil, hdr))
	if s.jr != nil {
		// The finished game goes to the archive, an unstarted one is
		// replaced.
		if err := s.jr.Start(hdr, archive); err != nil {
			s.Trouble(err)
		} else {
			s.cleared()
		}
	}
	s.Note(idNote + s.id)
	s.Emit(Event{Kind: NewGame, Side: clock.NoSide, Text: timecontrol.FormatPair(ctl)})
	return nil
}

// Recover opens the journal in the state directory and brings back its
// game, if there is one, at monotonic instant now. It reports whether a
// game (started or not) was found; without one the caller sets up a new
// game. A journal that could not be read whole is kept aside, never
// deleted; what was dropped is logged and counted (Dropped).
func (s *Session) Recover(now time.Duration) bool {
	if s.dir == "" {
		return false
	}
	jr, r, err := journal.Open(s.dir, nil)
	s.jr = jr
	s.seq, s.unsent = 0, s.unsent[:0]
	for _, n := range r.Notes {
		s.log(n)
	}
	if r.Lost != nil {
		s.log(r.Lost.Error())
		s.warning = "JOURNAL LOST"
	}
	if err != nil {
		s.Trouble(err)
	}
	if r.Clock == nil {
		return false
	}
	for _, d := range r.Dropped {
		s.log("recovery: " + d.Error())
	}
	s.clk = r.Clock
	s.name = s.nameOf(r.Header.Controls)
	// Log time goes on from the last instant the journal proves: the time
	// the clock was off counts for nobody.
	s.offset = max(r.Last, now.Milliseconds()) - now.Milliseconds()
	s.lastLog = r.Last
	st := s.clk.State(r.Last)
	s.started = st.Started
	s.dropped = r.Lines
	// A game under way comes back paused and says so until resumed; so
	// does any loss, whatever was left of the game.
	s.recovered = st.Started && !st.Stopped || s.dropped > 0
	s.flagged = st.FirstFlag != clock.NoSide
	s.result = clocklog.Event{}
	if r.By != 0 {
		s.result = clocklog.Event{At: r.Last, Verb: clocklog.GameResult, Side: clock.NoSide, Result: r.Result, By: r.By}
	}
	notes := readNotes(jr.Path(), false)
	id, carried := notes.id, notes.overstep
	s.carried = carried
	s.settings = notes.settings
	s.presses, s.board = notes.presses, notes.board.trimmed(notes.presses)
	s.adoptID(id)
	if s.recovered {
		msg := fmt.Sprintf("recovered after restart at %d ms, paused", r.Last)
		if len(r.Dropped) > 0 {
			// Every problem salvage met: lines dropped, and lines it
			// repaired or inferred (which cost nothing).
			msg += fmt.Sprintf("; %d lines dropped; salvage: ", r.Lines) + errors.Join(r.Dropped...).Error()
		}
		s.Note(msg)
		s.log(msg)
		s.Emit(Event{Kind: Recovered, At: r.Last, Side: clock.NoSide, Text: fmt.Sprintf("%d lines dropped", r.Lines)})
	}
	return true
}

// Dropped is how many journal lines the recovery of this game could not
// use (0 for a clean recovery or a new game).
func (s *Session) Dropped() int { return s.dropped }

// cleared ends a storage warning once the journal wrote what it held.
func (s *Session) cleared() {
	if s.jr != nil && s.jr.Cleared() {
		s.warning = ""
		s.log("journal: written again: the lines held in memory are on disk")
		s.Emit(Event{Kind: Storage, At: s.lastLog, Side: clock.NoSide})
	}
}

// record writes e to the journal, durably, and then tells the subscribers
// an event of kind k.
func (s *Session) record(e clocklog.Event, k Kind) { s.recordEvent(e, Event{Kind: k}) }

// recordEvent is record with the event to emit (its Kind 0: none); its
// At, Side and Line are e's.
func (s *Session) recordEvent(e clocklog.Event, ev Event) {
	s.lastLog = e.At
	b := clocklog.AppendEvent(nil, e)
	if s.jr == nil && e.Verb == clocklog.Checkpoint {
		// As the journal writes it, restating the header.
		s.remember(clocklog.AppendCheckpoint(nil, e.At, e.Side, clocklog.Header{Controls: s.clk.Controls(), Options: s.clk.Options()}))
	} else {
		s.remember(b)
	}
	line := strings.TrimSpace(string(b))
	if s.jr != nil {
		if err := s.jr.Append(e); err != nil {
			s.Trouble(err)
		} else {
			s.cleared()
			s.countWritten()
		}
	} else {
		s.numberedMem()
	}
	if ev.Kind != 0 {
		ev.At, ev.Side, ev.Line = e.At, e.Side, line
		if n := len(s.unsent); n > 0 && s.seq > 0 {
			// The event's line is the last one written.
			ev.Line, ev.Seq, ev.Game = s.unsent[n-1], s.seq, s.id
			ev.Before = slices.Clone(s.unsent[max(0, n-1-protocol.MaxBefore) : n-1])
		}
		s.unsent = s.unsent[:0]
		s.Emit(ev)
	}
}

// countWritten takes account of the numbered lines the journal's last write
// put on disk: they wait in unsent for the next event. When the count is
// not known (a new journal, a recovery, a failed write), it is read from
// the journal's index, and what was written before goes unsent: the
// hall's link asks for it.
func (s *Session) countWritten() {
	if s.jr.Pending() > 0 {
		s.seq, s.unsent = 0, s.unsent[:0]
		return
	}
	w := s.jr.Written()
	if s.seq == 0 {
		s.seq = s.currentIndex().count
		s.unsent = s.unsent[:0]
		if last := lastNumbered(w); last != "" {
			s.unsent = append(s.unsent, last)
		}
		return
	}
	for len(w) > 0 {
		var l []byte
		l, w, _ = bytes.Cut(w, []byte{'\n'})
		if numbered(l) {
			s.seq++
			s.unsent = append(s.unsent, string(l))
		}
	}
	if len(s.unsent) > 2*protocol.MaxBefore {
		s.unsent = append(s.unsent[:0], s.unsent[len(s.unsent)-protocol.MaxBefore-1:]...)
	}
}

// numberedMem is countWritten for a session without a journal: its lines are
// in memory.
func (s *Session) numberedMem() {
	n := int64(len(s.mem))
	if s.seq > n {
		s.seq = 0
	}
	for i := max(s.seq, n-protocol.MaxBefore-1); i < n; i++ {
		s.unsent = append(s.unsent, s.mem[i])
	}
	s.seq = n
	if len(s.unsent) > 2*protocol.MaxBefore {
		s.unsent = append(s.unsent[:0], s.unsent[len(s.unsent)-protocol.MaxBefore-1:]...)
	}
}

// lastNumbered is the last numbered line of w.
func lastNumbered(w []byte) string {
	last := ""
	for len(w) > 0 {
		var l []byte
		l, w, _ = bytes.Cut(w, []byte{'\n'})
		if numbered(l) {
			last = string(l)
		}
	}
	return last
}

// Note writes a comment line to the journal: what happened, for the arbiter.
func (s *Session) Note(text string) {
	if s.jr != nil {
		if err := s.jr.Note(text); err != nil {
			s.Trouble(err)
		} else {
			s.cleared()
			s.countWritten()
		}
	}
}

// Trouble keeps the clock running and says what went wrong with storage:
// the journal, or (from the user interface) a settings file. It logs when
// the warning changes: a journal holding its lines fails at every line
// until the disk takes them.
func (s *Session) Trouble(err error) {
	s.seq, s.unsent = 0, s.unsent[:0] // read again from the index once written
	msg := err.Error()
	w := "SAVE FAILED"
	switch {
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		w = "DISK FULL"
	case errors.Is(err, syscall.EROFS), errors.Is(err, syscall.EACCES), errors.Is(err, syscall.EPERM):
		w = "READ-ONLY"
	}
	if w != s.warning {
		s.log(msg)
		s.Emit(Event{Kind: Storage, At: s.lastLog, Side: clock.NoSide, Text: msg})
	}
	s.warning = w
}

// Start starts White's clock at the start of the game.
func (s *Session) Start(now time.Duration) bool {
	t := s.LogMs(now)
	if !s.clk.Start(t) {
		return false
	}
	s.started, s.recovered = true, false
	s.record(clocklog.Event{At: t, Verb: clocklog.Start, Side: clock.NoSide}, Started)
	return true
}

// Press is side's press at monotonic instant now (its lever's first edge).
// It reports whether the press completed a move.
func (s *Session) Press(now time.Duration, side clock.Side) bool {
	t := s.LogMs(now)
	if !s.clk.Press(t, side) {
		return false
	}
	s.presses++
	s.recordEvent(clocklog.Event{At: t, Verb: clocklog.Press, Side: side}, Event{Kind: Pressed, Press: s.presses, Mono: now})
	return true
}

// Pause stops the running clock.
func (s *Session) Pause(now time.Duration) bool {
	t := s.LogMs(now)
	if !s.clk.Pause(t) {
		return false
	}
	s.record(clocklog.Event{At: t, Verb: clocklog.Pause, Side: clock.NoSide}, Paused)
	return true
}

// Resume goes on after a pause; a recovered game stops saying so.
func (s *Session) Resume(now time.Duration) bool {
	t := s.LogMs(now)
	if !s.clk.Resume(t) {
		return false
	}
	s.recovered, s.takenOver = false, false
	s.record(clocklog.Event{At: t, Verb: clocklog.Resume, Side: clock.NoSide}, Resumed)
	return true
}

// Correct applies an arbiter's correction (e's instant is set to now's)
// and records it; a refused correction changes nothing.
func (s *Session) Correct(now time.Duration, e clocklog.Event) error {
	e.At = s.LogMs(now)
	if _, err := clocklog.Apply(s.clk, e); err != nil {
		return err
	}
	if e.Verb == clocklog.ClearOverstep && (e.Side == clock.White || e.Side == clock.Black) {
		s.carried[e.Side] = false
	}
	s.record(e, Corrected)
	return nil
}

// SetResult records the game's result, entered by by (both players, each
// with their own lever, or the arbiter), as a result line of the journal,
// durably, and emits Resulted. Only the arbiter takes a result back
// (NoResult). It refuses a result while a clock runs: a game that goes on
// has none.
func (s *Session) SetResult(now time.Duration, r clocklog.Result, by clocklog.Entrant) error {
	if r > clocklog.BlackWins || by != clocklog.Players && by != clocklog.Arbiter {
		return fmt.Errorf("session: result %v by %v: no such result", r, by)
	}
	if r == clocklog.NoResult && by != clocklog.Arbiter {
		return errors.New("session: only the arbiter takes a result back")
	}
	t := s.LogMs(now)
	if st := s.clk.State(t); st.Running != clock.NoSide && !st.Paused {
		return errors.New("session: a clock runs: the game goes on")
	}
	e := clocklog.Event{At: t, Verb: clocklog.GameResult, Side: clock.NoSide, Result: r, By: by}
	s.result = e
	s.record(e, Resulted)
	return nil
}

// Result is the game's result as its journal's last result line says, and
// who entered it; NoResult and 0 if there is none.
func (s *Session) Result() (clocklog.Result, clocklog.Entrant) {
	if s.result.Verb == 0 {
		return clocklog.NoResult, 0
	}
	return s.result.Result, s.result.By
}

// Tick does what time alone brings: a checkpoint while a clock runs, and
// the Flagged and LowTime events. The loop calls it at every wake-up.
func (s *Session) Tick(now time.Duration) {
	t := s.LogMs(now)
	st := s.clk.State(t)
	if st.Running != clock.NoSide && t-s.lastLog >= checkpointDue {
		s.record(clocklog.Event{At: t, Verb: clocklog.Checkpoint, Side: st.Running}, 0)
	} else if s.jr != nil && s.jr.Pending() > 0 {
		// Lines held through a full disk go out when it takes them, paused
		// or not.
		if err := s.jr.Retry(); err == nil {
			s.cleared()
		}
	}
	if st.FirstFlag != clock.NoSide && !s.flagged {
		s.flagged = true
		if st.Running == clock.NoSide && s.lastLog < t {
			// The flag stopped the clock (after-flag freeze): no more
			// checkpoints come, so one line now proves that the clock
			// reached the flag. Without it a power cut would bring the
			// game back at its last checkpoint, before the flag.
			s.record(clocklog.Event{At: t, Verb: clocklog.Checkpoint, Side: clock.NoSide}, 0)
		}
		s.Emit(Event{Kind: Flagged, At: t, Side: st.FirstFlag})
	}
	if st.Running != clock.NoSide && s.lowTime > 0 {
		p := st.Player[st.Running]
		low := p.Ms < s.lowTime && !p.Flag && p.Mode != timecontrol.CountUp
		if low && !s.lowHit[st.Running] {
			s.lowHit[st.Running] = true
			s.Emit(Event{Kind: LowTime, At: t, Side: st.Running})
		} else if !low && p.Ms >= s.lowTime {
			s.lowHit[st.Running] = false
		}
	}
}

// Checkpoint writes a checkpoint now if a clock runs, whenever the last
// line was: the power is going (a UPS's power-loss signal), and the time
// used so far must be on the card first.
func (s *Session) Checkpoint(now time.Duration) {
	t := s.LogMs(now)
	if st := s.clk.State(t); st.Running != clock.NoSide && t > s.lastLog {
		s.record(clocklog.Event{At: t, Verb: clocklog.Checkpoint, Side: st.Running}, 0)
	}
}

// NextDue returns the next monotonic instant after now at which the
// session has work (a checkpoint) or the clock changes on its own (a
// period, a delay, a flag), or ok=false while no clock runs.
func (s *Session) NextDue(now time.Duration) (time.Duration, bool) {
	t := s.LogMs(now)
	st := s.clk.State(t)
	if st.Running == clock.NoSide {
		return 0, false
	}
	// An overdue checkpoint (the wake-up came before a press moved
	// lastLog, or later than the slack) is due at once.
	next := max(s.mono(s.lastLog+checkpointDue), now+time.Millisecond)
	if at, ok := s.clk.NextChange(t); ok {
		next = min(next, s.mono(at))
	}
	return next, true
}

// Mono maps a clock-log instant to the monotonic base.
func (s *Session) Mono(ms int64) time.Duration { return s.mono(ms) }

// Stats returns the journal's write counters since start.
func (s *Session) Stats() journal.Stats {
	if s.jr == nil {
		return journal.Stats{}
	}
	return s.jr.Stats()
}

// Close closes the journal.
func (s *Session) Close() {
	if s.jr != nil {
		s.jr.Close()
	}
}

// gameSettings are the settings a game keeps from its start to its end,
// whatever a config imported meanwhile says: which lever plays White and
// the lock (a config imported mid-game must not swap the levers or lift
// the lock).
type gameSettings struct{ whiteLeft, locked bool }

// settingsNote is the journal comment of a game's settings:
// "settings white left, lock on". The last one counts.
const settingsNote = "settings white "

func formatSettingsNote(g gameSettings) string {
	w, l := "right", "off"
	if g.whiteLeft {
		w = "left"
	}
	if g.locked {
		l = "on"
	}
	return settingsNote + w + ", lock " + l
}

func parseSettingsNote(c string) (gameSettings, bool) {
	for _, g := range []gameSettings{{true, true}, {true, false}, {false, true}, {false, false}} {
		if c == formatSettingsNote(g) {
			return g, true
		}
	}
	return gameSettings{}, false
}

// NoteSettings writes the game's settings to its journal, at its start
// and when the arbiter changes them: a recovery gives them back
// (RecoveredSettings), so that a config imported during the game does not
// swap its levers or lift its lock.
func (s *Session) NoteSettings(whiteLeft, locked bool) {
	g := gameSettings{whiteLeft, locked}
	if s.settings != nil && *s.settings == g {
		return
	}
	s.settings = &g
	s.Note(formatSettingsNote(g))
}

// RecoveredSettings returns the settings the recovered game's journal
// last noted; ok is false when it noted none (a journal written before
// this note, or a new game).
func (s *Session) RecoveredSettings() (whiteLeft, locked, ok bool) {
	if s.settings == nil {
		return false, false, false
	}
	return s.settings.whiteLeft, s.settings.locked, true
}
