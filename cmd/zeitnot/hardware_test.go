package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/drivers/audio"
	"github.com/zeitnot/zeitnot/internal/needtool"
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

// TestHardwareSpeak: the spoken clock's audio path, espeak-ng to a
// stereo WAV, the asked side's channel carrying the speech and the other
// silent; aplay to ALSA's null device where aplay is installed.
func TestHardwareSpeak(t *testing.T) {
	needtool.Path(t, "apt-get install espeak-ng", "espeak-ng")
	wav := filepath.Join(t.TempDir(), "right.wav")
	code, out, errOut := prog.Run("hardware", "speak", "--side", "right", "--lang", "de", "--wav", wav)
	if code != 0 || !strings.HasPrefix(out, "said into the right earphone (de, ") || !strings.HasSuffix(out, "Zug zwölf\n") {
		t.Fatalf("exit %d, %q, %q", code, out, errOut)
	}
	f, err := os.Open(wav)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := audio.ReadWAV(f)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.FirstSound(audio.Right); !ok {
		t.Error("the right channel is silent")
	}
	if at, ok := s.FirstSound(audio.Left); ok {
		t.Errorf("the left channel has sound at %v", at)
	}
	if code, _, errOut := prog.Run("hardware", "speak", "--side", "middle"); code != 2 || !strings.Contains(errOut, `--side "middle": want left or right`) {
		t.Errorf("--side middle: exit %d, %q", code, errOut)
	}
	if _, ok := needtool.Look("aplay"); ok {
		if code, _, errOut := prog.Run("hardware", "speak", "--device", "null", "test"); code != 0 {
			t.Errorf("aplay -D null: exit %d, %q", code, errOut)
		}
	}
}
