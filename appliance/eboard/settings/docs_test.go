package settings

import (
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/internal/repocheck"
)

// TestDocumented: the package doc's example of the table names every key
// of the schema, and each key has its documentation row.
func TestDocumented(t *testing.T) {
	doc, _, _ := strings.Cut(repocheck.Read(t, "appliance/eboard/settings/settings.go"), "\npackage settings")
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
