// Package needtool finds the outside programs that tests run (Chromium,
// mtools, node, mosquitto_sub, ...), with one policy for a program that
// is missing: the test is skipped on a developer's machine, saying what
// to install, and fails under CI (CI=true), where .ci/run installs every
// program that make test uses. A skip there would pass a check that never
// ran.
package needtool

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// sbin are the directories searched besides PATH: Debian installs
// mkfs.fat and its kind there, and a user's PATH often lacks them.
var sbin = []string{"/usr/sbin", "/sbin"}

// CI reports whether the tests run under CI, where every program make
// test uses is installed.
func CI() bool { return os.Getenv("CI") == "true" }

// Path is the path of the first of names found in PATH or in /usr/sbin and
// /sbin. When none is found the test is skipped, or fails under CI; the
// message names the program and install, the command that installs it
// ("apt-get install chromium").
func Path(t testing.TB, install string, names ...string) string {
	t.Helper()
	if p, ok := Look(names...); ok {
		return p
	}
	Missing(t, names[0]+" is not installed ("+install+")")
	return ""
}

// Look is the path of the first of names found, as Path looks for it.
func Look(names ...string) (string, bool) {
	for _, n := range names {
		if p, err := exec.LookPath(n); err == nil {
			return p, true
		}
		for _, d := range sbin {
			p := filepath.Join(d, n)
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
				return p, true
			}
		}
	}
	return "", false
}

// Missing ends the test for what is missing: a skip, or under CI a
// failure.
func Missing(t testing.TB, what string) {
	t.Helper()
	if CI() {
		t.Fatalf("%s: CI installs it (.ci/run), so the test must run there", what)
	}
	t.Skip(what)
}
