package config

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/preset"
)

func TestPresetsEdit(t *testing.T) {
	var ps Presets
	put := func(key, name, spec string) func() error {
		return func() error {
			return ps.Put(preset.Preset{Key: key, Name: name, Spec: spec, Options: clock.DefaultOptions})
		}
	}
	steps := []struct {
		name string
		do   func() error
		keys []string
	}{
		{"add", put("", "Club rapid", "1500+10"), []string{"saved-1"}},
		{"add second", put("", "Handicap", "300|180"), []string{"saved-1", "saved-2"}},
		{"same name", put("", "Handicap", "300|120"), []string{"saved-1", "saved-2", "saved-3"}},
		{"replace keeps place", put("saved-2", "Handicap", "300|150"), []string{"saved-1", "saved-2", "saved-3"}},
		{"delete", func() error {
			if !ps.Delete("saved-3") {
				t.Error("delete found nothing")
			}
			return nil
		}, []string{"saved-1", "saved-2"}},
		{"delete missing", func() error {
			if ps.Delete("saved-3") {
				t.Error("deleted twice")
			}
			return nil
		}, []string{"saved-1", "saved-2"}},
		{"a key of its own", put("club-2024", "Club", "600"), []string{"saved-1", "saved-2", "club-2024"}},
		{"new keys go on", put("", "Last", "60"), []string{"saved-1", "saved-2", "club-2024", "saved-3"}},
	}
	for _, s := range steps {
		if err := s.do(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		var keys []string
		for _, p := range ps {
			keys = append(keys, p.Key)
			if p.Group != SavedGroup {
				t.Errorf("%s: group %q", s.name, p.Group)
			}
		}
		if !reflect.DeepEqual(keys, s.keys) {
			t.Errorf("%s: %v, want %v", s.name, keys, s.keys)
		}
	}
	if p, ok := ps.Find("saved-2"); !ok || p.Spec != "300|150" {
		t.Errorf("find: %+v %v", p, ok)
	}

	for _, bad := range []preset.Preset{
		{Name: "", Spec: "300"},
		{Name: "Seventeen chars!!", Spec: "300"},
		{Name: " lead", Spec: "300"},
		{Name: "tab\there", Spec: "300"},
		{Name: "ok", Spec: "fide-classical"}, // saved presets hold notations
		{Name: "ok", Spec: "300+"},
		{Key: "fide-classical", Name: "ok", Spec: "300"}, // a built-in's key
		{Key: "9lives", Name: "ok", Spec: "300"},
		{Key: "a b", Name: "ok", Spec: "300"},
	} {
		if err := ps.Put(bad); err == nil {
			t.Errorf("put %+v: no error", bad)
		}
	}
	if len(ps) != 4 {
		t.Errorf("bad puts changed the list: %v", ps)
	}
	if err := ps.Put(preset.Preset{Name: "Sixteen ♞ chars!", Spec: "^"}); err != nil {
		t.Errorf("16 characters, not bytes: %v", err)
	}
}

func TestPresetsSaveLoad(t *testing.T) {
	path := filepath.Join(t.TempDir(), PresetsFile)
	ps := Presets{
		{Key: "saved-1", Name: "Club \"A\"", Group: SavedGroup, Spec: "40/5400+30:1800+30", Options: clock.DefaultOptions},
		{Key: "saved-2", Name: "Armageddon", Group: SavedGroup, Spec: "300|240", Options: clock.Options{FirstIncrement: false, PeriodTrigger: clock.OnMoves, AfterFlag: clock.Continue}},
		{Key: "saved-7", Name: "Armageddon", Group: SavedGroup, Spec: "300|180", Options: clock.DefaultOptions},
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

// Two presets saved from the menu with names cut to the same 16 characters
// both come back: names need not be unique, keys tell them apart.
func TestPresetsSameName(t *testing.T) {
	path := filepath.Join(t.TempDir(), PresetsFile)
	var ps Presets
	for _, spec := range []string{"40/5400+30:1800+30", "40/5400+30:900+30"} {
		if err := ps.Put(preset.Preset{Name: "Custom 40/5400+3", Spec: spec, Options: clock.DefaultOptions}); err != nil {
			t.Fatal(err)
		}
	}
	if err := SavePresets(path, ps); err != nil {
		t.Fatal(err)
	}
	got, errs := LoadPresets(path)
	if len(errs) > 0 || len(got) != 2 || got[0].Spec != "40/5400+30:1800+30" || got[1].Spec != "40/5400+30:900+30" || got[0].Key == got[1].Key {
		t.Errorf("got %v, %q", got, errStrings(errs))
	}
}

// Files written before presets had keys still load, and their presets get
// keys, in file order, after any key already in use.
func TestPresetsWithoutKeys(t *testing.T) {
	src := "[[preset]]\nname = \"Club rapid\"\ncontrol = \"1500+10\"\n\n[[preset]]\nkey = \"saved-4\"\nname = \"Blitz\"\ncontrol = \"180+2\"\n\n[[preset]]\nname = \"Club rapid\"\ncontrol = \"1500+5\"\n"
	ps, errs := ParsePresets("presets.toml", []byte(src))
	if len(errs) > 0 {
		t.Fatal(errStrings(errs))
	}
	var keys []string
	for _, p := range ps {
		keys = append(keys, p.Key+" "+p.Spec)
	}
	if want := []string{"saved-5 1500+10", "saved-4 180+2", "saved-6 1500+5"}; !reflect.DeepEqual(keys, want) {
		t.Errorf("keys %q, want %q", keys, want)
	}
	back, errs := ParsePresets("presets.toml", FormatPresets(ps))
	if len(errs) > 0 || !reflect.DeepEqual(back, ps) {
		t.Errorf("written back: %v %q", back, errStrings(errs))
	}
}

func TestParsePresetsErrors(t *testing.T) {
	src := `[[preset]]
key = "saved-1"
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
key = "saved-1"
name = "Good"
control = "900"

[[preset]]
name = "Typo"
control = "60"
aftre_flag = "continue"

[[preset]]
key = "fide-rapid-15"
name = "Bad key"
control = "60"

[other]
x = 1
`
	ps, errs := ParsePresets("presets.toml", []byte(src))
	want := []string{
		`presets.toml:9: preset.after_flag: want "freeze" or "continue", got "melt"`,
		`presets.toml:12: preset.name: want a name of 1 to 16 characters, got "Far too long a name"; this preset is skipped`,
		`presets.toml:17: preset.control: want a notation like "40/5400+30:1800+30", got "6oo" (column 2: unexpected 'o', want '+' (increment), 'd' (delay), 'b' (Bronstein), '~' (overtime), ':' or the end); this preset is skipped`,
		`presets.toml:19: preset.name: missing: the preset's name; it is skipped`,
		`presets.toml:23: preset.key: "saved-1" is already the key of the preset on line 1; this one gets a new key`,
		`presets.toml:30: preset.aftre_flag: unknown key (did you mean after_flag?)`,
		`presets.toml:33: preset.key: want a key like "saved-1", got "fide-rapid-15"; this preset gets a new key`,
		`presets.toml:37: other: unknown table; the file has preset`,
	}
	if got := errStrings(errs); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var kept []string
	for _, p := range ps {
		kept = append(kept, p.Key+" "+p.Name)
	}
	if want := []string{"saved-1 Good", "saved-2 Bad option", "saved-3 Good", "saved-4 Typo", "saved-5 Bad key"}; !reflect.DeepEqual(kept, want) {
		t.Errorf("kept %q, want %q", kept, want)
	}
	if p, _ := ps.Find("saved-2"); p.Options != clock.DefaultOptions || p.Spec != "600" {
		t.Errorf("bad option: %+v", p)
	}

	// Inline arrays of tables are presets files too.
	ps, errs = ParsePresets("p.toml", []byte("preset = [{name = \"a\", control = \"60\"}, {name = \"b\", control = \"x\"}]\n"))
	if len(ps) != 1 || len(errs) != 1 || !strings.HasPrefix(errs[0].Error(), "p.toml:1: preset.control: ") {
		t.Errorf("inline: %v %q", ps, errStrings(errs))
	}
	for _, src := range []string{"preset = 1\n", "preset = [1]\n", "[preset]\nname = \"x\"\n"} {
		if ps, errs := ParsePresets("p.toml", []byte(src)); len(ps) != 0 || len(errs) != 1 || !strings.HasPrefix(errs[0].Error(), "p.toml:1: preset: want ") {
			t.Errorf("%q: %v %q", src, ps, errStrings(errs))
		}
	}
}
