package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// RAUC's calls during an installation from A and the commit in B, through
// the command, on a file.
func TestSlotCommandUpdate(t *testing.T) {
	dir := t.TempDir()
	ab := filepath.Join(dir, "autoboot.txt")
	cmdA, cmdB := filepath.Join(dir, "cmdline-a"), filepath.Join(dir, "cmdline-b")
	os.WriteFile(cmdA, []byte("root=PARTUUID=5a4e5431-05 rauc.slot=A ro\n"), 0o644)
	os.WriteFile(cmdB, []byte("root=PARTUUID=5a4e5431-06 rauc.slot=B ro\n"), 0o644)
	slotRun := func(cmdline string, args ...string) (int, string) {
		t.Helper()
		code, stdout, stderr := prog.Run(append([]string{"slot", "--autoboot", ab, "--cmdline", cmdline}, args...)...)
		return code, strings.TrimSpace(stdout + stderr)
	}
	expect := func(cmdline, want string, args ...string) {
		t.Helper()
		if code, out := slotRun(cmdline, args...); code != 0 || out != want {
			t.Errorf("zeitnot slot %v: exit %d, %q; want %q", args, code, out, want)
		}
	}
	expect(cmdA, "", "init")
	if code, out := slotRun(cmdA, "init"); code != 1 || !strings.Contains(out, "exists") {
		t.Errorf("a second init: exit %d, %q", code, out)
	}
	expect(cmdA, "A", "get-primary")
	expect(cmdA, "A", "get-current")
	expect(cmdA, "bad", "get-state", "B")
	expect(cmdA, "", "set-state", "B", "bad")
	expect(cmdA, "", "set-state", "B", "good")
	expect(cmdA, "", "set-primary", "B")
	expect(cmdA, "A", "get-primary")
	expect(cmdB, "primary=A booted=B trial=true bad=none", "show")
	if code, _ := slotRun(cmdB, "is-trial"); code != 0 {
		t.Error("is-trial in B before the commit: not a trial")
	}
	expect(cmdB, "", "set-state", "B", "good")
	expect(cmdB, "B", "get-primary")
	if code, _ := slotRun(cmdB, "is-trial"); code != 1 {
		t.Errorf("is-trial after the commit: exit %d, want 1", code)
	}
	data, _ := os.ReadFile(ab)
	if !strings.Contains(string(data), "[all]\ntryboot_a_b=1\nboot_partition=3\n[tryboot]\nboot_partition=2\n") {
		t.Errorf("autoboot.txt after the commit:\n%s", data)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".autoboot.txt.tmp-*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestSlotCommandErrors(t *testing.T) {
	dir := t.TempDir()
	ab := filepath.Join(dir, "autoboot.txt")
	os.WriteFile(ab, []byte("[all]\nboot_partition=2\n"), 0o644)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"get-primary"}, 1, "no tryboot_a_b=1"},
		{[]string{"get-state", "C"}, 2, `"C" is not a slot`},
		{[]string{"set-state", "A", "fine"}, 2, "the state is good or bad"},
		{[]string{"frobnicate"}, 2, "unknown operation"},
		{[]string{"set-primary"}, 2, "takes 1 argument"},
		{[]string{"get-current"}, 1, "no rauc.slot="},
	} {
		code, _, stderr := prog.Run(append([]string{"slot", "--autoboot", ab, "--cmdline", ab}, c.args...)...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("zeitnot slot %v: exit %d, %q; want %d and %q", c.args, code, stderr, c.code, c.want)
		}
	}
}
