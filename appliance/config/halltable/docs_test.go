package halltable

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/internal/repocheck"
)

// TestDocumented: the [hall] example of docs/hall-protocol.md is a table
// the schema takes, names every key of the schema ("key =", in a comment
// for the alternatives), and no key the schema lacks.
func TestDocumented(t *testing.T) {
	_, block, ok := strings.Cut(repocheck.Read(t, "docs/hall-protocol.md"), "```toml\n[hall]\n")
	block, _, _ = strings.Cut(block, "```")
	if !ok || block == "" {
		t.Fatal("docs/hall-protocol.md has no ```toml [hall] example")
	}
	block = "[hall]\n" + block
	if errs := Check("/etc/zeitnot/zeitnot.toml", []byte(block), CheckOpts{MissingOK: true}); len(errs) > 0 {
		t.Errorf("the example: %q", errs)
	}
	for _, k := range Table.Keys() {
		if !strings.Contains(block, k+" = ") {
			t.Errorf("the example does not name %s", k)
		}
	}
	for _, m := range regexp.MustCompile(`(?m)^(\w+) =`).FindAllStringSubmatch(block, -1) {
		if !slices.Contains(Table.Keys(), m[1]) {
			t.Errorf("the example names %s, which [hall] does not have", m[1])
		}
	}
}
