package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestHardwareCheck(t *testing.T) {
	code, out, errOut := prog.Run("hardware", "check", "sim")
	if code != 0 {
		t.Fatalf("sim: exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		`display "left": ok: sim-oled 128x64 (left)`,
		"buttons: ok: simulated: left sim:z,",
		"buzzer: ok: simulated buzzer",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("sim: no %q in\n%s", want, out)
		}
	}
	// The clock's own rules are checked as well as the file's.
	dir := t.TempDir()
	noLever := filepath.Join(dir, "nolever.toml")
	os.WriteFile(noLever, []byte("[display.both]\ntype = \"sim-oled\"\n\n[buttons]\nright = \"sim:m\"\n"), 0o644)
	code, _, errOut = prog.Run("hardware", "check", noLever)
	if want := "zeitnot hardware check: " + noLever + ":4: missing required button left in [buttons]\n"; code != 1 || errOut != want {
		t.Errorf("no left lever: exit %d, %q\nwant %q", code, errOut, want)
	}
	code, _, errOut = prog.Run("hardware", "check", "/dev/zero")
	if code != 1 || !strings.Contains(errOut, "/dev/zero: not a regular file (a character device)") {
		t.Errorf("/dev/zero: exit %d, %q", code, errOut)
	}
}

// TestNoTestPackagesInTheProduct: the zeitnot command links no test fakes
// (no package of this module or its dependencies whose path ends in
// "test") and not the testing package. The standard library's own
// internal/synctest, which package sync imports, is not a fake and is
// left out.
func TestNoTestPackagesInTheProduct(t *testing.T) {
	goCmd, ctx := goCommand(t, 2*time.Minute)
	out, err := exec.CommandContext(ctx, goCmd, "list", "-deps", "-f", "{{.ImportPath}} {{.Standard}}", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	var deps, bad []string
	for line := range strings.Lines(string(out)) {
		path, std, _ := strings.Cut(strings.TrimSpace(line), " ")
		deps = append(deps, path)
		if (std == "false" && strings.HasSuffix(path, "test")) || path == "testing" {
			bad = append(bad, path)
		}
	}
	if !slices.Contains(deps, "github.com/zeitnot/zeitnot/drivers/profile") {
		t.Fatalf("go list printed no dependencies that matter:\n%s", out)
	}
	if len(bad) > 0 {
		t.Errorf("the zeitnot command links test packages: %s", strings.Join(bad, ", "))
	}
}
