package ui

import (
	"strings"
	"time"

	"github.com/zeitnot/zeitnot/appliance/screen"
	"github.com/zeitnot/zeitnot/appliance/session"
	"github.com/zeitnot/zeitnot/appliance/speech"
	"github.com/zeitnot/zeitnot/drivers/button"
	"github.com/zeitnot/zeitnot/engine/clock"
)

// The announce buttons, one beside each player (FIDE Appendix D.2.6.1:
// the clock announces the time and number of moves to a visually disabled
// player). A press speaks that player's time and moves into their
// earphone; a second press within AnnounceAgain the opponent's and whose
// move it is; holding it switches the spoken menu on or off for that side.
const (
	AnnounceLeft  = "announce-left"
	AnnounceRight = "announce-right"
)

// AnnounceAgain is how soon after an announce press a second one speaks
// the opponent's clock rather than the player's own again.
const AnnounceAgain = 3 * time.Second

// speaker is the core's spoken clock: what it said since TakeSpeech, and
// what it remembers to say only what changed.
type speaker struct {
	out      []speech.Announcement
	lastAsk  [2]time.Duration // each channel's last announce press
	asks     [2]int           // presses within AnnounceAgain of each other
	menuOn   bool             // the spoken menu speaks
	menuSide speech.Channel   // into this earphone
	lastSaid string           // the spoken menu's last page or banner
	period   [2]int           // each side's period when last looked at
	quota    [2]int           // and its moves still to make in it
	passed   [2]int           // the period whose control passing was said
	game     string           // the game period is of
	battery  bool             // the low-battery warning was said
}

// TakeSpeech returns what the clock has to say since the last call, each
// announcement with the instant it answers, and forgets it. The daemon's
// loop hands it to the speech output, which never holds up the loop.
func (c *Core) TakeSpeech() []speech.Announcement {
	out := c.speak.out
	c.speak.out = nil
	return out
}

// SpokenMenu reports whether the spoken menu speaks, and into which
// earphone.
func (c *Core) SpokenMenu() (bool, speech.Channel) { return c.speak.menuOn, c.speak.menuSide }

// lang is the language of a channel's earphone.
func (c *Core) lang(ch speech.Channel) speech.Lang {
	if ch == speech.Right {
		return c.set.SpeechRight
	}
	return c.set.SpeechLeft
}

// channelSide is the clock side of the player at a channel's earphone.
func (c *Core) channelSide(ch speech.Channel) clock.Side {
	if ch == speech.Right {
		return c.sideOf(Right)
	}
	return c.sideOf(Left)
}

// tell queues text for one earphone, made in its language; a side whose
// language is off hears nothing.
func (c *Core) tell(at time.Duration, ch speech.Channel, text func(l speech.Lang) string) {
	l := c.lang(ch)
	if l == speech.Off || l == "" {
		return
	}
	c.speak.out = append(c.speak.out, speech.Announcement{At: at, Channel: ch, Lang: l, Text: text(l)})
}

// tellBoth queues text for both earphones; own says whether the player at
// the channel is the side it concerns.
func (c *Core) tellBoth(at time.Duration, text func(l speech.Lang, side clock.Side) string) {
	for _, ch := range []speech.Channel{speech.Left, speech.Right} {
		side := c.channelSide(ch)
		c.tell(at, ch, func(l speech.Lang) string { return text(l, side) })
	}
}

func spokenPlayer(p clock.PlayerState) speech.Player {
	return speech.Player{Ms: p.Ms, Moves: p.Moves}
}

// announceButton handles an announce button's event at its first edge's
// instant: the time spoken is the clock's at that instant.
func (c *Core) announceButton(name string, k button.Kind, at time.Duration) {
	ch := speech.Left
	if name == AnnounceRight {
		ch = speech.Right
	}
	switch k {
	case button.Press:
		again := c.speak.asks[ch]%2 == 1 && at-c.speak.lastAsk[ch] <= AnnounceAgain
		c.speak.lastAsk[ch] = at
		c.speak.asks[ch]++
		if !again {
			c.speak.asks[ch] = 1
		}
		st := c.game.State(at)
		me := c.channelSide(ch)
		if again {
			c.tell(at, ch, func(l speech.Lang) string {
				return speech.Opponent(l, spokenPlayer(st.Player[me.Other()]), st.ToMove == me)
			})
			return
		}
		c.tell(at, ch, func(l speech.Lang) string { return speech.Own(l, spokenPlayer(st.Player[me])) })
	case button.Hold:
		c.speak.menuOn = !(c.speak.menuOn && c.speak.menuSide == ch)
		c.speak.menuSide = ch
		c.speak.lastSaid = ""
		on := c.speak.menuOn
		c.tell(at, ch, func(l speech.Lang) string { return speech.SpokenMenu(l, on) })
		if on {
			c.speakScreen(at)
		}
	}
}

// speakScreen says, in the spoken menu, the menu page on the displays,
// or the game screen's banner once the menu closes ("FIDE classical",
// "NEW GAME"), when it differs from what it said last.
func (c *Core) speakScreen(at time.Duration) {
	if !c.speak.menuOn {
		return
	}
	ch := c.speak.menuSide
	l := c.lang(ch)
	if l == speech.Off || l == "" {
		l = speech.English // the menu speaks to whoever switched it on
	}
	var text string
	v := c.View(at)
	switch v.Kind {
	case screen.KindMenu:
		m := v.Menu
		if m.Editing && m.Cursor >= 0 {
			// A form: the title and the field being edited.
			m.Items, m.Cursor = m.Items[m.Cursor:m.Cursor+1], 0
		}
		text = speech.Menu(l, speech.MenuPage{Title: m.Title, Items: m.Items, Cursor: m.Cursor, Hint: m.Hint})
		if m.Editing {
			text = speech.Label(l, m.Title) + ". " + speech.Label(l, m.Items[0])
		}
	case screen.KindMessage:
		text = speech.Label(l, joinLines(v.Message))
	default:
		text = speech.Label(l, v.Game.Banner)
	}
	if text == c.speak.lastSaid {
		return
	}
	c.speak.lastSaid = text
	if text == "" {
		return
	}
	c.speak.out = append(c.speak.out, speech.Announcement{At: at, Channel: ch, Lang: l, Text: text})
}

func joinLines(ls []string) string {
	s := ""
	for i, l := range ls {
		if i > 0 {
			s += ". "
		}
		s += l
	}
	return s
}

// spokenEvents is the spoken clock's subscription to the game's events:
// a flag, and a move an e-board gave (in FIDE D.2.1's names, to the
// player who is to reply).
func (c *Core) spokenEvents(e session.Event) {
	switch e.Kind {
	case session.Flagged:
		c.tellBoth(c.now, func(l speech.Lang, side clock.Side) string { return speech.Flag(l, side == e.Side) })
	case session.BoardMoved:
		san, _, ok := c.game.BoardMove(e.Press)
		if !ok {
			return
		}
		st := c.game.State(c.now)
		for _, ch := range []speech.Channel{speech.Left, speech.Right} {
			if c.channelSide(ch) == st.ToMove {
				c.tell(c.now, ch, func(speech.Lang) string { return speech.Move(san) })
			}
		}
	case session.NewGame, session.Recovered:
		c.speak.game = ""
	}
}

// speakChanges says what time brought since the last look: a time
// control passed, and low battery, once. A side passes its time control
// when it completes the period's quota of moves (with period-trigger flag
// the next period's time comes later, when this period's runs out: that
// is not said again), or, for a period without a quota, when its next
// period begins without an overstep.
func (c *Core) speakChanges(at time.Duration) {
	st := c.game.State(at)
	if id := c.game.GameID(); c.speak.game != id || !st.Started {
		c.speak.game = id
		for _, side := range []clock.Side{clock.White, clock.Black} {
			p := st.Player[side]
			c.speak.period[side], c.speak.quota[side], c.speak.passed[side] = p.Period, p.QuotaLeft, 0
		}
	}
	for _, side := range []clock.Side{clock.White, clock.Black} {
		p := st.Player[side]
		was, quota := c.speak.period[side], c.speak.quota[side]
		c.speak.period[side], c.speak.quota[side] = p.Period, p.QuotaLeft
		var passed bool
		switch {
		case p.Period == was && quota > 0 && p.QuotaLeft == 0:
			passed = true // the quota made; the next period's time comes at the flag
		case p.Period > was:
			passed = c.speak.passed[side] != was && !p.Overstep && !p.Flag
		}
		if !passed {
			continue
		}
		c.speak.passed[side] = was
		c.tellBoth(at, func(l speech.Lang, listener clock.Side) string {
			return speech.Passed(l, listener == side, spokenPlayer(p))
		})
	}
	low := strings.HasSuffix(c.powerWarning, "LOW") // BATTERY LOW, ON BATTERY, LOW
	if low && !c.speak.battery {
		c.tellBoth(at, func(l speech.Lang, _ clock.Side) string { return speech.BatteryLow(l) })
	}
	c.speak.battery = low
}

// speakProposal tells both players a result was proposed, for them to
// agree with their levers.
func (c *Core) speakProposal(at time.Duration, result string) {
	c.tellBoth(at, func(l speech.Lang, _ clock.Side) string { return speech.Proposed(l, result) })
}
