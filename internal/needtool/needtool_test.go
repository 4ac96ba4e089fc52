package needtool

import (
	"os"
	"path/filepath"
	"testing"
)

// fakeT records how a test ended.
type fakeT struct {
	testing.TB
	skipped, failed bool
	msg             string
}

func (f *fakeT) Helper() {}
func (f *fakeT) Skip(args ...any) {
	f.skipped = true
	f.msg = args[0].(string)
	panic(f)
}
func (f *fakeT) Fatalf(format string, args ...any) {
	f.failed = true
	panic(f)
}

func run(f *fakeT, fn func()) {
	defer func() {
		if r := recover(); r != nil && r != f {
			panic(r)
		}
	}()
	fn()
}

func TestPath(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "zeitnot-tool")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	for _, tc := range []struct {
		name       string
		ci         string
		names      []string
		skip, fail bool
		found      string
	}{
		{name: "found", names: []string{"zeitnot-none", "zeitnot-tool"}, found: exe},
		{name: "found under CI", ci: "true", names: []string{"zeitnot-tool"}, found: exe},
		{name: "missing: skipped", names: []string{"zeitnot-none"}, skip: true},
		{name: "missing under CI: fails", ci: "true", names: []string{"zeitnot-none"}, fail: true},
		{name: "CI other than true: skipped", ci: "1", names: []string{"zeitnot-none"}, skip: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("CI", tc.ci)
			f := &fakeT{TB: t}
			var got string
			run(f, func() { got = Path(f, "apt-get install zeitnot-none", tc.names...) })
			if got != tc.found || f.skipped != tc.skip || f.failed != tc.fail {
				t.Errorf("Path = %q, skipped %v, failed %v; want %q, %v, %v", got, f.skipped, f.failed, tc.found, tc.skip, tc.fail)
			}
			if tc.skip && f.msg != "zeitnot-none is not installed (apt-get install zeitnot-none)" {
				t.Errorf("skip message %q", f.msg)
			}
		})
	}
}

// Programs Debian puts in /usr/sbin (mkfs.fat) are found without it in
// PATH.
func TestLookSbin(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "mkfs.fat")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "not-executable"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	old := sbin
	sbin = []string{dir}
	t.Cleanup(func() { sbin = old })
	t.Setenv("PATH", t.TempDir())
	if p, ok := Look("mkfs.fat"); !ok || p != exe {
		t.Errorf("Look(mkfs.fat) = %q, %v; want %q", p, ok, exe)
	}
	if p, ok := Look("not-executable"); ok {
		t.Errorf("Look(not-executable) = %q: a file that is not executable is not a program", p)
	}
}
