package ui

import (
	"cmp"
	"strconv"
	"time"

	"github.com/zeitnot/zeitnot/appliance/screen"
)

// page is one level of the menu.
type page interface {
	// view describes the page for the displays.
	view(c *Core) screen.Menu
	// button handles a press of the named button.
	button(c *Core, name string, at time.Duration)
}

func (c *Core) push(p page) { c.pages = append(c.pages, p) }

func (c *Core) pop() {
	if len(c.pages) > 0 {
		c.pages = c.pages[:len(c.pages)-1]
	}
}

func (c *Core) closeMenu() { c.pages = nil }

// top is the page on top, or nil on the game screen.
func (c *Core) top() page {
	if len(c.pages) == 0 {
		return nil
	}
	return c.pages[len(c.pages)-1]
}

// ControlShown is how long holding ok while a clock runs shows the
// control beneath the times.
const ControlShown = 5 * time.Second

// infoPage shows lines to read, changing nothing (the Control view, from
// the arbiter's menu while the game is paused). Any button goes back.
type infoPage struct {
	title string
	lines []string
}

func (p *infoPage) view(c *Core) screen.Menu {
	return screen.Menu{Title: p.title, Items: p.lines, Cursor: -1, Hint: "any button: back"}
}

func (p *infoPage) button(c *Core, name string, at time.Duration) { c.pop() }

// item is one line of a list page.
type item struct {
	label func() string
	// ok runs on ok; nil: the item only shows something.
	ok func(c *Core, at time.Duration)
	// step changes a value item by -1 or +1 (the levers); nil: none.
	step func(c *Core, at time.Duration, d int)
}

// listPage is a list with a cursor: plus moves it up and minus down, as
// the buttons' signs and the terminal's arrows say (wrapping); ok
// activates the item, the levers change a value item down and up, pause
// goes back.
type listPage struct {
	title  string
	hint   string
	items  func(c *Core) []item
	cursor int
	// lever, if set, takes a lever press on an item that has no value to
	// step (the arbiter's menu: that lever's clock runs next).
	lever func(c *Core, at time.Duration, lever string)
}

func (p *listPage) view(c *Core) screen.Menu {
	items := p.items(c)
	m := screen.Menu{Title: p.title, Cursor: p.cursor, Hint: p.hint}
	for _, it := range items {
		m.Items = append(m.Items, it.label())
	}
	if m.Hint == "" {
		m.Hint = "+ up  - down  ok"
	}
	return m
}

func (p *listPage) button(c *Core, name string, at time.Duration) {
	items := p.items(c)
	if len(items) == 0 {
		c.pop()
		return
	}
	p.cursor = min(max(p.cursor, 0), len(items)-1)
	switch name {
	case Plus:
		p.cursor = (p.cursor + len(items) - 1) % len(items)
	case Minus:
		p.cursor = (p.cursor + 1) % len(items)
	case OK:
		if it := items[p.cursor]; it.ok != nil {
			it.ok(c, at)
		} else if it.step != nil {
			it.step(c, at, 1)
		}
	case Left, Right:
		if it := items[p.cursor]; it.step != nil {
			it.step(c, at, map[string]int{Left: -1, Right: 1}[name])
		} else if p.lever != nil {
			p.lever(c, at, name)
		}
	case Pause:
		c.pop()
	}
}

// slot is one entry of a choose page.
type slot struct {
	label string
	pick  func(c *Core, at time.Duration)
}

// choosePage picks among up to four entries with one press each: the left
// lever, the right lever, minus and plus. ok runs the default, pause goes
// back. It is what keeps any preset within four presses.
type choosePage struct {
	title string
	slots [4]*slot // left lever, right lever, minus, plus
	def   *slot    // ok
}

var chooseKeys = [4]string{Left, Right, Minus, Plus}
var chooseMarks = [4]string{"<", ">", "-", "+"}

func (p *choosePage) view(c *Core) screen.Menu {
	m := screen.Menu{Title: p.title}
	for i, s := range p.slots {
		if s != nil {
			m.Items = append(m.Items, chooseMarks[i]+" "+s.label)
		}
	}
	m.Cursor = -1
	if p.def != nil {
		m.Hint = "ok " + p.def.label
	} else {
		m.Hint = "pause: back"
	}
	return m
}

func (p *choosePage) button(c *Core, name string, at time.Duration) {
	for i, k := range chooseKeys {
		if name == k && p.slots[i] != nil {
			p.slots[i].pick(c, at)
			return
		}
	}
	switch name {
	case OK:
		if p.def != nil {
			p.def.pick(c, at)
		}
	case Pause:
		c.pop()
	}
}

// field is one number a form edits.
type field struct {
	label    string
	min, max int
	big      int // the levers' step
	format   func(v int) string
	hidden   func(vals []int) bool // not shown, skipped (e.g. no increment in sudden death)
}

// formPage edits a few numbers: minus and plus change the current one by 1,
// the levers by its big step (both wrap), ok goes to the next field and,
// after the last, commits; pause cancels.
type formPage struct {
	title  string
	mask   bool   // the fields before the current one show '*' (a PIN)
	hint   string // "" for the usual one
	fields []field
	vals   []int
	cur    int
	commit func(c *Core, at time.Duration, vals []int)
}

func (p *formPage) visible(i int) bool {
	f := p.fields[i]
	return f.hidden == nil || !f.hidden(p.vals)
}

func (p *formPage) view(c *Core) screen.Menu {
	m := screen.Menu{Title: p.title, Editing: true, Hint: cmp.Or(p.hint, "+- 1 levers 10 ok")}
	for i, f := range p.fields {
		if !p.visible(i) {
			continue
		}
		v := strconv.Itoa(p.vals[i])
		if f.format != nil {
			v = f.format(p.vals[i])
		}
		if p.mask && i < p.cur {
			v = "*"
		}
		if i == p.cur {
			m.Cursor = len(m.Items)
			m.Field = [2]int{len(f.label) + 1, len(f.label) + 1 + len(v)}
		}
		m.Items = append(m.Items, f.label+" "+v)
	}
	return m
}

func (p *formPage) button(c *Core, name string, at time.Duration) {
	f := p.fields[p.cur]
	span := f.max - f.min + 1
	change := func(d int) {
		p.vals[p.cur] = f.min + ((p.vals[p.cur]-f.min+d)%span+span)%span
	}
	switch name {
	case Minus:
		change(-1)
	case Plus:
		change(1)
	case Left:
		change(-max(f.big, 1))
	case Right:
		change(max(f.big, 1))
	case OK:
		for p.cur++; p.cur < len(p.fields) && !p.visible(p.cur); p.cur++ {
		}
		if p.cur >= len(p.fields) {
			c.pop()
			p.commit(c, at, p.vals)
			p.cur = 0
		}
	case Pause:
		c.pop()
	}
}

// confirmPage asks before something that cannot be undone.
type confirmPage struct {
	question string
	yes      func(c *Core, at time.Duration)
}

func (p *confirmPage) view(c *Core) screen.Menu {
	return screen.Menu{Title: p.question, Items: []string{"ok: yes", "pause: no"}, Cursor: -1}
}

func (p *confirmPage) button(c *Core, name string, at time.Duration) {
	switch name {
	case OK:
		c.pop()
		p.yes(c, at)
	case Pause:
		c.pop()
	}
}

func two(v int) string {
	return string([]byte{byte('0' + v/10%10), byte('0' + v%10)})
}

// timeFields edit h:mm:ss as three fields.
func timeFields() []field {
	return []field{
		{label: "hours", min: 0, max: 99, big: 10},
		{label: "minutes", min: 0, max: 59, big: 10, format: two},
		{label: "seconds", min: 0, max: 59, big: 10, format: two},
	}
}

func splitTime(ms int64) []int {
	s := (ms + 999) / 1000
	return []int{int(s / 3600), int(s / 60 % 60), int(s % 60)}
}

func joinTime(v []int) int64 {
	return (int64(v[0])*3600 + int64(v[1])*60 + int64(v[2])) * 1000
}
