package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A fake rauc on PATH: `rauc info` answers from the bundle's name,
// `rauc install` records that it ran.
const fakeRauc = `#!/bin/sh
case "$1" in
info)
	case "$3" in
	*badsig*) echo "signature verification failed: unable to get local issuer certificate" >&2; exit 1 ;;
	*short*) echo "Invalid bundle size" >&2; exit 1 ;;
	*arm32*) echo "RAUC_MF_COMPATIBLE='zeitnot-rpi-armhf'"; echo "RAUC_MF_VERSION='v2'"; echo "RAUC_MF_BUILD='2000'" ;;
	*old*) echo "RAUC_MF_COMPATIBLE='zeitnot-rpi-arm64'"; echo "RAUC_MF_VERSION='v0'"; echo "RAUC_MF_BUILD='500'" ;;
	*) echo "RAUC_MF_COMPATIBLE='zeitnot-rpi-arm64'"; echo "RAUC_MF_VERSION='v2'"; echo "RAUC_MF_BUILD='2000'" ;;
	esac ;;
install) echo "$2" >> "$RAUC_LOG" ;;
esac
`

func TestUpdateRefusals(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "rauc"), []byte(fakeRauc), 0o755)
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	log := filepath.Join(dir, "installed")
	t.Setenv("RAUC_LOG", log)
	saved := updateFiles
	t.Cleanup(func() { updateFiles = saved })
	updateFiles = updatePaths{systemConf: filepath.Join(dir, "system.conf"), osRelease: filepath.Join(dir, "os-release")}
	os.WriteFile(updateFiles.systemConf, []byte("[system]\ncompatible=zeitnot-rpi-arm64\nbootloader=custom\n"), 0o644)
	os.WriteFile(updateFiles.osRelease, []byte("ID=debian\nIMAGE_VERSION=v1\nBUILD_ID=1000\n"), 0o644)
	for _, c := range []struct {
		bundle string
		args   []string
		code   int
		want   string
	}{
		{"badsig.raucb", nil, 1, "update: refused: badsig.raucb: its signature is not from this clock's key"},
		{"short.raucb", nil, 1, "update: refused: short.raucb: damaged or truncated"},
		{"arm32.raucb", nil, 1, `update: refused: arm32.raucb is for "zeitnot-rpi-armhf", this clock is "zeitnot-rpi-arm64"`},
		{"old.raucb", nil, 1, "update: refused: old.raucb is version v0, older than the running system"},
		{"old.raucb", []string{"--allow-downgrade"}, 0, "update: version v0 installed"},
		{"new.raucb", nil, 0, "update: version v2 installed"},
	} {
		os.Remove(log)
		args := append(append([]string{"update", "--no-reboot"}, c.args...), c.bundle)
		code, stdout, stderr := run(t, args...)
		if code != c.code || !strings.Contains(stdout, c.want) {
			t.Errorf("zeitnot %v: exit %d, %q %q; want %d, %q", args, code, stdout, stderr, c.code, c.want)
		}
		installed, _ := os.ReadFile(log)
		if (c.code == 0) != (strings.TrimSpace(string(installed)) == c.bundle) {
			t.Errorf("zeitnot %v: rauc install ran with %q", args, installed)
		}
	}
}
