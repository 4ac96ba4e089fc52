package dossier

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/docgen/wiring"
)

func moduleIndex(t *testing.T) (string, Index) {
	t.Helper()
	root, err := ModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	idx, err := NewIndex(root)
	if err != nil {
		t.Fatal(err)
	}
	return root, idx
}

// Every rule of FIDE's list has its row, once, and no row is for a rule
// not on it.
func TestRequiredRules(t *testing.T) {
	var ids []string
	for _, r := range Rules {
		if slices.Contains(ids, r.ID) {
			t.Errorf("rule %s has two rows", r.ID)
		}
		ids = append(ids, r.ID)
		if !slices.Contains(Required, r.ID) {
			t.Errorf("rule %s is not in Required", r.ID)
		}
		if r.Title == "" || r.Source == "" || r.How == "" {
			t.Errorf("rule %s: title %q, source %q, how %q: each is wanted", r.ID, r.Title, r.Source, r.How)
		}
	}
	for _, id := range Required {
		if !slices.Contains(ids, id) {
			t.Errorf("rule %s has no row", id)
		}
	}
}

// A rule that loses its test or its figure fails here: every test and
// benchmark a row names is in the module's _test.go files, in one
// package, and every figure's test logs the figure's line. The spoken
// clock's rows (D.2.6.1) name the tests of the spoken clock.
func TestRulesNameRealTests(t *testing.T) {
	_, idx := moduleIndex(t)
	for _, r := range Rules {
		t.Run(r.ID, func(t *testing.T) {
			for _, err := range idx.Check([]Rule{r}) {
				t.Error(err)
			}
		})
	}
}

// The check finds what it must: a missing test, a figure line the test
// does not log, a test named as a benchmark's figure.
func TestCheckFindsMissingProofs(t *testing.T) {
	_, idx := moduleIndex(t)
	if f, err := idx.Find("TestSeenFromAfar"); err != nil || f.Pkg != "./appliance/screen" || !slices.Equal(f.Figures, []string{"3m", "10m"}) {
		t.Fatalf("TestSeenFromAfar: %+v, %v", f, err)
	}
	bad := []Rule{
		{ID: "x1", Tests: []string{"TestNoSuchThing"}, Figure: Passed("p")},
		{ID: "x2", Tests: []string{"TestSeenFromAfar"}, Figure: Logged("TestSeenFromAfar", "20m", "w")},
		{ID: "x3", Tests: []string{"TestSeenFromAfar"}, Figure: Bench("TestSeenFromAfar", "w")},
		{ID: "x4", Figure: Figure{}},
	}
	var got []string
	for _, err := range idx.Check(bad) {
		got = append(got, err.Error())
	}
	for _, want := range []string{
		"rule x1: no test or benchmark TestNoSuchThing in the module's _test.go files",
		`rule x2: its figure: TestSeenFromAfar (appliance/screen/fide_test.go:`,
		"rule x3: its figure is a benchmark's, and TestSeenFromAfar is a test",
		"rule x4: no test proves it",
		"rule x4: no figure",
		"rule x4: its figure does not say what it measures",
	} {
		if !slices.ContainsFunc(got, func(s string) bool { return strings.HasPrefix(s, want) }) {
			t.Errorf("no %q in\n%s", want, strings.Join(got, "\n"))
		}
	}
}

// A hardware rule points to the builders' guide's section, which exists,
// and says how to measure it.
func TestHardwareRulesPointToTheGuide(t *testing.T) {
	root, _ := moduleIndex(t)
	n := 0
	for _, r := range Rules {
		h := r.Hardware
		if h == nil {
			continue
		}
		n++
		file, anchor, _ := strings.Cut(h.Guide, "#")
		b, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			t.Fatalf("rule %s: %v", r.ID, err)
		}
		found := false
		for _, l := range strings.Split(string(b), "\n") {
			if h, ok := strings.CutPrefix(l, "## "); ok && slug(h) == anchor {
				found = true
			}
		}
		if !found {
			t.Errorf("rule %s: no section #%s in %s", r.ID, anchor, file)
		}
		if h.Measure == "" {
			t.Errorf("rule %s: no way to measure it", r.ID)
		}
	}
	if n != 4 {
		t.Errorf("%d hardware rules, want 4: 3 m, 10 m, the battery, 40 dB", n)
	}
}

// slug is the anchor GitHub gives a heading.
func slug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(h)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Each reference build's battery figure is from its profile.
func TestBatteryFigures(t *testing.T) {
	got := BatteryFigures()
	if len(got) != len(wiring.Builds()) {
		t.Fatalf("%d battery figures for %d builds: %q", len(got), len(wiring.Builds()), got)
	}
	for i, name := range wiring.Builds() {
		if !strings.HasPrefix(got[i], name+": ") || !strings.Contains(got[i], "× 18650 cells") {
			t.Errorf("%q", got[i])
		}
	}
}

// go test -json as the go command writes it: a test with cases, one that
// fails, one skipped, figure lines, and a benchmark's result in two
// pieces.
const sampleJSON = `{"Action":"start","Package":"example.com/m/a"}
{"Action":"run","Package":"example.com/m/a","Test":"TestCases"}
{"Action":"run","Package":"example.com/m/a","Test":"TestCases/one"}
{"Action":"output","Package":"example.com/m/a","Test":"TestCases/one","Output":"    a_test.go:9: figure speed: 3 m in 1 s\n"}
{"Action":"pass","Package":"example.com/m/a","Test":"TestCases/one","Elapsed":0}
{"Action":"run","Package":"example.com/m/a","Test":"TestCases/two"}
{"Action":"fail","Package":"example.com/m/a","Test":"TestCases/two","Elapsed":0}
{"Action":"run","Package":"example.com/m/a","Test":"TestCases/two/deeper"}
{"Action":"pass","Package":"example.com/m/a","Test":"TestCases/two/deeper","Elapsed":0}
{"Action":"output","Package":"example.com/m/a","Test":"TestCases","Output":"    a_test.go:12: the configure step: not a figure\n"}
{"Action":"output","Package":"example.com/m/a","Test":"TestCases","Output":"    a_test.go:13: wrong: 3\n"}
{"Action":"fail","Package":"example.com/m/a","Test":"TestCases","Elapsed":0.25}
{"Action":"run","Package":"example.com/m/a","Test":"TestSkipped"}
{"Action":"skip","Package":"example.com/m/a","Test":"TestSkipped","Elapsed":0}
{"Action":"run","Package":"example.com/m/a","Test":"BenchmarkFast"}
{"Action":"output","Package":"example.com/m/a","Test":"BenchmarkFast","Output":"BenchmarkFast-2   \t"}
{"Action":"output","Package":"example.com/m/a","Test":"BenchmarkFast","Output":" 1359\t    755056 ns/op\t        98.00 p50-µs\t     269 B/op\t       8 allocs/op\n"}
{"Action":"output","Package":"example.com/m/a","Output":"ok  \texample.com/m/a\t1.228s\n"}
{"Action":"pass","Package":"example.com/m/a","Elapsed":1.234}
`

func TestRead(t *testing.T) {
	res := map[string]*Result{}
	for _, n := range []string{"TestCases", "TestSkipped", "BenchmarkFast", "TestNotThere"} {
		res[n] = &Result{Func: Func{Name: n}, Status: NotRun}
	}
	if err := Read(strings.NewReader(sampleJSON), res); err != nil {
		t.Fatal(err)
	}
	c := res["TestCases"]
	if c.Status != Fail || c.Cases != 2 || c.CasesPass != 1 || c.Elapsed != 0.25 || !slices.Equal(c.Figures["speed"], []string{"3 m in 1 s"}) || len(c.Figures) != 1 {
		t.Errorf("TestCases: %+v", c)
	}
	if len(c.Tail) == 0 || c.Tail[len(c.Tail)-1] != "    a_test.go:13: wrong: 3" {
		t.Errorf("TestCases's tail: %q", c.Tail)
	}
	if s := res["TestSkipped"].Status; s != Skip {
		t.Errorf("TestSkipped: %s", s)
	}
	if b := res["BenchmarkFast"]; b.Status != Pass || b.Bench != "1359 755056 ns/op 98.00 p50-µs 269 B/op 8 allocs/op" {
		t.Errorf("BenchmarkFast: %+v", b)
	}
	if got := benchText(res["BenchmarkFast"].Bench); got != "755056 ns/op, 98.00 p50-µs, 269 B/op, 8 allocs/op" {
		t.Errorf("benchText: %q", got)
	}
	if s := res["TestNotThere"].Status; s != NotRun {
		t.Errorf("TestNotThere: %s", s)
	}
	if err := Read(strings.NewReader("{\"Action\":\n"), res); err == nil {
		t.Error("a broken line read without an error")
	}
}

func TestCommand(t *testing.T) {
	got := strings.Join(Command("go", "./sim", []string{"TestA", "BenchmarkB", "TestC"}), " ")
	if want := "go test -count=1 -json -run ^(TestA|TestC)$ -bench ^(BenchmarkB)$ -benchmem ./sim"; got != want {
		t.Errorf("%s\nwant %s", got, want)
	}
	if got, want := shellLine(Command("go", "./sim", []string{"TestA", "TestB"})), "go test -count=1 -json -run '^(TestA|TestB)$' ./sim"; got != want {
		t.Errorf("%s\nwant %s", got, want)
	}
	got = strings.Join(Command("go", "./d", []string{"BenchmarkB"}), " ")
	if want := "go test -count=1 -json -run ^$ -bench ^(BenchmarkB)$ -benchmem ./d"; got != want {
		t.Errorf("%s\nwant %s", got, want)
	}
}

// The document has every rule, its tests with their commands and its
// figure; a rule whose test failed or is missing says NOT PROVED and is
// among the problems. The HTML escapes what it quotes.
func TestDocument(t *testing.T) {
	rules := []Rule{
		{ID: "(x)", Title: "A rule <with> marks", Source: "here", How: "so", Tests: []string{"TestA"}, Figure: Logged("TestA", "k", "what")},
		{ID: "(y)", Title: "Another", Source: "there", How: "thus", Tests: []string{"TestB", "TestGone"}, Figure: Passed("tests"),
			Hardware: &Hardware{Guide: guide, Measure: "with a tape"}},
	}
	d := &Document{
		Build: Build{Version: "v1", Commit: "abc", Date: "2026-12-03", Measured: "now", Go: "go1.26", Machine: "m"},
		Rules: rules,
		Results: map[string]*Result{
			"TestA":    {Func: Func{Name: "TestA", Pkg: "./a", File: "a/a_test.go", Line: 3}, Status: Pass, Elapsed: 0.5, Figures: map[string][]string{"k": {"42 presses"}}},
			"TestB":    {Func: Func{Name: "TestB", Pkg: "./b", File: "b/b_test.go", Line: 7}, Status: Fail, Tail: []string{"b_test.go:9: no"}},
			"TestGone": {Func: Func{Name: "TestGone"}, Status: Missing, Problem: "no test or benchmark TestGone"},
		},
		Commands: []string{"go test -count=1 -json -run ^(TestA)$ ./a"},
	}
	var md, page bytes.Buffer
	if err := d.Markdown(&md); err != nil {
		t.Fatal(err)
	}
	if err := d.HTML(&page); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| **(x)** A rule &lt;with> marks | proved | `TestA` | 42 presses |",
		"| **(y)** Another | NOT PROVED | `TestB`, `TestGone` | 0 of 2 tests passed, in 0.00 s |",
		"- `TestA` ([a/a\\_test.go:3](https://github.com/zeitnot/zeitnot/blob/abc/a/a_test.go#L3)): passed in 0.50 s: `go test -count=1 -run '^TestA$' -v ./a/`",
		"- `TestGone`: MISSING: no test or benchmark TestGone",
		"**On the built clock.** What meets it: [the builders' guide](https://github.com/zeitnot/zeitnot/blob/abc/docs/building.md#the-fide-equipment-rules). How to measure it: with a tape",
		"go test -count=1 -json -run ^(TestA)$ ./a",
	} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("no %q in the Markdown:\n%s", want, md.String())
		}
	}
	for _, want := range []string{"<td><strong>(x)</strong> A rule &lt;with&gt; marks</td>", "<h3>(y): Another</h3>", "<code>b_test.go:9: no</code>"} {
		if !strings.Contains(page.String(), want) {
			t.Errorf("no %q in the HTML", want)
		}
	}
	if p := d.Problems(); len(p) != 3 || !strings.Contains(strings.Join(p, "\n"), "rule (y): TestB FAILED") {
		t.Errorf("problems %q", p)
	}
	if !d.Proved(rules[0]) || d.Proved(rules[1]) {
		t.Error("Proved")
	}
}

// Run runs real go test processes: one package's test and benchmark, with
// a figure, a missing test reported as such.
func TestRunGoTest(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs go test: not with -short")
	}
	root, idx := moduleIndex(t)
	rules := []Rule{
		{ID: "(x)", Tests: []string{"TestSeenFromAfar", "TestNoSuchThing"}, Figure: Logged("TestSeenFromAfar", "3m", "w")},
		{ID: "(y)", Tests: []string{"BenchmarkState"}, Figure: Bench("BenchmarkState", "w")},
	}
	var log strings.Builder
	res, err := Run(root, "go", rules, idx, &log)
	if err != nil {
		t.Fatal(err)
	}
	if r := res["TestSeenFromAfar"]; r.Status != Pass || len(r.Figures["3m"]) != 4 {
		t.Errorf("TestSeenFromAfar: %+v", r)
	}
	if r := res["TestNoSuchThing"]; r.Status != Missing {
		t.Errorf("TestNoSuchThing: %+v", r)
	}
	if r := res["BenchmarkState"]; r.Status != Pass || !strings.Contains(r.Bench, "allocs/op") {
		t.Errorf("BenchmarkState: %+v", r)
	}
	if got := strings.Count(log.String(), "go test -count=1 -json"); got != 2 {
		t.Errorf("%d go test commands, want one a package:\n%s", got, log.String())
	}
}
