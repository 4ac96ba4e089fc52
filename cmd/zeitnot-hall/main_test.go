package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/devtools/demo"
)

func run(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	code = dispatch(args, &o, &e)
	return code, o.String(), e.String()
}

// buildClock builds the clock's program (appliance/cmd/zeitnot) into a
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
// names it too; the other commands are the laptop's, not the clock's.
func TestCommands(t *testing.T) {
	for _, args := range [][]string{{"hall", "--nope"}, {"--nope"}} {
		if code, _, errOut := run(t, args...); code != 2 || !strings.Contains(errOut, "Usage: zeitnot-hall [hall] [flags]") {
			t.Errorf("%q goes to the hall: exit %d, %q", args, code, errOut)
		}
	}
	_, usage, _ := run(t, "help")
	for _, c := range []string{"hall", "bench", "sim", "card", "outline", "wiring"} {
		if !strings.Contains(usage, "\n  "+c+" ") {
			t.Errorf("the usage does not list %s:\n%s", c, usage)
		}
	}
	for _, c := range []string{"run", "link", "usb", "network", "press"} {
		if code, _, _ := run(t, c); code != 2 {
			t.Errorf("%s is the clock's command, but zeitnot-hall ran it: exit %d", c, code)
		}
	}
}
