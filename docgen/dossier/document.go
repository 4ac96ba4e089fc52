package dossier

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"

	"github.com/zeitnot/zeitnot/docgen/wiring"
	"github.com/zeitnot/zeitnot/drivers/profile"
)

// Repository is where the document's links to the code point.
const Repository = "https://github.com/zeitnot/zeitnot"

// Title is the document's title.
const Title = "zeitnot and FIDE's standards for electronic chess clocks"

// Build is what the figures were measured on.
type Build struct {
	Version  string // git describe
	Commit   string // the commit's hash
	Date     string // the commit's date
	Measured string // when the tests ran, UTC
	Go       string // the Go toolchain
	Machine  string // the CPU and the platform
}

// BuildOf reads the build in root from git and goCmd; what cannot be read
// is "unknown".
func BuildOf(root, goCmd, measured string) Build {
	out := func(name string, args ...string) string {
		cmd := exec.Command(name, args...)
		cmd.Dir = root
		b, err := cmd.Output()
		if s := strings.TrimSpace(string(b)); err == nil && s != "" {
			return s
		}
		return "unknown"
	}
	cpu := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				cpu = strings.TrimSpace(v)
				break
			}
		}
	}
	return Build{
		Version:  out("git", "describe", "--tags", "--always", "--dirty"),
		Commit:   out("git", "rev-parse", "HEAD"),
		Date:     out("git", "log", "-1", "--format=%cI"),
		Measured: measured,
		Go:       out(goCmd, "env", "GOVERSION"),
		Machine:  fmt.Sprintf("%s, %d cores, %s/%s", cpu, runtime.NumCPU(), runtime.GOOS, runtime.GOARCH),
	}
}

// Document is the dossier: the rules, their results and the build.
type Document struct {
	Build    Build
	Rules    []Rule
	Results  map[string]*Result
	Commands []string // the go test command lines that measured it
}

// Proved reports whether every test of r passed and its figure is there.
func (d *Document) Proved(r Rule) bool {
	for _, n := range r.Tests {
		if res := d.Results[n]; res == nil || res.Status != Pass {
			return false
		}
	}
	_, ok := d.figure(r)
	return ok
}

// Problems is every rule not proved, with what went wrong.
func (d *Document) Problems() []string {
	var out []string
	for _, r := range d.Rules {
		for _, n := range r.Tests {
			res := d.Results[n]
			switch {
			case res == nil:
				out = append(out, fmt.Sprintf("rule %s: %s did not run", r.ID, n))
			case res.Status == Missing:
				out = append(out, fmt.Sprintf("rule %s: %s", r.ID, res.Problem))
			case res.Status != Pass:
				out = append(out, fmt.Sprintf("rule %s: %s %s", r.ID, n, res.Status))
			}
		}
		if f, ok := d.figure(r); !ok {
			out = append(out, fmt.Sprintf("rule %s: no figure: %s", r.ID, f))
		}
	}
	return out
}

// figure is r's figure as the document states it, and whether it was
// measured.
func (d *Document) figure(r Rule) (string, bool) {
	f := r.Figure
	res := d.Results[f.Of]
	switch f.Kind {
	case FigureLogged:
		if res == nil || len(res.Figures[f.Key]) == 0 {
			return fmt.Sprintf("%s logged no \"figure %s:\" line", f.Of, f.Key), false
		}
		return strings.Join(res.Figures[f.Key], "; "), true
	case FigureBench:
		if res == nil || res.Bench == "" {
			return fmt.Sprintf("%s gave no result", f.Of), false
		}
		return benchText(res.Bench), true
	case FigureCases:
		if res == nil || res.Cases == 0 {
			return fmt.Sprintf("%s ran no cases", f.Of), false
		}
		return fmt.Sprintf("%d of %d cases passed", res.CasesPass, res.Cases), res.CasesPass == res.Cases
	case FigurePassed:
		n, took := 0, 0.0
		for _, t := range r.Tests {
			if res := d.Results[t]; res != nil && res.Status == Pass {
				n++
				took += res.Elapsed
			}
		}
		return fmt.Sprintf("%d of %d tests passed, in %.2f s", n, len(r.Tests), took), n == len(r.Tests)
	case FigureBattery:
		s := BatteryFigures()
		return strings.Join(s, "; "), len(s) > 0
	}
	return "no figure", false
}

// benchText writes a benchmark's result without its iteration count:
// "211223 ns/op, 487 B/op, 16 allocs/op, 550 p99-µs".
func benchText(s string) string {
	f := strings.Fields(s)
	if len(f) > 0 {
		f = f[1:]
	}
	var parts []string
	for i := 0; i+1 < len(f); i += 2 {
		parts = append(parts, f[i]+" "+f[i+1])
	}
	return strings.Join(parts, ", ")
}

// BatteryFigures is, for each reference build, its draw and the battery
// its parts list names, from its profile's [supply].
func BatteryFigures() []string {
	var out []string
	for _, name := range wiring.Builds() {
		p, err := profile.Builtin(name)
		if err != nil {
			continue
		}
		pk, ok := p.Supply.Pack()
		if !ok {
			continue
		}
		basis, _, _ := strings.Cut(p.Supply.Basis, " ")
		out = append(out, fmt.Sprintf("%s: %d mA at %.1f V (%s), %d × 18650 cells, %.0f Wh, warning at %d %%: %.1f h before it, %.1f h after it",
			name, p.Supply.CurrentMA, profile.SupplyVolts, basis, pk.Cells, pk.Wh, pk.LowPercent,
			float64(100-pk.LowPercent)/100*pk.Wh*profile.ConverterEfficiency/pk.Watts,
			float64(pk.LowPercent)/100*pk.Wh*profile.ConverterEfficiency/pk.Watts))
	}
	return out
}

// repoLink is a link to path (and an anchor) in the repository at the
// build's commit.
func (d *Document) repoLink(text, path string) span {
	ref := d.Build.Commit
	if ref == "" || ref == "unknown" {
		ref = "main"
	}
	return link(text, Repository+"/blob/"+ref+"/"+path)
}

func (d *Document) status(r Rule) string {
	if d.Proved(r) {
		if r.Hardware != nil {
			return "proved here; measure on the clock"
		}
		return "proved"
	}
	return "NOT PROVED"
}

func (d *Document) blocks() []block {
	b := []block{{kind: heading1, spans: line(txt(Title))}}
	b = append(b,
		block{kind: paragraph, spans: line(txt("zeitnot is an open-source tournament chess clock on a Raspberry Pi. For every rule of FIDE's standards for electronic clocks, of the 2026 chapter on equipment with electronic components, and of the Laws that FIDE's testing of clocks checks, this document says how zeitnot meets it, the tests that prove it (each with the command that runs it) and the figure measured on the build below. "+
			"It is made by "), code("make fide-dossier"), txt(", which runs the tests and writes what they report; a rule whose test fails or is missing says NOT PROVED."))},
		block{kind: paragraph, spans: line(txt("Rules of the hardware (legibility at 3 m, the running side at 10 m, 40 dB, the battery's 10 hours) are met by how a clock is built: their rows give what the code measures on the drawn displays and the builds' profiles, and the builders' guide ("), d.repoLink("docs/building.md, \"The FIDE equipment rules\"", guide), txt(") says what meets each and how to measure it on a built clock with a tape measure and a phone's sound meter."))},
		block{kind: table, items: [][]span{line(txt("build")), line(txt(""))}, rows: [][][]span{
			{line(txt("version")), line(code(d.Build.Version))},
			{line(txt("commit")), line(d.repoLink(d.Build.Commit, ""), txt(" of "+d.Build.Date))},
			{line(txt("measured")), line(txt(d.Build.Measured))},
			{line(txt("on")), line(txt(d.Build.Machine + ", " + d.Build.Go))},
		}},
		block{kind: heading2, spans: line(txt("Summary"))},
	)
	var rows [][][]span
	for _, r := range d.Rules {
		var tests [][]span
		for _, t := range r.Tests {
			tests = append(tests, line(code(t)))
		}
		fig, _ := d.figure(r)
		rows = append(rows, [][]span{line(bold(r.ID), txt(" "+r.Title)), line(txt(d.status(r))), joined(tests), line(txt(fig))})
	}
	b = append(b, block{kind: table, items: [][]span{line(txt("rule")), line(txt("result")), line(txt("tests")), line(txt("figure"))}, rows: rows})
	b = append(b, block{kind: heading2, spans: line(txt("The rules"))})
	for _, r := range d.Rules {
		b = append(b, d.ruleBlocks(r)...)
	}
	b = append(b, block{kind: heading2, spans: line(txt("How the figures were measured"))},
		block{kind: paragraph, spans: line(code("make fide-dossier"), txt(" ran, from the repository's root:"))},
		block{kind: preformatted, lines: d.Commands},
		block{kind: paragraph, spans: line(txt("Each figure is the test's own report: the lines it logs as "), code("figure KEY: ..."), txt(", a benchmark's result, or its cases counted. The row table is "), d.repoLink("docgen/dossier/rules.go", "docgen/dossier/rules.go"), txt("; a test of "), code("make test"), txt(" fails when a row names a test, a benchmark or a figure the repository does not have."))},
	)
	return b
}

func (d *Document) ruleBlocks(r Rule) []block {
	out := []block{
		{kind: heading3, spans: line(txt(r.ID + ": " + r.Title))},
		{kind: paragraph, spans: line(bold("Rule."), txt(" "+r.Source+"."))},
		{kind: paragraph, spans: line(bold("How zeitnot meets it."), txt(" "+r.How))},
	}
	var items [][]span
	for _, n := range r.Tests {
		res := d.Results[n]
		if res == nil {
			items = append(items, line(code(n), txt(": did not run")))
			continue
		}
		if res.Status == Missing {
			items = append(items, line(code(n), txt(": MISSING: "+res.Problem)))
			continue
		}
		it := line(code(n), txt(" ("), d.repoLink(fmt.Sprintf("%s:%d", res.File, res.Line), fmt.Sprintf("%s#L%d", res.File, res.Line)), txt("): "+string(res.Status)))
		if res.Status == Pass && !strings.HasPrefix(n, "Benchmark") {
			it = append(it, txt(fmt.Sprintf(" in %.2f s", res.Elapsed)))
		}
		if res.Cases > 0 {
			it = append(it, txt(fmt.Sprintf(", %d of %d cases", res.CasesPass, res.Cases)))
		}
		it = append(it, txt(": "), code(ReproduceCommand(res.Func)))
		if res.Status == Fail && len(res.Tail) > 0 {
			it = append(it, txt(" — "), code(strings.Join(res.Tail, " / ")))
		}
		items = append(items, it)
	}
	out = append(out, block{kind: paragraph, spans: line(bold("Tests."))}, block{kind: bullets, items: items})
	fig, _ := d.figure(r)
	out = append(out, block{kind: paragraph, spans: line(bold("Figure"), txt(" ("+r.Figure.What+"). "+fig))})
	if h := r.Hardware; h != nil {
		out = append(out, block{kind: paragraph, spans: line(bold("On the built clock."), txt(" What meets it: "), d.repoLink("the builders' guide", h.Guide), txt(". How to measure it: "+h.Measure))})
	}
	return out
}

// Markdown writes the document in Markdown.
func (d *Document) Markdown(w io.Writer) error { return writeMarkdown(w, d.blocks()) }

// HTML writes the document as an HTML page to print.
func (d *Document) HTML(w io.Writer) error { return writeHTML(w, Title, d.blocks()) }
