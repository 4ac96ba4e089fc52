package wiring

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// hardwareDir is the repository's hardware folder, found from the test's
// directory.
func hardwareDir(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "hardware")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
}

// The diagrams and pages committed in hardware/ are what the built-in
// profiles make now, and there are no others: change a profile and `make
// wiring` must follow.
func TestCommittedFilesUpToDate(t *testing.T) {
	dir := hardwareDir(t)
	want := map[string]bool{}
	for _, name := range Builds() {
		w := build(t, name)
		var svg, md bytes.Buffer
		if err := w.SVG(&svg); err != nil {
			t.Fatal(err)
		}
		if err := w.Markdown(&md); err != nil {
			t.Fatal(err)
		}
		for file, data := range map[string][]byte{"wiring-" + name + ".svg": svg.Bytes(), "bom-" + name + ".md": md.Bytes()} {
			want[file] = true
			got, err := os.ReadFile(filepath.Join(dir, file))
			if err != nil {
				t.Errorf("%v: run make wiring", err)
				continue
			}
			if !bytes.Equal(got, data) {
				t.Errorf("hardware/%s is not what profile %s makes now: run make wiring", file, name)
			}
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		n := e.Name()
		generated := strings.HasPrefix(n, "wiring-") && strings.HasSuffix(n, ".svg") || strings.HasPrefix(n, "bom-") && strings.HasSuffix(n, ".md")
		if generated && !want[n] {
			t.Errorf("hardware/%s belongs to no built-in profile of real parts (%s): remove it", n, strings.Join(slices.Sorted(maps.Keys(want)), ", "))
		}
	}
}

// A build's page states its draw and the battery it needs from the
// profile's [supply] alone: another draw gives another battery, and a
// profile without one states none.
func TestPowerFromTheProfile(t *testing.T) {
	for _, name := range Builds() {
		w := build(t, name)
		pk, ok := w.Profile.Supply.Pack()
		if !ok {
			t.Fatalf("%s: no [supply]", name)
		}
		page := func() string {
			var b bytes.Buffer
			if err := w.Markdown(&b); err != nil {
				t.Fatal(err)
			}
			return b.String()
		}
		row := fmt.Sprintf("| %d × 18650 Li-ion, 3.6 V 3000 mAh, in parallel | %.1f Wh | %d %% |", pk.Cells, pk.Wh, pk.LowPercent)
		if got := page(); !strings.Contains(got, fmt.Sprintf("draws %d mA", w.Profile.Supply.CurrentMA)) || !strings.Contains(got, row) {
			t.Errorf("%s: the page does not state the draw and the pack: no %q", name, row)
		}
		w.Profile.Supply.CurrentMA *= 2
		double, _ := w.Profile.Supply.Pack()
		if got := page(); !strings.Contains(got, fmt.Sprintf("draws %d mA", w.Profile.Supply.CurrentMA)) || !strings.Contains(got, fmt.Sprintf("| %d × 18650", double.Cells)) {
			t.Errorf("%s: twice the draw, and the page does not follow: %+v", name, double)
		}
		w.Profile.Supply.CurrentMA = 0
		if got := page(); strings.Contains(got, "## Power") || strings.Contains(got, "× 18650") {
			t.Errorf("%s: a pack on the page of a profile without [supply]", name)
		}
	}
}

// Every switch a player or an arbiter presses, levers and menu buttons,
// is bought to FIDE's 40 dB at 1 m (2026 chapter, 3.1.6): each reference
// build's parts list says so on its line.
func TestSwitchesStateTheirSound(t *testing.T) {
	var figures []string
	for _, name := range Builds() {
		w := build(t, name)
		pressed := map[string]bool{}
		for _, b := range w.Profile.Buttons {
			pressed[b.Name] = true
			if Lever(b.Name) {
				pressed[b.Name+" lever"] = true
			}
		}
		levers, buttons := 0, 0
		for _, it := range w.BOM() {
			for _, f := range it.For {
				if !pressed[f] {
					continue
				}
				if !strings.Contains(it.Spec, "at most 40 dB at 1 m") {
					t.Errorf("%s: %s (%s) states no sound level: %q", name, it.Part, f, it.Spec)
				}
				if strings.HasSuffix(f, " lever") {
					levers++
				} else {
					buttons++
				}
			}
		}
		if levers != 2 || buttons != len(w.Profile.Buttons)-2 {
			t.Errorf("%s: %d levers and %d buttons in the parts list, want 2 and %d", name, levers, buttons, len(w.Profile.Buttons)-2)
		}
		figures = append(figures, fmt.Sprintf("%s: %d levers and %d buttons", name, levers, buttons))
	}
	t.Logf("figure switches: every switch pressed in play is bought to at most 40 dB at 1 m: %s", strings.Join(figures, "; "))
}
