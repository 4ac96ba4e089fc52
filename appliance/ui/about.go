package ui

import "time"

// Version is the program's version, as the About page (Setup › About)
// shows it when Opts.Version is empty. The zeitnot command sets it from its
// build (make's VERSION through -ldflags -X, the version `zeitnot
// --version` prints and the SD image's /etc/os-release names as
// IMAGE_VERSION); "dev" for a build that was not given one.
var Version = "dev"

// OutlineVersion is the version the About page shows in the outline
// (Outline: the arbiter's manual and the quick-reference card), so that
// the documents do not change with every build.
const OutlineVersion = "VERSION"

// aboutWidth is the longest line the About page shows: a line of the
// smallest text display (a 16-character LCD). A longer version is shown
// over several lines.
const aboutWidth = 16

// aboutPage shows the program's name and version, read only: pause goes
// back, the other buttons move the cursor or do nothing.
func (c *Core) aboutPage() page {
	return &listPage{title: "About", hint: "pause: back", items: func(c *Core) []item {
		items := []item{{label: fixed("zeitnot")}, {label: fixed("Version")}}
		for _, l := range aboutLines(c.version) {
			items = append(items, item{label: fixed(l)})
		}
		return items
	}}
}

// aboutItem is Setup's entry that opens the About page.
func (c *Core) aboutItem() item {
	return item{label: fixed("About"), ok: func(c *Core, at time.Duration) { c.push(c.aboutPage()) }}
}

// aboutLines splits v into lines of at most aboutWidth bytes, at a '-'
// where it can (git describe's v1.2.0-3-gabcdef1), so that no display cuts
// it short.
func aboutLines(v string) []string {
	if v == "" {
		v = "unknown"
	}
	var lines []string
	for len(v) > aboutWidth {
		cut := aboutWidth
		for i := aboutWidth; i > aboutWidth/2; i-- {
			if v[i-1] == '-' {
				cut = i
				break
			}
		}
		lines = append(lines, v[:cut])
		v = v[cut:]
	}
	return append(lines, v)
}
