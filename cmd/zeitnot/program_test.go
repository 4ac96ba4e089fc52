package main

import (
	"context"
	"debug/buildinfo"
	"debug/elf"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// forbidden are the modules and this module's packages that belong to the
// arbiter's or a developer's laptop, never to the clock: the hall's broker,
// pages and store (hall/...), the browser the hall's tests drive, the
// development tools, the simulator and its terminal drawing (sim/...), the
// documents' generators (docgen/...), the test fakes (every xxxtest
// package, drivers/display/displaytest/framepng among them), and the other
// programs (cmd/zeitnot-...).
var forbidden = []string{
	"github.com/mochi-mqtt",
	"github.com/chromedp",
	"github.com/zeitnot/zeitnot/hall",
	"github.com/zeitnot/zeitnot/devtools",
	"github.com/zeitnot/zeitnot/sim",
	"github.com/zeitnot/zeitnot/docgen",
	"github.com/zeitnot/zeitnot/cmd/zeitnot-hall",
	"github.com/zeitnot/zeitnot/cmd/zeitnot-sim",
	"github.com/zeitnot/zeitnot/cmd/zeitnot-docs",
	"github.com/zeitnot/zeitnot/cmd/zeitnot-bench",
}

func isForbidden(path string) bool {
	for _, f := range forbidden {
		if path == f || strings.HasPrefix(path, f+"/") {
			return true
		}
	}
	// A test fake: drivers/buttons/buttontest, linktest, displaytest, ...
	for _, e := range strings.Split(path, "/") {
		if strings.HasSuffix(e, "test") && strings.HasPrefix(path, "github.com/zeitnot/zeitnot/") {
			return true
		}
	}
	return false
}

// TestClockProgramHoldsOnlyTheClock builds the clock's program and reads
// what went into it: the modules its build information names (what `go
// version -m` prints) and the packages its symbols come from. None may be
// the laptop's.
func TestClockProgramHoldsOnlyTheClock(t *testing.T) {
	goCmd, ctx := goCommand(t, 5*time.Minute)
	exe := filepath.Join(t.TempDir(), "zeitnot")
	// The flags of the test's own build, so the packages come from the cache.
	if out, err := exec.CommandContext(ctx, goCmd, "build", "-o", exe, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	bi, err := buildinfo.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	var mods []string
	for _, m := range bi.Deps {
		mods = append(mods, m.Path)
		if isForbidden(m.Path) {
			t.Errorf("go version -m: the clock's program holds module %s", m.Path)
		}
	}
	if !slices.Contains(mods, "periph.io/x/conn/v3") {
		t.Fatalf("the build information names none of the modules that matter: %q", mods)
	}
	f, err := elf.Open(exe)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	syms, err := f.Symbols()
	if err != nil {
		t.Fatal(err)
	}
	pkgs := map[string]bool{}
	for _, s := range syms {
		if p := symbolPackage(s.Name); p != "" {
			pkgs[p] = true
		}
	}
	if !pkgs["github.com/zeitnot/zeitnot/appliance/daemon"] {
		t.Fatalf("no symbol of appliance/daemon among %d: the symbols are not read right", len(syms))
	}
	var bad []string
	for p := range pkgs {
		if isForbidden(p) {
			bad = append(bad, p)
		}
	}
	slices.Sort(bad)
	if len(bad) > 0 {
		t.Errorf("the clock's program holds the laptop's packages: %s", strings.Join(bad, ", "))
	}
}

// goCommand finds the go command, or skips the test, and gives a context
// that ends after timeout (or with the test).
func goCommand(t *testing.T, timeout time.Duration) (string, context.Context) {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command in PATH")
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	t.Cleanup(cancel)
	return goCmd, ctx
}

// symbolPackage is the import path of the package a Go symbol belongs to
// ("github.com/a/b.(*T).M" is in github.com/a/b), or "" for one that is not
// a Go package's.
func symbolPackage(sym string) string {
	slash := strings.LastIndexByte(sym, '/')
	dot := strings.IndexByte(sym[slash+1:], '.')
	if dot < 0 {
		return ""
	}
	return sym[:slash+1+dot]
}

func TestSymbolPackage(t *testing.T) {
	for sym, want := range map[string]string{
		"github.com/zeitnot/zeitnot/hall/web.(*Server).ServeHTTP": "github.com/zeitnot/zeitnot/hall/web",
		"github.com/mochi-mqtt/server/v2.New":                     "github.com/mochi-mqtt/server/v2",
		"main.main":                                               "main",
		"runtime.text":                                            "runtime",
		"go:buildid":                                              "",
	} {
		if got := symbolPackage(sym); got != want {
			t.Errorf("symbolPackage(%q) = %q, want %q", sym, got, want)
		}
	}
}
