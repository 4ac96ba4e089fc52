package oled

import "github.com/zeitnot/zeitnot/drivers/display/internal/pagediff"

// SSD1306 addressing commands; the SH1106 has none of them.
const (
	SetMode      = 0x20 // + ModeHorizontal or ModePage
	ColumnWindow = 0x21 // + first and last column
	PageWindow   = 0x22 // + first and last page

	ModeHorizontal = 0x00
	ModePage       = 0x02
)

// mode is the controller's addressing mode as far as Core knows.
type mode uint8

const (
	modeUnknown    mode = iota // after a failed write
	modePage                   // 0xB0+page and the column nibbles address a span
	modeHorizontal             // data fills the column and page windows
)

// addrState is what Core knows of the controller's addressing. In
// horizontal mode with win set it knows the column window [cs, ce] (RAM
// columns), the page window [ps, pe] and where the next data byte goes
// (col, page).
type addrState struct {
	mode   mode
	win    bool
	resync bool // a command write failed: one may wait for its arguments
	cs, ce int
	ps, pe int
	col    int
	page   int
}

// opKind is how an op is addressed.
type opKind uint8

const (
	span   opKind = iota // one page's columns, in page addressing mode
	window               // a column and page window, in horizontal mode
	more                 // n more bytes of the current window, from its pointer
)

// op is one write. A span or a window covers columns [c0, c1) (panel
// columns) of pages [p0, p1), a span one page only. A window is sent page
// after page; if its page window has to be set it is set to [p0, pe]: pe
// p1-1 brings the page pointer back to p0 after the window, so the same
// window again needs no addressing, and a later pe lets a window starting
// at page p1 follow without setting the pages. More writes where the
// pointer is, wrapping from the window's last byte to its first as the
// controller does.
type op struct {
	kind           opKind
	p0, p1, c0, c1 int
	pe             int
	n              int
}

func (o *op) size() int {
	if o.kind == more {
		return o.n
	}
	return (o.p1 - o.p0) * (o.c1 - o.c0)
}

// address appends to cmd the commands that make o's data land in place
// when the controller is in state st, and sets st as they do; sent moves
// st past the data. Pricing a plan and sending it both go through here, so
// a plan costs what it sends.
func (c *Core) address(st *addrState, o *op, cmd []byte) []byte {
	if st.resync {
		cmd = append(cmd, Resync, Resync)
		st.resync = false
	}
	first, last := c.colOffset+o.c0, c.colOffset+o.c1-1
	switch o.kind {
	case more:
		return cmd
	case span:
		if c.windows && st.mode != modePage {
			// The datasheet leaves open whether page addressing wraps at
			// the end of the column window, so it must cover the panel.
			full := c.colOffset + c.rect.Dx() - 1
			if st.mode != modeHorizontal || !st.win || st.ce < full {
				if st.mode != modeHorizontal {
					cmd = append(cmd, SetMode, ModeHorizontal)
				}
				cmd = append(cmd, ColumnWindow, byte(c.colOffset), byte(full))
			}
			cmd = append(cmd, SetMode, ModePage)
			st.mode, st.win = modePage, false
		}
		return append(cmd, PageAddr|byte(o.p0), ColLow|byte(first&0x0F), ColHigh|byte(first>>4))
	}
	if st.mode != modeHorizontal {
		cmd = append(cmd, SetMode, ModeHorizontal)
		st.mode, st.win = modeHorizontal, false
	}
	if !st.win || st.cs != first || st.ce != last || st.col != first {
		cmd = append(cmd, ColumnWindow, byte(first), byte(last))
		st.cs, st.ce, st.col = first, last, first
	}
	// The pages follow on from the pointer, or the page window is exactly
	// the window's and its pages come round from the pointer's.
	inOrder := st.page == o.p0 && o.p1-1 <= st.pe
	round := st.ps == o.p0 && st.pe == o.p1-1
	if !st.win || !inOrder && !round {
		cmd = append(cmd, PageWindow, byte(o.p0), byte(o.pe))
		st.ps, st.pe, st.page = o.p0, o.pe, o.p0
	}
	st.win = true
	return cmd
}

// sent moves st past o's data.
func (st *addrState) sent(o *op) {
	if o.kind != span {
		st.advance(o.size())
	}
}

// advance moves the pointers n bytes on in horizontal mode: column by
// column to ce, then back to cs on the next page, and after the last page
// of the window back to its first.
func (st *addrState) advance(n int) {
	w, size := st.ce-st.cs+1, (st.ce-st.cs+1)*(st.pe-st.ps+1)
	i := (st.index(st.page, st.col) + n) % size
	st.page, st.col = st.ps+i/w, st.cs+i%w
}

// index is where RAM page p, column col is in the window, counting from
// its first byte.
func (st *addrState) index(p, col int) int {
	return (p-st.ps)*(st.ce-st.cs+1) + col - st.cs
}

// rest returns how many bytes from the pointer on reach every run, or 0
// if a run is outside the current window.
func (c *Core) rest(runs []pagediff.Run) int {
	st := &c.st
	if st.mode != modeHorizontal || !st.win {
		return 0
	}
	size := (st.ce - st.cs + 1) * (st.pe - st.ps + 1)
	at := st.index(st.page, st.col)
	far := 0 // the farthest byte to write, counting from the pointer
	for _, r := range runs {
		first, last := c.colOffset+r.Col, c.colOffset+r.End-1
		if r.Page < st.ps || r.Page > st.pe || first < st.cs || last > st.ce {
			return 0
		}
		a, b := st.index(r.Page, first), st.index(r.Page, last)
		if a < at && at <= b {
			return size // the run holds the byte before the pointer
		}
		far = max(far, (b-at+size)%size)
	}
	return far + 1
}

// price returns the bytes sending ops from st costs on the transport.
func (c *Core) price(st addrState, ops []op) int {
	var buf [16]byte
	n := 0
	for i := range ops {
		if cmd := c.address(&st, &ops[i], buf[:0]); len(cmd) > 0 {
			n += c.framing + len(cmd)
		}
		st.sent(&ops[i])
		n += c.framing + ops[i].size()
	}
	return n
}

// plan returns the cheapest way it knows to send runs from the current
// state: the spans of each page, or (on a controller with windows) one of a
// few window layouts, c.opsC among them. Each is priced exactly and one
// replaces the spans only when it costs less, so c.cost, the price of the
// plan, never exceeds c.spanCost, the price of the spans.
func (c *Core) plan(runs []pagediff.Run) []op {
	best, spare := c.opsA[:0], c.opsB[:0]
	for _, r := range runs {
		best = append(best, op{p0: r.Page, p1: r.Page + 1, c0: r.Col, c1: r.End})
	}
	c.cost = c.price(c.st, best)
	c.spanCost = c.cost
	if !c.windows || len(runs) == 0 {
		return best
	}
	for k := 0; k < 5; k++ {
		cand := spare[:0]
		switch k {
		case 0: // every run in a window of its own
			for _, r := range runs {
				cand = append(cand, op{kind: window, p0: r.Page, p1: r.Page + 1, c0: r.Col, c1: r.End})
			}
		case 1: // one window around everything
			cand = append(cand, bounds(runs))
		case 2: // one window per group of runs whose columns overlap
			cand = c.clusters(runs, cand)
		case 3: // on from the pointer, if the current window holds everything
			n := c.rest(runs)
			if n == 0 {
				continue
			}
			cand = append(cand, op{kind: more, n: n})
		case 4: // one window per group of changed columns, gaps unmerged
			cand = append(cand, c.opsC...)
		}
		c.pageEnds(cand)
		if n := c.price(c.st, cand); n < c.cost {
			c.cost = n
			best, spare = cand, best
		}
	}
	return best
}

// bounds is the smallest window holding every run.
func bounds(runs []pagediff.Run) op {
	b := op{kind: window, p0: runs[0].Page, p1: runs[len(runs)-1].Page + 1, c0: runs[0].Col, c1: runs[0].End}
	for _, r := range runs[1:] {
		b.c0, b.c1 = min(b.c0, r.Col), max(b.c1, r.End)
	}
	return b
}

// clusters appends to ops one window per maximal range of columns that
// runs cover, spanning the pages of the runs in it, left to right.
func (c *Core) clusters(runs []pagediff.Run, ops []op) []op {
	clear(c.depth)
	for _, r := range runs {
		c.depth[r.Col]++
		c.depth[r.End]--
	}
	d := 0
	for col := 0; col < len(c.group); col++ {
		if d += c.depth[col]; d == 0 {
			continue
		}
		if len(ops) == 0 || ops[len(ops)-1].c1 != col {
			ops = append(ops, op{kind: window, p0: c.pages, c0: col})
		}
		ops[len(ops)-1].c1 = col + 1
		c.group[col] = len(ops) - 1
	}
	for _, r := range runs {
		g := &ops[c.group[r.Col]]
		g.p0, g.p1 = min(g.p0, r.Page), max(g.p1, r.Page+1)
	}
	return ops
}

// pageEnds sets the page window end of each window of ops: the last page
// of the panel when the next window starts where it stops, its own last page
// otherwise.
func (c *Core) pageEnds(ops []op) {
	for i := range ops {
		if ops[i].kind != window {
			continue
		}
		ops[i].pe = ops[i].p1 - 1
		if i+1 < len(ops) && ops[i+1].p0 == ops[i].p1 {
			ops[i].pe = c.pages - 1
		}
	}
}
