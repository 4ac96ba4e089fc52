package config

import (
	"os"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/engine/preset"
)

// The example file is valid, holds the defaults, and names every key; the
// README documents every key.
func TestDocs(t *testing.T) {
	example, err := os.ReadFile("zeitnot.example.toml")
	if err != nil {
		t.Fatal(err)
	}
	c, errs := Parse("zeitnot.example.toml", example, Settings{}, nil)
	if len(errs) > 0 {
		t.Fatalf("example: %q", errStrings(errs))
	}
	if c != Defaults(SimProfile) {
		t.Errorf("example is not the defaults:\n%s\nwant\n%s", c, Defaults(SimProfile))
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fields {
		if !strings.Contains(string(example), "\n"+f.name+" =") && !strings.Contains(string(example), "\n#"+f.name+" =") {
			t.Errorf("example: no line for %s", f.key())
		}
		if !strings.Contains(string(readme), "`"+f.name+"`") {
			t.Errorf("README: no `%s`", f.name)
		}
	}
	for _, p := range preset.All {
		if !strings.Contains(string(readme), "| `"+p.Key+"` |") {
			t.Errorf("README: preset %s missing from the table", p.Key)
		}
	}
	for _, table := range tables {
		if !strings.Contains(string(example), "\n["+table+"]\n") || !strings.Contains(string(readme), "`["+table+"]`") {
			t.Errorf("table [%s] missing from the example or the README", table)
		}
	}
}
