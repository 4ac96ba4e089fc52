package release

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// reproBuild writes what one build leaves for the comparison: the image,
// its .xz and .bmap, and the boot tree, with cmdline as the kernel
// command line.
func reproBuild(t *testing.T, dir, name string, image []byte, cmdline string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, "boot"), 0o755); err != nil {
		t.Fatal(err)
	}
	for f, data := range map[string][]byte{
		name + ".img":      image,
		name + ".bmap":     []byte("<bmap/>\n"),
		"boot/cmdline.txt": []byte(cmdline),
	} {
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mustRun(t, dir, nil, "xz", "-k", "-T1", name+".img")
}

// make reproducible's comparison (reproducible.sh --compare): two equal
// builds pass; two that differ fail, name the files that differ and, with
// diffoscope installed, say where in a report beside them.
func TestReproducibleCompare(t *testing.T) {
	need(t, "xz", "cmp", "sha256sum")
	const name = "zeitnot-v0-rpi-arm64"
	dir, out := t.TempDir(), t.TempDir()
	image := make([]byte, 8192)
	for i := range image {
		image[i] = byte(i * 7)
	}
	one, two, three := filepath.Join(dir, "one"), filepath.Join(dir, "two"), filepath.Join(dir, "three")
	reproBuild(t, one, name, image, "console=serial0 quiet\n")
	reproBuild(t, two, name, image, "console=serial0 quiet\n")
	image[100] ^= 1
	reproBuild(t, three, name, image, "console=serial0\n")
	env := []string{"REPRO_OUT=" + out}

	got, err := run(t, ".", env, "bash", "reproducible.sh", "--compare", name, one, two)
	if err != nil || strings.Count(got, "same: ") != 3 || strings.Contains(got, "DIFFERENT") {
		t.Errorf("equal builds: %v\n%s", err, got)
	}

	got, err = run(t, ".", env, "bash", "reproducible.sh", "--compare", name, one, three)
	var exit *exec.ExitError
	if err == nil || !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Errorf("builds that differ: %v, want exit status 1\n%s", err, got)
	}
	for _, want := range []string{"DIFFERENT: " + name + ".img\n", "DIFFERENT: " + name + ".img.xz\n", "same: " + name + ".bmap", "the two builds differ"} {
		if !strings.Contains(got, want) {
			t.Errorf("builds that differ: no %q in\n%s", want, got)
		}
	}
	got, err = run(t, ".", env, "bash", "reproducible.sh", "--compare", name)
	if err == nil || !strings.Contains(got, "usage: reproducible.sh") {
		t.Errorf("--compare without its directories: %v\n%s", err, got)
	}
	if _, err := exec.LookPath("diffoscope"); err != nil {
		t.Log("diffoscope is not installed (apt-get install diffoscope-minimal): its report is not checked")
		return
	}
	report, err := os.ReadFile(filepath.Join(out, "diffoscope-boot.txt"))
	if err != nil || !strings.Contains(string(report), "-console=serial0 quiet") || !strings.Contains(string(report), "+console=serial0") {
		t.Errorf("diffoscope's report of the boot trees: %v\n%s", err, report)
	}

}
