package ui

import (
	"strings"
	"time"

	"github.com/zeitnot/zeitnot/appliance/config"
	"github.com/zeitnot/zeitnot/drivers/button"
	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/preset"
)

// MenuOutline is one page of the menus as the displays show it, found by
// pressing the buttons of a clock in memory: the arbiter's manual and the
// quick-reference card are made from these, so they never drift from the
// code.
type MenuOutline struct {
	Title string // the page's title, as shown
	// When is the moment on the game screen the page is reached from:
	// WhenSetup, WhenRunning or WhenPaused.
	When string
	// Path is the buttons that open the page from the game screen at that
	// moment, in order: a button's name (left, right, pause, plus, minus,
	// ok) is a short press, "hold ok" the long one.
	Path []string
	// Kind is how the page is worked: "choose" (each entry has a button of
	// its own), "list" (a cursor: plus up, minus down, ok), "form" (values
	// edited in turn: plus and minus by 1, the levers by 10, ok next),
	// "confirm" (ok yes, pause no) or "view" (read only).
	Kind  string
	Hint  string        // the hint line, as shown
	Items []OutlineItem // as the page lists them
	// Hidden names the fields of a form that this example does not show
	// (they appear for other values, as overtime for byo-yomi).
	Hidden []string
}

// OutlineItem is one line of a page.
type OutlineItem struct {
	Label string // the line as shown in the outline's example
	// Name is the part of Label that stays when the value it shows
	// changes (found by changing the value, and by a second example that
	// differs); Value is the rest: Label is Name, a space, Value. On a
	// choose page Label is the mark of the entry's button, a space, Name.
	Name, Value string
	// Key is, on a choose page, the button that picks the entry (left,
	// right, minus, plus); "" elsewhere.
	Key string
	// Steps: the levers (and ok) change the value.
	Steps bool
	// Opens is the title of the page the entry opens; "" if none.
	Opens string
	// Says is the notice the displays show when the entry is picked, as
	// after a preset ("FIDE 90/40+30") or "Lock now" ("LOCKED"); "" if none.
	Says string
	// After is where picking an entry that opens no page leaves the
	// displays: AfterStay (the same page), AfterBack (the page before) or
	// AfterClosed (the game screen).
	After string
}

// Where an entry leaves the displays (OutlineItem.After).
const (
	AfterStay   = "stay"
	AfterBack   = "back"
	AfterClosed = "closed"
)

// The moments the menus open from.
const (
	WhenSetup   = "no game under way" // before a game (or after one)
	WhenRunning = "a clock running"
	WhenPaused  = "the game paused"
)

// outlineControl is the control of the paused game the outline shows the
// arbiter's menu for: classical without increment (90 minutes for 40
// moves, then 30 minutes), whose move quota lets a side overstep and
// where FIDE Guidelines III.4 applies, so that every item the menu can
// show before an arbiter's increment is there.
const outlineControl = "40/5400:1800"

// outlineGestures are what is tried on the game screen at each moment to
// find the pages that open from it.
var outlineGestures = []string{"hold " + OK, Plus, Minus, OK}

// Outline returns every page of the menus a clock with settings s shows,
// root pages first, each followed by the pages it opens: the setup menu
// with the preset tree, setup, the settings, saved presets and the custom
// control editor; the arbiter's menu, its forms, the read-only Control
// view and the +2:00 prompt while a game is paused. Holding ok while a
// clock runs opens no page (the control shows beneath the times), so no
// page is at WhenRunning.
// It builds clocks in memory, presses their buttons and reads the pages'
// own views; nothing is saved. The lock is ignored (an unlocked clock is
// shown).
func Outline(s Settings) []MenuOutline {
	s.Locked = false
	w := &outliner{set: s, seen: map[string]bool{}}
	for _, m := range w.moments() {
		for _, g := range outlineGestures {
			w.walk(m, []string{g})
		}
	}
	return w.out
}

// moment is a state of the game screen, in two examples that differ in
// every value the pages show.
type moment struct {
	when      string
	base, alt func() *fingers
}

type outliner struct {
	set  Settings
	out  []MenuOutline
	seen map[string]bool // when + title of the pages found
}

func (w *outliner) moments() []moment {
	// The second example: the other lever plays White, each side has a
	// control of its own, a preset is saved, the round has a start
	// (2026-03-07 18:30 UTC).
	altSet := w.set
	altSet.WhiteLeft = !w.set.WhiteLeft
	altSet.Control = "300|240"
	if altSet.Control == w.set.Control {
		altSet.Control = "600+5"
	}
	var saved config.Presets
	saved.Put(preset.Preset{Name: "Custom 1200+10", Spec: "1200+10", Options: clock.DefaultOptions})
	paused := w.set
	paused.Control, paused.Options = outlineControl, clock.DefaultOptions
	altPaused := paused
	altPaused.WhiteLeft = !paused.WhiteLeft
	// The lever of a side, whichever lever plays White.
	lever := func(f *fingers, s clock.Side) string { return f.c.leverOf(s) }
	// Both sides' first periods run out before their 40 moves: the
	// menu shows an overstep to clear for each.
	overstep := func(set Settings) func() *fingers {
		return func() *fingers {
			f := newFingers(Opts{Settings: set})
			f.tap(lever(f, clock.Black)) // Black's lever starts White's clock
			f.wait(91 * time.Minute)
			f.tap(lever(f, clock.White))
			f.wait(91 * time.Minute)
			f.tap(Pause)
			return f
		}
	}
	return []moment{
		{WhenSetup,
			func() *fingers { return newFingers(Opts{Settings: w.set}) },
			func() *fingers {
				return newFingers(Opts{Settings: altSet, Presets: saved, Hall: HallState{Round: Round{StartMs: 1772908200000}}})
			}},
		{WhenRunning,
			func() *fingers {
				f := newFingers(Opts{Settings: w.set})
				f.tap(lever(f, clock.Black))
				return f
			},
			func() *fingers {
				f := newFingers(Opts{Settings: altSet})
				f.tap(lever(f, clock.Black))
				f.wait(5 * time.Second)
				return f
			}},
		{WhenPaused, overstep(paused), overstep(altPaused)},
	}
}

// fingers press a core's buttons on a virtual clock.
type fingers struct {
	c   *Core
	now time.Duration
}

func newFingers(o Opts) *fingers {
	if o.Settings.Control == "" {
		o.Settings = DefaultSettings
	}
	o.Version = OutlineVersion
	return &fingers{c: New(o)}
}

func (f *fingers) wait(d time.Duration) {
	f.now += d
	f.c.Tick(f.now)
}

func (f *fingers) ev(name string, k button.Kind) {
	f.c.Button(button.Event{Button: name, Kind: k, At: f.now})
}

// tap is a short press.
func (f *fingers) tap(name string) {
	f.ev(name, button.Press)
	f.wait(80 * time.Millisecond)
	f.ev(name, button.Release)
	f.wait(120 * time.Millisecond)
}

// hold is a long press.
func (f *fingers) hold(name string) {
	f.ev(name, button.Press)
	f.wait(1500 * time.Millisecond)
	f.ev(name, button.Hold)
	f.wait(100 * time.Millisecond)
	f.ev(name, button.Release)
	f.wait(100 * time.Millisecond)
}

// do presses the buttons of a path.
func (f *fingers) do(path []string) {
	for _, p := range path {
		if b, ok := strings.CutPrefix(p, "hold "); ok {
			f.hold(b)
		} else {
			f.tap(p)
		}
	}
}

// at replays path on a fresh example and returns it with the page on top,
// or nil if the path opens no page.
func at(example func() *fingers, path []string) (*fingers, page) {
	f := example()
	f.do(path)
	return f, f.c.top()
}

func kindOf(p page) string {
	switch p.(type) {
	case *choosePage:
		return "choose"
	case *listPage:
		return "list"
	case *formPage:
		return "form"
	case *confirmPage:
		return "confirm"
	case *infoPage:
		return "view"
	case *resultPage:
		return "result"
	}
	return "page"
}

// maxOutline bounds the walk: far more pages than the menus have.
const maxOutline = 200

// walk records the page path opens at moment m (if it opens one not seen
// at that moment) and the pages its entries open.
func (w *outliner) walk(m moment, path []string) {
	f, p := at(m.base, path)
	if p == nil || len(w.out) >= maxOutline {
		return
	}
	v := p.view(f.c)
	key := m.when + "\x00" + v.Title
	if w.seen[key] {
		return
	}
	w.seen[key] = true
	o := MenuOutline{Title: v.Title, When: m.when, Path: path, Kind: kindOf(p), Hint: v.Hint}
	for _, label := range v.Items {
		o.Items = append(o.Items, OutlineItem{Label: label, Name: label})
	}
	w.out = append(w.out, o)
	idx := len(w.out) - 1
	var next [][]string
	switch p := p.(type) {
	case *choosePage:
		n := 0
		for i, s := range p.slots {
			if s == nil {
				continue
			}
			it := &w.out[idx].Items[n]
			n++
			it.Key = chooseKeys[i]
			it.Name = strings.TrimPrefix(it.Label, chooseMarks[i]+" ")
			sub := append(path[:len(path):len(path)], chooseKeys[i])
			if title, says, after := w.try(m, path, sub); title != "" {
				it.Opens = title
				next = append(next, sub)
			} else {
				it.Says, it.After = says, after
			}
		}
	case *listPage:
		w.listItems(m, path, idx, &next)
	case *formPage:
		w.formItems(m, path, idx)
		for i, fd := range p.fields {
			if !p.visible(i) {
				w.out[idx].Hidden = append(w.out[idx].Hidden, fd.label)
			}
		}
	}
	for _, sub := range next {
		w.walk(m, sub)
	}
}

// try presses the buttons of sub (a path one step past the page at path)
// and reports the title of the page it opens, or else the notice it shows.
func (w *outliner) try(m moment, path []string, sub []string) (opens, says, after string) {
	f, p := at(m.base, path)
	depth := len(f.c.pages)
	f.c.banner = ""
	f.do(sub[len(path):])
	if len(f.c.pages) > depth {
		return f.c.top().view(f.c).Title, "", ""
	}
	return "", f.c.banner, afterOf(f, p, depth)
}

// afterOf says where a press left the menus that were depth pages deep
// with p on top.
func afterOf(f *fingers, p page, depth int) string {
	switch n := len(f.c.pages); {
	case n == 0:
		return AfterClosed
	case n == depth && f.c.top() == p:
		return AfterStay
	case n < depth:
		return AfterBack
	}
	return ""
}

// listItems fills in a list page's entries: which open a page, which
// change a value, what they say, and each one's name apart from its
// value.
func (w *outliner) listItems(m moment, path []string, idx int, next *[][]string) {
	o := &w.out[idx]
	labels := make([][]string, len(o.Items)) // every example of each line
	for i := range o.Items {
		labels[i] = []string{o.Items[i].Label}
	}
	// The second example, where the path leads to the same page.
	if f, p := at(m.alt, path); p != nil {
		if v := p.view(f.c); v.Title == o.Title && len(v.Items) == len(o.Items) {
			for i, l := range v.Items {
				labels[i] = append(labels[i], l)
			}
		}
	}
	for i := range o.Items {
		it := &o.Items[i]
		move := make([]string, 0, i+1)
		for k := 0; k < i; k++ {
			move = append(move, Minus)
		}
		// Each entry is tried with ok on a fresh example; a form it
		// opens is filled in with every value one up, then, if that
		// changed nothing (a value the game refuses), one down.
		for _, change := range []string{Plus, Minus} {
			f, p := at(m.base, path)
			lp := p.(*listPage)
			if items := lp.items(f.c); len(items) == len(o.Items) {
				it.Steps = items[i].step != nil
			}
			f.do(move)
			depth := len(f.c.pages)
			f.c.banner = ""
			f.tap(OK)
			_, form := f.c.top().(*formPage)
			switch top := f.c.top(); {
			case top == p:
				it.Says, it.After = f.c.banner, AfterStay
			case len(f.c.pages) > depth:
				if it.Opens == "" {
					it.Opens = top.view(f.c).Title
					*next = append(*next, append(append(path[:len(path):len(path)], move...), OK))
				}
				if form {
					for n := 0; n < 50 && f.c.top() == top; n++ {
						f.tap(change)
						f.tap(OK)
					}
				} else {
					f.tap(Pause) // leaves any other page without acting
				}
			default:
				it.Says, it.After = f.c.banner, afterOf(f, p, depth)
			}
			if f.c.top() == p {
				if v := p.view(f.c); len(v.Items) == len(o.Items) && v.Items[i] != it.Label {
					labels[i] = append(labels[i], v.Items[i])
					break
				}
			}
			if !form {
				break
			}
		}
	}
	for i := range o.Items {
		o.Items[i].Name, o.Items[i].Value = split2(labels[i])
	}
}

// formItems splits a form's lines into field name and value, from the
// span of the field being edited as the form moves through them.
func (w *outliner) formItems(m moment, path []string, idx int) {
	o := &w.out[idx]
	for i := range o.Items {
		f, p := at(m.base, path)
		for k := 0; k < i; k++ {
			f.tap(OK)
		}
		if f.c.top() != p {
			return
		}
		v := p.view(f.c)
		if v.Cursor != i || i >= len(v.Items) {
			return
		}
		line := v.Items[i]
		a, b := v.Field[0], v.Field[1]
		if a < 1 || b > len(line) || a > b {
			continue
		}
		o.Items[i].Name = strings.TrimSpace(line[:a])
		o.Items[i].Value = line[a:b]
		o.Items[i].Steps = true
	}
}

// split2 returns the words every example of a line begins with, and the
// rest of the first example.
func split2(examples []string) (name, value string) {
	first := strings.Fields(examples[0])
	n := len(first)
	for _, e := range examples[1:] {
		words := strings.Fields(e)
		k := 0
		for k < n && k < len(words) && words[k] == first[k] {
			k++
		}
		n = k
	}
	if n == 0 {
		return examples[0], "" // nothing in common: not the same line
	}
	return strings.Join(first[:n], " "), strings.Join(first[n:], " ")
}
