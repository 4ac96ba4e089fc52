package config

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/engine/preset"
	"github.com/zeitnot/zeitnot/internal/repocheck"
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
	readme := repocheck.Read(t, "appliance/config/README.md")
	for _, f := range fields {
		if f.Doc == "" {
			continue // retired
		}
		if !strings.Contains(string(example), "\n"+f.Key+" =") && !strings.Contains(string(example), "\n#"+f.Key+" =") {
			t.Errorf("example: no line for %s", f.key())
		}
	}
	// The README's table of keys is the schema's: each row as the schema
	// writes it, and no row for a key the schema lacks.
	_, keys, _ := strings.Cut(readme, "\n## Keys\n")
	keys, _, _ = strings.Cut(keys, "\n\n## ")
	for _, r := range schema.Rows(nil) {
		if !strings.Contains(keys, "\n"+r+"\n") {
			t.Errorf("README: no row\n%s", r)
		}
	}
	for _, m := range regexp.MustCompile("(?m)^\\| (?:\\*\\*)?`\\[?(\\w+)\\]?`").FindAllStringSubmatch(keys, -1) {
		if !slices.Contains(schema.Keys(), m[1]) && !slices.ContainsFunc(fields, func(f field) bool { return f.Key == m[1] }) && preset.All[0].Key != "" {
			if _, isPreset := preset.ByKey(m[1]); !isPreset {
				t.Errorf("README: a row for %s, which the schema lacks", m[1])
			}
		}
	}
	for _, p := range preset.All {
		if !strings.Contains(readme, "| `"+p.Key+"` |") {
			t.Errorf("README: preset %s missing from the table", p.Key)
		}
	}
	for _, table := range tables {
		if !strings.Contains(string(example), "\n["+table.name+"]\n") {
			t.Errorf("table [%s] missing from the example", table.name)
		}
	}
}
