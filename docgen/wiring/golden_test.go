package wiring

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// hardwareDir is the repository's hardware folder, found from the test's
// directory.
func hardwareDir(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "hardware")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
}

// The diagrams and pages committed in hardware/ are what the built-in
// profiles make now, and there are no others: change a profile and `make
// wiring` must follow.
func TestCommittedFilesUpToDate(t *testing.T) {
	dir := hardwareDir(t)
	want := map[string]bool{}
	for _, name := range Builds() {
		w := build(t, name)
		var svg, md bytes.Buffer
		if err := w.SVG(&svg); err != nil {
			t.Fatal(err)
		}
		if err := w.Markdown(&md); err != nil {
			t.Fatal(err)
		}
		for file, data := range map[string][]byte{"wiring-" + name + ".svg": svg.Bytes(), "bom-" + name + ".md": md.Bytes()} {
			want[file] = true
			got, err := os.ReadFile(filepath.Join(dir, file))
			if err != nil {
				t.Errorf("%v: run make wiring", err)
				continue
			}
			if !bytes.Equal(got, data) {
				t.Errorf("hardware/%s is not what profile %s makes now: run make wiring", file, name)
			}
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		n := e.Name()
		generated := strings.HasPrefix(n, "wiring-") && strings.HasSuffix(n, ".svg") || strings.HasPrefix(n, "bom-") && strings.HasSuffix(n, ".md")
		if generated && !want[n] {
			t.Errorf("hardware/%s belongs to no built-in profile of real parts (%s): remove it", n, strings.Join(slices.Sorted(maps.Keys(want)), ", "))
		}
	}
}
