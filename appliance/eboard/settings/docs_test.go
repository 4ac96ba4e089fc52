package settings

import (
	"os"
	"strings"
	"testing"
)

// TestDocumented: the package doc's example of the table names every key
// of the schema, and each key has its documentation row.
func TestDocumented(t *testing.T) {
	src, err := os.ReadFile("settings.go")
	if err != nil {
		t.Fatal(err)
	}
	doc, _, _ := strings.Cut(string(src), "\npackage settings")
	rows := Table.Rows(nil)
	for i, k := range Table.Keys() {
		if !strings.Contains(doc, "//\t"+k+" = ") {
			t.Errorf("the package doc's example has no %s", k)
		}
		if i >= len(rows) || !strings.HasPrefix(rows[i], "| `"+k+"` | ") {
			t.Errorf("%s has no documentation row", k)
		}
	}
}
