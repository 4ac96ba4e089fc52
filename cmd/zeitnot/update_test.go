package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A fake rauc on PATH: `rauc install` fails as RAUC does for a bad
// signature, a truncated bundle or another system, and otherwise runs the
// pre-install handler (this test's program, through $HANDLER) on a
// manifest made from the bundle's name, as RAUC does, then records the
// installation.
const fakeRauc = `#!/bin/sh
[ "$1" = install ] || exit 2
# fail ERROR: rauc install's output when the service refuses.
fail() {
	echo "installing"; echo " 20% Verifying signature"; echo "100% Installing failed."
	echo "LastError: $1"; echo "Installing the bundle failed" >&2; exit 1
}
case "$2" in
*badsig*) fail "signature verification failed: Verify error: self-signed certificate" ;;
*short*) fail "Invalid bundle format: Signature size (2687426097570675508) exceeds bundle size" ;;
*arm32*) fail "Compatible mismatch: Expected 'zeitnot-rpi-arm64' but bundle manifest has 'zeitnot-rpi-armhf'" ;;
*old*) build=500 ;;
*) build=2000 ;;
esac
mkdir -p "$MNT"
printf '[update]\ncompatible=zeitnot-rpi-arm64\nversion=v-%s\nbuild=%s\n' "$build" "$build" > "$MNT/manifest.raucm"
RAUC_BUNDLE_MOUNT_POINT=$MNT "$HANDLER" || { echo "Handler error: pre-install handler failed" >&2; exit 1; }
echo "$2" >> "$RAUC_LOG"
`

func TestUpdateRefusals(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "rauc"), []byte(fakeRauc), 0o755)
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	log := filepath.Join(dir, "installed")
	t.Setenv("RAUC_LOG", log)
	t.Setenv("MNT", filepath.Join(dir, "mnt"))
	saved := updateFiles
	t.Cleanup(func() { updateFiles = saved })
	updateFiles = updatePaths{osRelease: filepath.Join(dir, "os-release"), allow: filepath.Join(dir, "run", "allow"), refused: filepath.Join(dir, "run", "refused")}
	os.WriteFile(updateFiles.osRelease, []byte("ID=debian\nIMAGE_VERSION=v1\nBUILD_ID=1000\n"), 0o644)
	// The handler, as RAUC would run it: this program's pre-install,
	// through a script that calls back into the test binary's dispatch.
	handler := filepath.Join(dir, "handler")
	os.WriteFile(handler, []byte("#!/bin/sh\nexec \""+os.Args[0]+"\" -test.run=TestUpdatePreInstallHelper -- \"$@\"\n"), 0o755)
	t.Setenv("HANDLER", handler)
	t.Setenv("ZEITNOT_TEST_PREINSTALL_DIR", dir)
	for _, c := range []struct {
		bundle string
		args   []string
		code   int
		want   string
	}{
		{"badsig.raucb", nil, 1, "update: refused: badsig.raucb: its signature is not from this clock's key"},
		{"short.raucb", nil, 1, "update: refused: short.raucb: damaged or truncated"},
		{"arm32.raucb", nil, 1, `update: refused: arm32.raucb: for another system: Compatible mismatch: Expected 'zeitnot-rpi-arm64' but bundle manifest has 'zeitnot-rpi-armhf'`},
		{"old.raucb", nil, 1, "update: refused: old.raucb: version v-500 is older than the running system (built 500, this one 1000)"},
		{"old.raucb", []string{"--allow-downgrade"}, 0, "update: old.raucb installed"},
		{"new.raucb", nil, 0, "update: new.raucb installed"},
	} {
		os.Remove(log)
		args := append(append([]string{"update", "--no-reboot"}, c.args...), c.bundle)
		code, stdout, stderr := prog.Run(args...)
		if code != c.code || !strings.Contains(stdout, c.want) {
			t.Errorf("zeitnot %v: exit %d, %q %q; want %d, %q", args, code, stdout, stderr, c.code, c.want)
		}
		installed, _ := os.ReadFile(log)
		if (c.code == 0) != (strings.TrimSpace(string(installed)) == c.bundle) {
			t.Errorf("zeitnot %v: rauc install ran with %q", args, installed)
		}
		if _, err := os.Stat(updateFiles.allow); err == nil {
			t.Errorf("zeitnot %v: the downgrade permission outlived the installation", args)
		}
	}
}

// TestUpdatePreInstallHelper is the pre-install handler the fake rauc
// runs: not a test of its own.
func TestUpdatePreInstallHelper(t *testing.T) {
	dir := os.Getenv("ZEITNOT_TEST_PREINSTALL_DIR")
	if dir == "" {
		t.Skip("run by TestUpdateRefusals only")
	}
	updateFiles = updatePaths{osRelease: filepath.Join(dir, "os-release"), allow: filepath.Join(dir, "run", "allow"), refused: filepath.Join(dir, "run", "refused")}
	code, _, _ := prog.Run("update", "--pre-install")
	os.Exit(code)
}
