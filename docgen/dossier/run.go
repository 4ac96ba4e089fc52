package dossier

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"regexp"
	"slices"
	"strings"
)

// Status is what became of one test or benchmark.
type Status string

const (
	Pass    Status = "passed"
	Fail    Status = "FAILED"
	Skip    Status = "SKIPPED"
	Missing Status = "MISSING" // the module has no such test, or more than one
	NotRun  Status = "NOT RUN" // go test ran, and this one did not report
)

// Result is one test's or benchmark's run.
type Result struct {
	Func
	Status    Status
	Elapsed   float64             // seconds, as go test reports them
	Cases     int                 // subtests run
	CasesPass int                 // subtests passed
	Figures   map[string][]string // the TEXT of its "figure KEY: TEXT" lines, by KEY
	Bench     string              // a benchmark's result: "5000 211 ns/op 487 B/op 16 allocs/op ..."
	Tail      []string            // a failure's last output lines
	Problem   string              // why it is missing
}

// Command is the go test command line that runs the named tests of one
// package, and its benchmarks with -benchmem.
func Command(goCmd, pkg string, names []string) []string {
	var tests, benches []string
	for _, n := range names {
		if strings.HasPrefix(n, "Benchmark") {
			benches = append(benches, n)
		} else {
			tests = append(tests, n)
		}
	}
	args := []string{goCmd, "test", "-count=1", "-json"}
	if len(tests) > 0 {
		args = append(args, "-run", "^("+strings.Join(tests, "|")+")$")
	} else {
		args = append(args, "-run", "^$")
	}
	if len(benches) > 0 {
		args = append(args, "-bench", "^("+strings.Join(benches, "|")+")$", "-benchmem")
	}
	return append(args, pkg)
}

// ReproduceCommand is the command a reader types to run one test or
// benchmark and see its figures.
func ReproduceCommand(f Func) string {
	if strings.HasPrefix(f.Name, "Benchmark") {
		return fmt.Sprintf("go test -run '^$' -bench '^%s$' -benchmem %s/", f.Name, f.Pkg)
	}
	return fmt.Sprintf("go test -count=1 -run '^%s$' -v %s/", f.Name, f.Pkg)
}

// Run runs every test and benchmark the rules name, package by package,
// in root with goCmd ("go"), and returns each one's result by name.
// log, if not nil, gets each command line as it starts. A test that
// fails is a result, not an error; the error is for go test that could
// not be started.
func Run(root, goCmd string, rules []Rule, idx Index, log io.Writer) (map[string]*Result, error) {
	results := map[string]*Result{}
	byPkg := map[string][]string{}
	var pkgs []string
	for _, n := range Names(rules) {
		f, err := idx.Find(n)
		if err != nil {
			results[n] = &Result{Func: Func{Name: n}, Status: Missing, Problem: err.Error()}
			continue
		}
		results[n] = &Result{Func: f, Status: NotRun}
		if _, ok := byPkg[f.Pkg]; !ok {
			pkgs = append(pkgs, f.Pkg)
		}
		byPkg[f.Pkg] = append(byPkg[f.Pkg], n)
	}
	for _, pkg := range pkgs {
		args := Command(goCmd, pkg, byPkg[pkg])
		if log != nil {
			fmt.Fprintln(log, shellLine(args))
		}
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = root
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			return nil, err
		}
		if err := cmd.Start(); err != nil {
			return nil, fmt.Errorf("dossier: %s: %w", strings.Join(args, " "), err)
		}
		readErr := Read(out, results)
		waitErr := cmd.Wait()
		if readErr != nil {
			return nil, fmt.Errorf("dossier: %s: %w", strings.Join(args, " "), readErr)
		}
		if waitErr != nil {
			// A failed test is in its result; a build that failed reports
			// on standard error and leaves the tests not run.
			for _, n := range byPkg[pkg] {
				if r := results[n]; r.Status == NotRun {
					r.Status = Fail
					r.Tail = lastLines(stderr.String(), 10)
				}
			}
		}
	}
	return results, nil
}

// event is one line of go test -json (cmd/test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Elapsed float64
	Output  string
}

// benchLine is a benchmark's result line: its name, -GOMAXPROCS, the
// iterations and the measures.
var benchLine = regexp.MustCompile(`^(Benchmark[^\s/-]+)(?:-\d+)?\s+(\d+\s+.*ns/op.*)$`)

// Read reads go test -json output and fills in the results it names.
func Read(r io.Reader, results map[string]*Result) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 4*1024*1024)
	outputs := map[string][]string{}
	partial := map[string]string{}
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		var e event
		if err := json.Unmarshal(line, &e); err != nil {
			return fmt.Errorf("go test -json: %w in %q", err, clip(string(line)))
		}
		top, sub, isSub := strings.Cut(e.Test, "/")
		res := results[top]
		if e.Action == "output" {
			// A benchmark's result comes in pieces: its name, then the
			// measures; a line is whole at its newline.
			if !strings.HasSuffix(e.Output, "\n") {
				partial[e.Test] += e.Output
				continue
			}
			text := partial[e.Test] + strings.TrimRight(e.Output, "\n")
			delete(partial, e.Test)
			if m := benchLine.FindStringSubmatch(strings.TrimSpace(text)); m != nil {
				if b := results[m[1]]; b != nil {
					b.Bench = strings.Join(strings.Fields(m[2]), " ")
					b.Status = Pass
				}
			}
			if res == nil {
				continue
			}
			outputs[top] = append(outputs[top], text)
			if key, val, ok := figureLine(text); ok {
				if res.Figures == nil {
					res.Figures = map[string][]string{}
				}
				res.Figures[key] = append(res.Figures[key], val)
			}
			continue
		}
		if res == nil || e.Test == "" {
			continue
		}
		var st Status
		switch e.Action {
		case "pass":
			st = Pass
		case "fail":
			st = Fail
		case "skip":
			st = Skip
		default:
			continue
		}
		if isSub {
			if !strings.Contains(sub, "/") {
				res.Cases++
				if st == Pass {
					res.CasesPass++
				}
			}
			continue
		}
		if strings.HasPrefix(top, "Benchmark") && st == Pass && res.Bench == "" {
			continue // a benchmark passes without a result line only when it did not run
		}
		res.Status, res.Elapsed = st, e.Elapsed
		if st != Pass {
			res.Tail = lastLines(strings.Join(outputs[top], "\n"), 10)
		}
	}
	return sc.Err()
}

// figureRe is a logged figure line: "figure KEY: TEXT", after the
// file:line testing puts before a logged line.
var figureRe = regexp.MustCompile(`(?:^|\s)figure (\S+): (.*)$`)

// figureLine finds "figure KEY: TEXT" in a line of a test's output.
func figureLine(s string) (key, text string, ok bool) {
	m := figureRe.FindStringSubmatch(s)
	if m == nil {
		return "", "", false
	}
	return m[1], strings.TrimSpace(m[2]), true
}

// shellLine writes args as a shell reads them: an argument with a
// character the shell would take is quoted.
func shellLine(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		if strings.ContainsAny(a, "^$()|*?[]{} '\"\\;&<>") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		q[i] = a
	}
	return strings.Join(q, " ")
}

func lastLines(s string, n int) []string {
	lines := slices.DeleteFunc(strings.Split(s, "\n"), func(l string) bool { return strings.TrimSpace(l) == "" })
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return lines
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}
