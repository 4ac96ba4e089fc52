package main

import (
	"context"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/hall/demo"
)

// buildClock builds the clock's program (cmd/zeitnot) into a
// temporary directory and returns its path, for the tests that run real
// clocks (a daemon and a link each) against the hall.
func buildClock(t *testing.T) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	exe, err := demo.Build(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// The hall is the default command: its flags may come first, and `hall`
// names it too; no other program's command is the hall's.
func TestCommands(t *testing.T) {
	for _, args := range [][]string{{"hall", "--nope"}, {"--nope"}} {
		if code, _, errOut := prog.Run(args...); code != 2 || !strings.Contains(errOut, "Usage: zeitnot-hall [hall] [flags]") {
			t.Errorf("%q goes to the hall: exit %d, %q", args, code, errOut)
		}
	}
	_, usage, _ := prog.Run("help")
	if !strings.Contains(usage, "\n  hall ") {
		t.Errorf("the usage does not list hall:\n%s", usage)
	}
	// The simulator, the bench and the generators are programs of their
	// own (cmd/zeitnot-sim, cmd/zeitnot-bench, cmd/zeitnot-docs); the
	// clock's commands are the clock's.
	for _, c := range []string{"sim", "bench", "card", "outline", "wiring", "run", "link", "usb", "network", "press"} {
		if code, _, _ := prog.Run(c); code != 2 {
			t.Errorf("%s is another program's command, but zeitnot-hall ran it: exit %d", c, code)
		}
	}
}

// TestHallHoldsTheHall: the hall's program holds the hall, not the clock's
// core nor the laptop's other programs: no daemon, user interface, session
// or journal of the clock (its demo runs the clock's own program), no
// simulator, no generators, no development tools.
func TestHallHoldsTheHall(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command in PATH")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, goCmd, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if !slices.Contains(deps, "github.com/zeitnot/zeitnot/hall/web") {
		t.Fatalf("go list -deps names no hall/web: %q", deps)
	}
	for _, d := range deps {
		for _, f := range []string{"appliance/daemon", "appliance/ui", "appliance/session", "appliance/journal", "sim", "docgen", "devtools"} {
			if p := "github.com/zeitnot/zeitnot/" + f; d == p || strings.HasPrefix(d, p+"/") {
				t.Errorf("zeitnot-hall holds %s", d)
			}
		}
	}
}
