package config

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/engine/clock"
)

func TestPresetsEdit(t *testing.T) {
	var ps Presets
	steps := []struct {
		name  string
		do    func() error
		names []string
	}{
		{"add", func() error {
			return ps.Put(Preset{Name: "Club rapid", Control: "1500+10", Options: clock.DefaultOptions})
		}, []string{"Club rapid"}},
		{"add second", func() error { return ps.Put(Preset{Name: "Handicap", Control: "300|180"}) }, []string{"Club rapid", "Handicap"}},
		{"add third", func() error { return ps.Put(Preset{Name: "Blitz", Control: "180+2"}) }, []string{"Club rapid", "Handicap", "Blitz"}},
		{"replace keeps place", func() error { return ps.Put(Preset{Name: "Handicap", Control: "300|120"}) }, []string{"Club rapid", "Handicap", "Blitz"}},
		{"delete", func() error {
			if !ps.Delete("Club rapid") {
				t.Error("delete found nothing")
			}
			return nil
		}, []string{"Handicap", "Blitz"}},
		{"delete missing", func() error {
			if ps.Delete("Club rapid") {
				t.Error("deleted twice")
			}
			return nil
		}, []string{"Handicap", "Blitz"}},
	}
	for _, s := range steps {
		if err := s.do(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		var names []string
		for _, p := range ps {
			names = append(names, p.Name)
		}
		if !reflect.DeepEqual(names, s.names) {
			t.Errorf("%s: %v, want %v", s.name, names, s.names)
		}
	}
	if p, ok := ps.Find("Handicap"); !ok || p.Control != "300|120" {
		t.Errorf("find: %+v %v", p, ok)
	}

	for _, bad := range []Preset{
		{Name: "", Control: "300"},
		{Name: "Seventeen chars!!", Control: "300"},
		{Name: " lead", Control: "300"},
		{Name: "tab\there", Control: "300"},
		{Name: "ok", Control: "fide-classical"}, // saved presets hold notations
		{Name: "ok", Control: "300+"},
	} {
		if err := ps.Put(bad); err == nil {
			t.Errorf("put %+v: no error", bad)
		}
	}
	if len(ps) != 2 {
		t.Errorf("bad puts changed the list: %v", ps)
	}
	if err := ps.Put(Preset{Name: "Sixteen ♞ chars!", Control: "^"}); err != nil {
		t.Errorf("16 characters, not bytes: %v", err)
	}
}

func TestPresetsSaveLoad(t *testing.T) {
	path := filepath.Join(t.TempDir(), PresetsFile)
	ps := Presets{
		{Name: "Club \"A\"", Control: "40/5400+30:1800+30", Options: clock.DefaultOptions},
		{Name: "Armageddon", Control: "300|240", Options: clock.Options{FirstIncrement: false, PeriodTrigger: clock.OnMoves, AfterFlag: clock.Continue}},
	}
	if err := SavePresets(path, ps); err != nil {
		t.Fatal(err)
	}
	got, errs := LoadPresets(path)
	if len(errs) > 0 || !reflect.DeepEqual(got, ps) {
		t.Errorf("got %v, %q", got, errStrings(errs))
	}
	if errs := CheckPresets(path); len(errs) > 0 {
		t.Errorf("check: %q", errStrings(errs))
	}
	got, errs = LoadPresets(filepath.Join(t.TempDir(), "none.toml"))
	if got != nil || errs != nil {
		t.Errorf("missing file: %v %v", got, errs)
	}
	if errs := CheckPresets(filepath.Join(t.TempDir(), "none.toml")); len(errs) != 1 {
		t.Errorf("check missing: %q", errStrings(errs))
	}
}

func TestParsePresetsErrors(t *testing.T) {
	src := `[[preset]]
name = "Good"
control = "300+2"

[[preset]]
name = "Bad option"
control = "600"
after_flag = "melt"

[[preset]]
name = "Far too long a name"
control = "600"

[[preset]]
name = "Bad control"
control = "6oo"

[[preset]]
control = "600"

[[preset]]
name = "Good"
control = "900"

[[preset]]
name = "Typo"
control = "60"
aftre_flag = "continue"

[other]
x = 1
`
	ps, errs := ParsePresets("presets.toml", []byte(src))
	want := []string{
		`presets.toml:8: after_flag: want "freeze" or "continue", got "melt"`,
		`presets.toml:11: name: want a name of 1 to 16 characters, got "Far too long a name"; this preset is skipped`,
		`presets.toml:16: control: want a notation like "40/5400+30:1800+30", got "6oo" (column 2: unexpected 'o', want '+' (increment), 'd' (delay), 'b' (Bronstein), '~' (overtime), ':' or the end); this preset is skipped`,
		`presets.toml:18: preset: has no name; it is skipped`,
		`presets.toml:22: name: "Good" is already the name of the preset on line 1; this one is skipped`,
		`presets.toml:28: unknown key "preset.aftre_flag" (did you mean "preset.after_flag"?)`,
		`presets.toml:30: unknown key "other" (want [[preset]] tables)`,
	}
	if got := errStrings(errs); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var names []string
	for _, p := range ps {
		names = append(names, p.Name)
	}
	if !reflect.DeepEqual(names, []string{"Good", "Bad option", "Typo"}) {
		t.Errorf("kept %v", names)
	}
	if p, _ := ps.Find("Bad option"); p.Options != clock.DefaultOptions || p.Control != "600" {
		t.Errorf("bad option: %+v", p)
	}

	// Inline arrays of tables are presets files too.
	ps, errs = ParsePresets("p.toml", []byte("preset = [{name = \"a\", control = \"60\"}, {name = \"b\", control = \"x\"}]\n"))
	if len(ps) != 1 || len(errs) != 1 || !strings.HasPrefix(errs[0].Error(), "p.toml:1: control: ") {
		t.Errorf("inline: %v %q", ps, errStrings(errs))
	}
	for _, src := range []string{"preset = 1\n", "preset = [1]\n", "[preset]\nname = \"x\"\n"} {
		if ps, errs := ParsePresets("p.toml", []byte(src)); len(ps) != 0 || len(errs) != 1 || !strings.HasPrefix(errs[0].Error(), "p.toml:1: preset: want ") {
			t.Errorf("%q: %v %q", src, ps, errStrings(errs))
		}
	}
}
