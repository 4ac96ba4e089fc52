package ui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/zeitnot/zeitnot/appliance/config"
	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/engine/preset"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
)

// openMenu opens the menu that fits the moment: the arbiter's corrections
// while a game is paused, else the setup menu.
func (c *Core) openMenu(at time.Duration) {
	st := c.game.State(at)
	if st.Started && st.Paused && !st.Stopped {
		c.push(c.arbiterMenu())
		return
	}
	c.push(c.setupMenu())
}

// controlBanner is the control as holding ok shows it beneath the times
// while a clock runs: its name, or the control as played once an
// arbiter's increment changed it.
func (c *Core) controlBanner() string {
	clk := c.game.Clock()
	if p := clk.Played(); !p.Equal(clk.Controls()) {
		return timecontrol.HumanPair(p)
	}
	return c.game.Name()
}

// infoPage is the read-only view of the game's control and options, for
// the arbiter to check while the game is paused (the arbiter's menu).
func (c *Core) infoPage() page {
	clk := c.game.Clock()
	// The control as played (with an arbiter's increment, Guidelines
	// III.4, from the move it was given), once, as people write it: under
	// the preset's name, or alone where the name is that already.
	pair, opt := clk.Played(), clk.Options()
	lines := []string{c.game.Name()}
	if h := timecontrol.HumanPair(pair); h != c.game.Name() {
		lines = append(lines, h)
	}
	for _, k := range []string{clock.OptFirstIncrement, clock.OptPeriodTrigger, clock.OptAfterFlag} {
		lines = append(lines, k+" "+opt.Get(k))
	}
	if c.powerLevel != "" {
		lines = append(lines, c.powerLevel)
	}
	if p := c.hall.Players; p != (Players{}) {
		lines = append(lines, "W "+p.White, "B "+p.Black)
	}
	if r := c.hall.Round; r.StartMs != 0 {
		lines = append(lines, c.roundStartLabel(), c.defaultTimeLabel())
	}
	return &infoPage{title: "Control", lines: lines}
}

// mark is how the menus name a physical side: "<" left, ">" right.
func (c *Core) mark(s clock.Side) string {
	if c.leverOf(s) == Left {
		return "<"
	}
	return ">"
}

// --- the setup menu and the preset tree -------------------------------

// node is an entry of the preset tree: a preset, or a run of them.
type node struct {
	label  string
	preset *preset.Preset
	kids   []node
}

// presetTree lays every preset (built-in, then saved) out for the setup
// menu: three entries at the root, then up to four per level, so that any
// preset is reached with the menu's hold of ok and three picks.
func (c *Core) presetTree() []node {
	run := menuPresets(c.allPresets())
	if t, ok := groupTree(run); ok {
		return t
	}
	return nodes(run, 3, 2)
}

// groupTree lays the presets out by group: three root entries, each a run
// of whole groups; under each, one entry per group (or per four presets of
// a larger group); under that, the presets. It fails when the groups do
// not fit that shape, and the tree is then cut evenly by nodes.
func groupTree(run []preset.Preset) ([]node, bool) {
	type group struct {
		name   string
		chunks [][]preset.Preset
	}
	var gs []group
	for i := 0; i < len(run); {
		j := i
		for j < len(run) && run[j].Group == run[i].Group {
			j++
		}
		g := group{name: run[i].Group}
		for k := i; k < j; k += 4 {
			g.chunks = append(g.chunks, run[k:min(k+4, j)])
		}
		gs = append(gs, g)
		i = j
	}
	chunks := func(gs []group) int {
		n := 0
		for _, g := range gs {
			n += len(g.chunks)
		}
		return n
	}
	// The best cut of the groups into at most three runs of at most four
	// entries each: the fullest run as small as it can be.
	best, bestA, bestB := 5, 0, 0
	for a := 1; a <= len(gs); a++ {
		for b := a; b <= len(gs); b++ {
			worst := max(chunks(gs[:a]), chunks(gs[a:b]), chunks(gs[b:]))
			if worst < best {
				best, bestA, bestB = worst, a, b
			}
		}
	}
	if best > 4 {
		return nil, false
	}
	var root []node
	for _, part := range [][]group{gs[:bestA], gs[bestA:bestB], gs[bestB:]} {
		if len(part) == 0 {
			continue
		}
		var names, short []string
		n := node{}
		for _, g := range part {
			names = append(names, g.name)
			short = append(short, shortGroup(g.name))
			for i, ch := range g.chunks {
				label := g.name
				if len(g.chunks) > 1 {
					label = fmt.Sprintf("%s %d", g.name, i+1)
				}
				gn := node{label: label}
				for _, p := range ch {
					p := p
					gn.kids = append(gn.kids, node{label: presetLabel(p), preset: &p})
				}
				n.kids = append(n.kids, gn)
			}
		}
		n.label = strings.Join(names, "/")
		if len(n.label) > groupLabelMax {
			n.label = strings.Join(short, "/")
		}
		if len(n.label) > groupLabelMax {
			n.label = short[0] + "-" + short[len(short)-1] // from the first group to the last
		}
		root = append(root, n)
	}
	return root, true
}

// groupLabelMax is the longest root entry: a 128-pixel line of the small
// font holds 21 characters, less the "< " mark before and " >" after.
const groupLabelMax = 17

// shortGroup is a group's name where a menu line joins several.
func shortGroup(g string) string {
	switch g {
	case "Classical":
		return "Classic"
	case "Armageddon":
		return "Armag."
	case "US delay":
		return "US"
	}
	return g
}

// menuPresets lists each control once: a preset equal to an earlier one
// (an online control that is also a FIDE one) is left out of the menu.
func menuPresets(all []preset.Preset) []preset.Preset {
	var out []preset.Preset
	seen := map[string]bool{}
	for _, p := range all {
		if k := sameAs(p); !seen[k] {
			seen[k] = true
			out = append(out, p)
		}
	}
	return out
}

// sameAs is what makes two presets the same game: control and options.
func sameAs(p preset.Preset) string { return fmt.Sprintf("%s %+v", p.Spec, p.Options) }

// presetLabel shows a preset as its whole control, as people write it
// (90/40+30'+30"), so no increment hides behind a name.
func presetLabel(p preset.Preset) string {
	pair, err := p.Controls()
	if err != nil {
		return p.Name
	}
	return timecontrol.HumanPair(pair)
}

// nodes splits run into at most parts nodes, each holding at most
// 4^depth presets.
func nodes(run []preset.Preset, parts, depth int) []node {
	var out []node
	for _, piece := range split(run, parts, pow4(depth)) {
		if len(piece) == 1 {
			p := piece[0]
			out = append(out, node{label: presetLabel(p), preset: &p})
			continue
		}
		out = append(out, node{label: runLabel(piece), kids: nodes(piece, 4, depth-1)})
	}
	return out
}

// PresetPath returns the buttons that start a game with the preset key,
// after the hold of ok that opens the menu: the shortest way to it, or to
// the preset the menu lists in its place (the same control and options).
func (c *Core) PresetPath(key string) ([]string, bool) {
	want := ""
	for _, p := range c.allPresets() {
		if p.Key == key {
			want = sameAs(p)
		}
	}
	var walk func(ns []node) ([]string, bool)
	walk = func(ns []node) ([]string, bool) {
		for i, n := range ns {
			if n.preset != nil && sameAs(*n.preset) == want {
				return []string{chooseKeys[i]}, true
			}
			if rest, ok := walk(n.kids); ok {
				return append([]string{chooseKeys[i]}, rest...), true
			}
		}
		return nil, false
	}
	return walk(c.presetTree())
}

// setupMenu is the root when no game is under way: three entries lead into
// the presets, the fourth to setup; ok plays the control shown.
func (c *Core) setupMenu() page {
	p := &choosePage{title: "Menu"}
	for i, n := range c.presetTree() {
		p.slots[i] = c.nodeSlot(n)
	}
	p.slots[3] = &slot{label: "Setup", pick: func(c *Core, at time.Duration) { c.push(c.setupList()) }}
	st := c.game.State(c.now)
	if st.Started {
		p.def = &slot{label: "again " + c.game.Name(), pick: func(c *Core, at time.Duration) {
			c.closeMenu()
			c.againSameControl(at)
		}}
	} else {
		p.def = &slot{label: "play " + c.game.Name(), pick: func(c *Core, at time.Duration) { c.closeMenu() }}
	}
	return p
}

func (c *Core) nodeSlot(n node) *slot {
	if n.preset != nil {
		p := *n.preset
		return &slot{label: n.label, pick: func(c *Core, at time.Duration) {
			c.closeMenu()
			if err := c.newGame(at, p.Key, p.Options); err != nil {
				c.say(at, "BAD PRESET")
				c.log(fmt.Sprintf("preset %s: %v", p.Key, err))
				return
			}
			c.say(at, p.Name)
		}}
	}
	return &slot{label: n.label + " >", pick: func(c *Core, at time.Duration) {
		page := &choosePage{title: n.label}
		for i, k := range n.kids {
			page.slots[i] = c.nodeSlot(k)
		}
		c.push(page)
	}}
}

func pow4(n int) int {
	r := 1
	for ; n > 0; n-- {
		r *= 4
	}
	return r
}

// split cuts run into at most parts contiguous pieces of at most size
// each, as even as it can, cutting where the group changes when there is a
// choice, so pieces read as groups.
func split(run []preset.Preset, parts, size int) [][]preset.Preset {
	if len(run) > parts*size {
		run = run[:parts*size] // more saved presets than the tree holds
	}
	var out [][]preset.Preset
	for len(run) > 0 {
		left := parts - len(out)
		if left == 1 || len(run) <= left {
			if left == 1 {
				return append(out, run)
			}
			for _, p := range run {
				out = append(out, []preset.Preset{p})
			}
			return out
		}
		lo := max(1, len(run)-(left-1)*size)
		hi := min(size, len(run)-(left-1))
		ideal := (len(run) + left - 1) / left
		cut, best := min(max(ideal, lo), hi), -1
		for k := lo; k <= hi; k++ {
			if run[k].Group != run[k-1].Group {
				if d := abs(k - ideal); best < 0 || d < best {
					cut, best = k, d
				}
			}
		}
		out = append(out, run[:cut])
		run = run[cut:]
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// runLabel names a run of presets by its groups ("Classical/Rapid").
func runLabel(run []preset.Preset) string {
	var groups []string
	for _, p := range run {
		if len(groups) == 0 || groups[len(groups)-1] != p.Group {
			groups = append(groups, p.Group)
		}
	}
	return shorten(strings.Join(groups, "/"), 16)
}

func shorten(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

func (c *Core) setupList() page {
	return &listPage{title: "Setup", items: func(c *Core) []item {
		items := []item{
			{label: fixed("Custom control"), ok: func(c *Core, at time.Duration) { c.push(c.builderPage()) }},
			{label: fixed("Settings"), ok: func(c *Core, at time.Duration) { c.push(c.settingsPage()) }},
			{label: func() string { return fmt.Sprintf("Saved presets %d", len(c.saved)) }, ok: func(c *Core, at time.Duration) { c.push(c.savedPage()) }},
		}
		if st := c.game.State(c.now); !st.Started && c.board != nil {
			// With an e-board: the game's start, the initial position
			// or the board's set-up (a composed start).
			items = append(items, c.startPosItem())
		}
		if st := c.game.State(c.now); !st.Started && c.round().waiting {
			// The arbiter's early start of a game that waits for the
			// round's scheduled start: the levers do not start it.
			items = append([]item{c.startNowItem()}, items...)
		}
		items = append(items, append(c.roundItems(), c.aboutItem())...) // the round's start, its default time, the time of day; About
		if st := c.game.State(c.now); st.Started {
			// After a game, the arbiter's result: last, one plus up
			// from the top.
			items = append(items, c.resultItem())
		}
		return items
	}}
}

// whiteSide names the lever White plays.
func whiteSide(left bool) string {
	if left {
		return "left"
	}
	return "right"
}

func fixed(s string) func() string { return func() string { return s } }

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// --- settings ----------------------------------------------------------

var lowTimes = []int64{0, 5000, 10000, 30000, 60000}
var tenthsChoices = []int64{0, 10000, 20000, 30000, 60000}

func cycle(vals []int64, cur int64, d int) int64 {
	i := 0
	for k, v := range vals {
		if v == cur {
			i = k
		}
	}
	return vals[((i+d)%len(vals)+len(vals))%len(vals)]
}

func secs(ms int64) string {
	if ms == 0 {
		return "off"
	}
	return strconv.FormatInt(ms/1000, 10) + "s"
}

func (c *Core) settingsPage() page {
	set := func(f func(s *Settings, d int)) func(c *Core, at time.Duration, d int) {
		return func(c *Core, at time.Duration, d int) {
			f(&c.set, d)
			if c.sound != nil {
				c.sound.SetMuted(!c.set.Sound)
			}
			c.saveSettings()
		}
	}
	return &listPage{title: "Settings", hint: "+ up - down ok/lever", items: func(c *Core) []item {
		s := &c.set
		return []item{
			{label: func() string { return "Sound " + onOff(s.Sound) }, step: set(func(s *Settings, d int) { s.Sound = !s.Sound })},
			{label: func() string { return "Press beep " + onOff(s.PressBeep) }, step: set(func(s *Settings, d int) { s.PressBeep = !s.PressBeep })},
			{label: func() string { return "Low time " + secs(s.LowTimeMs) }, step: set(func(s *Settings, d int) { s.LowTimeMs = cycle(lowTimes, s.LowTimeMs, d) })},
			{label: func() string { return "Flag alarm " + onOff(s.FlagAlarm) }, step: set(func(s *Settings, d int) { s.FlagAlarm = !s.FlagAlarm })},
			{label: func() string { return fmt.Sprintf("Brightness %d%%", s.Brightness) }, step: set(func(s *Settings, d int) { s.Brightness = ((s.Brightness/10*10+10*d)%110 + 110) % 110 })},
			{label: func() string { return "Tenths <" + secs(s.TenthsBelow) }, step: set(func(s *Settings, d int) { s.TenthsBelow = cycle(tenthsChoices, s.TenthsBelow, d) })},
			{label: func() string { return "Moves " + map[bool]string{true: "shown", false: "hidden"}[s.ShowMoves] }, step: set(func(s *Settings, d int) { s.ShowMoves = !s.ShowMoves })},
			{label: func() string { return "White " + whiteSide(s.WhiteLeft) }, step: func(c *Core, at time.Duration, d int) {
				// FIDE 6.4: the arbiter decides where the clock stands.
				// During a game the displays swap sides: ask first.
				flip := func(c *Core, at time.Duration) {
					c.set.WhiteLeft = !c.set.WhiteLeft
					if c.keep != nil {
						c.keep.whiteLeft = c.set.WhiteLeft
					}
					c.noteGameSettings()
					c.saveSettings()
					c.say(at, "WHITE "+strings.ToUpper(whiteSide(c.set.WhiteLeft)))
					c.game.Note("white plays the " + whiteSide(c.set.WhiteLeft) + " lever")
				}
				if st := c.game.State(at); st.Started && !gameOver(st) {
					c.push(&confirmPage{question: "White to the " + whiteSide(!c.set.WhiteLeft) + "?", yes: flip})
					return
				}
				flip(c, at)
			}},
			c.lockItem(),
			{label: fixed("Set PIN"), ok: func(c *Core, at time.Duration) { c.setPIN(at, nil) }},
		}
	}}
}

// --- saved presets -----------------------------------------------------

func (c *Core) savedPage() page {
	return &listPage{title: "Saved presets", hint: "ok delete", items: func(c *Core) []item {
		var items []item
		for _, p := range c.saved {
			p := p
			items = append(items, item{label: fixed(p.Name + " " + presetLabel(p)), ok: func(c *Core, at time.Duration) {
				c.push(&confirmPage{question: "Delete " + p.Name + "?", yes: func(c *Core, at time.Duration) {
					saved := config.Presets(c.saved)
					saved.Delete(p.Key)
					c.saved = saved
					if c.set.Control == p.Key {
						// Its key goes with it: the control stays, as a notation.
						c.set.Control = p.Spec
						c.saveSettings()
					}
					c.savePresets()
				}})
			}})
		}
		return items
	}}
}

func (c *Core) savePresets() {
	if c.store != nil {
		if err := c.store.SavePresets(c.saved); err != nil {
			c.storageTrouble(err)
		}
	}
}

// --- the arbiter's corrections (FIDE 6.10, 6.13) -----------------------

// correct applies a correction to the clock and records it.
func (c *Core) correct(at time.Duration, e clocklog.Event) bool {
	if err := c.game.Correct(at, e); err != nil {
		c.say(at, "REFUSED")
		c.log("correction refused: " + err.Error())
		return false
	}
	return true
}

func (c *Core) arbiterMenu() page {
	// FIDE Guidelines III.4: in a game without increment, a player to move
	// with under two minutes may ask for an extra 5 s per move for both
	// players. It is offered only where Guidelines III apply: both sides
	// play without increment or delay from their current period on
	// (clock.WithoutIncrement). With under two minutes the menu opens on
	// it, and ok asks to confirm, naming the result: pause, hold ok, ok,
	// ok. Else it sits above End game. Once given, the same place takes
	// it back (the controls' own periods again), also confirmed. The order
	// is fixed while the menu is open. It goes back to the paused game,
	// which says what was done; pause resumes.
	clk := c.game.Clock()
	now := c.game.State(c.now)
	given := now.Player[clock.White].Increment > 0 || now.Player[clock.Black].Increment > 0
	offered := !given && clk.WithoutIncrement(clock.White) && clk.WithoutIncrement(clock.Black)
	iii4 := offered && now.Player[now.ToMove].Ms < 120000
	increment := func(ms int64, question, done string) item {
		return item{label: fixed(map[bool]string{true: "Take back +5 s per move", false: "+5 s per move, both"}[ms == 0]), ok: func(c *Core, at time.Duration) {
			c.push(&confirmPage{question: question, yes: func(c *Core, at time.Duration) {
				c.closeMenu()
				if c.correct(at, clocklog.Event{Verb: clocklog.SetIncrement, Side: clock.NoSide, Value: ms}) {
					c.say(at, done)
				}
			}})
		}}
	}
	var plusFive []item
	switch {
	case offered:
		plusFive = []item{increment(5000, "both: +5 s per move from now", "+5s PER MOVE")}
	case given:
		plusFive = []item{increment(0, "both: back to "+timecontrol.HumanPair(clk.Controls()), "NO +5s PER MOVE")}
	}
	sides := func() [2]clock.Side {
		if c.set.WhiteLeft {
			return [2]clock.Side{clock.White, clock.Black}
		}
		return [2]clock.Side{clock.Black, clock.White}
	}
	return &listPage{title: "Arbiter", hint: "lever: runs next", lever: func(c *Core, at time.Duration, lever string) {
		// Which clock runs on resume (e.g. after a time penalty), in
		// two presses: hold ok, then that side's lever.
		if s := c.sideOf(lever); c.game.State(at).ToMove != s {
			c.correct(at, clocklog.Event{Verb: clocklog.SetTurn, Side: s})
		}
	}, items: func(c *Core) []item {
		st := c.game.State(c.now)
		var items []item
		if iii4 {
			items = append(items, plusFive...)
		}
		for _, s := range sides() {
			s := s
			p := st.Player[s]
			items = append(items, item{
				label: fixed(fmt.Sprintf("Time %s %s", c.mark(s), fmtTime(p.Ms))),
				ok:    func(c *Core, at time.Duration) { c.push(c.timeForm(s)) },
			})
		}
		for _, s := range sides() {
			s := s
			items = append(items, item{
				label: fixed(fmt.Sprintf("+2:00 %s", c.mark(s))),
				ok: func(c *Core, at time.Duration) {
					if c.correct(at, clocklog.Event{Verb: clocklog.AddTime, Side: s, Value: 120000}) {
						c.say(at, "+2:00 "+c.mark(s))
					}
				},
			})
		}
		for _, s := range sides() {
			items = append(items, c.countItem("Moves", s, st.Player[s].Moves, 0, 999, clocklog.SetMoves))
		}
		for _, s := range sides() {
			items = append(items, c.countItem("Period", s, st.Player[s].Period, 1, 99, clocklog.SetPeriod))
		}
		items = append(items, item{
			label: fixed(fmt.Sprintf("To move %s %s", c.mark(st.ToMove), st.ToMove)),
			ok: func(c *Core, at time.Duration) {
				c.correct(at, clocklog.Event{Verb: clocklog.SetTurn, Side: c.game.State(at).ToMove.Other()})
			},
		})
		for _, s := range sides() {
			s := s
			if st.Player[s].Overstep {
				items = append(items, item{label: fixed("Clear overstep " + c.mark(s)), ok: func(c *Core, at time.Duration) {
					c.correct(at, clocklog.Event{Verb: clocklog.ClearOverstep, Side: s})
				}})
			}
		}
		// The Control view, read only, just above the result, so that
		// neither the corrections (down from the top) nor the result
		// (up from it) move.
		items = append(items, item{label: fixed("Control"), ok: func(c *Core, at time.Duration) { c.push(c.infoPage()) }})
		// The arbiter's result, above the increment and End game: up
		// from the menu's top past Settings, End game (and the +5 s).
		items = append(items, c.resultItem())
		if !iii4 {
			items = append(items, plusFive...)
		}
		items = append(items,
			item{label: fixed("End game"), ok: func(c *Core, at time.Duration) {
				c.push(&confirmPage{question: "End this game?", yes: func(c *Core, at time.Duration) {
					c.closeMenu()
					c.againSameControl(at)
					c.push(c.setupMenu())
				}})
			}},
			item{label: fixed("Settings"), ok: func(c *Core, at time.Duration) { c.push(c.settingsPage()) }},
		)
		return items
	}}
}

// countItem is an arbiter's item that sets one of side's counts (moves,
// period) with a one-field form and records the correction.
func (c *Core) countItem(name string, s clock.Side, now, lo, hi int, verb clocklog.Verb) item {
	return item{
		label: fixed(fmt.Sprintf("%s %s %d", name, c.mark(s), now)),
		ok: func(c *Core, at time.Duration) {
			c.push(&formPage{
				title:  name + " " + c.mark(s),
				fields: []field{{label: strings.ToLower(name), min: lo, max: hi, big: 10}},
				vals:   []int{now},
				commit: func(c *Core, at time.Duration, v []int) {
					c.correct(at, clocklog.Event{Verb: verb, Side: s, Value: int64(v[0])})
				},
			})
		},
	}
}

func fmtTime(ms int64) string {
	v := splitTime(ms)
	return fmt.Sprintf("%d:%02d:%02d", v[0], v[1], v[2])
}

func (c *Core) timeForm(s clock.Side) page {
	return &formPage{
		title:  "Time " + c.mark(s) + " " + s.String(),
		fields: timeFields(),
		vals:   splitTime(c.game.State(c.now).Player[s].Ms),
		commit: func(c *Core, at time.Duration, v []int) {
			if c.correct(at, clocklog.Event{Verb: clocklog.SetTime, Side: s, Value: joinTime(v)}) {
				c.say(at, "SET "+fmtTime(joinTime(v)))
			}
		},
	}
}

// plusTwoPrompt is the two-press "+2:00": plus, then the lever of the side
// that gets the time (FIDE: after an illegal move or a wrong draw claim).
func (c *Core) plusTwoPrompt() page {
	p := &choosePage{title: "+2:00 to?"}
	for i, lever := range []string{Left, Right} {
		s := c.sideOf(lever)
		p.slots[i] = &slot{label: s.String(), pick: func(c *Core, at time.Duration) {
			c.closeMenu()
			if c.correct(at, clocklog.Event{Verb: clocklog.AddTime, Side: s, Value: 120000}) {
				c.say(at, "+2:00 "+c.mark(s))
			}
		}}
	}
	return p
}

// --- the custom control builder ---------------------------------------

type builder struct {
	ctl      [2]timecontrol.Control // white, black
	separate bool
	opt      clock.Options
}

func (c *Core) builderPage() page {
	pair := c.game.Clock().Controls()
	b := &builder{opt: c.game.Clock().Options()}
	b.ctl[0] = append(timecontrol.Control(nil), pair.White...)
	b.ctl[1] = append(timecontrol.Control(nil), pair.Black...)
	b.separate = !pair.White.Equal(pair.Black)
	return &listPage{title: "Custom", items: func(c *Core) []item {
		pairOf := func() timecontrol.Pair {
			if b.separate {
				return timecontrol.Pair{White: b.ctl[0], Black: b.ctl[1]}
			}
			return timecontrol.Same(b.ctl[0])
		}
		return []item{
			{label: func() string { return "White " + timecontrol.Human(b.ctl[0]) }, ok: func(c *Core, at time.Duration) {
				c.push(c.periodsPage(&b.ctl[0], "White"))
			}},
			{label: func() string {
				if !b.separate {
					return "Black same"
				}
				return "Black " + timecontrol.Human(b.ctl[1])
			}, ok: func(c *Core, at time.Duration) {
				if !b.separate {
					b.ctl[1] = append(timecontrol.Control(nil), b.ctl[0]...)
					b.separate = true
				}
				c.push(c.periodsPage(&b.ctl[1], "Black"))
			}},
			{label: func() string { return "Period on " + b.opt.Get(clock.OptPeriodTrigger) }, step: func(c *Core, at time.Duration, d int) {
				b.opt.PeriodTrigger = 1 - b.opt.PeriodTrigger
			}},
			{label: func() string { return "First inc " + b.opt.Get(clock.OptFirstIncrement) }, step: func(c *Core, at time.Duration, d int) {
				b.opt.FirstIncrement = !b.opt.FirstIncrement
			}},
			{label: func() string { return "After flag " + b.opt.Get(clock.OptAfterFlag) }, step: func(c *Core, at time.Duration, d int) {
				b.opt.AfterFlag = 1 - b.opt.AfterFlag
			}},
			{label: fixed("Start game"), ok: func(c *Core, at time.Duration) {
				pair := pairOf()
				if err := pair.Validate(); err != nil {
					c.say(at, "INVALID")
					c.log("custom control: " + err.Error())
					return
				}
				c.closeMenu()
				c.newGame(at, timecontrol.FormatPair(pair), b.opt)
				c.say(at, "READY")
			}},
			{label: fixed("Save preset"), ok: func(c *Core, at time.Duration) {
				pair := pairOf()
				if err := pair.Validate(); err != nil {
					c.say(at, "INVALID")
					return
				}
				spec := timecontrol.FormatPair(pair)
				// Named as people write the control, cut to a display
				// line; the menu shows the whole control beside it.
				name := []rune(timecontrol.HumanPair(pair))
				saved := config.Presets(c.saved)
				// Put gives it a key of its own: names may be alike.
				if err := saved.Put(preset.Preset{Name: string(name[:min(len(name), config.MaxNameLen)]), Spec: spec, Options: b.opt}); err != nil {
					c.say(at, "INVALID")
					c.log("save preset: " + err.Error())
					return
				}
				c.saved = saved
				c.savePresets()
				c.say(at, "SAVED")
			}},
		}
	}}
}

var periodModes = []timecontrol.Mode{timecontrol.SuddenDeath, timecontrol.Fischer, timecontrol.Delay, timecontrol.Bronstein, timecontrol.ByoYomi, timecontrol.Canadian, timecontrol.Hourglass, timecontrol.CountUp}

func (c *Core) periodsPage(ctl *timecontrol.Control, who string) page {
	return &listPage{title: who + " periods", items: func(c *Core) []item {
		var items []item
		for i := range *ctl {
			i := i
			items = append(items, item{label: func() string { return fmt.Sprintf("%d %s", i+1, timecontrol.Human((*ctl)[i:i+1])) }, ok: func(c *Core, at time.Duration) {
				c.push(c.periodForm(ctl, i))
			}})
		}
		items = append(items,
			item{label: fixed("Add period"), ok: func(c *Core, at time.Duration) {
				last := &(*ctl)[len(*ctl)-1]
				if last.Moves == 0 {
					last.Moves = 40
				}
				if last.Mode == timecontrol.Hourglass || last.Mode == timecontrol.CountUp || last.Mode == timecontrol.ByoYomi || last.Mode == timecontrol.Canadian {
					*last = timecontrol.Period{Moves: 40, Time: 5400000}
				}
				*ctl = append(*ctl, timecontrol.Period{Time: 1800000, Mode: last.Mode, Extra: last.Extra})
				c.push(c.periodForm(ctl, len(*ctl)-1))
			}},
			item{label: fixed("Remove last"), ok: func(c *Core, at time.Duration) {
				if len(*ctl) > 1 {
					*ctl = (*ctl)[:len(*ctl)-1]
				}
			}},
			item{label: fixed("Done"), ok: func(c *Core, at time.Duration) { c.pop() }},
		)
		return items
	}}
}

// periodForm edits one period: move quota (0: the rest of the game), time,
// mode, increment or delay, and the overtime count.
func (c *Core) periodForm(ctl *timecontrol.Control, i int) page {
	p := (*ctl)[i]
	mode := 0
	for k, m := range periodModes {
		if m == p.Mode {
			mode = k
		}
	}
	tv := splitTime(p.Time)
	extraHidden := func(v []int) bool {
		m := periodModes[v[4]]
		return m == timecontrol.SuddenDeath || m == timecontrol.Hourglass || m == timecontrol.CountUp
	}
	fields := []field{
		{label: "moves", min: 0, max: 999, big: 10, format: func(v int) string {
			if v == 0 {
				return "rest"
			}
			return strconv.Itoa(v)
		}},
	}
	fields = append(fields, timeFields()...)
	fields = append(fields,
		field{label: "mode", min: 0, max: len(periodModes) - 1, big: 1, format: func(v int) string { return periodModes[v].String() }},
		field{label: "extra s", min: 0, max: 3600, big: 10, hidden: extraHidden},
		field{label: "overtime", min: 1, max: 999, big: 10, hidden: func(v []int) bool {
			m := periodModes[v[4]]
			return m != timecontrol.ByoYomi && m != timecontrol.Canadian
		}},
	)
	return &formPage{
		title:  fmt.Sprintf("Period %d", i+1),
		fields: fields,
		vals:   []int{p.Moves, tv[0], tv[1], tv[2], mode, int(p.Extra / 1000), max(p.OvertimeCount, 1)},
		commit: func(c *Core, at time.Duration, v []int) {
			np := timecontrol.Period{Moves: v[0], Time: joinTime(v[1:4]), Mode: periodModes[v[4]]}
			if !extraHidden(v) {
				np.Extra = int64(v[5]) * 1000
				if np.Extra == 0 {
					np.Mode = timecontrol.SuddenDeath
				}
			}
			if np.Mode == timecontrol.ByoYomi || np.Mode == timecontrol.Canadian {
				np.OvertimeCount = v[6]
			}
			if np.Mode == timecontrol.CountUp {
				np.Time = 0
			}
			(*ctl)[i] = np
			if err := ctl.Validate(); err != nil {
				c.say(at, "CHECK PERIODS")
				c.log("custom control: " + err.Error())
			}
		},
	}
}
