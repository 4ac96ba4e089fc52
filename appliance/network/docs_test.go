package network

import (
	"os"
	"strings"
	"testing"
)

// TestDocumented: the club staff's README has a row for every key of
// [network] and [network.wifi], and the package doc names every key.
func TestDocumented(t *testing.T) {
	readme, err := os.ReadFile("../config/README.md")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "\n## Network\n") {
		t.Error("appliance/config/README.md has no Network section")
	}
	for _, k := range append(append([]string{}, networkKeys...), wifiKeys...) {
		if k == "wifi" {
			k = "[network.wifi]"
		}
		if !strings.Contains(string(readme), "| `"+k+"` |") && !strings.Contains(string(readme), "| **`"+k+"`** |") {
			t.Errorf("README: no row for %s", k)
		}
		if !strings.Contains(string(doc), k) {
			t.Errorf("doc.go does not name %s", k)
		}
	}
	for _, p := range Paths {
		if !strings.Contains(string(readme), p) || !strings.Contains(string(doc), p) {
			t.Errorf("%s is not in the README and doc.go", p)
		}
	}
}
