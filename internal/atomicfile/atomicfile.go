// Package atomicfile replaces files whole and durably: after a power cut
// at any instant a file written with WriteFile holds either its old
// contents or the new ones in full, and a file removed with Remove stays
// removed. The clock's settings, presets, game ids and the link's
// progress, the hall's boards and the generated documents are written
// with it.
package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"github.com/zeitnot/zeitnot/internal/regfile"
)

// fileOps are the steps of an atomic write that can fail; tests replace
// them to fail midway.
type fileOps struct {
	write  func(f *os.File, b []byte) (int, error)
	sync   func(f *os.File) error
	rename func(from, to string) error
}

var osOps = fileOps{
	write:  (*os.File).Write,
	sync:   (*os.File).Sync,
	rename: os.Rename,
}

// WriteFile replaces the file at path with data, so that after a
// power cut at any instant the file holds either its old contents or data
// in full: data goes to a temporary file in the same directory, which is
// synced to the storage, renamed over path, and then the directory is
// synced so the rename itself is durable. On failure path is untouched and
// the temporary file removed. Errors name path.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	return writeFile(osOps, path, data, perm)
}

func writeFile(ops fileOps, path string, data []byte, perm os.FileMode) (err error) {
	fail := func(step string, e error) error {
		return fmt.Errorf("write %s: %s: %w", path, step, regfile.WithoutPath(e))
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return fail("create temporary file", err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	n, err := ops.write(f, data)
	if err == nil && n != len(data) {
		err = fmt.Errorf("wrote %d of %d bytes", n, len(data))
	}
	if err != nil {
		return fail("write", err)
	}
	if err = f.Chmod(perm); err != nil {
		return fail("chmod", err)
	}
	if err = ops.sync(f); err != nil {
		return fail("sync", err)
	}
	if err = f.Close(); err != nil {
		return fail("close", err)
	}
	if err = ops.rename(tmp, path); err != nil {
		return fail("rename", err)
	}
	if e := syncDir(ops, dir); e != nil {
		// The new file is in place, but the rename may not survive a
		// power cut yet.
		return fail("sync directory", e)
	}
	return nil
}

// SyncDir syncs the directory dir, so that the files created, renamed or
// removed in it stay so after a power cut. A file system that cannot sync
// directories is not an error.
func SyncDir(dir string) error { return syncDir(osOps, dir) }

func syncDir(ops fileOps, dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	err = ops.sync(d)
	if errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOTSUP) {
		return nil // the file system does not sync directories
	}
	return err
}

// Remove removes the file at path and syncs its directory. A missing file
// is not an error.
func Remove(path string) error {
	err := os.Remove(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("remove %s: %w", path, regfile.WithoutPath(err))
	}
	if err := syncDir(osOps, filepath.Dir(path)); err != nil {
		return fmt.Errorf("remove %s: sync directory: %w", path, regfile.WithoutPath(err))
	}
	return nil
}
