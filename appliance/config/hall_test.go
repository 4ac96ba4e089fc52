package config_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/zeitnot/zeitnot/appliance/config"
	"github.com/zeitnot/zeitnot/appliance/link"
)

// TestHallTableAsTheLinkSees: `config check` and the import refuse every
// [hall] table zeitnot link refuses, with the link's own messages, and an
// unknown profile name; they took them all, and the link then exited 78
// and the clock left the hall without a word.
func TestHallTableAsTheLinkSees(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pw.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	const head = "[hall]\nbroker = \"mqtt://hall.local\"\nhall = \"club\"\nboard = 3\n"
	for _, tc := range []struct{ name, src string }{
		{"board 0", strings.Replace(head, "board = 3", "board = 0", 1)},
		{"a wildcard hall", strings.Replace(head, `"club"`, `"a/b/#"`, 1)},
		{"credentials in the URL", strings.Replace(head, "mqtt://hall.local", "mqtt://clock:secret@hall.local", 1)},
		{"password file /dev/zero", head + "password_file = \"/dev/zero\"\n"},
		{"password file a FIFO", head + "password_file = " + strings.ReplaceAll(`"`+fifo+`"`, `\`, `\\`) + "\n"},
		{"NUL in the password", head + "password = \"a\\u0000b\"\n"},
	} {
		path := filepath.Join(dir, "zeitnot.toml")
		os.WriteFile(path, []byte(tc.src), 0o644)
		_, linkErr := link.ParseConfig(path, []byte(tc.src))
		if linkErr == nil {
			t.Fatalf("%s: the link takes it", tc.name)
		}
		want := strings.Split(linkErr.Error(), "\n")
		var got []string
		for _, e := range config.Check(path) {
			got = append(got, e.Error())
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: check says %q, the link %q", tc.name, got, want)
		}
		state := t.TempDir()
		problems, _, err := config.Import(path, state)
		got = got[:0]
		for _, e := range problems {
			got = append(got, e.Error())
		}
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%s: import says %q (%v), the link %q", tc.name, got, err, want)
		}
		if _, err := os.Stat(filepath.Join(state, config.ImportedFile)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: imported", tc.name)
		}
	}

	// A good table passes; a password file missing where the check runs
	// is the clock's business.
	path := filepath.Join(dir, "good.toml")
	os.WriteFile(path, []byte(head+"password_file = \"/boot/firmware/none-here\"\n"), 0o644)
	if errs := config.Check(path); len(errs) > 0 {
		t.Errorf("good table: %q", errs)
	}

	// The profile the daemon would not find.
	os.WriteFile(path, []byte("profile = \"two-oleds\"\n"), 0o644)
	if errs := config.Check(path); len(errs) != 1 || !strings.Contains(errs[0].Error(), `good.toml:1: profile: no built-in profile "two-oleds" (there are `) {
		t.Errorf("unknown profile: %q", errs)
	}
}

// A locked clock imports nothing without the arbiter's PIN, from the boot
// partition as from a stick (a zeitnot.toml there lifted the lock). A file
// that carries the clock's PIN is imported; one without it, or with
// another, is refused and the clock keeps its config; an unlocked clock
// takes any.
func TestImportOnALockedClockNeedsThePIN(t *testing.T) {
	state := t.TempDir()
	dir := t.TempDir()
	file := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if problems, _, err := config.Import(file("lock.toml", "[lock]\nlocked = true\npin = \"4711\"\n"), state); len(problems) > 0 || err != nil {
		t.Fatalf("the club's locked config: %v %v", problems, err)
	}
	locked, _ := os.ReadFile(filepath.Join(state, config.ImportedFile))
	for name, text := range map[string]string{
		"no-pin.toml":    "[display]\nwhite = \"right\"\n[lock]\nlocked = false\n",
		"other-pin.toml": "[display]\nwhite = \"right\"\n[lock]\nlocked = false\npin = \"1234\"\n",
		"no-lock.toml":   "[game]\ncontrol = \"bullet-1\"\n",
	} {
		problems, changed, err := config.Import(file(name, text), state)
		if err != nil || changed || len(problems) != 1 || !strings.Contains(problems[0].Error(), "the clock is locked: a config imported on it must carry the arbiter's PIN") {
			t.Errorf("%s on a locked clock: changed %v, %v, %v", name, changed, problems, err)
		}
		if now, _ := os.ReadFile(filepath.Join(state, config.ImportedFile)); string(now) != string(locked) {
			t.Errorf("%s: the imported config changed:\n%s", name, now)
		}
	}
	if problems, changed, err := config.Import(file("with-pin.toml", "[display]\nwhite = \"right\"\n[lock]\nlocked = false\npin = \"4711\"\n"), state); len(problems) > 0 || err != nil || !changed {
		t.Fatalf("a config with the clock's PIN: changed %v, %v, %v", changed, problems, err)
	}
	// Now unlocked: a file without a PIN is taken.
	if problems, changed, err := config.Import(file("plain.toml", "[game]\ncontrol = \"bullet-1\"\n"), state); len(problems) > 0 || err != nil || !changed {
		t.Errorf("on an unlocked clock: changed %v, %v, %v", changed, problems, err)
	}
}
