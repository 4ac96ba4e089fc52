package profile

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// FuzzParse checks that no input makes Parse panic, and that every error
// carries a line inside the file, except the few about the profile as a
// whole.
func FuzzParse(f *testing.F) {
	for _, n := range Names() {
		data, err := builtins.ReadFile("profiles/" + n + ".toml")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(good))
	f.Add([]byte(withPower))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse("f.toml", data)
		if err == nil {
			if p == nil || len(p.Displays) == 0 {
				t.Fatal("accepted a profile with no display")
			}
			return
		}
		var errs Errors
		if !errors.As(err, &errs) || len(errs) == 0 {
			t.Fatalf("error of type %T: %v", err, err)
		}
		lines := bytes.Count(data, []byte("\n")) + 1
		for _, e := range errs {
			if e.Line < 0 || e.Line > lines {
				t.Fatalf("line %d of %d: %v", e.Line, lines, e)
			}
			if e.Line == 0 && !wholeFile(e.Msg) {
				t.Fatalf("no line: %v", e)
			}
		}
	})
}

// wholeFile reports whether msg is about the profile as a whole, which has
// no one line.
func wholeFile(msg string) bool {
	for _, p := range []string{"no display"} {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}
