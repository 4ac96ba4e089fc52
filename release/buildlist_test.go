package release

import (
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/internal/repocheck"
)

// The Imager repository of make image is os-list.sh's: image/build.sh
// writes none of its own, and its one line that calls os-list.sh, run
// here as build.sh runs it on a fake output directory (a path with a
// space, an .img.xz of several blocks), gives a list that passes the
// Imager's schema with file:// URLs of that directory, the sizes and
// sums of the image, and the icon beside it.
func TestBuildOSList(t *testing.T) {
	need(t, "xz", "sha256sum")
	build := repocheck.Read(t, "image/build.sh")
	if strings.Contains(build, `"os_list"`) {
		t.Error(`image/build.sh writes an Imager repository ("os_list") itself: os-list.sh is its one writer`)
	}
	var calls []string
	for _, l := range strings.Split(build, "\n") {
		if strings.Contains(l, "release/os-list.sh") && !strings.HasPrefix(strings.TrimSpace(l), "#") {
			calls = append(calls, l)
		}
	}
	if len(calls) != 1 {
		t.Fatalf("image/build.sh calls release/os-list.sh on %d lines, want 1: %q", len(calls), calls)
	}

	outdir := filepath.Join(t.TempDir(), "my out")
	if err := os.Mkdir(outdir, 0o755); err != nil {
		t.Fatal(err)
	}
	raw := filepath.Join(outdir, testName+".img")
	img := make([]byte, 5<<20) // zeros, as most of an image
	copy(img[1<<20:], "ZNROOT")
	if err := os.WriteFile(raw, img, 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, outdir, nil, "xz", "-T2", "-3", "--block-size=1MiB", raw) // leaves NAME.img.xz
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "-c", "set -euo pipefail\n"+calls[0])
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "SOURCE_DATE_EPOCH=1767225600", "outdir=" + outdir, "repo=" + repo, "name=" + testName}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build.sh's line %q: %v\n%s", calls[0], err, out)
	}

	base := "file://" + strings.ReplaceAll(outdir, " ", "%20")
	checkList(t, outdir, img, base)
	if u, err := url.Parse(base + "/" + testName + ".img.xz"); err != nil || u.Path != raw+".xz" {
		t.Errorf("the list's URL %s is not the image's path %s (%v)", u, raw+".xz", err)
	}
	if _, err := os.Stat(filepath.Join(outdir, "zeitnot-icon.png")); err != nil {
		t.Errorf("no icon beside the image: %v", err)
	}
}
