package preset

import (
	"testing"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
)

func TestCatalogue(t *testing.T) {
	keys := map[string]bool{}
	for _, p := range All {
		if keys[p.Key] {
			t.Errorf("duplicate key %q", p.Key)
		}
		keys[p.Key] = true
		if len(p.Name) > 16 || p.Name == "" {
			t.Errorf("%s: name %q must be 1 to 16 characters to fit a display line", p.Key, p.Name)
		}
		pair, err := p.Controls()
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if got := timecontrol.FormatPair(pair); got != p.Spec {
			t.Errorf("%s: spec %q is not canonical, formats as %q", p.Key, p.Spec, got)
		}
		back, err := timecontrol.ParsePair(timecontrol.FormatPair(pair))
		if err != nil || !back.Equal(pair) {
			t.Errorf("%s: does not round-trip: %v", p.Key, err)
		}
		if _, err := clock.New(pair, p.Options); err != nil {
			t.Errorf("%s: %v", p.Key, err)
		}
	}
}

// TestFIDEClassicalStart checks the preset arbiters use most: 90 minutes for
// 40 moves, then 30 minutes, 30 s from move 1, shows 1:30:30 at the start.
func TestFIDEClassicalStart(t *testing.T) {
	p, ok := ByKey("fide-classical")
	if !ok {
		t.Fatal("no fide-classical preset")
	}
	pair, _ := p.Controls()
	c, _ := clock.New(pair, p.Options)
	if ms := c.State(0).Player[clock.White].Ms; ms != 5430000 {
		t.Errorf("start shows %d ms, want 5430000 (1:30:30)", ms)
	}
	a, _ := ByKey("armageddon")
	ap, _ := a.Controls()
	ac, _ := clock.New(ap, a.Options)
	st := ac.State(0)
	if st.Player[clock.White].Ms != 300000 || st.Player[clock.Black].Ms != 240000 {
		t.Errorf("armageddon: %d vs %d", st.Player[clock.White].Ms, st.Player[clock.Black].Ms)
	}
}

// TestEveryPresetFreezes: no preset runs a clock on after a flag.
func TestEveryPresetFreezes(t *testing.T) {
	for _, p := range All {
		if p.Options.AfterFlag != clock.Freeze {
			t.Errorf("%s: after-flag %s", p.Key, p.Options.Get(clock.OptAfterFlag))
		}
	}
}

// TestGroups: the catalogue is in runs of the groups arbiters look for, in
// that order, and each rapid and blitz preset is one by the FIDE Laws
// (A.1, B.1: the time plus 60 moves of increment).
func TestGroups(t *testing.T) {
	order := []string{"Classical", "Rapid", "Blitz", "Armageddon", "US delay", "Other"}
	at := 0
	for _, p := range All {
		for at < len(order) && order[at] != p.Group {
			at++
		}
		if at == len(order) {
			t.Fatalf("%s: group %q out of order or unknown", p.Key, p.Group)
		}
		pair, _ := p.Controls()
		w := pair.White[0]
		total := w.Time + 60*w.Extra
		switch p.Group {
		case "Rapid":
			if total <= 600000 || total >= 3600000 {
				t.Errorf("%s: %d ms is not rapid", p.Key, total)
			}
		case "Blitz":
			if total > 600000 {
				t.Errorf("%s: %d ms is not blitz", p.Key, total)
			}
		}
	}
}
