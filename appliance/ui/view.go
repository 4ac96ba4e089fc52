package ui

import (
	"fmt"
	"github.com/zeitnot/zeitnot/protocol"
	"strings"
	"time"

	"github.com/zeitnot/zeitnot/appliance/screen"
	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
)

// View describes what the displays show at instant now.
func (c *Core) View(now time.Duration) screen.View {
	c.advance(now)
	if c.msgUntil > c.now && len(c.messages) > 0 {
		return screen.View{Kind: screen.KindMessage, Message: c.messages}
	}
	if len(c.pages) > 0 {
		return screen.View{Kind: screen.KindMenu, Menu: c.pages[len(c.pages)-1].view(c)}
	}
	st := c.game.State(c.now)
	g := screen.Game{
		Started:     st.Started,
		Paused:      st.Paused,
		TenthsBelow: c.set.TenthsBelow,
	}
	g.Banner, g.BannerShort = c.bannerText(st)
	left, right := clock.White, clock.Black
	if !c.set.WhiteLeft {
		left, right = right, left
	}
	g.Left = c.playerView(st, left)
	g.Right = c.playerView(st, right)
	rv := c.round()
	g.Left.Default, g.Right.Default = rv.def[left], rv.def[right]
	return screen.View{Kind: screen.KindGame, Game: g}
}

// bannerText is the game screen's banner now, and a shorter form of it
// where there is one.
func (c *Core) bannerText(st clock.State) (text, short string) {
	switch {
	case c.banner != "":
		return c.banner, ""
	case c.game.Recovered() && c.game.Dropped() > 0:
		// Not the same as a clean recovery: the arbiter checks the
		// times against the score sheets.
		return fmt.Sprintf("RECOVERED %d LOST", c.game.Dropped()), ""
	case c.game.Recovered():
		return "RECOVERED", ""
	case c.game.TakenOver():
		// Another board's game, as its last state showed it: the
		// arbiter checks the times before resuming (FIDE 6.10).
		return "TAKEN OVER", ""
	case c.boardBanner() != "":
		return c.boardBanner(), ""
	case c.game.Warning() != "":
		return c.game.Warning(), ""
	case c.devWarning != "":
		return c.devWarning, ""
	case c.powerWarning != "":
		return c.powerWarning, ""
	case c.updateMsg != "" && c.now < c.updateUntil:
		return c.updateMsg, ""
	case c.stickMsg != "" && c.now < c.stickUntil:
		return c.stickMsg, ""
	case gameOver(st) || st.Paused && resultOpen(st):
		if r, _ := c.game.Result(); r != clocklog.NoResult {
			return "RESULT " + resultLabel(r), resultLabel(r)
		}
		if gameOver(st) && c.Locked() {
			// A short ok says LOCKED here: the next game is the
			// arbiter's (hold ok, the PIN).
			return "LOCKED: ARBITER", "LOCKED"
		}
		if gameOver(st) {
			return "OK: NEW GAME", ""
		}
		return "", ""
	case flaggedPlayOn(st):
		return "OK: STOP CLOCK", ""
	case !st.Started:
		if rv := c.round(); rv.waiting {
			// The round's start as a time of day, the countdown to it,
			// and what the clock trusts for the time of day; where that
			// does not fit (a two-player LCD line, 12 characters) the
			// start and the countdown, or from an hour away the start
			// alone.
			short := c.startOfDay() + " " + countdown(rv.startsIn)
			if rv.startsIn > 3599000 { // 1:00:00 and more
				short = "START " + c.startOfDay()
			}
			return c.startOfDay() + " IN " + countdown(rv.startsIn) + " " + sourceMark(c.tod.Source), short
		}
		if c.unlockedByDefault() && (c.now/unlockedEvery)%2 == 1 {
			return "UNLOCKED: SET A PIN", "UNLOCKED"
		}
		return c.game.Name(), ""
	}
	return "", ""
}

func (c *Core) playerView(st clock.State, s clock.Side) screen.Player {
	p := st.Player[s]
	ctl := c.game.Clock().Controls().White
	if s == clock.Black {
		ctl = c.game.Clock().Controls().Black
	}
	return screen.Player{
		Ms:        p.Ms,
		CountUp:   p.Mode == timecontrol.CountUp,
		Running:   st.Running == s,
		ToMove:    st.ToMove == s && st.Started && !st.Stopped,
		White:     s == clock.White,
		Moves:     p.Moves,
		ShowMoves: c.set.ShowMoves,
		Period:    p.Period,
		Periods:   len(ctl) > 1 || ctl[len(ctl)-1].Moves > 0,
		Flag:      p.Flag,
		FirstFlag: st.FirstFlag == s,
		Overstep:  p.Overstep,
		Delay:     p.Mode == timecontrol.Delay,
		DelayMs:   p.DelayMs,
		Overtime:  p.Overtime,
		OTLeft:    p.OvertimeLeft,
		Seconds:   c.now < c.secsUntil[s] || c.down[Minus],
	}
}

// NextWake returns the next instant after now at which something visible
// changes or work is due (a checkpoint, a banner going away), or ok=false if
// nothing will happen without input. The loop sleeps until then: once per
// displayed second, ten times a second in tenths, never a fixed fast tick.
func (c *Core) NextWake(now time.Duration) (time.Duration, bool) {
	c.advance(now)
	const never = time.Duration(1<<63 - 1)
	next := never
	consider := func(t time.Duration) {
		if t > c.now && t < next {
			next = t
		}
	}
	if c.banner != "" {
		consider(c.until)
	}
	if c.msgUntil > c.now {
		consider(c.msgUntil)
	}
	for _, u := range c.secsUntil {
		consider(u)
	}
	if c.stickMsg != "" {
		consider(c.stickUntil)
	}
	if c.updateMsg != "" {
		consider(c.updateUntil)
	}
	if at, ok := c.game.NextDue(c.now); ok {
		consider(at)
	}
	if rv := c.round(); rv.next != 0 {
		// The countdown's next second, the start, the default time.
		consider(max(c.mono(rv.next), c.now+time.Millisecond))
	}
	t := c.game.Ms(c.now)
	st := c.game.Clock().State(t)
	if !st.Started && c.unlockedByDefault() {
		// The ready screen's name and unlocked notice take turns.
		consider((c.now/unlockedEvery + 1) * unlockedEvery)
	}
	if st.Running != clock.NoSide {
		p := st.Player[st.Running]
		if !p.Flag {
			var d int64
			switch {
			case p.DelayMs > 0:
				// The main time stands still; the delay countdown
				// shows whole seconds.
				d = (p.DelayMs-1)%1000 + 1
			default:
				d = screen.UntilChange(p.Ms, c.set.TenthsBelow, p.Mode == timecontrol.CountUp)
			}
			if p.Mode == timecontrol.Hourglass {
				// The other side's display counts up.
				o := st.Player[st.Running.Other()]
				if !o.Flag {
					d = min(d, 1000-o.Ms%1000)
				}
			}
			consider(c.game.Mono(t + max(d, 1)))
		}
	}
	return next, next != never
}

// Status is the clock's status JSON (docs/hall-protocol.md): the
// protocol's type, which the core fills in.
type Status = protocol.Status

// played is the clock's control as played, if an arbiter's increment
// changed it; "" otherwise.
func played(clk *clock.Clock) string {
	if p := clk.Played(); !p.Equal(clk.Controls()) {
		return timecontrol.FormatPair(p)
	}
	return ""
}

// RoundStatus is the round in the status.
type RoundStatus = protocol.RoundStatus

// Status reports the state at now.
func (c *Core) Status(now time.Duration) Status {
	c.advance(now)
	st := c.game.State(c.now)
	left := "white"
	if !c.set.WhiteLeft {
		left = "black"
	}
	s := Status{
		StateJSON: clocklog.ToJSON(st),
		Recovered: c.game.Recovered(),
		Dropped:   c.game.Dropped(),
		Screen:    c.ScreenName(),
		Control:   timecontrol.FormatPair(c.game.Clock().Controls()),
		Left:      left,
		Locked:    c.set.Locked,
		Warning:   strings.Trim(c.game.Warning()+"; "+c.devWarning+"; "+c.lossWarning(), "; "),
		Messages:  c.messages,
		Game:      c.game.GameID(),
		Options:   optionsMap(c.game.Clock().Options()),
		TakenOver: c.game.TakenOver(),
		Played:    played(c.game.Clock()),
		Board:     c.boardStatus(),
	}
	if r, by := c.game.Result(); r != clocklog.NoResult {
		s.Result, s.ResultBy = r.String(), by.String()
	}
	if st.Paused && c.hallPaused {
		s.PausedBy = "hall"
	}
	s.TimeSource = c.tod.Source
	if s.TimeSource == "" {
		s.TimeSource = SourceNone
	}
	if p := c.hall.Players; p != (Players{}) {
		s.Players = &p
	}
	if p := c.hall.Pairing; p != nil && c.hall.PairingGame == c.game.GameID() {
		pp := *p
		s.Pairing = &pp
	}
	if r := c.hall.Round; r.StartMs != 0 || r.DefaultMs != 0 {
		s.Round = &RoundStatus{StartMs: r.StartMs, DefaultMs: r.DefaultMs, Game: r.Game}
		rv := c.round()
		if rv.waiting {
			in := rv.startsIn
			s.Round.StartsIn = &in
		}
		for _, side := range []clock.Side{clock.White, clock.Black} {
			if rv.def[side] {
				s.Default = append(s.Default, side.String())
			}
		}
	}
	return s
}

// optionsMap names the clock's options as the config and the hall do.
func optionsMap(o clock.Options) map[string]string {
	m := map[string]string{}
	for _, k := range clock.OptionNames {
		m[k] = o.Get(k)
	}
	return m
}

// ScreenName names the current screen: "game", "message", or "menu:TITLE".
func (c *Core) ScreenName() string {
	switch {
	case c.msgUntil > c.now && len(c.messages) > 0:
		return "message"
	case len(c.pages) > 0:
		t := c.pages[len(c.pages)-1].view(c).Title
		return "menu:" + strings.ToLower(strings.ReplaceAll(t, " ", "-"))
	}
	return "game"
}

// StatusLine is one line for systemd's STATUS=.
func (c *Core) StatusLine(now time.Duration) string {
	s := c.Status(now)
	state := "ready"
	switch {
	case s.Stopped || s.FirstFlag != "none":
		state = "flag " + s.FirstFlag
	case s.Paused:
		state = "paused"
	case s.Running != "none":
		state = s.Running + " running"
	}
	if s.Recovered {
		state += ", recovered"
		if s.Dropped > 0 {
			state += fmt.Sprintf(" with %d journal lines lost", s.Dropped)
		}
	}
	if s.TakenOver {
		state += ", taken over"
	}
	if s.Round != nil && s.Round.StartsIn != nil {
		state += ", start " + c.startOfDay() + " in " + countdown(*s.Round.StartsIn)
	}
	if len(s.Default) > 0 {
		state += ", default " + strings.Join(s.Default, " and ")
	}
	return state + "; white " + screen.FormatTime(s.White.Ms, 0, false) + ", black " + screen.FormatTime(s.Black.Ms, 0, false) + "; " + timecontrol.HumanPair(c.game.Clock().Controls())
}

// SetStickMessage shows what a USB stick's export did ("12 GAMES SAVED")
// on the game screen, beside the times, from now for at most d; "" takes
// it away.
func (c *Core) SetStickMessage(text string, now, d time.Duration) {
	c.stickMsg, c.stickUntil = text, now+d
}

// SetPower shows the power supply's state: warning on the game screen
// ("ON BATTERY", "BATTERY LOW"; "" for none) and level in the Control
// view of the arbiter's menu ("battery 87%"; "" without a gauge).
func (c *Core) SetPower(warning, level string) { c.powerWarning, c.powerLevel = warning, level }

// SetDeviceWarning shows a device problem the daemon found (e.g. a display
// gone) on the displays that still work and in the status; "" clears it.
func (c *Core) SetDeviceWarning(w string) { c.devWarning = w }

// lossWarning is what the status says of journal lines a recovery could
// not use, for as long as the displays say RECOVERED N LOST: the hall and
// zeitnot status show it too, so a loss is seen wherever the game is
// watched, not only at the board.
func (c *Core) lossWarning() string {
	if !c.game.Recovered() || c.game.Dropped() == 0 {
		return ""
	}
	return fmt.Sprintf("recovered with %d journal lines lost: check the times and moves", c.game.Dropped())
}
