package repocheck

import (
	"os"
	"path/filepath"
	"testing"
)

// Read returns the file at path, a slash-separated path from the
// repository's top folder (where go.mod is, found upward from the test's
// working directory): what the tests that hold a document to the code
// read. It fails t when the file cannot be read.
func Read(t testing.TB, path string) string {
	t.Helper()
	dir, err := os.Getwd()
	for err == nil {
		if _, serr := os.Stat(filepath.Join(dir, "go.mod")); serr == nil {
			break
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatalf("repocheck: no go.mod above the test's folder, to read %s from", path)
		}
		dir = up
	}
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(path)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
