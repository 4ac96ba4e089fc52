package hall

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/internal/repocheck"
	"github.com/zeitnot/zeitnot/internal/tomldoc"
)

// TestConfigDocumented: the hall operator's manual, docs/hall.md, names
// every key of hall.toml, as the key or as its flag.
func TestConfigDocumented(t *testing.T) {
	readme := repocheck.Read(t, "docs/hall.md")
	for _, k := range Table.Keys() {
		if !strings.Contains(readme, "`"+k+"`") && !strings.Contains(readme, "`"+k+" = ") &&
			!strings.Contains(readme, "`--"+strings.ReplaceAll(k, "_", "-")) && !strings.Contains(readme, "\n["+k+"]") {
			t.Errorf("docs/hall.md does not name hall.toml's %s", k)
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
