package main

import (
	"bytes"
	"strings"
	"testing"
)

func run(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	code = dispatch(args, &o, &e)
	return code, o.String(), e.String()
}

// The program holds the generators, and nothing of the hall's or the
// clock's.
func TestCommands(t *testing.T) {
	_, usage, _ := run(t, "help")
	for _, c := range []string{"card", "outline", "wiring", "dossier"} {
		if !strings.Contains(usage, "\n  "+c+" ") {
			t.Errorf("the usage does not list %s:\n%s", c, usage)
		}
	}
	for _, c := range []string{"hall", "sim", "bench", "run", "link"} {
		if code, _, _ := run(t, c); code != 2 {
			t.Errorf("zeitnot-docs ran %s: exit %d", c, code)
		}
	}
}
