package main

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/docgen/wiring"
	"github.com/zeitnot/zeitnot/drivers/profile"
)

func TestWiringCommand(t *testing.T) {
	code, out, errOut := prog.Run("wiring", "two-ssd1306-i2c")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	d := xml.NewDecoder(strings.NewReader(out))
	for {
		_, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG not well-formed: %v", err)
		}
	}
	if !strings.HasPrefix(out, "<svg ") || !strings.Contains(out, `id="header-pin-11" data-name="GPIO17"`) {
		t.Errorf("not the diagram: %.200s", out)
	}

	code, out, errOut = prog.Run("wiring", "--bom", "two-tm1637")
	if code != 0 {
		t.Fatalf("--bom: exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"# Build `two-tm1637`",
		"![Wiring of two-tm1637](wiring-two-tm1637.svg)",
		"| 2 | TM1637 4-digit 7-segment module with colon |",
		"| 2 | 30 mm arcade push button | momentary",
		"| left display | CLK | 29 | GPIO5 | display control |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("--bom: no %q in\n%s", want, out)
		}
	}

	// A profile file works as a built-in does.
	file := filepath.Join(t.TempDir(), "club.toml")
	os.WriteFile(file, []byte("[display.both]\ntype = \"sh1106\"\nbus = \"/dev/i2c-1\"\n\n[buttons]\nleft = \"GPIO17\"\nright = \"GPIO27\"\n"), 0o644)
	if code, out, errOut = prog.Run("wiring", "--bom", file); code != 0 || !strings.Contains(out, `| 1 | 1.3" SH1106 OLED module, 128x64, I²C (4 pins) |`) {
		t.Errorf("profile file: exit %d, %s\n%s", code, errOut, out)
	}

	for _, tc := range []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"sim"}, 1, "zeitnot-docs wiring: wiring: profile sim is simulated"},
		{[]string{"nosuch"}, 1, `zeitnot-docs wiring: profile: no built-in profile "nosuch"`},
		{[]string{"/dev/zero"}, 1, "not a regular file"},
		{nil, 2, "Usage:"},
		{[]string{"a", "b"}, 2, "Usage:"},
		{[]string{"--all", "x", "two-tm1637"}, 2, "Usage:"},
	} {
		code, _, errOut := prog.Run(append([]string{"wiring"}, tc.args...)...)
		if code != tc.code || !strings.Contains(errOut, tc.err) {
			t.Errorf("wiring %q: exit %d, %q; want %d, %q", tc.args, code, errOut, tc.code, tc.err)
		}
	}
}

// --all writes what the single commands write, for every reference build,
// and then leaves up-to-date files alone.
func TestWiringAll(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := prog.Run("wiring", "--all", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	builds := wiring.Builds()
	if got := strings.Count(out, "wrote "); got != 2*len(builds) {
		t.Errorf("%d files written, want %d:\n%s", got, 2*len(builds), out)
	}
	for _, name := range builds {
		for _, f := range []struct {
			file string
			args []string
		}{{"wiring-" + name + ".svg", []string{"wiring", name}}, {"bom-" + name + ".md", []string{"wiring", "--bom", name}}} {
			got, err := os.ReadFile(filepath.Join(dir, f.file))
			if err != nil {
				t.Fatal(err)
			}
			if _, want, _ := prog.Run(f.args...); !bytes.Equal(got, []byte(want)) {
				t.Errorf("%s differs from zeitnot %s", f.file, strings.Join(f.args, " "))
			}
		}
		if p, _ := profile.Builtin(name); p == nil {
			t.Errorf("no profile %s", name)
		}
	}
	if code, out, _ := prog.Run("wiring", "--all", dir); code != 0 || out != "" {
		t.Errorf("second run: exit %d, %q", code, out)
	}
	if code, _, errOut := prog.Run("wiring", "--all", filepath.Join(dir, "none", "such")); code != 1 || !strings.Contains(errOut, "no such file or directory") {
		t.Errorf("missing directory: exit %d, %q", code, errOut)
	}
}
