package web

import (
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/protocol"
)

var updateShown = flag.Bool("update-shown", false, "rewrite testdata/shown.json's expected times from protocol.Status.Shown")

// ShownCase is one case shared by the Go rule and its JavaScript port.
type ShownCase struct {
	Name  string          `json:"name"`
	State json.RawMessage `json:"state"`
	E     int64           `json:"e"` // elapsed ms
	White int64           `json:"white"`
	Black int64           `json:"black"`
}

// ShownCases reads testdata/shown.json.
func ShownCases(t testing.TB, dir string) []ShownCase {
	b, err := os.ReadFile(filepath.Join(dir, "testdata", "shown.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cs []ShownCase
	if err := json.Unmarshal(b, &cs); err != nil {
		t.Fatal(err)
	}
	return cs
}

func TestShownCasesGo(t *testing.T) {
	cs := ShownCases(t, ".")
	for i, c := range cs {
		var s protocol.Status // the rule, not the checks: the cases give only what it reads
		if err := json.Unmarshal(c.State, &s); err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		w, b := s.Shown(time.Duration(c.E) * time.Millisecond)
		if *updateShown {
			cs[i].White, cs[i].Black = w, b
			continue
		}
		if w != c.White || b != c.Black {
			t.Errorf("%s: Shown(%d) = %d, %d; the file says %d, %d", c.Name, c.E, w, b, c.White, c.Black)
		}
	}
	if *updateShown {
		out, _ := json.MarshalIndent(cs, "", "  ")
		os.WriteFile("testdata/shown.json", append(out, '\n'), 0o644)
	}
}

// The JavaScript port under node, where node is installed; the browser
// test runs the same cases in Chromium.
func TestShownCasesNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed; the browser test checks static/shown.js against the same cases")
	}
	script := `const {zeitnotShown} = require(process.argv[1]); const cs = require(process.argv[2]);
let bad = 0; for (const c of cs) { const [w, b] = zeitnotShown(c.state, c.e); if (w !== c.white || b !== c.black) { console.log(c.name, w, b, "want", c.white, c.black); bad++; } }
process.exit(bad ? 1 : 0);`
	abs, _ := filepath.Abs("static/shown.js")
	cases, _ := filepath.Abs("testdata/shown.json")
	out, err := exec.Command(node, "-e", script, abs, cases).CombinedOutput()
	if err != nil {
		t.Fatalf("shown.js disagrees with protocol.Status.Shown: %v\n%s", err, out)
	}
}
