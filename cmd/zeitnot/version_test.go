package main

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/appliance/ui"
	"github.com/zeitnot/zeitnot/internal/repocheck"
)

func TestVersionFlag(t *testing.T) {
	for _, arg := range []string{"--version", "version"} {
		code, out, errOut := prog.Run(arg)
		if code != 0 {
			t.Fatalf("zeitnot %s: exit %d: %s", arg, code, errOut)
		}
		if got, want := out, "zeitnot "+version+"\n"; got != want {
			t.Errorf("zeitnot %s printed %q, want %q", arg, got, want)
		}
	}
}

// One version reaches every place that shows it: the Makefile's VERSION
// goes into the program through -ldflags -X main.version (zeitnot
// --version), main gives it to the About page (ui.Version), and the
// image's build is given the same VERSION, which it writes into
// /etc/os-release as IMAGE_VERSION. This builds nothing: it reads the
// files that carry the version from one to the next.
func TestVersionSameEverywhere(t *testing.T) {
	mk := repocheck.Read(t, "Makefile")
	if !regexp.MustCompile(`(?m)^LDFLAGS\s*:?=.*-X main\.version=\$\(VERSION\)`).MatchString(mk) {
		t.Error("Makefile: LDFLAGS does not set -X main.version=$(VERSION)")
	}
	if !regexp.MustCompile(`(?m)^GOFLAGS_BUILD\s*:?=.*-ldflags '\$\(LDFLAGS\)'`).MatchString(mk) {
		t.Error("Makefile: GOFLAGS_BUILD does not use $(LDFLAGS)")
	}
	if !regexp.MustCompile(`(?m)^cross:.*\n(\t.*\n)*\t.*GOARCH=arm64 \$\(GO\) build \$\(GOFLAGS_BUILD\)`).MatchString(mk) {
		t.Error("Makefile: the arm64 build (make cross) does not use $(GOFLAGS_BUILD)")
	}
	if !regexp.MustCompile(`(?m)^release:.*\n\t.*release\.sh --version '\$\(VERSION\)'`).MatchString(mk) {
		t.Error("Makefile: make release does not pass --version $(VERSION)")
	}
	imk := repocheck.Read(t, "image/image.mk")
	if !regexp.MustCompile(`(?m)^image: cross\n\timage/build\.sh --version "\$\(VERSION\)" --binary bin/zeitnot-linux-arm64`).MatchString(imk) {
		t.Error(`image/image.mk: make image does not run image/build.sh --version "$(VERSION)" with make cross's arm64 program`)
	}
	bs := repocheck.Read(t, "image/build.sh")
	for _, want := range []string{
		`--version) version=$2`,
		`"s|@VERSION@|$version|g" "$here/os-release.in"`,
		`install -m 0644 "$work/os-release" "$root/etc/os-release"`,
		`install -D -m 0755 "$binary" "$root/usr/bin/zeitnot"`,
	} {
		if !strings.Contains(bs, want) {
			t.Errorf("image/build.sh does not have %s", want)
		}
	}
	osr := repocheck.Read(t, "image/os-release.in")
	if !regexp.MustCompile(`(?m)^IMAGE_VERSION=@VERSION@$`).MatchString(osr) || !regexp.MustCompile(`(?m)^IMAGE_ID=zeitnot$`).MatchString(osr) {
		t.Errorf("image/os-release.in does not have IMAGE_ID=zeitnot and IMAGE_VERSION=@VERSION@:\n%s", osr)
	}
	if !regexp.MustCompile(`(?m)^\tui\.Version = version\b`).MatchString(repocheck.Read(t, "cmd/zeitnot/main.go")) {
		t.Error("main.go: main does not set ui.Version = version")
	}
}

// Built with -ldflags -X main.version, the program prints that version,
// and the os-release lines build.sh writes for the same VERSION name it.
func TestVersionStamped(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the program")
	}
	const v = "v1.2.3-4-gabcdef0"
	bin := filepath.Join(t.TempDir(), "zeitnot")
	if out, err := exec.Command("go", "build", "-trimpath", "-buildvcs=false", "-ldflags", "-X main.version="+v, "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(out)); got != "zeitnot "+v {
		t.Errorf("--version printed %q, want %q", got, "zeitnot "+v)
	}
	// The same substitution as build.sh's, on the template.
	sed := exec.Command("sed", "-e", "/^#/d", "-e", "s|@VERSION@|"+v+"|g", filepath.Join("..", "..", "image", "os-release.in"))
	lines, err := sed.Output()
	if err != nil {
		t.Skipf("sed: %v", err)
	}
	if !strings.Contains(string(lines), "IMAGE_VERSION="+v+"\n") {
		t.Errorf("os-release lines for %s:\n%s", v, lines)
	}
	if ui.Version != "dev" {
		t.Errorf("ui.Version is %q in a test (main does not run): want dev", ui.Version)
	}
}
