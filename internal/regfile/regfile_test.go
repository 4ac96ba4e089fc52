package regfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	reg := filepath.Join(dir, "reg.toml")
	if err := os.WriteFile(reg, []byte("a = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	regLink := filepath.Join(dir, "reglink")
	if err := os.Symlink(reg, regLink); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, make([]byte, 2048), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, path string
		o          Opts
		want       error  // nil: read succeeds
		says       string // in the message
	}{
		{"regular", reg, Opts{Max: 1024}, nil, ""},
		{"fifo", fifo, Opts{}, ErrNotRegular, "named pipe"},
		{"device", "/dev/zero", Opts{Max: 1 << 20}, ErrNotRegular, "character device"},
		{"directory", dir, Opts{}, ErrNotRegular, "directory"},
		{"link to a device", link, Opts{}, ErrNotRegular, "character device"},
		{"link, not followed", link, Opts{NoFollow: true}, ErrSymlink, "symbolic link"},
		{"link to a regular file", regLink, Opts{}, nil, ""},
		{"link to a regular file, not followed", regLink, Opts{NoFollow: true}, ErrSymlink, "symbolic link"},
		{"too large", big, Opts{Max: 1024}, ErrTooLarge, "2048 bytes"},
		{"missing", filepath.Join(dir, "nope"), Opts{}, fs.ErrNotExist, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			data, err := ReadFile(c.path, c.o)
			if c.want == nil {
				if err != nil || string(data) != "a = 1\n" {
					t.Fatalf("ReadFile = %q, %v; want the file", data, err)
				}
				return
			}
			if !errors.Is(err, c.want) {
				t.Fatalf("ReadFile err = %v, want %v", err, c.want)
			}
			if !strings.Contains(err.Error(), c.path) || !strings.Contains(err.Error(), c.says) {
				t.Errorf("error %q should name %s and say %q", err, c.path, c.says)
			}
		})
	}
}

func TestOpenFileCreatesWithoutFollowing(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "game.log")
	f, err := OpenFile(p, os.O_RDWR|os.O_CREATE, 0o644, Opts{NoFollow: true})
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	os.Remove(p)
	if err := os.Symlink("/dev/zero", p); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenFile(p, os.O_RDWR|os.O_CREATE, 0o644, Opts{NoFollow: true}); !errors.Is(err, ErrSymlink) {
		t.Fatalf("OpenFile on a planted link: %v, want ErrSymlink", err)
	}
}

func TestWithoutPath(t *testing.T) {
	for _, err := range []error{
		&fs.PathError{Op: "open", Path: "/x/.tmp-1", Err: syscall.ENOSPC},
		&os.LinkError{Op: "rename", Old: "/x/.tmp-1", New: "/x/y", Err: syscall.ENOSPC},
		os.NewSyscallError("fsync", syscall.ENOSPC),
		fmt.Errorf("write: %w", &fs.PathError{Op: "write", Path: "/x/.tmp-1", Err: syscall.ENOSPC}),
		syscall.ENOSPC,
	} {
		if got := WithoutPath(err); got != syscall.ENOSPC {
			t.Errorf("WithoutPath(%v) = %v", err, got)
		}
	}
}
