package profile

import (
	"math"
	"strings"
	"testing"
)

// The battery from the build's draw: a full day's event before the
// warning, and FIDE's 10 hours after it even when the gauge reads 5 points
// high. Worked by hand: 650 mA at 5.1 V is 3.315 W; 12 h take 46.8 Wh of
// battery through an 85 % converter and 10 h take 39.0 Wh. Eight cells
// (86.4 Wh) want the warning at 55 %, which leaves 38.9 Wh for the day:
// too little. Nine (97.2 Wh) warn at 50 %: 48.6 Wh for the day.
func TestPack(t *testing.T) {
	cases := []struct {
		ma, cells, low int
		wh, full       float64
	}{
		{650, 9, 50, 97.2, 24.9},
		{640, 9, 45, 97.2, 25.3},
		{620, 9, 45, 97.2, 26.1},
		{150, 2, 50, 21.6, 24.0}, // a Pi Zero 2 W build: the day takes exactly half
		{2000, 27, 50, 291.6, 24.3},
	}
	for _, tc := range cases {
		p, ok := Supply{CurrentMA: tc.ma}.Pack()
		if !ok || p.Cells != tc.cells || p.LowPercent != tc.low || math.Abs(p.Wh-tc.wh) > 0.05 || math.Abs(p.FullHours-tc.full) > 0.05 {
			t.Errorf("%d mA: %+v, want %d cells, %.1f Wh, warning at %d %%, %.1f h full", tc.ma, p, tc.cells, tc.wh, tc.low, tc.full)
			continue
		}
		// What the rule asks, checked from the figures: the reserve after
		// the warning, read GaugeMargin points high, holds ReserveHours,
		// and what comes before the warning holds the event.
		if after := float64(p.LowPercent-GaugeMargin) / 100 * p.Wh; after < p.ReserveWh {
			t.Errorf("%d mA: %.1f Wh after the warning, want %.1f", tc.ma, after, p.ReserveWh)
		}
		if before := float64(100-p.LowPercent) / 100 * p.Wh; before < p.EventWh {
			t.Errorf("%d mA: %.1f Wh before the warning, want %.1f", tc.ma, before, p.EventWh)
		}
	}
	if _, ok := (Supply{}).Pack(); ok {
		t.Error("a pack for no stated draw")
	}
}

func TestParseSupply(t *testing.T) {
	p, err := Parse("s.toml", []byte(base+"\n[supply]\ncurrent_ma = 650\nbasis = \"measured with a USB meter\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Supply != (Supply{CurrentMA: 650, Basis: "measured with a USB meter", Line: 15}) {
		t.Errorf("supply %+v", p.Supply)
	}
	for _, tc := range []struct{ body, want string }{
		{"[supply]\nbasis = \"x\"\n", "s.toml:15: supply: missing required field current_ma"},
		{"[supply]\ncurrent_ma = 0\nbasis = \"x\"\n", "s.toml:16: supply: current_ma 0 is not between 1 and 5000"},
		{"[supply]\ncurrent_ma = 600\n", "s.toml:15: supply: missing required field basis"},
		{"[supply]\ncurrent_ma = 600\nbasis = \"x\"\nvolts = 5\n", "volts"},
	} {
		_, err := Parse("s.toml", []byte(base+"\n"+tc.body))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.body, err, tc.want)
		}
	}
}

// Every reference build states its draw: its parts list sizes its battery
// from it.
func TestBuildsStateTheirDraw(t *testing.T) {
	for _, name := range Names() {
		p, err := Builtin(name)
		if err != nil {
			t.Fatal(err)
		}
		simulated := true
		for _, d := range p.Displays {
			if !strings.HasPrefix(d.Type, "sim-") {
				simulated = false
			}
		}
		if _, ok := p.Supply.Pack(); !ok && !simulated {
			t.Errorf("profile %s: no [supply] current_ma", name)
		}
	}
}
