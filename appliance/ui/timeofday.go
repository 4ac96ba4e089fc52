package ui

import (
	"fmt"
	"time"
)

// TimeOfDay is a reading of the wall clock, taken by the daemon at the edge
// of its loop (the core reads no clock): the time of day at a monotonic
// instant, and the source the daemon trusts for it.
type TimeOfDay struct {
	Mono   time.Duration // the monotonic instant of the reading
	UnixMs int64         // the time of day then, Unix milliseconds
	// Source is what the time of day comes from: "ntp" (the system clock,
	// synchronized), "rtc" (the system clock, set at boot from a real-time
	// clock found valid), "arbiter" (set in the menu), "sim" (the
	// simulator's virtual time of day), "host" (the system clock of the
	// laptop a demonstration clock runs on, make hall; never on the
	// clock's image); "none": nothing to trust, and no start is scheduled
	// by it.
	Source string
	// Zone is where the menu shows and takes times of day; nil: UTC.
	Zone *time.Location
}

// Time sources.
const (
	SourceNTP     = "ntp"
	SourceRTC     = "rtc"
	SourceArbiter = "arbiter"
	SourceSim     = "sim"
	SourceHost    = "host"
	SourceNone    = "none"
)

// SetTimeOfDay gives the core the latest reading of the time of day. The
// daemon calls it at every turn of its loop, before Tick.
func (c *Core) SetTimeOfDay(t TimeOfDay) {
	if t.Source == "" {
		t.Source = SourceNone
	}
	c.tod = t
}

// TimeOfDay returns the last reading.
func (c *Core) TimeOfDay() TimeOfDay { return c.tod }

// timeKnown reports whether the time of day is to be trusted.
func (c *Core) timeKnown() bool {
	return c.tod.Source != "" && c.tod.Source != SourceNone && c.tod.UnixMs > 0
}

// wall is the time of day (Unix ms) at monotonic instant t, by the last
// reading.
func (c *Core) wall(t time.Duration) int64 {
	return c.tod.UnixMs + (t - c.tod.Mono).Milliseconds()
}

// mono is the monotonic instant of time of day ms, by the last reading.
func (c *Core) mono(ms int64) time.Duration {
	return c.tod.Mono + time.Duration(ms-c.tod.UnixMs)*time.Millisecond
}

func (c *Core) zone() *time.Location {
	if c.tod.Zone != nil {
		return c.tod.Zone
	}
	return time.UTC
}

// setTimeOfDay is the arbiter's setting of the time of day (the menu's
// Time of day) at monotonic instant at: the daemon keeps it (Opts.SetTime),
// the core uses it at once.
func (c *Core) setTimeOfDay(at time.Duration, ms int64) error {
	if c.setTime != nil {
		if err := c.setTime(at, ms); err != nil {
			return err
		}
	}
	c.tod = TimeOfDay{Mono: at, UnixMs: ms, Source: SourceArbiter, Zone: c.tod.Zone}
	c.game.Note(fmt.Sprintf("arbiter: time of day set to %s", utc(ms)))
	return nil
}

// --- the menu: Setup > Time of day, Round start, Default time ------------

// defaultTimes are the default times the menu offers (FIDE 6.6: 0 in the
// current Laws unless the event's rules say otherwise; one hour in older
// editions; events often choose 15 or 30 minutes).
var defaultTimes = []int64{0, 15 * 60000, 30 * 60000, 60 * 60000}

// roundItems are the setup list's items for the round and the time of day.
func (c *Core) roundItems() []item {
	return []item{
		{label: c.roundStartLabel, ok: func(c *Core, at time.Duration) { c.push(c.roundForm(at)) }},
		{label: c.defaultTimeLabel, step: func(c *Core, at time.Duration, d int) {
			r := c.hall.Round
			r.DefaultMs = cycle(defaultTimes, r.DefaultMs, d)
			if _, err := c.SetRound(at, r, "arbiter"); err != nil {
				c.say(at, "REFUSED")
				c.log("round: " + err.Error())
			}
		}},
		{label: c.timeOfDayLabel, ok: func(c *Core, at time.Duration) { c.push(c.timeOfDayForm(at)) }},
	}
}

// startNowItem starts the game now, before the round's scheduled start,
// once confirmed: the arbiter's early start (the scheduled start still
// counts for the default time, FIDE 6.6).
func (c *Core) startNowItem() item {
	return item{label: fixed("Start now"), ok: func(c *Core, at time.Duration) {
		c.push(&confirmPage{question: "Start before " + c.startOfDay() + "?", yes: func(c *Core, at time.Duration) {
			c.closeMenu()
			if _, err := c.startNow(at, "arbiter"); err != nil {
				c.say(at, "REFUSED")
				c.log("start: " + err.Error())
			}
		}})
	}}
}

// The setup list's words for the round and the time of day, also in the
// Control view: whole words a newcomer reads without the manual, within
// a 128-pixel panel's menu line (TestSetupWordsFit).

// roundStartLabel is the round's scheduled start: "Round start 18:30",
// or "Round start none".
func (c *Core) roundStartLabel() string {
	if c.hall.Round.StartMs == 0 {
		return "Round start none"
	}
	return "Round start " + time.UnixMilli(c.hall.Round.StartMs).In(c.zone()).Format("15:04")
}

// defaultTimeLabel is the round's default time (FIDE 6.6): "Default time
// 30 min"; 0 min, the current Laws' default, is a value like any other
// (a player not at the board at the start has lost), never "off".
func (c *Core) defaultTimeLabel() string {
	return "Default time " + durLabel(c.hall.Round.DefaultMs)
}

// timeOfDayLabel is the time of day and the source the clock trusts it
// from ("Time of day 18:30 NTP"), or "Time of day not set" while it
// trusts none: the system clock's reading is then not shown, it means
// nothing.
func (c *Core) timeOfDayLabel() string {
	if !c.timeKnown() {
		return "Time of day not set"
	}
	return "Time of day " + time.UnixMilli(c.wall(c.now)).In(c.zone()).Format("15:04") + " " + sourceMark(c.tod.Source)
}

func durLabel(ms int64) string {
	if ms%3600000 == 0 && ms != 0 {
		return fmt.Sprintf("%d h", ms/3600000)
	}
	return fmt.Sprintf("%d min", ms/60000)
}

// roundForm sets the round's start: off, or a time of day today (in the
// clock's zone).
func (c *Core) roundForm(at time.Duration) page {
	now := time.UnixMilli(c.wall(at)).In(c.zone())
	start := now.Add(time.Hour).Truncate(time.Minute)
	on := 0
	if c.hall.Round.StartMs != 0 {
		start, on = time.UnixMilli(c.hall.Round.StartMs).In(c.zone()), 1
	}
	off := func(v []int) bool { return v[0] == 0 }
	return &formPage{
		title: "Round start",
		fields: []field{
			{label: "start", min: 0, max: 1, big: 1, format: func(v int) string { return map[bool]string{true: "at", false: "none"}[v == 1] }},
			{label: "hours", min: 0, max: 23, big: 10, hidden: off},
			{label: "minutes", min: 0, max: 59, big: 10, format: two, hidden: off},
		},
		vals: []int{on, start.Hour(), start.Minute()},
		commit: func(c *Core, at time.Duration, v []int) {
			r := c.hall.Round
			r.StartMs = 0
			if v[0] == 1 {
				day := time.UnixMilli(c.wall(at)).In(c.zone())
				r.StartMs = time.Date(day.Year(), day.Month(), day.Day(), v[1], v[2], 0, 0, c.zone()).UnixMilli()
			}
			if _, err := c.SetRound(at, r, "arbiter"); err != nil {
				c.say(at, "SET TIME FIRST")
				c.log("round: " + err.Error())
				return
			}
			if r.StartMs != 0 && r.StartMs <= c.wall(at) {
				c.say(at, "START PASSED")
			}
		},
	}
}

// timeOfDayForm sets the time of day: the date and the time, in the
// clock's zone (the daemon cannot set the system clock: it keeps the
// difference).
func (c *Core) timeOfDayForm(at time.Duration) page {
	now := time.UnixMilli(c.wall(at)).In(c.zone())
	return &formPage{
		title: "Time of day",
		fields: []field{
			{label: "year", min: 2000, max: 2099, big: 10},
			{label: "month", min: 1, max: 12, big: 10, format: two},
			{label: "day", min: 1, max: 31, big: 10, format: two},
			{label: "hours", min: 0, max: 23, big: 10, format: two},
			{label: "minutes", min: 0, max: 59, big: 10, format: two},
			{label: "seconds", min: 0, max: 59, big: 10, format: two},
		},
		vals: []int{now.Year(), int(now.Month()), now.Day(), now.Hour(), now.Minute(), now.Second()},
		commit: func(c *Core, at time.Duration, v []int) {
			t := time.Date(v[0], time.Month(v[1]), v[2], v[3], v[4], v[5], 0, c.zone())
			if t.Day() != v[2] {
				c.say(at, "NO SUCH DAY")
				return
			}
			if err := c.setTimeOfDay(at, t.UnixMilli()); err != nil {
				c.say(at, "REFUSED")
				c.log("time of day: " + err.Error())
				return
			}
			c.say(at, "TIME SET")
		},
	}
}
