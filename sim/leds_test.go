package sim

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestLEDsInStateAndTerminal: the sim profile's LEDs follow the running
// clock in the state lines and beside each display in the terminal.
func TestLEDsInStateAndTerminal(t *testing.T) {
	var out bytes.Buffer
	script := "0 state\n100 tap right\n200 state\n300 tap pause\n400 state\n"
	if err := RunScript(ScriptOpts{StateDir: t.TempDir(), Out: &out}, "leds.sim", strings.NewReader(script)); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	for i, want := range []string{
		`"leds":{"left":false,"right":false}`,
		`"leds":{"left":true,"right":false}`,
		`"leds":{"left":false,"right":false}`,
	} {
		if i >= len(lines) || !strings.Contains(lines[i], want) {
			t.Errorf("state %d: want %s in %q", i, want, lines)
		}
	}
	c := start(t, ScriptOpts{})
	c.tap("right") // Black starts White's clock, on the left
	c.wait(time.Second)
	s := Screen(c.v.M, c.v.Now(), 200, 50, nil)
	if !strings.Contains(s, " left (left) ● ") || !strings.Contains(s, " right (right) ○ ") {
		t.Errorf("no LED marks beside the displays:\n%s", s[:min(len(s), 600)])
	}
}
