// Package menudoc makes the documents that come from the clock's menus
// themselves (ui.Outline), so that they never drift from the code: the
// menu lists of the arbiter's manual, as Markdown (Markdown, UpdateDoc),
// and the quick-reference card, an SVG for A5 landscape laid out with the
// widths of its font (CardSVG). cmd/zeitnot-docs writes them (make manual,
// make card).
package menudoc

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/zeitnot/zeitnot/appliance/ui"
	"github.com/zeitnot/zeitnot/drivers/button"
	"github.com/zeitnot/zeitnot/engine/clock"
)

// --- the outline as Markdown -------------------------------------------

// moments name the moments of ui.Outline in selectors.
var moments = []struct{ key, when string }{
	{"setup", ui.WhenSetup},
	{"running", ui.WhenRunning},
	{"paused", ui.WhenPaused},
}

func momentKey(when string) string {
	for _, m := range moments {
		if m.when == when {
			return m.key
		}
	}
	return when
}

// Markdown renders the part of the outline sel names: "all",
// "presets", or "MOMENT: TITLE".
func Markdown(out []ui.MenuOutline, sel string) (string, error) {
	var b strings.Builder
	switch sel {
	case "all":
		for i, o := range out {
			if i > 0 {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "#### %s\n\n", mdText(o.Title))
			writePage(&b, o, true)
		}
		return b.String(), nil
	case "presets":
		writePresets(&b, out)
		return b.String(), nil
	}
	key, title, ok := strings.Cut(sel, ":")
	title = strings.TrimSpace(title)
	if !ok {
		return "", fmt.Errorf("selector %q: want all, presets or MOMENT: TITLE", sel)
	}
	for _, o := range out {
		if momentKey(o.When) == strings.TrimSpace(key) && o.Title == title {
			writePage(&b, o, false)
			return b.String(), nil
		}
	}
	var have []string
	for _, o := range out {
		have = append(have, momentKey(o.When)+": "+o.Title)
	}
	return "", fmt.Errorf("selector %q: no such page; the menus have %s", sel, strings.Join(have, ", "))
}

// buttonWord is how the documents name a button of a path.
func buttonWord(b string) string {
	switch b {
	case ui.Left:
		return "`<` (left lever)"
	case ui.Right:
		return "`>` (right lever)"
	case ui.Plus:
		return "`+`"
	case ui.Minus:
		return "`-`"
	case ui.OK:
		return "ok"
	case ui.Pause:
		return "pause"
	}
	if rest, ok := strings.CutPrefix(b, "hold "); ok {
		return "hold " + rest
	}
	return b
}

func pathWords(path []string) string {
	var w []string
	for _, p := range path {
		w = append(w, buttonWord(p))
	}
	return strings.Join(w, ", ")
}

// code is s as Markdown code in a table cell.
func code(s string) string {
	if s == "" {
		return ""
	}
	return "`" + strings.ReplaceAll(s, "|", `\|`) + "`"
}

// mdText is s as Markdown text in a table cell or a heading.
func mdText(s string) string {
	r := strings.NewReplacer("|", `\|`, "*", `\*`, "_", `\_`, "<", "&lt;", ">", "&gt;")
	return r.Replace(s)
}

var kindWords = map[string]string{
	"choose":  "Each entry is picked by its own button, pause goes back",
	"list":    "`+` moves up, `-` down, ok picks, pause goes back",
	"form":    "`+` and `-` change the value by 1, the levers by 10; ok goes to the next value, and after the last sets them all; pause cancels",
	"confirm": "ok: yes, pause: no",
	"view":    "Read only: any button closes it",
	"result":  "`+` moves up, `-` down, ok takes the result (yours: no levers), pause goes back",
}

func writePage(b *strings.Builder, o ui.MenuOutline, where bool) {
	if where {
		fmt.Fprintf(b, "With %s: %s", o.When, pathWords(o.Path))
	} else {
		fmt.Fprintf(b, "Buttons: %s", pathWords(o.Path))
	}
	fmt.Fprintf(b, ". %s", kindWords[o.Kind])
	if o.Hint != "" {
		fmt.Fprintf(b, "; the hint line says %s", code(o.Hint))
	}
	b.WriteString(".\n\n")
	if len(o.Items) == 0 {
		b.WriteString("(No entries in this example.)\n")
		return
	}
	switch o.Kind {
	case "choose":
		b.WriteString("| button | entry | does |\n| --- | --- | --- |\n")
		for _, it := range o.Items {
			fmt.Fprintf(b, "| %s | %s | %s |\n", buttonWord(it.Key), code(it.Name), does(it))
		}
	case "form":
		b.WriteString("| value | example |\n| --- | --- |\n")
		for _, it := range o.Items {
			fmt.Fprintf(b, "| %s | %s |\n", code(it.Name), code(it.Value))
		}
		if len(o.Hidden) > 0 {
			fmt.Fprintf(b, "\nShown only for some values of the others: %s.\n", codes(o.Hidden))
		}
	case "list":
		b.WriteString("| line | example value | does |\n| --- | --- | --- |\n")
		for _, it := range o.Items {
			fmt.Fprintf(b, "| %s | %s | %s |\n", code(it.Name), code(it.Value), does(it))
		}
	default:
		for _, it := range o.Items {
			fmt.Fprintf(b, "- %s\n", code(it.Label))
		}
	}
}

func codes(ss []string) string {
	var c []string
	for _, s := range ss {
		c = append(c, code(s))
	}
	return strings.Join(c, ", ")
}

// does says what an entry does, from what pressing it did.
func does(it ui.OutlineItem) string {
	var d []string
	switch {
	case it.Steps:
		d = append(d, "the levers (and ok) change it")
	case it.Opens != "":
		d = append(d, "opens *"+mdText(it.Opens)+"*")
	case it.After == ui.AfterClosed:
		d = append(d, "back to the clock")
	case it.After == ui.AfterBack:
		d = append(d, "goes back")
	case it.Value != "":
		d = append(d, "ok changes it")
	default:
		d = append(d, "ok does it")
	}
	if it.Says != "" {
		d = append(d, "the display says "+code(it.Says))
	}
	return strings.Join(d, "; ")
}

// presetRows are the leaves of the preset tree: the buttons after hold ok,
// the control as the menu shows it, and the name the clock shows.
type presetRow struct {
	keys          []string
	group         string
	label, called string
}

func presetRows(out []ui.MenuOutline) []presetRow {
	var rows []presetRow
	for _, o := range out {
		if o.When != ui.WhenSetup || o.Kind != "choose" || len(o.Path) < 2 {
			continue
		}
		for _, it := range o.Items {
			if it.Opens == "" && it.Says != "" {
				rows = append(rows, presetRow{keys: append(o.Path[1:len(o.Path):len(o.Path)], it.Key), group: o.Title, label: it.Name, called: it.Says})
			}
		}
	}
	return rows
}

var keyMarks = map[string]string{ui.Left: "<", ui.Right: ">", ui.Minus: "-", ui.Plus: "+"}

func writePresets(b *strings.Builder, out []ui.MenuOutline) {
	b.WriteString("| after hold ok | the menu shows | the clock says |\n| --- | --- | --- |\n")
	for _, r := range presetRows(out) {
		var k []string
		for _, key := range r.keys {
			k = append(k, code(keyMarks[key]))
		}
		fmt.Fprintf(b, "| %s | %s | %s |\n", strings.Join(k, " "), code(r.label), mdText(r.called))
	}
}

const (
	blockStart = "<!-- outline "
	blockEnd   = "<!-- end outline -->"
)

// UpdateDoc rewrites the outline blocks of doc (named name in errors).
func UpdateDoc(name string, doc []byte, out []ui.MenuOutline) ([]byte, error) {
	lines := strings.SplitAfter(string(doc), "\n")
	var b strings.Builder
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		b.WriteString(line)
		t := strings.TrimSpace(line)
		if !strings.HasPrefix(t, blockStart) || !strings.HasSuffix(t, "-->") {
			continue
		}
		sel := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(t, blockStart), "-->"))
		md, err := Markdown(out, sel)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, i+1, err)
		}
		end := i + 1
		for end < len(lines) && strings.TrimSpace(lines[end]) != blockEnd {
			end++
		}
		if end == len(lines) {
			return nil, fmt.Errorf("%s:%d: outline block %q has no %q line", name, i+1, sel, blockEnd)
		}
		b.WriteString("\n" + md + "\n")
		b.WriteString(lines[end])
		i = end
	}
	return []byte(b.String()), nil
}

// --- after a flag ------------------------------------------------------

// flagBanners are what the displays say after a flag with the option
// after-flag set to after: at the flag, and after each ok until the next
// game is ready, read from a clock in memory.
func flagBanners(s ui.Settings, after clock.AfterFlag) []string {
	s.Control, s.Options.AfterFlag, s.Locked = "60", after, false
	c := ui.New(ui.Opts{Settings: s})
	now := time.Duration(0)
	tap := func(b string) {
		c.Button(button.Event{Button: b, Kind: button.Press, At: now})
		now += 100 * time.Millisecond
		c.Button(button.Event{Button: b, Kind: button.Release, At: now})
		c.Tick(now)
	}
	if s.WhiteLeft {
		tap(ui.Right)
	} else {
		tap(ui.Left)
	}
	now += 61 * time.Second
	c.Tick(now)
	var banners []string
	for i := 0; i < 3; i++ {
		b := c.View(now).Game.Banner
		if !c.Status(now).Started || b == "" {
			break
		}
		banners = append(banners, b)
		tap(ui.OK)
	}
	return banners
}

// --- the card ----------------------------------------------------------

// The card is A5 landscape, in millimetres. The text is DejaVu Sans (the
// font of Debian's desktops, and rsvg-convert's), 7 pt at the least;
// lines are wrapped with its advance widths.
const (
	cardW, cardH = 210.0, 148.0
	cardMargin   = 7.0
	cardGutter   = 5.0
	sizeBody     = 2.5 // 7.1 pt
	sizeHead     = 3.0
	sizeTitle    = 5.2
	lineStep     = 3.05
	capH         = 3.0 // a key cap's height
	fontFamily   = "DejaVu Sans, Verdana, sans-serif"
)

// advance widths of DejaVu Sans and DejaVu Sans Bold in thousandths of an
// em, for ' ' to '~', from the fonts' hmtx tables.
var advance = [2][95]uint16{
	{318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, 636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531, 1000, 684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787, 603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500, 500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612, 635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838},
	{348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365, 696, 696, 696, 696, 696, 696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 580, 1000, 774, 762, 734, 830, 683, 683, 821, 837, 372, 372, 775, 637, 995, 837, 850, 733, 850, 770, 720, 682, 812, 774, 1103, 771, 724, 725, 457, 365, 457, 838, 500, 500, 675, 716, 593, 716, 678, 435, 716, 712, 343, 343, 665, 343, 1042, 712, 687, 716, 716, 493, 595, 478, 712, 652, 924, 645, 652, 582, 712, 365, 712, 838},
}

// textWidth is s's width in mm at size (an em, in mm), with 3% to spare
// for a font a little wider than DejaVu Sans.
func textWidth(s string, size float64, bold bool) float64 {
	b := 0
	if bold {
		b = 1
	}
	w := 0
	for _, r := range s {
		switch {
		case r >= ' ' && r <= '~':
			w += int(advance[b][r-' '])
		case r == '·', r == '\u00a0':
			w += 318
		case r == '›':
			w += 400
		case r == '−', r == '×':
			w += 838
		default:
			w += 1000
		}
	}
	return float64(w) / 1000 * size * 1.03
}

// nbsp joins words that stay on one line.
const nbsp = "\u00a0"

// span is a run of text of one style on the card.
type span struct {
	text string
	bold bool
	grey bool
}

func plain(s string) span { return span{text: s} }
func bold(s string) span  { return span{text: s, bold: true} }
func grey(s string) span  { return span{text: s, grey: true} }

type column struct{ x, w, y float64 }

type cardDoc struct {
	b    strings.Builder
	flow []*column // the columns the sections flow through, in order
	at   int       // the column being filled
	errs []error   // what did not fit
}

// tooWide notes a line wider than the room it has.
func (d *cardDoc) tooWide(line []span, size, w, room float64) {
	if w > room+0.01 {
		var t strings.Builder
		for _, s := range line {
			t.WriteString(s.text)
		}
		d.errs = append(d.errs, fmt.Errorf("%q is %.1f mm wide, %.1f mm more than its room", t.String(), w, w-room))
	}
}

func spansWidth(line []span, size float64) float64 {
	w := 0.0
	for _, s := range line {
		w += textWidth(s.text, size, s.bold)
	}
	return w
}

// c is the column being filled.
func (d *cardDoc) c() *column { return d.flow[d.at] }

// fit moves on to the next column of the flow when c, being filled, has no
// room for h more millimetres; it returns the column to draw in.
func (d *cardDoc) fit(c *column, h float64) *column {
	if c.y+h <= cardH-cardMargin {
		return c
	}
	if len(d.flow) > 0 && c == d.c() && d.at < len(d.flow)-1 {
		d.at++
		return d.c()
	}
	d.errs = append(d.errs, fmt.Errorf("the text runs %.1f mm past the bottom of the card", c.y+h-(cardH-cardMargin)))
	return c
}

func xmlText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}

func mm(v float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", v), "0"), ".")
}

// text draws one line of spans with its baseline at y.
func (d *cardDoc) text(x, y, size float64, spans []span) {
	fmt.Fprintf(&d.b, `<text x="%s" y="%s" font-size="%s">`, mm(x), mm(y), mm(size))
	for _, s := range spans {
		attr := ""
		if s.bold {
			attr += ` font-weight="bold"`
		}
		if s.grey {
			attr += ` fill="#555"`
		}
		if attr == "" {
			d.b.WriteString(xmlText(s.text))
		} else {
			fmt.Fprintf(&d.b, `<tspan%s>%s</tspan>`, attr, xmlText(s.text))
		}
	}
	d.b.WriteString("</text>\n")
}

// keyCap draws a button's key cap with its top-left corner at x, y and
// returns its width.
func (d *cardDoc) keyCap(x, y float64, label string) float64 {
	size := sizeBody * 0.95
	w := max(textWidth(label, size, true)+1.4, capH+0.4)
	fmt.Fprintf(&d.b, `<rect x="%s" y="%s" width="%s" height="%s" rx="0.7" fill="#fff" stroke="#000" stroke-width="0.25"/>`+"\n",
		mm(x), mm(y), mm(w), mm(capH))
	fmt.Fprintf(&d.b, `<text x="%s" y="%s" font-size="%s" font-weight="bold" text-anchor="middle">%s</text>`+"\n",
		mm(x+w/2), mm(y+capH/2+size*0.36), mm(size), xmlText(label))
	return w
}

// keyWidth is keyCap's width for label.
func keyWidth(label string) float64 {
	return max(textWidth(label, sizeBody*0.95, true)+1.4, capH+0.4)
}

// keysWidth is the width of a row of key caps ("hold" is a word before
// the cap of its button).
func keysWidth(keys []string) float64 {
	w := 0.0
	for i, k := range keys {
		if i > 0 {
			w += 0.8
		}
		if rest, ok := strings.CutPrefix(k, "hold "); ok {
			w += textWidth("hold ", sizeBody, false) + keyWidth(rest)
		} else {
			w += keyWidth(k)
		}
	}
	return w
}

func (d *cardDoc) keys(x, top float64, keys []string) {
	for i, k := range keys {
		if i > 0 {
			x += 0.8
		}
		if rest, ok := strings.CutPrefix(k, "hold "); ok {
			d.text(x, top+capH/2+sizeBody*0.36, sizeBody, []span{plain("hold")})
			x += textWidth("hold ", sizeBody, false)
			k = rest
		}
		x += d.keyCap(x, top, k)
	}
}

// wrap breaks spans into lines no wider than first (the first line) and
// rest (the others), at spaces.
func wrap(spans []span, size, first, rest float64) [][]span {
	var lines [][]span
	var line []span
	w, limit := 0.0, first
	for _, s := range spans {
		words := strings.SplitAfter(s.text, " ")
		for _, word := range words {
			if word == "" {
				continue
			}
			ww := textWidth(strings.TrimRight(word, " "), size, s.bold)
			if w > 0 && w+ww > limit {
				// Trim the space the line ends with.
				if n := len(line); n > 0 {
					line[n-1].text = strings.TrimRight(line[n-1].text, " ")
				}
				lines = append(lines, line)
				line, w, limit = nil, 0, rest
			}
			if n := len(line); n > 0 && line[n-1].bold == s.bold && line[n-1].grey == s.grey {
				line[n-1].text += word
			} else {
				line = append(line, span{text: word, bold: s.bold, grey: s.grey})
			}
			w += textWidth(word, size, s.bold)
		}
	}
	if len(line) > 0 {
		line[len(line)-1].text = strings.TrimRight(line[len(line)-1].text, " ")
		lines = append(lines, line)
	}
	return lines
}

// row draws key caps at the column's left (in a strip keyW wide) and the
// spans beside them, wrapped; the column moves down past it.
func (d *cardDoc) row(c *column, keys []string, keyW float64, spans ...span) {
	kw := keyW
	if len(keys) > 0 {
		kw = max(keyW, keysWidth(keys)+1.2)
	}
	lines := wrap(spans, sizeBody, c.w-kw, c.w-keyW)
	c = d.fit(c, float64(len(lines))*lineStep)
	top := c.y
	if len(keys) > 0 {
		d.keys(c.x, top, keys)
	}
	for i, l := range lines {
		x := c.x + keyW
		if i == 0 {
			x = c.x + kw
		}
		d.tooWide(l, sizeBody, spansWidth(l, sizeBody), c.x+c.w-x)
		d.text(x, top+capH/2+sizeBody*0.36+float64(i)*lineStep, sizeBody, l)
	}
	c.y += max(float64(len(lines)), 1)*lineStep + 0.5
}

// heading draws a section's title and, in grey, when it applies.
func (d *cardDoc) heading(c *column, title, sub string) {
	c = d.fit(c, 1.2+sizeHead+1.9+2*lineStep)
	c.y += 1.2
	base := c.y + sizeHead
	d.text(c.x, base, sizeHead, []span{bold(title)})
	if sub != "" {
		tw := textWidth(title+"  ", sizeHead, true)
		for i, l := range wrap([]span{grey(sub)}, sizeBody, c.w-tw, c.w-tw) {
			d.text(c.x+tw, base+float64(i)*lineStep, sizeBody, l)
			if i > 0 {
				c.y += lineStep
			}
		}
	}
	fmt.Fprintf(&d.b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#000" stroke-width="0.3"/>`+"\n",
		mm(c.x), mm(base+1.0), mm(c.x+c.w), mm(base+1.0))
	c.y = base + 1.9
}

// joinNames lists the entries of a page as one run of text: names, with
// "›" after those that open a page; "X <" and "X >" side by side are one
// entry, "X < >". An entry is never broken across lines.
func joinNames(items []ui.OutlineItem) string {
	return strings.Join(entries(items), " · ")
}

// entries are the entries of a page as joinNames lists them.
func entries(items []ui.OutlineItem) []string {
	var parts []string
	for i := 0; i < len(items); i++ {
		n := items[i].Name
		if i+1 < len(items) {
			if base, ok := strings.CutSuffix(n, " <"); ok && items[i+1].Name == base+" >" {
				n = base + " < >"
				i++
			}
		}
		if items[i].Opens != "" && !strings.HasSuffix(n, ">") {
			n += " ›"
		}
		parts = append(parts, strings.ReplaceAll(n, " ", nbsp))
	}
	return parts
}

func findPage(out []ui.MenuOutline, when, title string) (ui.MenuOutline, bool) {
	for _, o := range out {
		if o.When == when && o.Title == title {
			return o, true
		}
	}
	return ui.MenuOutline{}, false
}

// pageOpened returns the page an entry opens at the same moment.
func pageOpened(out []ui.MenuOutline, when string, it ui.OutlineItem) (ui.MenuOutline, bool) {
	if it.Opens == "" {
		return ui.MenuOutline{}, false
	}
	return findPage(out, when, it.Opens)
}

// roots are the pages opened from the game screen, with their moments.
func roots(out []ui.MenuOutline) []ui.MenuOutline {
	var r []ui.MenuOutline
	for _, o := range out {
		if len(o.Path) == 1 {
			r = append(r, o)
		}
	}
	return r
}

// keyOf is a button's key cap label.
func keyOf(b string) string {
	switch b {
	case ui.Left:
		return "<"
	case ui.Right:
		return ">"
	case ui.Minus:
		return "−"
	case ui.Plus:
		return "+"
	}
	if rest, ok := strings.CutPrefix(b, "hold "); ok {
		return "hold " + keyOf(rest)
	}
	return b
}

// CardSVG draws the quick-reference card for settings s. It fails when
// the menus no longer fit on the card, naming what does not fit.
func CardSVG(s ui.Settings) ([]byte, error) {
	out := ui.Outline(s)
	d := &cardDoc{}
	colW := (cardW - 2*cardMargin - 2*cardGutter) / 3
	cols := [3]*column{}
	for i := range cols {
		cols[i] = &column{x: cardMargin + float64(i)*(colW+cardGutter), w: colW, y: cardMargin + 9}
	}

	// The title and the legend of the keys.
	d.text(cardMargin, cardMargin+sizeTitle*0.8, sizeTitle, []span{bold("zeitnot"), plain(" chess clock: quick reference")})
	legend := []struct{ key, what string }{{"<", "left lever"}, {">", "right lever"}, {"−", "minus"}, {"+", "plus"}}
	lw := 0.0
	for _, l := range legend {
		lw += keyWidth(l.key) + 0.8 + textWidth(l.what, sizeBody, false) + 2.5
	}
	hold := fmt.Sprintf("hold: %s s", strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.1f", button.DefaultOpts.HoldAfter.Seconds()), "0"), "."))
	lw += textWidth(hold, sizeBody, false)
	x := cardW - cardMargin - lw
	d.tooWide([]span{bold("zeitnot"), plain(" chess clock: quick reference")}, sizeTitle,
		textWidth("zeitnot", sizeTitle, true)+textWidth(" chess clock: quick reference", sizeTitle, false), x-cardMargin-2)
	for _, l := range legend {
		x += d.keyCap(x, cardMargin+0.6, l.key) + 0.8
		d.text(x, cardMargin+0.6+capH/2+sizeBody*0.36, sizeBody, []span{plain(l.what)})
		x += textWidth(l.what, sizeBody, false) + 2.5
	}
	d.text(x, cardMargin+0.6+capH/2+sizeBody*0.36, sizeBody, []span{plain(hold)})
	fmt.Fprintf(&d.b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#000" stroke-width="0.5"/>`+"\n",
		mm(cardMargin), mm(cardMargin+6.4), mm(cardW-cardMargin), mm(cardMargin+6.4))

	d.flow = cols[:2]
	cardBoard(d, s, out)
	cardArbiter(d, out)
	cardMenus(d, out)
	cardNotices(d)
	cardPresets(d, cols[2], out)
	foot := wrap([]span{grey("Made from the clock's menus by zeitnot-docs card. Every menu and correction: the arbiter's manual, docs/arbiter-manual.md.")}, sizeBody*0.85, colW, colW)
	footTop := cardH - cardMargin - float64(len(foot))*lineStep*0.85
	if cols[2].y > footTop {
		d.errs = append(d.errs, fmt.Errorf("the presets run %.1f mm into the footnote", cols[2].y-footTop))
	}
	for i, l := range foot {
		d.text(cols[2].x, cardH-cardMargin-float64(len(foot)-1-i)*lineStep*0.85, sizeBody*0.85, l)
	}
	if len(d.errs) > 0 {
		return nil, fmt.Errorf("the card does not fit on A5: %w", errors.Join(d.errs...))
	}

	var b bytes.Buffer
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8"?>
<!-- The quick-reference card, made from the clock's menus by zeitnot-docs card (make card). Do not edit. -->
<svg xmlns="http://www.w3.org/2000/svg" xml:space="preserve" width="%smm" height="%smm" viewBox="0 0 %s %s" font-family="%s">
<rect width="%s" height="%s" fill="#fff"/>
`, mm(cardW), mm(cardH), mm(cardW), mm(cardH), fontFamily, mm(cardW), mm(cardH))
	b.WriteString(d.b.String())
	b.WriteString("</svg>\n")
	return b.Bytes(), nil
}

// cardBoard is what the buttons do on the game screen.
func cardBoard(d *cardDoc, s ui.Settings, out []ui.MenuOutline) {
	blackLever, whiteLever := ui.Right, ui.Left
	if !s.WhiteLeft {
		blackLever, whiteLever = whiteLever, blackLever
	}
	const kw = 13.0
	d.heading(d.c(), "AT THE BOARD", "")
	d.row(d.c(), []string{keyOf(blackLever)}, kw, bold("Black's lever"), plain(" starts White's clock (FIDE 6.5), as does pause. White plays the "+map[string]string{ui.Left: "left", ui.Right: "right"}[whiteLever]+" lever: a setting (6.4)."))
	d.row(d.c(), []string{"<", ">"}, kw, plain("A lever stops only its own clock, and starts the other."))
	d.row(d.c(), []string{"pause"}, kw, plain("stops the running clock, and resumes it. Resets nothing."))
	var opens []span
	sentence := func(when string) {
		if len(opens) > 0 {
			opens = append(opens, plain(". "))
		}
		opens = append(opens, plain(strings.ToUpper(when[:1])+when[1:]+": "))
	}
	for _, m := range moments {
		page := false
		for _, r := range roots(out) {
			if r.When == m.when && r.Path[0] == "hold "+ui.OK {
				sentence(r.When)
				opens = append(opens, bold(r.Title))
				page = true
			}
		}
		if !page && m.when == ui.WhenRunning {
			// No page covers a running clock's times: the card says what
			// hold ok shows then.
			sentence(m.when)
			opens = append(opens, plain(fmt.Sprintf("the control beneath both times, %d s", ui.ControlShown/time.Second)))
		}
	}
	d.row(d.c(), []string{"hold ok"}, kw, append(opens, plain("."))...)
	for _, r := range roots(out) {
		if r.Path[0] == "hold "+ui.OK || r.Kind != "choose" {
			continue
		}
		var picks []span
		for i, it := range r.Items {
			if i > 0 {
				picks = append(picks, plain(" or "))
			}
			picks = append(picks, bold(keyMarks[it.Key]), plain(" "+it.Name))
		}
		d.row(d.c(), []string{keyOf(r.Path[0])}, kw, append([]span{plain("with " + r.When + ": "), bold(r.Title), plain(" then ")}, append(picks, plain(" (illegal move, FIDE 7.5.5)."))...)...)
	}
	keep := func(ss []string) []string { // a notice is never broken across lines
		for i := range ss {
			ss[i] = strings.ReplaceAll(ss[i], " ", nbsp)
		}
		return ss
	}
	freeze := keep(flagBanners(s, clock.Freeze))
	cont := keep(flagBanners(s, clock.Continue))
	d.row(d.c(), []string{"ok"}, kw, plain("after a flag: "), bold(strings.Join(freeze, ", ")), plain(": ok, next game (after-flag freeze, every preset). "),
		plain("After-flag continue: "), bold(strings.Join(cont, ", then ")), plain("."))
	d.row(d.c(), []string{"hold " + keyOf(ui.Minus)}, kw, plain("both sides' seconds on 4-digit displays."))
	lock := "Lock now"
	if st, ok := findPage(out, ui.WhenSetup, "Settings"); ok {
		for _, it := range st.Items {
			if it.Says == "LOCKED" && !it.Steps {
				lock = it.Name
			}
		}
	}
	// The PIN is the arbiter's: the card, which every player may read,
	// says how it is entered, never which it is.
	d.row(d.c(), []string{"hold ok"}, kw, plain("locked ("+lock+"): the arbiter's PIN first; "+keyOf(ui.Plus)+keyOf(ui.Minus)+" 1, levers 5, ok next."))
}

// cardArbiter is the arbiter's menu.
func cardArbiter(d *cardDoc, out []ui.MenuOutline) {
	if arb, ok := findPage(out, ui.WhenPaused, "Arbiter"); ok {
		d.heading(d.c(), strings.ToUpper(arb.Title), pathText(arb)+", "+arb.When)
		d.row(d.c(), nil, 0, grey("+ up, − down, ok; pause: back. "), bold(arb.Hint), plain("."))
		// Two entries a line, in two columns; an entry too wide for half
		// the column has a line of its own.
		es := entries(arb.Items)
		half := func(e string) bool { return textWidth(e, sizeBody, false) < d.c().w/2-1 }
		for i := 0; i < len(es); i++ {
			c := d.fit(d.c(), lineStep)
			base := c.y + capH/2 + sizeBody*0.36
			d.text(c.x, base, sizeBody, []span{plain(es[i])})
			d.tooWide([]span{plain(es[i])}, sizeBody, textWidth(es[i], sizeBody, false), c.w)
			if half(es[i]) && i+1 < len(es) && half(es[i+1]) {
				i++
				d.text(c.x+c.w/2, base, sizeBody, []span{plain(es[i])})
			}
			c.y += lineStep
		}
		d.c().y += 0.5
		var forms []string
		seen := map[string]bool{}
		for _, it := range arb.Items {
			if p, ok := pageOpened(out, arb.When, it); ok && p.Kind == "form" {
				var f []string
				for _, fi := range p.Items {
					f = append(f, fi.Name)
				}
				if k := strings.Join(f, " "); !seen[k] {
					seen[k] = true
					forms = append(forms, strings.Join(f, ", "))
				}
			}
		}
		d.row(d.c(), nil, 0, grey("Forms ("+strings.Join(forms, "; ")+"): "), plain("+ − by 1, levers by 10, ok: next, and sets it after the last; pause cancels."))
	}
}

// cardMenus is the setup menu and the pages under it.
func cardMenus(d *cardDoc, out []ui.MenuOutline) {
	const kw = 6.0
	menu, ok := findPage(out, ui.WhenSetup, "Menu")
	if !ok {
		return
	}
	d.heading(d.c(), strings.ToUpper(menu.Title), pathText(menu)+", "+menu.When)
	for _, it := range menu.Items {
		name, sub := strings.CutSuffix(it.Name, " >") // the menu's mark of a submenu
		if sub || it.Opens != "" {
			name += " ›"
		}
		d.row(d.c(), []string{keyOf(it.Key)}, kw, plain(name))
	}
	if h, ok := strings.CutPrefix(menu.Hint, ui.OK+" "); ok {
		d.row(d.c(), []string{"ok"}, kw, plain(h))
	}
	// Setup and the pages it opens, a line each.
	for _, it := range menu.Items {
		sub, ok := pageOpened(out, menu.When, it)
		if !ok || sub.Kind != "list" {
			continue
		}
		d.row(d.c(), nil, 0, bold(sub.Title+": "), plain(joinNames(sub.Items)))
		for _, si := range sub.Items {
			p, ok := pageOpened(out, sub.When, si)
			if !ok || p.Kind != "list" {
				continue
			}
			note := ""
			if steps(p) {
				note = " (a lever or ok changes)"
			}
			if len(p.Items) == 0 {
				d.row(d.c(), nil, 0, bold(p.Title+": "), plain("each saved one; "+p.Hint))
				continue
			}
			d.row(d.c(), nil, 0, bold(p.Title+note+": "), plain(joinNames(p.Items)))
			for _, pi := range p.Items {
				pp, ok := pageOpened(out, p.When, pi)
				if !ok || pp.Kind != "list" {
					continue
				}
				d.row(d.c(), nil, 2.5, bold(pp.Title+": "), plain(joinNames(pp.Items)))
				for _, ppi := range pp.Items {
					if f, ok := pageOpened(out, pp.When, ppi); ok && f.Kind == "form" {
						var names []string
						for _, fi := range f.Items {
							names = append(names, fi.Name)
						}
						names = append(names, f.Hidden...)
						d.row(d.c(), nil, 2.5, grey("a period: "), plain(strings.Join(names, ", ")))
						break
					}
				}
				break // White's and Black's periods are alike
			}
		}
	}
}

// steps: the levers change values on page p.
func steps(p ui.MenuOutline) bool {
	for _, it := range p.Items {
		if it.Steps {
			return true
		}
	}
	return false
}

func pathText(o ui.MenuOutline) string {
	var w []string
	for _, p := range o.Path {
		w = append(w, keyOf(p))
	}
	return strings.Join(w, ", ")
}

// cardNotices says what to do about what the displays may say.
func cardNotices(d *cardDoc) {
	d.heading(d.c(), "THE DISPLAY SAYS", "")
	notices := []struct{ what, do string }{
		{"RECOVERED", "after a power cut: paused, times kept (the running side's within 1 s). Check, then pause."},
		{"RECOVERED N LOST", "N journal lines were damaged: check times and moves with the score sheets."},
		{"DISK FULL, READ-ONLY, SAVE FAILED", "the clock keeps time and holds its record in memory; tell staff."},
		{"JOURNAL LOST", "the old journal could not be read; it is kept for staff."},
		{"PRESS LOST?", "a press may be missing: check which clock runs, and the moves."},
		{"REFUSED", "the correction is not possible."},
	}
	for _, n := range notices {
		d.row(d.c(), nil, 0, bold(n.what), plain(": "+n.do))
	}
}

// cardPresets is the third column: every preset and the buttons to it.
// Two presets share a row where both fit half the column, so that the
// whole catalogue fits; a preset alone on its row also shows the name the
// display calls it by.
func cardPresets(d *cardDoc, c *column, out []ui.MenuOutline) {
	d.heading(c, "PRESETS", "hold ok, then")
	rows := presetRows(out)
	keysOf := func(r presetRow) []string {
		var k []string
		for _, key := range r.keys {
			k = append(k, keyOf(key))
		}
		return k
	}
	kw := 0.0
	for _, r := range rows {
		kw = max(kw, keysWidth(keysOf(r))+1.5)
	}
	half := c.w / 2
	fitsHalf := func(r presetRow) bool { return kw+textWidth(r.label+"  ", sizeBody, true) <= half }
	put := func(x float64, r presetRow, room float64, called bool) {
		lw := textWidth(r.label+"  ", sizeBody, true)
		d.keys(x, c.y, keysOf(r))
		d.text(x+kw, c.y+capH/2+sizeBody*0.36, sizeBody, []span{bold(r.label)})
		d.tooWide([]span{bold(r.label)}, sizeBody, textWidth(r.label, sizeBody, true), room-kw)
		if called && x+kw+lw+textWidth(r.called, sizeBody, false) <= x+room {
			d.text(x+kw+lw, c.y+capH/2+sizeBody*0.36, sizeBody, []span{grey(r.called)})
		}
	}
	for i := 0; i < len(rows); i++ {
		r := rows[i]
		if i == 0 || r.group != rows[i-1].group {
			c.y += 0.2
			d.text(c.x, c.y+sizeBody*0.9, sizeBody*0.85, []span{grey(r.group)})
			c.y += sizeBody*0.9 + 0.9
		}
		if i+1 < len(rows) && rows[i+1].group == r.group && fitsHalf(r) && fitsHalf(rows[i+1]) {
			put(c.x, r, half, false)
			put(c.x+half, rows[i+1], half, false)
			i++
		} else {
			put(c.x, r, c.w, true)
		}
		c.y += capH + presetGap
	}
}

// presetGap is the space between two presets' rows: tight, so that the
// catalogue fits its column.
const presetGap = 0.2

// CardText is the text an SVG card shows, its words separated by single
// spaces: what a person reads on it, for the checks of what it says.
func CardText(svg []byte) (string, error) {
	dec := xml.NewDecoder(bytes.NewReader(svg))
	var b strings.Builder
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", fmt.Errorf("the card is not well-formed XML: %v", err)
		}
		if cd, ok := tok.(xml.CharData); ok {
			b.WriteString(strings.ReplaceAll(string(cd), nbsp, " "))
		}
		if _, ok := tok.(xml.EndElement); ok {
			b.WriteString(" ")
		}
	}
	return strings.Join(strings.Fields(b.String()), " "), nil
}
