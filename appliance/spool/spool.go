// Package spool writes update bundles into the clock's update spool
// (protocol.UpdateSpool), where the stick's exporter (appliance/usb) and
// the link (the hall's update command) put them and the installer takes
// them from.
//
// A bundle is in the spool under its name whole or not at all. Write
// copies it to a temporary name (a dot, the name, ".part-" and random
// letters: the installer leaves such a file alone while it is young),
// bounded and hashed on the way, syncs it, and only then renames it to
// its name and syncs the directory. On any error the temporary file is
// removed and nothing is under the name: a stick pulled out, a hall gone
// quiet, a full disk or a power cut leaves no partial bundle to be
// offered.
package spool

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"

	"github.com/zeitnot/zeitnot/internal/atomicfile"
	"github.com/zeitnot/zeitnot/internal/regfile"
	"github.com/zeitnot/zeitnot/protocol"
)

// Mode is a bundle's mode in the spool: its group (zeitnot-update, the
// spool's) reads it; the installer is root.
const Mode os.FileMode = 0o640

// Errors of Write, wrapped with the bundle's path (test with errors.Is).
var (
	// ErrTooLarge: more bytes came than the limit; Write stopped reading
	// at the first byte over it.
	ErrTooLarge = errors.New("too large")
	// ErrEmpty: the reader gave no bytes at all.
	ErrEmpty = errors.New("empty")
	// ErrNoRoom: the bundle would leave the spool's file system less than
	// Reserve free; Write stopped before it did.
	ErrNoRoom = errors.New("no room")
)

// Reserve is what Write leaves free on the spool's file system: on the
// clock the spool shares the data partition with the journal, which must
// never find it full.
const Reserve = 16 << 20

// checkEvery is how often Write asks the file system how much is free.
const checkEvery = 1 << 20

// ReadError is the reader's error: the bundle's source failed (a stick
// pulled out, a connection lost), not the spool. Write wraps it with the
// bundle's path; find it with errors.As.
type ReadError struct{ Err error }

func (e *ReadError) Error() string { return "reading: " + e.Err.Error() }
func (e *ReadError) Unwrap() error { return e.Err }

// Check is called by Write with the size and SHA-256 of all that came,
// before the bundle gets its name; an error keeps it out of the spool.
type Check func(size int64, sum [32]byte) error

// Write copies r into the directory dir as the bundle name (a name
// protocol.CheckBundleName takes), at most limit bytes (0:
// protocol.MaxBundle), replacing a bundle of that name. It returns the
// bundle's size and SHA-256. check, when not nil, is given them before
// the bundle is renamed to its name, and its error is Write's.
//
// Write checks ctx before each read and returns its cause when it is
// done; a reader that blocks must end on ctx itself, as the body of an
// HTTP request made with ctx or the output of a command run with it do.
//
// Write leaves Reserve free on dir's file system: a bundle that would
// take more is refused with ErrNoRoom, and its part removed.
//
// On any error nothing is left in dir under name or a temporary name,
// and the error starts with "spool: " and the bundle's path. It wraps
// ErrTooLarge, ErrEmpty, ErrNoRoom, a *ReadError, ctx's cause, check's error, or
// the file system's (a full disk: syscall.ENOSPC), named by the step
// that failed.
func Write(ctx context.Context, dir, name string, r io.Reader, limit int64, check Check) (int64, [32]byte, error) {
	return write(osOps, ctx, dir, name, r, limit, check)
}

// file is what write needs of a temporary file; tests fake a full disk.
type file interface {
	io.Writer
	Name() string
	Chmod(os.FileMode) error
	Sync() error
	Close() error
}

// fileOps are the steps of a write that touch the file system.
type fileOps struct {
	create func(dir, pattern string) (file, error)
	rename func(from, to string) error
	remove func(path string) error
	free   func(dir string) (int64, error) // bytes an unprivileged writer may still use
}

var osOps = fileOps{
	create: func(dir, pattern string) (file, error) { return os.CreateTemp(dir, pattern) },
	rename: os.Rename,
	remove: os.Remove,
	free: func(dir string) (int64, error) {
		var st syscall.Statfs_t
		if err := syscall.Statfs(dir, &st); err != nil {
			return 0, err
		}
		return int64(st.Bavail) * int64(st.Bsize), nil
	},
}

func write(ops fileOps, ctx context.Context, dir, name string, r io.Reader, limit int64, check Check) (size int64, sum [32]byte, err error) {
	path := filepath.Join(dir, name)
	fail := func(format string, a ...any) (int64, [32]byte, error) {
		return 0, [32]byte{}, fmt.Errorf("spool: %s: "+format, append([]any{path}, a...)...)
	}
	if err := protocol.CheckBundleName(name); err != nil {
		return 0, [32]byte{}, fmt.Errorf("spool: %s: %w", dir, err)
	}
	if limit <= 0 {
		limit = protocol.MaxBundle
	}
	if err := context.Cause(ctx); err != nil {
		return fail("%w", err)
	}
	f, err := ops.create(dir, "."+name+".part-*")
	if err != nil {
		return fail("create a temporary file: %w", regfile.WithoutPath(err))
	}
	tmp := f.Name()
	closed := false
	defer func() {
		if err != nil {
			if !closed {
				f.Close()
			}
			ops.remove(tmp)
		}
	}()
	h := sha256.New()
	buf := make([]byte, 64<<10)
	var n, nextCheck int64
	for {
		if err := context.Cause(ctx); err != nil {
			return fail("%w", err)
		}
		// One byte more than the limit tells a bundle of the limit's
		// size from a larger one.
		k, rerr := r.Read(buf[:min(int64(len(buf)), limit+1-n)])
		if n+int64(k) > limit {
			return fail("%w: more than %d bytes", ErrTooLarge, limit)
		}
		if k > 0 && n >= nextCheck {
			nextCheck = n + checkEvery
			free, err := ops.free(dir)
			if err != nil {
				return fail("free space: %w", err)
			}
			// Room for this interval's bytes as well as the reserve.
			if free-checkEvery-int64(len(buf)) < Reserve {
				return fail("%w: %d MiB written, %d MiB free, and %d MiB stay free for the journal", ErrNoRoom, n>>20, free>>20, Reserve>>20)
			}
		}
		if k > 0 {
			if _, err := f.Write(buf[:k]); err != nil {
				return fail("write: %w", regfile.WithoutPath(err))
			}
			h.Write(buf[:k])
			n += int64(k)
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			if err := context.Cause(ctx); err != nil {
				return fail("%w", err) // the reader ended on ctx
			}
			return fail("%w", &ReadError{rerr})
		}
	}
	h.Sum(sum[:0])
	if check != nil {
		if err := check(n, sum); err != nil {
			return fail("%w", err)
		}
	}
	if n == 0 {
		return fail("%w", ErrEmpty)
	}
	if err := f.Chmod(Mode); err != nil {
		return fail("chmod: %w", regfile.WithoutPath(err))
	}
	if err := f.Sync(); err != nil {
		return fail("sync: %w", regfile.WithoutPath(err))
	}
	closed = true
	if err := f.Close(); err != nil {
		return fail("close: %w", regfile.WithoutPath(err))
	}
	if err := context.Cause(ctx); err != nil {
		return fail("%w", err)
	}
	if err := ops.rename(tmp, path); err != nil {
		return fail("rename: %w", regfile.WithoutPath(err))
	}
	if err := atomicfile.SyncDir(dir); err != nil {
		// The rename may not survive a power cut: the bundle is not
		// offered, so it is not kept either.
		ops.remove(path)
		return fail("sync the directory: %w", regfile.WithoutPath(err))
	}
	return n, sum, nil
}
