package config

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// checkErrors: every error is an *Error naming the file and a line inside
// it.
func checkErrors(t *testing.T, name string, data []byte, errs []error) {
	t.Helper()
	lines := strings.Count(string(data), "\n") + 1
	for _, err := range errs {
		e, ok := err.(*Error)
		if !ok {
			t.Fatalf("%T %v is not an *Error", err, err)
		}
		if e.File != name || e.Line < 1 || e.Line > lines {
			t.Fatalf("%v: want %s and a line from 1 to %d", e, name, lines)
		}
		if !strings.HasPrefix(e.Error(), name+":"+strconv.Itoa(e.Line)+":") {
			t.Fatalf("%q does not start with the file and line", e.Error())
		}
	}
}

func FuzzLoad(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*.toml")
	seeds = append(seeds, "zeitnot.example.toml")
	for _, p := range seeds {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("lock = {\n"))
	f.Add([]byte("[[preset]]\nname = \"x\"\ncontrol = \"^\"\n[preset.x]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		base := Defaults(SimProfile)
		c, errs := Parse("f.toml", data, base, nil)
		checkErrors(t, "f.toml", data, errs)

		out := Format(c)
		back, errs := Parse("out.toml", out, base, nil)
		if len(errs) > 0 || back != c {
			t.Fatalf("round trip of\n%s\ngave %q and\n%s", out, errStrings(errs), back)
		}
		diff := FormatDiff(base, c)
		back, errs = Parse("diff.toml", diff, base, nil)
		if len(errs) > 0 || back != c {
			t.Fatalf("round trip of the diff\n%s\ngave %q and\n%s", diff, errStrings(errs), back)
		}

		ps, errs := ParsePresets("p.toml", data)
		checkErrors(t, "p.toml", data, errs)
		keys := map[string]bool{}
		for _, p := range ps {
			if err := CheckPreset(p); err != nil || keys[p.Key] || p.Group != SavedGroup {
				t.Fatalf("kept a bad preset %+v: %v", p, err)
			}
			keys[p.Key] = true
			if _, err := ps.Resolve(p.Key); err != nil {
				t.Fatalf("preset %+v does not resolve: %v", p, err)
			}
		}
		out = FormatPresets(ps)
		backPs, errs := ParsePresets("out.toml", out)
		if len(errs) > 0 || len(backPs) != len(ps) {
			t.Fatalf("presets round trip of\n%s\ngave %q", out, errStrings(errs))
		}
		for i := range ps {
			if backPs[i] != ps[i] {
				t.Fatalf("preset %d: %+v, want %+v", i, backPs[i], ps[i])
			}
		}
	})
}
