package clock

import "fmt"

// Trigger is when a player enters the next period.
type Trigger uint8

const (
	// OnFlag: when the time of a period with a move quota runs out, the next
	// period's time is added at that instant; a player short of the quota is
	// marked as having overstepped. What arbiters prefer: press counters can
	// be wrong, the clock's time cannot.
	OnFlag Trigger = iota
	// OnMoves: the press that completes the cumulative quota adds the next
	// period's time. Any time running out is a flag.
	OnMoves
)

// AfterFlag is what the clock does once a flag has fallen.
type AfterFlag uint8

const (
	// Freeze stops the clock: both times stay as they are and presses are
	// ignored.
	Freeze AfterFlag = iota
	// Continue lets play go on: the flagged side stays at zero and gets no
	// more time, and the other flag can fall too.
	Continue
)

// Options change how a clock applies its controls.
type Options struct {
	// FirstIncrement gives each player the first period's Fischer increment
	// before the game, as FIDE arbiters do: 90+30 shows 1:30:30 at the start.
	FirstIncrement bool
	PeriodTrigger  Trigger
	AfterFlag      AfterFlag
}

// DefaultOptions are FIDE practice.
var DefaultOptions = Options{FirstIncrement: true, PeriodTrigger: OnFlag, AfterFlag: Freeze}

// Option names and values as the clock log and config files write them.
const (
	OptFirstIncrement = "first-increment"
	OptPeriodTrigger  = "period-trigger"
	OptAfterFlag      = "after-flag"
)

// OptionNames lists the option names in their canonical order.
var OptionNames = []string{OptFirstIncrement, OptPeriodTrigger, OptAfterFlag}

// Set sets the option name to value, both as the clock log writes them.
func (o *Options) Set(name, value string) error {
	switch name {
	case OptFirstIncrement:
		switch value {
		case "on":
			o.FirstIncrement = true
		case "off":
			o.FirstIncrement = false
		default:
			return fmt.Errorf("option %s: want on or off, got %q", name, value)
		}
	case OptPeriodTrigger:
		if err := o.PeriodTrigger.UnmarshalText([]byte(value)); err != nil {
			return fmt.Errorf("option %s: want flag or moves, got %q", name, value)
		}
	case OptAfterFlag:
		if err := o.AfterFlag.UnmarshalText([]byte(value)); err != nil {
			return fmt.Errorf("option %s: want freeze or continue, got %q", name, value)
		}
	default:
		return fmt.Errorf("unknown option %q, want one of first-increment, period-trigger, after-flag", name)
	}
	return nil
}

// Get returns the value of option name as the clock log writes it.
func (o Options) Get(name string) string {
	switch name {
	case OptFirstIncrement:
		if o.FirstIncrement {
			return "on"
		}
		return "off"
	case OptPeriodTrigger:
		return o.PeriodTrigger.String()
	case OptAfterFlag:
		return o.AfterFlag.String()
	}
	return ""
}
