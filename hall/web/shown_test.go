package web

import (
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/screen"
	"github.com/zeitnot/zeitnot/internal/needtool"
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
	node := needtool.Path(t, "apt-get install nodejs", "node")
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

// FormatCase is one time as the clock's displays write it
// (screen.FormatTime), which the page's zeitnotFormat must write alike.
type FormatCase struct {
	Ms      int64  `json:"ms"`
	CountUp bool   `json:"count_up"`
	Text    string `json:"text"`
}

// FormatCases are the clock's texts for times around every boundary: the
// second (the clock rounds a remaining time up), tenths, ten minutes, an
// hour, ten hours; counting up, it rounds down.
func FormatCases() []FormatCase {
	var cs []FormatCase
	for _, base := range []int64{0, 100, 1000, 19_900, 20_000, 59_000, 60_000, 599_000, 600_000, 3_599_000, 3_600_000, 35_999_000, 36_000_000} {
		for _, d := range []int64{-1000, -101, -100, -99, -1, 0, 1, 99, 100, 101, 999, 1000} {
			ms := base + d
			if ms < 0 {
				continue
			}
			for _, up := range []bool{false, true} {
				cs = append(cs, FormatCase{ms, up, screen.FormatTime(ms, screen.DefaultTenthsBelow, up)})
			}
		}
	}
	return cs
}

// The page writes every time as the clock does (issue 24.11: it floored
// where the clock rounds up, and wrote 19.9 for the clock's 0:19.9).
func TestFormatCasesNode(t *testing.T) {
	node := needtool.Path(t, "apt-get install nodejs", "node")
	raw, _ := json.Marshal(FormatCases())
	script := `const {zeitnotFormat} = require(process.argv[1]); const cs = JSON.parse(process.argv[2]);
let bad = 0; for (const c of cs) { const s = zeitnotFormat(c.ms, 20000, c.count_up); if (s !== c.text) { console.log(c.ms, c.count_up ? "up" : "down", JSON.stringify(s), "want", JSON.stringify(c.text)); bad++; } }
process.exit(bad ? 1 : 0);`
	abs, _ := filepath.Abs("static/shown.js")
	out, err := exec.Command(node, "-e", script, abs, string(raw)).CombinedOutput()
	if err != nil {
		t.Fatalf("shown.js writes times unlike the clock (screen.FormatTime): %v\n%s", err, out)
	}
}

// The cards' control is written as people read it; the control as played
// (an arbiter's increment) comes first; what the hall cannot read stays
// as the clock wrote it (issue 24.3).
func TestHumanControl(t *testing.T) {
	for _, c := range []struct{ played, control, want string }{
		{"", "5400+30", `90'+30"`},
		{"", "40/5400+30:1800+30", `90/40+30'+30"`},
		{"300+5@31", "300", `5'+5" from 31`},
		{"", "300|240", `W5' B4'`},
		{"", "not a control", "not a control"},
		{"", "", ""},
	} {
		if got := humanControl(c.played, c.control); got != c.want {
			t.Errorf("humanControl(%q, %q) = %q, want %q", c.played, c.control, got, c.want)
		}
	}
}
