package clock

import (
	"math"

	"github.com/zeitnot/zeitnot/engine/timecontrol"
)

// PlayerState is one side's clock at an instant.
type PlayerState struct {
	Ms       int64 // time left (0 once flagged); in overtime, of the current block; in count-up, the time used
	Moves    int   // moves completed
	Period   int   // current period, from 1, counting on through repeats
	Flag     bool  // this side's final flag has fallen
	Overstep bool  // this side entered a period short of the quota (sticky)

	Mode         timecontrol.Mode // mode of the current period
	DelayMs      int64            // simple delay still to come in this turn (side to move only)
	Overtime     bool             // in byo-yomi or Canadian overtime
	OvertimeLeft int              // byo-yomi periods left, or Canadian moves left in the block
	QuotaLeft    int              // moves still to make in this period; 0 if it has no quota
	Increment    int64            // the arbiter's increment per move (SetIncrement, FIDE Guidelines III.4); 0 if none
}

// State is the whole clock at an instant.
type State struct {
	At        int64
	Running   Side // the side whose clock runs; NoSide before the start, while paused and after the clock stopped
	ToMove    Side // the side to move, also while paused (the side that runs on resume)
	Started   bool
	Paused    bool
	Stopped   bool // stopped for good on a flag
	FirstFlag Side // the side whose flag fell first; NoSide if none
	Player    [2]PlayerState
}

// White is the state of White's clock.
func (s *State) White() *PlayerState { return &s.Player[White] }

// Black is the state of Black's clock.
func (s *State) Black() *PlayerState { return &s.Player[Black] }

// State returns the clock as it is at instant t, settling whatever runs out
// by then, without changing the clock.
func (c *Clock) State(t int64) State {
	cc := *c
	cc.Advance(t)
	cc.materialize(cc.now)
	s := State{
		At:        cc.now,
		Running:   NoSide,
		ToMove:    cc.onMove,
		Started:   cc.started,
		Paused:    cc.paused,
		Stopped:   cc.stopped,
		FirstFlag: cc.firstFlag,
	}
	if cc.running() {
		s.Running = cc.onMove
	}
	for i := range cc.p {
		pl := &cc.p[i]
		ps := &s.Player[i]
		ps.Ms, ps.Moves, ps.Period = pl.ms, pl.moves, pl.period
		ps.Flag, ps.Overstep = pl.flag, pl.overstep
		if pl.incFrom > 0 {
			ps.Increment = pl.inc
		}
		ps.Mode, ps.Overtime, ps.OvertimeLeft = pl.per.Mode, pl.overtime, pl.otLeft
		if pl.quota > 0 && int64(pl.moves) < pl.quota {
			ps.QuotaLeft = int(min(pl.quota-int64(pl.moves), math.MaxInt32))
		}
		if Side(i) == cc.onMove && !pl.flag {
			ps.DelayMs = delayLeft(pl)
		}
	}
	return s
}

// NextChange returns the first instant after t at which the clock's state
// changes by itself (a time runs out, a period or overtime block begins), or
// false if nothing will change without an input. A display uses it to know
// when to wake besides its own refresh rate.
func (c *Clock) NextChange(t int64) (int64, bool) {
	cc := *c
	cc.Advance(t)
	e := cc.expiry()
	return e, e != never
}
