package timecontrol

import (
	"errors"
	"fmt"
)

// Mode is how time is counted within a period.
type Mode uint8

const (
	SuddenDeath Mode = iota // main time only
	Fischer                 // Extra is added after every move
	Delay                   // the first Extra of every turn does not count
	Bronstein               // time used in a turn is given back, at most Extra
	ByoYomi                 // after Time: OvertimeCount periods of Extra each
	Canadian                // after Time: OvertimeCount moves in every Extra
	Hourglass               // what one side uses, the other gains
	CountUp                 // time used is counted up; no flag
)

var modeNames = [...]string{
	SuddenDeath: "sudden-death",
	Fischer:     "fischer",
	Delay:       "delay",
	Bronstein:   "bronstein",
	ByoYomi:     "byo-yomi",
	Canadian:    "canadian",
	Hourglass:   "hourglass",
	CountUp:     "count-up",
}

func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return fmt.Sprintf("Mode(%d)", m)
}

// ParseMode reads a mode name as String writes it.
func ParseMode(s string) (Mode, error) {
	for i, n := range modeNames {
		if n == s {
			return Mode(i), nil
		}
	}
	return 0, fmt.Errorf("timecontrol: unknown mode %q", s)
}

// Period is one period of a control. All times are milliseconds.
type Period struct {
	Moves         int   // move quota of this period; 0 means the rest of the game
	Time          int64 // main time added when the period begins
	Mode          Mode
	Extra         int64 // increment, delay, byo-yomi period or Canadian block time
	OvertimeCount int   // byo-yomi periods, or moves per Canadian block
	// From is, for a Fischer increment only, the number of the player's
	// first move that gets it (FIDE Armageddon: 61); the moves before it
	// get none, and there is no increment before the game. 0 is every move
	// from move 1, and the only way to write it: From is never 1.
	From int
}

// Control is the time control of one player: one or more periods.
type Control []Period

// Limits of the notation, so every valid control fits comfortably in int64
// milliseconds and on a display.
const (
	MaxSeconds  = 100 * 3600 // longest period time: 100 hours
	MaxExtra    = 3600       // longest increment, delay or overtime block: 1 hour
	MaxMoves    = 999        // largest move quota or overtime count
	MaxPeriods  = 9          // most periods in a control
	secondMilli = 1000
)

// Hourglass and CountUp controls are the only period of their control.
func (c Control) IsHourglass() bool { return len(c) == 1 && c[0].Mode == Hourglass }

// IsCountUp reports whether c is a count-up control.
func (c Control) IsCountUp() bool { return len(c) == 1 && c[0].Mode == CountUp }

// Period returns the k-th period (k from 1), following the repetition rule:
// past the last period, a last period with a move quota repeats. ok is false
// when there is no k-th period (the last one has no quota).
func (c Control) Period(k int) (p Period, ok bool) {
	if k < 1 || len(c) == 0 {
		return Period{}, false
	}
	if k <= len(c) {
		return c[k-1], true
	}
	last := c[len(c)-1]
	if last.Moves == 0 {
		return Period{}, false
	}
	return last, true
}

// Quota returns the cumulative move quota at the end of period k: the number
// of moves a player must have made when period k ends. It is 0 when period k
// has no quota.
func (c Control) Quota(k int) int {
	total := 0
	for i := 1; i <= k; i++ {
		p, ok := c.Period(i)
		if !ok || p.Moves == 0 {
			return 0
		}
		total += p.Moves
	}
	return total
}

// Validate reports the first rule c breaks, naming the period.
func (c Control) Validate() error {
	if len(c) == 0 {
		return errors.New("timecontrol: no period")
	}
	if len(c) > MaxPeriods {
		return fmt.Errorf("timecontrol: %d periods, at most %d", len(c), MaxPeriods)
	}
	for i, p := range c {
		n := i + 1
		last := n == len(c)
		switch p.Mode {
		case Hourglass, CountUp:
			if len(c) != 1 || p.Moves != 0 {
				return fmt.Errorf("timecontrol: %s is a whole-game control and cannot have periods", p.Mode)
			}
			if p.Mode == CountUp && (p.Time != 0 || p.Extra != 0) {
				return errors.New("timecontrol: count-up takes no time")
			}
			if p.Mode == Hourglass && p.Time <= 0 {
				return errors.New("timecontrol: hourglass needs a time above zero")
			}
			if p.Extra != 0 || p.OvertimeCount != 0 || p.From != 0 {
				return fmt.Errorf("timecontrol: %s takes no increment or delay", p.Mode)
			}
			continue
		case SuddenDeath:
			if p.Extra != 0 || p.OvertimeCount != 0 {
				return fmt.Errorf("timecontrol: period %d: sudden death takes no extra time", n)
			}
		case Fischer, Delay, Bronstein:
			if p.Extra <= 0 {
				return fmt.Errorf("timecontrol: period %d: %s needs a time above zero", n, p.Mode)
			}
			if p.OvertimeCount != 0 {
				return fmt.Errorf("timecontrol: period %d: %s takes no overtime count", n, p.Mode)
			}
		case ByoYomi, Canadian:
			if !last || p.Moves != 0 {
				return fmt.Errorf("timecontrol: period %d: %s overtime only ends the last period, which has no move quota", n, p.Mode)
			}
			if p.Extra <= 0 || p.OvertimeCount <= 0 || p.OvertimeCount > MaxMoves {
				return fmt.Errorf("timecontrol: period %d: %s needs a count from 1 to %d and a time above zero", n, p.Mode, MaxMoves)
			}
		default:
			return fmt.Errorf("timecontrol: period %d: unknown mode %d", n, p.Mode)
		}
		if p.Time < 0 || p.Time > MaxSeconds*secondMilli || p.Time%secondMilli != 0 {
			return fmt.Errorf("timecontrol: period %d: time must be whole seconds from 0 to %d", n, MaxSeconds)
		}
		if p.Extra < 0 || p.Extra > MaxExtra*secondMilli || p.Extra%secondMilli != 0 {
			return fmt.Errorf("timecontrol: period %d: extra time must be whole seconds from 0 to %d", n, MaxExtra)
		}
		if p.From < 0 || p.From == 1 || p.From > MaxMoves {
			return fmt.Errorf("timecontrol: period %d: the increment's first move must be from 2 to %d, or 0 for every move", n, MaxMoves)
		}
		if p.From != 0 && p.Mode != Fischer {
			return fmt.Errorf("timecontrol: period %d: only a Fischer increment starts from a later move", n)
		}
		if p.Moves < 0 || p.Moves > MaxMoves {
			return fmt.Errorf("timecontrol: period %d: move quota must be from 1 to %d", n, MaxMoves)
		}
		if p.Moves == 0 && !last {
			return fmt.Errorf("timecontrol: period %d has no move quota, so no period can follow it", n)
		}
		if p.Moves > 0 && p.Time == 0 {
			return fmt.Errorf("timecontrol: period %d has a move quota but no time", n)
		}
		if p.Time == 0 && p.Mode == SuddenDeath {
			return fmt.Errorf("timecontrol: period %d has no time", n)
		}
	}
	return nil
}

// Equal reports whether a and b are the same control.
func (c Control) Equal(d Control) bool {
	if len(c) != len(d) {
		return false
	}
	for i := range c {
		if c[i] != d[i] {
			return false
		}
	}
	return true
}

// String is Format(c).
func (c Control) String() string { return Format(c) }

// Pair is the controls of both players.
type Pair struct {
	White, Black Control
}

// Same returns a pair in which both players have c.
func Same(c Control) Pair { return Pair{White: c, Black: c} }

// Validate checks both controls and the rules that bind them: hourglass is
// for both players or neither.
func (p Pair) Validate() error {
	if err := p.White.Validate(); err != nil {
		return fmt.Errorf("white: %w", err)
	}
	if err := p.Black.Validate(); err != nil {
		return fmt.Errorf("black: %w", err)
	}
	if p.White.IsHourglass() != p.Black.IsHourglass() {
		return errors.New("timecontrol: hourglass is for both players or neither")
	}
	return nil
}

// Equal reports whether two pairs are the same.
func (p Pair) Equal(q Pair) bool { return p.White.Equal(q.White) && p.Black.Equal(q.Black) }

// String is FormatPair(p).
func (p Pair) String() string { return FormatPair(p) }
