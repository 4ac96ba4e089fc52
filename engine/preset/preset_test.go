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

// TestFIDEArmageddon: the FIDE events' Armageddon, 5 against 4 minutes with
// 2 or 3 s per move from move 61, shows no increment at the start, gives
// none for move 60 and gives it for move 61.
func TestFIDEArmageddon(t *testing.T) {
	for key, inc := range map[string]int64{"armageddon-61-2": 2000, "armageddon-61-3": 3000} {
		p, ok := ByKey(key)
		if !ok {
			t.Fatalf("no preset %s", key)
		}
		if p.Group != "Armageddon" || p.Options != clock.DefaultOptions {
			t.Errorf("%s: group %q options %+v", key, p.Group, p.Options)
		}
		pair, err := p.Controls()
		if err != nil {
			t.Fatal(err)
		}
		c, _ := clock.New(pair, p.Options)
		if st := c.State(0); st.Player[clock.White].Ms != 300000 || st.Player[clock.Black].Ms != 240000 {
			t.Fatalf("%s: start %d v %d", key, st.Player[clock.White].Ms, st.Player[clock.Black].Ms)
		}
		c.Start(0)
		now := int64(0)
		for n := 1; n <= 61; n++ {
			for _, s := range []clock.Side{clock.White, clock.Black} {
				before := c.State(now).Player[s].Ms
				now += 1000
				c.Press(now, s)
				got := c.LastMove().After - (before - 1000)
				want := int64(0)
				if n == 61 {
					want = inc
				}
				if n >= 60 && got != want {
					t.Errorf("%s: %s's move %d got %d ms of increment, want %d", key, s, n, got, want)
				}
			}
		}
	}
}
