package hall

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/internal/tomldoc"
)

// TestConfigDocumented: the README or the arbiter's manual (its set-up of
// the hall) names every key of hall.toml, as the key or as its flag.
func TestConfigDocumented(t *testing.T) {
	var docs string
	for _, f := range []string{"../README.md", "../docs/arbiter-manual.md"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs += string(b)
	}
	for _, k := range Table.Keys() {
		if !strings.Contains(docs, "`"+k+"`") && !strings.Contains(docs, "`"+k+" = ") &&
			!strings.Contains(docs, "`--"+strings.ReplaceAll(k, "_", "-")) && !strings.Contains(docs, "\n["+k+"]") {
			t.Errorf("neither README.md nor docs/arbiter-manual.md names hall.toml's %s", k)
		}
	}
}

// FuzzParseConfig: hall.toml's schema never panics, and every problem of
// any input is a *tomldoc.FileError naming the file and a line of the
// input.
func FuzzParseConfig(f *testing.F) {
	f.Add([]byte("http = \"0.0.0.0:80\"\n[clocks]\nb = { board = 1, password_hash = \"x\" }\n"))
	f.Add([]byte("[arbiters]\nanna = 1\n[[clocks]]\nzone = \"\"\n"))
	f.Add([]byte("cert_file = \"c\"\nbroker_without_acl = 2023-02-30\ndata = ''\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := ParseConfig("/nonexistent/hall.toml", data, DefaultConfig())
		if err == nil {
			return
		}
		lines := bytes.Count(data, []byte("\n")) + 1
		errs := []error{err}
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			errs = j.Unwrap()
		}
		for _, e := range errs {
			var fe *tomldoc.FileError
			if !errors.As(e, &fe) || fe.File != "/nonexistent/hall.toml" || fe.Line > lines || fe.Line < 1 {
				t.Fatalf("%q: %T %v is not a FileError at a line of the input", data, e, e)
			}
		}
	})
}
