package network

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/internal/repocheck"
	"github.com/zeitnot/zeitnot/internal/tomldoc"
)

// TestDocumented: the club staff's README has the schema's rows for
// [network] and [network.wifi], as Table.Rows writes them, and no row for
// a key the schema lacks; the package doc names every key.
func TestDocumented(t *testing.T) {
	readme, doc := repocheck.Read(t, "appliance/config/README.md"), repocheck.Read(t, "appliance/network/doc.go")
	_, section, ok := strings.Cut(readme, "\n## Network\n")
	if !ok {
		t.Fatal("appliance/config/README.md has no Network section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	rows := Table.Rows(tomldoc.Key{"network"})
	for _, r := range rows {
		if !strings.Contains(section, "\n"+r+"\n") {
			t.Errorf("README: no row\n%s", r)
		}
	}
	keys := slices.Concat(Table.Keys(), WiFiTable.Keys())
	for _, m := range regexp.MustCompile("(?m)^\\| `(\\w+)` \\|").FindAllStringSubmatch(section, -1) {
		if !slices.Contains(keys, m[1]) {
			t.Errorf("README: a row for %s, which the schema lacks", m[1])
		}
	}
	for _, k := range keys {
		if k == "wifi" {
			k = "[network.wifi]"
		}
		if !strings.Contains(doc, k) {
			t.Errorf("doc.go does not name %s", k)
		}
	}
	for _, p := range Paths {
		if !strings.Contains(readme, p) || !strings.Contains(doc, p) {
			t.Errorf("%s is not in the README and doc.go", p)
		}
	}
}
