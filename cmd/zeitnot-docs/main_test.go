package main

import (
	"strings"
	"testing"
)

// The program holds the generators, and nothing of the hall's or the
// clock's.
func TestCommands(t *testing.T) {
	_, usage, _ := prog.Run("help")
	for _, c := range []string{"card", "outline", "wiring", "dossier"} {
		if !strings.Contains(usage, "\n  "+c+" ") {
			t.Errorf("the usage does not list %s:\n%s", c, usage)
		}
	}
	for _, c := range []string{"hall", "sim", "bench", "run", "link"} {
		if code, _, _ := prog.Run(c); code != 2 {
			t.Errorf("zeitnot-docs ran %s: exit %d", c, code)
		}
	}
}
