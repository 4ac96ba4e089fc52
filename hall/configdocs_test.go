package hall

import (
	"os"
	"strings"
	"testing"
)

// TestConfigDocumented: the README names every key of hall.toml, as the
// key or as its flag.
func TestConfigDocumented(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	for _, k := range Table.Keys() {
		if !strings.Contains(readme, "`"+k+"`") && !strings.Contains(readme, "`"+k+" = ") &&
			!strings.Contains(readme, "`--"+strings.ReplaceAll(k, "_", "-")) && !strings.Contains(readme, "\n["+k+"]") {
			t.Errorf("README.md does not name hall.toml's %s", k)
		}
	}
}
