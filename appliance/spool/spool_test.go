package spool

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/iotest"
)

// data is a stand-in bundle: n bytes of a fixed pseudo-random stream.
func data(n int) []byte {
	b := make([]byte, n)
	rand.NewChaCha8([32]byte{34}).Read(b)
	return b
}

// list is the directory's names, temporary files included.
func list(t *testing.T, dir string) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*")) // '*' matches a leading dot
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range paths {
		paths[i] = filepath.Base(p)
	}
	return paths
}

// empty fails t unless dir holds nothing: no bundle, no temporary file.
func empty(t *testing.T, dir string) {
	t.Helper()
	if n := list(t, dir); len(n) != 0 {
		t.Errorf("left in the spool: %v", n)
	}
}

// named fails t unless err names the bundle's path and wraps want.
func named(t *testing.T, err error, path string, want error) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one wrapping %v", want)
	}
	if !strings.HasPrefix(err.Error(), "spool: "+path+": ") {
		t.Errorf("error %q does not start with spool: %s", err, path)
	}
	if want != nil && !errors.Is(err, want) {
		t.Errorf("error %q does not wrap %v", err, want)
	}
}

// TestWrite: a bundle is written whole under its name, with its size,
// SHA-256 and mode, and replaces one of that name; a bundle of exactly the
// limit is taken.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "zeitnot-1.4.0.raucb"), []byte("an older copy"), 0o640)
	b := data(300 << 10)
	var checked int64
	n, sum, err := Write(context.Background(), dir, "zeitnot-1.4.0.raucb", iotest.HalfReader(bytes.NewReader(b)), int64(len(b)), func(size int64, s [32]byte) error {
		checked = size
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != int64(len(b)) || sum != sha256.Sum256(b) || checked != n {
		t.Errorf("size %d, sum %x, checked %d; want %d, %x", n, sum, checked, len(b), sha256.Sum256(b))
	}
	if got := list(t, dir); len(got) != 1 || got[0] != "zeitnot-1.4.0.raucb" {
		t.Fatalf("spool %v", got)
	}
	path := filepath.Join(dir, "zeitnot-1.4.0.raucb")
	if got, _ := os.ReadFile(path); !bytes.Equal(got, b) {
		t.Error("the spool's bundle differs from what was read")
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != Mode {
		t.Errorf("mode %v (%v), want %v", fi.Mode(), err, Mode)
	}
}

// failingReader gives n bytes of data and then fails with err.
type failingReader struct {
	r   io.Reader
	err error
}

func (f *failingReader) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if err == io.EOF {
		return n, f.err
	}
	return n, err
}

// TestWriteRefused: what Write refuses, each leaving nothing in the spool
// and an error that names the bundle and what is wrong.
func TestWriteRefused(t *testing.T) {
	pulled := errors.New("mtype: read error: Input/output error")
	refused := errors.New("the bundle's SHA-256 is not the command's")
	tests := []struct {
		name  string
		r     io.Reader
		limit int64
		check Check
		want  error  // wrapped
		text  string // in the message
	}{
		{"stick pulled midway", &failingReader{bytes.NewReader(data(200 << 10)), pulled}, 0, nil, pulled, "reading: mtype: read error"},
		{"over the limit", bytes.NewReader(data(64<<10 + 1)), 64 << 10, nil, ErrTooLarge, "too large: more than 65536 bytes"},
		{"endless", iotest.OneByteReader(endless{}), 1000, nil, ErrTooLarge, "more than 1000 bytes"},
		{"empty", strings.NewReader(""), 0, nil, ErrEmpty, "empty"},
		{"refused by the check", bytes.NewReader(data(1000)), 0, func(int64, [32]byte) error { return refused }, refused, "SHA-256 is not the command's"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			_, _, err := Write(context.Background(), dir, "b.raucb", tt.r, tt.limit, tt.check)
			named(t, err, filepath.Join(dir, "b.raucb"), tt.want)
			if err != nil && !strings.Contains(err.Error(), tt.text) {
				t.Errorf("error %q, want %q in it", err, tt.text)
			}
			empty(t, dir)
		})
	}
}

// TestWriteReadError: the reader's error is told apart from the spool's.
func TestWriteReadError(t *testing.T) {
	dir := t.TempDir()
	pulled := errors.New("unexpected EOF")
	_, _, err := Write(context.Background(), dir, "b.raucb", &failingReader{bytes.NewReader(data(10)), pulled}, 0, nil)
	var re *ReadError
	if !errors.As(err, &re) || re.Err != pulled {
		t.Errorf("error %v: not a *ReadError of the reader's", err)
	}
	_, _, err = write(fullDisk(0), context.Background(), dir, "b.raucb", bytes.NewReader(data(10)), 0, nil)
	if errors.As(err, &re) {
		t.Errorf("a full disk's error %v is a *ReadError", err)
	}
}

type endless struct{}

func (endless) Read(p []byte) (int, error) { return len(p), nil }

// TestWriteBadName: a name protocol.CheckBundleName refuses is refused
// before anything is created.
func TestWriteBadName(t *testing.T) {
	for _, name := range []string{"", "update.tar", "../b.raucb", "sub/b.raucb", ".b.raucb", "my update.raucb", strings.Repeat("x", 60) + ".raucb"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			_, _, err := Write(context.Background(), dir, name, bytes.NewReader(data(10)), 0, nil)
			if err == nil || !strings.HasPrefix(err.Error(), "spool: "+dir+": file ") {
				t.Errorf("Write(%q): %v, want an error naming the spool and the file", name, err)
			}
			empty(t, dir)
		})
	}
}

// TestWriteCancelled: a cancelled ctx stops the copy, before it starts
// or midway, and its cause is the error.
func TestWriteCancelled(t *testing.T) {
	cause := errors.New("the stick's program took too long")
	t.Run("before", func(t *testing.T) {
		dir := t.TempDir()
		ctx, cancel := context.WithCancelCause(context.Background())
		cancel(cause)
		_, _, err := Write(ctx, dir, "b.raucb", bytes.NewReader(data(10)), 0, nil)
		named(t, err, filepath.Join(dir, "b.raucb"), cause)
		empty(t, dir)
	})
	t.Run("midway", func(t *testing.T) {
		dir := t.TempDir()
		ctx, cancel := context.WithCancelCause(context.Background())
		reads := 0
		r := readerFunc(func(p []byte) (int, error) {
			if reads++; reads == 3 {
				cancel(cause) // the reader goes on giving: Write stops itself
			}
			return copy(p, data(len(p))), nil
		})
		_, _, err := Write(ctx, dir, "b.raucb", r, 0, nil)
		named(t, err, filepath.Join(dir, "b.raucb"), cause)
		if reads != 3 {
			t.Errorf("%d reads, want 3: Write read on after ctx was done", reads)
		}
		empty(t, dir)
	})
	t.Run("the reader ends on ctx", func(t *testing.T) {
		dir := t.TempDir()
		ctx, cancel := context.WithCancelCause(context.Background())
		r := readerFunc(func(p []byte) (int, error) {
			cancel(cause)
			return 0, errors.New("killed")
		})
		_, _, err := Write(ctx, dir, "b.raucb", r, 0, nil)
		named(t, err, filepath.Join(dir, "b.raucb"), cause)
		empty(t, dir)
	})
}

type readerFunc func(p []byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }

// faultyFile is a real temporary file whose steps fail as a test says.
type faultyFile struct {
	*os.File
	room    int64 // bytes the disk takes before ENOSPC; <0: all
	syncErr error
}

func (f *faultyFile) Write(p []byte) (int, error) {
	if f.room >= 0 && int64(len(p)) > f.room {
		n, _ := f.File.Write(p[:f.room])
		f.room = 0
		return n, &os.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
	}
	if f.room >= 0 {
		f.room -= int64(len(p))
	}
	return f.File.Write(p)
}

func (f *faultyFile) Sync() error {
	if f.syncErr != nil {
		return &os.PathError{Op: "sync", Path: f.Name(), Err: f.syncErr}
	}
	return f.File.Sync()
}

func faulty(room int64, syncErr, renameErr error) fileOps {
	ops := osOps
	ops.create = func(dir, pattern string) (file, error) {
		f, err := os.CreateTemp(dir, pattern)
		if err != nil {
			return nil, err
		}
		return &faultyFile{File: f, room: room, syncErr: syncErr}, nil
	}
	if renameErr != nil {
		ops.rename = func(from, to string) error { return &os.LinkError{Op: "rename", Old: from, New: to, Err: renameErr} }
	}
	return ops
}

func fullDisk(room int64) fileOps { return faulty(room, nil, nil) }

// TestWriteFileSystem: the spool's own failures (a full disk midway, a
// sync or a rename that fails) leave nothing, and say the step and the
// file system's error, without the temporary name.
func TestWriteFileSystem(t *testing.T) {
	tests := []struct {
		name string
		ops  fileOps
		want error
		text string
	}{
		{"full disk", fullDisk(100 << 10), syscall.ENOSPC, ": write: no space left on device"},
		{"full disk at once", fullDisk(0), syscall.ENOSPC, ": write: no space left on device"},
		{"sync", faulty(-1, syscall.EIO, nil), syscall.EIO, ": sync: input/output error"},
		{"rename", faulty(-1, nil, syscall.EXDEV), syscall.EXDEV, ": rename: invalid cross-device link"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "b.raucb")
			_, _, err := write(tt.ops, context.Background(), dir, "b.raucb", bytes.NewReader(data(300<<10)), 0, nil)
			named(t, err, path, tt.want)
			if err != nil && (!strings.HasSuffix(err.Error(), tt.text) || strings.Contains(err.Error(), ".part-")) {
				t.Errorf("error %q, want it to end in %q, without the temporary name", err, tt.text)
			}
			empty(t, dir)
		})
	}
}

// TestWriteLeavesReserve: a bundle that would leave less than Reserve
// free on the spool's file system (on the clock: the journal's data
// partition) is refused before it does, with nothing left; one that
// leaves Reserve is written.
func TestWriteLeavesReserve(t *testing.T) {
	const size = 3 << 20
	tests := []struct {
		name string
		free int64 // free before the bundle
		want error
	}{
		{"room and the reserve", Reserve + size + checkEvery, nil},
		{"room for the bundle, not the reserve", Reserve + size/2, ErrNoRoom},
		{"full already", Reserve - 1, ErrNoRoom},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			var written int64 // what the file system has taken
			ops := osOps
			ops.create = func(dir, pattern string) (file, error) {
				f, err := os.CreateTemp(dir, pattern)
				return &countingFile{File: f, n: &written}, err
			}
			ops.free = func(string) (int64, error) { return tt.free - written, nil }
			n, _, err := write(ops, context.Background(), dir, "b.raucb", bytes.NewReader(data(size)), 0, nil)
			if tt.want == nil {
				if err != nil || n != size {
					t.Fatalf("%d bytes, %v; want %d written", n, err, size)
				}
				return
			}
			named(t, err, filepath.Join(dir, "b.raucb"), tt.want)
			if err != nil && !strings.Contains(err.Error(), "MiB stay free for the journal") {
				t.Errorf("error %q does not say why", err)
			}
			if tt.free >= Reserve && tt.free-written < Reserve {
				t.Errorf("wrote %d bytes: %d free at the end, under the reserve %d", written, tt.free-written, Reserve)
			}
			empty(t, dir)
		})
	}
}

type countingFile struct {
	*os.File
	n *int64
}

func (f *countingFile) Write(p []byte) (int, error) {
	k, err := f.File.Write(p)
	*f.n += int64(k)
	return k, err
}

// TestWriteNoSpool: a spool that is not there is an error naming it.
func TestWriteNoSpool(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "gone")
	_, _, err := Write(context.Background(), dir, "b.raucb", bytes.NewReader(data(10)), 0, nil)
	named(t, err, filepath.Join(dir, "b.raucb"), os.ErrNotExist)
	if err != nil && !strings.Contains(err.Error(), "create a temporary file: no such file or directory") {
		t.Errorf("error %q", err)
	}
}

func Example() {
	dir, _ := os.MkdirTemp("", "spool")
	defer os.RemoveAll(dir)
	bundle := strings.NewReader("a signed bundle's bytes")
	n, sum, err := Write(context.Background(), dir, "zeitnot-1.4.0-arm64.raucb", bundle, 1<<20, nil)
	fmt.Println(n, fmt.Sprintf("%x", sum[:4]), err)
	_, _, err = Write(context.Background(), dir, "zeitnot-1.4.1-arm64.raucb", strings.NewReader("far too long"), 4, nil)
	fmt.Println(errors.Is(err, ErrTooLarge), strings.TrimPrefix(err.Error(), "spool: "+dir+"/"))
	// Output:
	// 23 27c42755 <nil>
	// true zeitnot-1.4.1-arm64.raucb: too large: more than 4 bytes
}
