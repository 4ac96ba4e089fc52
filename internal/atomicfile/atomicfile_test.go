package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// failing returns ops that fail at step, after a partial write when the step
// is the write.
func failing(step string) fileOps {
	ops := osOps
	boom := errors.New("injected failure")
	switch step {
	case "write":
		ops.write = func(f *os.File, b []byte) (int, error) {
			n, _ := f.Write(b[:len(b)/2])
			return n, boom
		}
	case "short write":
		ops.write = func(f *os.File, b []byte) (int, error) { return f.Write(b[:len(b)/2]) }
	case "sync":
		ops.sync = func(*os.File) error { return boom }
	case "rename":
		ops.rename = func(string, string) error { return boom }
	}
	return ops
}

func TestWriteFileFailures(t *testing.T) {
	old := "[display]\nbrightness = 10\n"
	tests := []struct {
		step string
		want string // in the error, after the path
	}{
		{"write", ": write: injected failure"},
		{"short write", ": write: wrote 13 of 27 bytes"},
		{"sync", ": sync: injected failure"},
		{"rename", ": rename: injected failure"},
	}
	for _, tt := range tests {
		t.Run(tt.step, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "settings.toml")
			write(t, path, old)
			err := writeFile(failing(tt.step), path, []byte("[display]\nbrightness = 99\n\n"), 0o644)
			if err == nil || err.Error() != "write "+path+tt.want {
				t.Errorf("error %v, want %q", err, "write "+path+tt.want)
			}
			if data, err := os.ReadFile(path); err != nil || string(data) != old {
				t.Errorf("old file: %q, %v", data, err)
			}
			if names := dirNames(t, dir); len(names) != 1 {
				t.Errorf("files left: %v", names)
			}
		})
	}
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "presets.toml")
	for _, data := range []string{"first\n", "", "second, longer than the first\n"} {
		if err := WriteFile(path, []byte(data), 0o640); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != data {
			t.Errorf("got %q, %v, want %q", got, err, data)
		}
		if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o640 {
			t.Errorf("mode: %v %v", fi.Mode(), err)
		}
		if names := dirNames(t, dir); len(names) != 1 {
			t.Errorf("files: %v", names)
		}
	}

	// A rename that cannot happen (the target is a non-empty directory)
	// and a directory that does not exist fail with the path named, and
	// leave nothing behind.
	target := filepath.Join(dir, "sub")
	write(t, filepath.Join(target, "x"), "x")
	err := WriteFile(target, []byte("new"), 0o644)
	if err == nil || !strings.HasPrefix(err.Error(), "write "+target+": rename: ") {
		t.Errorf("rename over a directory: %v", err)
	}
	if names := dirNames(t, dir); len(names) != 2 {
		t.Errorf("files: %v", names)
	}
	missing := filepath.Join(dir, "nodir", "settings.toml")
	err = WriteFile(missing, []byte("x"), 0o644)
	if err == nil || err.Error() != "write "+missing+": create temporary file: no such file or directory" {
		t.Errorf("missing directory: %v", err)
	}
}

// A read-only directory cannot be written; root ignores permissions, so
// the test only runs for other users.
func TestWriteFileReadOnlyDir(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root ignores directory permissions; the injected failures cover this")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.toml")
	write(t, path, "old")
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o755)
	err := WriteFile(path, []byte("new"), 0o644)
	if err == nil || !strings.HasPrefix(err.Error(), "write "+path+": create temporary file: permission denied") {
		t.Errorf("got %v", err)
	}
	if data, _ := os.ReadFile(path); string(data) != "old" {
		t.Errorf("old file: %q", data)
	}
}

func TestRemove(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "zeitnot-errors.txt")
	write(t, path, "x")
	if err := Remove(path); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("still there: %v", err)
	}
	if err := Remove(path); err != nil {
		t.Errorf("missing file: %v", err)
	}
	write(t, filepath.Join(dir, "full", "x"), "x")
	if err := Remove(filepath.Join(dir, "full")); err == nil || !strings.HasPrefix(err.Error(), "remove "+filepath.Join(dir, "full")+": ") {
		t.Errorf("non-empty directory: %v", err)
	}
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
