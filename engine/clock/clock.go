package clock

import (
	"errors"
	"fmt"

	"github.com/zeitnot/zeitnot/engine/timecontrol"
)

// Side is a player, or neither.
type Side uint8

const (
	White  Side = 0
	Black  Side = 1
	NoSide Side = 2
)

// Other returns the opponent of s; NoSide for NoSide.
func (s Side) Other() Side {
	switch s {
	case White:
		return Black
	case Black:
		return White
	}
	return NoSide
}

func (s Side) String() string {
	switch s {
	case White:
		return "white"
	case Black:
		return "black"
	}
	return "none"
}

// ParseSide reads "white" or "black".
func ParseSide(s string) (Side, error) {
	switch s {
	case "white":
		return White, nil
	case "black":
		return Black, nil
	}
	return NoSide, fmt.Errorf("want white or black, got %q", s)
}

// Limits on instants and times.
//
// MaxInstant is 30 days of milliseconds. Instants count from the moment a
// game was set up, so this bounds a game, pauses and adjournments included:
// the longest games over the board last a day, and a game adjourned over a
// tournament of two or three weeks still fits. A larger instant is not a
// game but damage (a flipped digit in a clock log), which the clock log
// refuses; the clock takes it as MaxInstant, where its time stops. The bound
// also keeps the period count of a repeating period inside 32 bits.
const (
	MaxInstant = int64(30 * 24 * 3600 * 1000) // 30 days: 2,592,000,000 ms
	MaxTime    = int64(1000 * 3600 * 1000)    // 1000 hours: the most a side can hold
)

// never is an instant after every valid instant.
const never = int64(1) << 62

type player struct {
	ctl      timecontrol.Control
	per      timecontrol.Period // the current period, ctl.Period(period)
	quota    int64              // cumulative move quota at the end of the current period; 0: none
	ms       int64              // main time (overtime block in overtime; elapsed in count-up), as of Clock.since for the ticking side
	turn     int64              // time used in the current turn before Clock.since
	moves    int
	period   int
	otLeft   int // byo-yomi periods left, counting the current one; Canadian moves left in the block
	overtime bool
	flag     bool
	overstep bool
	// The arbiter's increment (SetIncrement): from period incFrom on
	// (0: none), every period is Fischer with inc ms per move; it was
	// given when the side's next move was number incMove.
	inc     int64
	incFrom int
	incMove int
}

// periodAt is the k-th period (k from 1) as pl plays it: its control's,
// with the arbiter's increment.
func (pl *player) periodAt(k int) (timecontrol.Period, bool) {
	p, ok := pl.ctl.Period(k)
	if ok && pl.incFrom > 0 && k >= pl.incFrom {
		p.From = 0
		p.Mode, p.Extra = timecontrol.Fischer, pl.inc
	}
	return p, ok
}

// played is pl's control as it is played: its own, with the arbiter's
// increment in the periods from the one it was given in, for the moves
// from the one it was given before (@N). A repeating last period is that
// period throughout: its earlier repeats' moves are all before N.
func (pl *player) played() timecontrol.Control {
	if pl.incFrom == 0 {
		return pl.ctl
	}
	out := append(timecontrol.Control(nil), pl.ctl...)
	for i := min(pl.incFrom, len(out)) - 1; i < len(out); i++ {
		out[i].Mode, out[i].Extra, out[i].From = timecontrol.Fischer, pl.inc, 0
		if pl.incMove > 1 {
			out[i].From = pl.incMove
		}
	}
	return out
}

// Move is one completed move, for the game record.
type Move struct {
	Side   Side
	Number int   // the side's move count after the move
	At     int64 // instant of the press
	Used   int64 // time the move took, pauses excluded
	After  int64 // the side's time right after the press, increments included
}

// Clock is the state of a chess clock. The zero value is not usable: call New.
type Clock struct {
	opt       Options
	p         [2]player
	onMove    Side  // side to move; while paused, the side that runs on resume
	since     int64 // instant the current running stretch began
	now       int64 // latest instant applied
	firstFlag Side
	started   bool
	paused    bool
	stopped   bool
	last      Move
}

// New returns a clock ready to start, set to pair under opt.
func New(pair timecontrol.Pair, opt Options) (*Clock, error) {
	if err := pair.Validate(); err != nil {
		return nil, err
	}
	c := &Clock{opt: opt, onMove: White, firstFlag: NoSide, last: Move{Side: NoSide}}
	c.p[White] = newPlayer(pair.White, opt)
	c.p[Black] = newPlayer(pair.Black, opt)
	return c, nil
}

func newPlayer(ctl timecontrol.Control, opt Options) player {
	pl := player{ctl: ctl, per: ctl[0], quota: int64(ctl[0].Moves), period: 1, ms: ctl[0].Time}
	if pl.per.Mode == timecontrol.Fischer && pl.per.From == 0 && opt.FirstIncrement {
		pl.ms += pl.per.Extra
	}
	return pl
}

// Options returns the clock's options.
func (c *Clock) Options() Options { return c.opt }

// Controls returns the controls the clock was set to, without an arbiter's
// increment (SetIncrement): what the game's header says.
func (c *Clock) Controls() timecontrol.Pair {
	return timecontrol.Pair{White: c.p[White].ctl, Black: c.p[Black].ctl}
}

// Played returns the controls as the game is played: Controls, with an
// arbiter's increment (SetIncrement) written in the periods it holds in,
// from the move it was given before: 300 with +5 s given before White's
// 31st move and Black's 30th is 300+5@31|300+5@30. It equals Controls
// when no increment was given. It is exact for the controls Guidelines
// III.4 is for, sudden death from the period the increment was given in;
// an increment it replaced (one the notation cannot keep for the earlier
// moves) is not shown.
func (c *Clock) Played() timecontrol.Pair {
	return timecontrol.Pair{White: c.p[White].played(), Black: c.p[Black].played()}
}

// WithoutIncrement reports whether side plays without increment or delay
// from now on: its current period and every later one are sudden death,
// and no arbiter's increment is in effect. That is the game FIDE
// Guidelines III are written for, and where III.4's extra five seconds
// per move applies.
func (c *Clock) WithoutIncrement(side Side) bool {
	if side != White && side != Black {
		return false
	}
	pl := &c.p[side]
	if pl.incFrom > 0 {
		return false
	}
	for k := min(pl.period, len(pl.ctl)); k <= len(pl.ctl); k++ {
		if pl.ctl[k-1].Mode != timecontrol.SuddenDeath {
			return false
		}
	}
	return true
}

// Now is the latest instant applied.
func (c *Clock) Now() int64 { return c.now }

// running reports whether the clock runs: started, not paused, not stopped.
func (c *Clock) running() bool { return c.started && !c.paused && !c.stopped }

// ticking reports whether the side on move is losing (or, in count-up,
// counting) time right now.
func (c *Clock) ticking() bool { return c.running() && !c.p[c.onMove].flag }

// delayLeft is the simple delay still to come in the current turn of pl, as
// of Clock.since.
func delayLeft(pl *player) int64 {
	if pl.per.Mode != timecontrol.Delay || pl.overtime {
		return 0
	}
	if d := pl.per.Extra - pl.turn; d > 0 {
		return d
	}
	return 0
}

// expiry is the instant the ticking side's time runs out; never if it cannot.
func (c *Clock) expiry() int64 {
	if !c.ticking() {
		return never
	}
	pl := &c.p[c.onMove]
	if pl.per.Mode == timecontrol.CountUp {
		return never
	}
	return c.since + delayLeft(pl) + pl.ms
}

// materialize brings the stored times up to instant t (>= since) and makes t
// the start of the running stretch.
func (c *Clock) materialize(t int64) {
	if !c.ticking() {
		if c.running() {
			// A side that has flagged (after-flag continue) loses no
			// more time, but its turn still lasts: the move's time used.
			c.p[c.onMove].turn += t - c.since
		}
		c.since = t
		return
	}
	el := t - c.since
	pl := &c.p[c.onMove]
	switch pl.per.Mode {
	case timecontrol.CountUp:
		pl.ms += el
	case timecontrol.Delay:
		if !pl.overtime {
			if over := el - delayLeft(pl); over > 0 {
				pl.ms -= over
			}
			break
		}
		pl.ms -= el
	case timecontrol.Hourglass:
		pl.ms -= el
		if opp := &c.p[c.onMove.Other()]; !opp.flag {
			opp.ms = min(opp.ms+el, MaxTime)
		}
	default:
		pl.ms -= el
	}
	pl.turn += el
	c.since = t
}

// settle applies everything that runs out up to and including instant t.
// Each pass of the loop settles one expiry, and there are few: at most one
// per period of the control, one per byo-yomi period, and the flag. The one
// unbounded series, a repeating period whose time runs out again and again
// on the flag trigger, is settled at once by repeat.
func (c *Clock) settle(t int64) {
	for {
		e := c.expiry()
		if e > t {
			return
		}
		c.materialize(e)
		c.expire(e)
		c.repeat(t)
	}
}

// repeat settles, in one step, every expiry up to instant t of the ticking
// side's repeating period (a last period with a move quota) on the flag
// trigger. Just after such an expiry the side holds exactly the period's time
// T and its delay is spent, so the period runs out again every T ms, each
// time adding T, one period, the quota's moves, and marking an overstep if
// the side is short of the quota. k expiries at once are that, k times: the
// i-th of them (from 1) ends the period whose cumulative quota is
// quota+(i-1)*moves, and as no move is made in between, the side is short at
// one of them exactly when it is short at the last. The periods it enters
// must all be the one the side is in: it stops before the period an
// arbiter's increment starts in.
func (c *Clock) repeat(t int64) {
	if !c.ticking() || c.opt.PeriodTrigger != OnFlag {
		return
	}
	pl := &c.p[c.onMove]
	last, _ := pl.periodAt(max(pl.period, len(pl.ctl)))
	if pl.period < len(pl.ctl) || last.Moves == 0 || pl.per != last || pl.ms != last.Time || delayLeft(pl) != 0 {
		return
	}
	switch last.Mode {
	case timecontrol.SuddenDeath, timecontrol.Fischer, timecontrol.Delay, timecontrol.Bronstein:
	default:
		return
	}
	k := (t - c.since) / last.Time
	if pl.incFrom > pl.period {
		// The arbiter's increment holds from a later period (the side
		// was set back before it, SetPeriod): the periods up to it
		// repeat, the one it starts in is entered by expire, which
		// takes its mode.
		k = min(k, int64(pl.incFrom-1-pl.period))
	}
	if k < 1 {
		return
	}
	if int64(pl.moves) < pl.quota+(k-1)*int64(last.Moves) {
		pl.overstep = true
	}
	pl.period += int(k)
	pl.quota += k * int64(last.Moves)
	pl.turn += k * last.Time
	c.since += k * last.Time
}

// expire handles the running side's time reaching zero at instant e.
func (c *Clock) expire(e int64) {
	side := c.onMove
	pl := &c.p[side]
	pl.ms = 0
	switch pl.per.Mode {
	case timecontrol.ByoYomi, timecontrol.Canadian:
		if !pl.overtime {
			pl.overtime = true
			pl.ms = pl.per.Extra
			pl.otLeft = pl.per.OvertimeCount
			return
		}
		if pl.per.Mode == timecontrol.ByoYomi && pl.otLeft > 1 {
			pl.otLeft--
			pl.ms = pl.per.Extra
			return
		}
	default:
		if pl.per.Moves > 0 && c.opt.PeriodTrigger == OnFlag {
			short := int64(pl.moves) < pl.quota
			c.nextPeriod(pl)
			if short {
				pl.overstep = true
			}
			return
		}
	}
	pl.flag = true
	if pl.overtime && pl.per.Mode == timecontrol.ByoYomi {
		pl.otLeft = 0
	}
	if c.firstFlag == NoSide {
		c.firstFlag = side
	}
	if c.opt.AfterFlag == Freeze {
		c.stopped = true
	}
}

// nextPeriod moves pl into its next period and adds that period's time.
func (c *Clock) nextPeriod(pl *player) {
	next, ok := pl.periodAt(pl.period + 1)
	if !ok {
		return
	}
	pl.period++
	pl.per = next
	pl.ms = min(pl.ms+next.Time, MaxTime)
	if next.Moves > 0 {
		pl.quota += int64(next.Moves)
	} else {
		pl.quota = 0
	}
}

// at clamps an input instant: never earlier than the latest applied one,
// never past MaxInstant.
func (c *Clock) at(t int64) int64 {
	if t < c.now {
		t = c.now
	}
	if t > MaxInstant {
		t = MaxInstant
	}
	return t
}

// Advance settles everything that runs out up to and including instant t,
// and makes t the latest instant. Every other method does this first.
func (c *Clock) Advance(t int64) {
	t = c.at(t)
	c.settle(t)
	c.now = t
}

// Start starts the clock of the side to move (White unless an arbiter chose
// otherwise). It reports whether it did anything.
func (c *Clock) Start(t int64) bool {
	c.Advance(t)
	if c.started {
		return false
	}
	c.started = true
	c.since = c.now
	c.p[c.onMove].turn = 0
	return true
}

// Press is a press of side's lever at instant t. It reports whether the
// press completed a move.
func (c *Clock) Press(t int64, side Side) bool {
	c.Advance(t)
	if !c.running() || side != c.onMove {
		return false
	}
	c.materialize(c.now)
	pl := &c.p[side]
	used := pl.turn
	pl.moves++
	if !pl.flag {
		switch pl.per.Mode {
		case timecontrol.Fischer:
			if pl.moves >= pl.per.From {
				pl.ms += pl.per.Extra
			}
		case timecontrol.Bronstein:
			pl.ms += min(used, pl.per.Extra)
		case timecontrol.ByoYomi:
			if pl.overtime {
				pl.ms = pl.per.Extra
			}
		case timecontrol.Canadian:
			if pl.overtime {
				if pl.otLeft--; pl.otLeft <= 0 {
					pl.ms = pl.per.Extra
					pl.otLeft = pl.per.OvertimeCount
				}
			}
		}
		pl.ms = min(pl.ms, MaxTime)
		if c.opt.PeriodTrigger == OnMoves && pl.quota > 0 && int64(pl.moves) >= pl.quota {
			c.nextPeriod(pl)
		}
	}
	c.last = Move{Side: side, Number: pl.moves, At: c.now, Used: used, After: pl.ms}
	pl.turn = 0
	c.onMove = side.Other()
	c.p[c.onMove].turn = 0
	c.since = c.now
	return true
}

// Pause stops the running side's clock. It does nothing before the start,
// while paused or after the clock stopped, and reports whether it paused.
func (c *Clock) Pause(t int64) bool {
	c.Advance(t)
	if !c.running() {
		return false
	}
	c.materialize(c.now)
	c.paused = true
	return true
}

// Resume restarts the clock of the side to move after a pause. The delay of
// a turn interrupted by the pause is not given again.
func (c *Clock) Resume(t int64) bool {
	c.Advance(t)
	if !c.paused || c.stopped {
		return false
	}
	c.paused = false
	c.since = c.now
	return true
}

// ErrNotPaused is returned by the arbiter's corrections while the clock runs
// or after it stopped on a flag.
var ErrNotPaused = errors.New("clock: corrections need the clock paused or not yet started")

func (c *Clock) correctable(t int64, side Side) (*player, error) {
	c.Advance(t)
	if c.started && !c.paused {
		return nil, ErrNotPaused
	}
	if side != White && side != Black {
		return nil, fmt.Errorf("clock: no side %d", side)
	}
	return &c.p[side], nil
}

// SetTime sets side's time to ms (the main time; the overtime block in
// overtime; the elapsed total in count-up). A positive time lifts that side's
// flag; the record of the first flag stays.
func (c *Clock) SetTime(t int64, side Side, ms int64) error {
	pl, err := c.correctable(t, side)
	if err != nil {
		return err
	}
	if ms < 0 || ms > MaxTime {
		return fmt.Errorf("clock: time %d ms out of range 0 to %d", ms, MaxTime)
	}
	pl.ms = ms
	if ms > 0 {
		pl.flag = false
	}
	return nil
}

// AddTime adds ms (which may be negative) to side's time, stopping at zero
// and at MaxTime: +2 minutes after an illegal move is AddTime(t, s, 120000).
func (c *Clock) AddTime(t int64, side Side, ms int64) error {
	pl, err := c.correctable(t, side)
	if err != nil {
		return err
	}
	if ms < -MaxTime || ms > MaxTime {
		return fmt.Errorf("clock: %d ms is more than a clock holds", ms)
	}
	return c.SetTime(c.now, side, max(0, min(pl.ms+ms, MaxTime)))
}

// SetMoves sets side's move count.
func (c *Clock) SetMoves(t int64, side Side, n int) error {
	pl, err := c.correctable(t, side)
	if err != nil {
		return err
	}
	if n < 0 || n > 9999 {
		return fmt.Errorf("clock: move count %d out of range 0 to 9999", n)
	}
	pl.moves = n
	return nil
}

// SetPeriod puts side in period k (from 1), without changing its time.
func (c *Clock) SetPeriod(t int64, side Side, k int) error {
	pl, err := c.correctable(t, side)
	if err != nil {
		return err
	}
	per, ok := pl.periodAt(k)
	if !ok || k > 9999 {
		return fmt.Errorf("clock: %s's control has no period %d", side, k)
	}
	pl.period, pl.per, pl.quota = k, per, int64(pl.ctl.Quota(k))
	pl.overtime, pl.otLeft = false, 0
	return nil
}

// SetTurn makes side the one whose clock runs on resume (or at the start).
// A new turn begins for it: a simple delay is given afresh.
func (c *Clock) SetTurn(t int64, side Side) error {
	if _, err := c.correctable(t, side); err != nil {
		return err
	}
	if side != c.onMove {
		c.onMove = side
		c.p[side].turn = 0
	}
	return nil
}

// SetIncrement gives side a Fischer increment of ms per move for the moves
// it completes from now on, in every period from the current one: a
// sudden-death period becomes Fischer, and an increment is replaced (also
// one that was to start at a later move). It is how an arbiter applies
// FIDE Guidelines III.4 (a player with under two minutes may ask for an
// extra five seconds per move for both players): SetIncrement(t, White,
// 5000) and SetIncrement(t, Black, 5000); WithoutIncrement says where that
// applies. A control with a delay, overtime, hourglass or count-up from the
// current period on is refused.
//
// 0 takes the arbiter's increment back: from then on the side plays its
// control's own periods again, from the current one, increments included
// (an arbiter's mistake undone the way it was made). The controls
// (Controls) stay as the clock was set up; Played shows the increment.
func (c *Clock) SetIncrement(t int64, side Side, ms int64) error {
	pl, err := c.correctable(t, side)
	if err != nil {
		return err
	}
	if ms < 0 || ms > timecontrol.MaxExtra*1000 {
		return fmt.Errorf("clock: increment %d ms out of range 0 to %d", ms, timecontrol.MaxExtra*1000)
	}
	if ms == 0 {
		pl.inc, pl.incFrom, pl.incMove = 0, 0, 0
		pl.per, _ = pl.periodAt(pl.period)
		return nil
	}
	for k := min(pl.period, len(pl.ctl)); k <= len(pl.ctl); k++ {
		if m := pl.ctl[k-1].Mode; m != timecontrol.SuddenDeath && m != timecontrol.Fischer {
			return fmt.Errorf("clock: %s's period %d is %s: an increment replaces only sudden death or another increment", side, k, m)
		}
	}
	pl.inc, pl.incFrom, pl.incMove = ms, pl.period, pl.moves+1
	pl.per, _ = pl.periodAt(pl.period)
	return nil
}

// ClearOverstep removes side's overstep mark once the arbiter has checked it.
func (c *Clock) ClearOverstep(t int64, side Side) error {
	pl, err := c.correctable(t, side)
	if err != nil {
		return err
	}
	pl.overstep = false
	return nil
}

// LastMove is the most recent completed move; Side is NoSide before any.
func (c *Clock) LastMove() Move { return c.last }
