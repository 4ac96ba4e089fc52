package subcmd

import (
	"bytes"
	"flag"
	"io"
	"slices"
	"strings"
	"testing"
)

func TestDispatch(t *testing.T) {
	var got []string
	p := Program{Name: "prog", Title: "a test", Version: "v1", Default: "serve"}
	for _, n := range []string{"serve", "sim"} {
		p.Register(Command{Name: n, Summary: n + " things", Run: func(args []string, stdout, stderr io.Writer) int {
			got = append([]string{n}, args...)
			return 7
		}})
	}
	for _, c := range []struct {
		args []string
		code int
		ran  []string
		out  string
	}{
		{[]string{"sim", "-x", "a"}, 7, []string{"sim", "-x", "a"}, ""},
		{[]string{"serve"}, 7, []string{"serve"}, ""},
		{nil, 7, []string{"serve"}, ""},
		{[]string{"--demo", "8"}, 7, []string{"serve", "--demo", "8"}, ""},
		{[]string{"--version"}, 0, nil, "prog v1\n"},
		{[]string{"version"}, 0, nil, "prog v1\n"},
		{[]string{"-h"}, 0, nil, "Usage: prog COMMAND"},
		{[]string{"nope"}, 2, nil, ""},
	} {
		got = nil
		code, out, errOut := p.Run(c.args...)
		if code != c.code || !slices.Equal(got, c.ran) || !strings.Contains(out, c.out) {
			t.Errorf("%q: exit %d, ran %q, printed %q; want %d, %q, %q", c.args, code, got, out, c.code, c.ran, c.out)
		}
		if c.code == 2 && !strings.Contains(errOut, `prog: unknown command "nope"`) {
			t.Errorf("%q: stderr %q", c.args, errOut)
		}
	}
	p.Default = ""
	var errb bytes.Buffer
	if code := p.Dispatch(nil, io.Discard, &errb); code != 2 || !strings.Contains(errb.String(), "sim things") {
		t.Errorf("no command and no default: exit %d, %q", code, errb.String())
	}
}

func TestParseInterspersed(t *testing.T) {
	for _, c := range []struct {
		args, want []string
		sock       string
	}{
		{[]string{"right", "--socket", "S"}, []string{"right"}, "S"},
		{[]string{"--socket", "S", "right", "left"}, []string{"right", "left"}, "S"},
		{[]string{"a", "--", "--socket", "b"}, []string{"a", "--socket", "b"}, ""},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		sock := fs.String("socket", "", "")
		got, err := ParseInterspersed(fs, c.args)
		if err != nil || !slices.Equal(got, c.want) || *sock != c.sock {
			t.Errorf("%q: %q %q %v; want %q %q", c.args, got, *sock, err, c.want, c.sock)
		}
	}
}

// TestParse: -h prints the usage and the flags' defaults and ends with 0,
// a bad flag ends with 2, and good flags go on.
func TestParse(t *testing.T) {
	for _, c := range []struct {
		args   []string
		code   int
		ok     bool
		output string
	}{
		{[]string{"-n", "3", "file"}, 0, true, ""},
		{[]string{"-h"}, 0, false, "Usage: thing [-n N] FILE\n  -n int\n    \thow many (default 1)\n"},
		{[]string{"-x"}, 2, false, "flag provided but not defined: -x\n"},
	} {
		var out bytes.Buffer
		fs := FlagSet("thing", &out)
		n := fs.Int("n", 1, "how many")
		code, ok := Parse(fs, "Usage: thing [-n N] FILE\n", c.args)
		if code != c.code || ok != c.ok || !strings.HasPrefix(out.String(), c.output) {
			t.Errorf("Parse(%q) = %d, %v, output %q; want %d, %v, %q", c.args, code, ok, out.String(), c.code, c.ok, c.output)
		}
		if c.ok && (*n != 3 || !slices.Equal(fs.Args(), []string{"file"})) {
			t.Errorf("Parse(%q): n %d, args %q", c.args, *n, fs.Args())
		}
	}
}
