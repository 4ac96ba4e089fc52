// Package regfile reads files that come from outside the program: config
// files, hardware profiles, journals, anything on a card or a stick.
//
// Such a path may name a named pipe (opening it for reading would block
// until a writer comes), a device such as /dev/zero (reading it never ends),
// a directory, or a symbolic link to any of these. Open refuses all of them
// without blocking: it opens with O_NONBLOCK, checks with fstat that what it
// opened is a regular file, and only then hands it out. With NoFollow it also
// refuses a final symbolic link (O_NOFOLLOW), for files in a directory the
// program owns, where a link can only be planted. ReadFile adds a size bound.
//
// Errors are *fs.PathError values naming the path; their Err is one of
// ErrNotRegular, ErrSymlink or ErrTooLarge (test with errors.Is), or what
// the system said.
package regfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// Errors wrapped by the *fs.PathError values that Open and ReadFile return.
var (
	ErrNotRegular = errors.New("not a regular file")
	ErrSymlink    = errors.New("is a symbolic link, not followed")
	ErrTooLarge   = errors.New("too large")
)

// Opts say what Open and ReadFile accept.
type Opts struct {
	// Max is the largest size accepted, in bytes; 0 means no bound.
	Max int64
	// NoFollow refuses a final symbolic link.
	NoFollow bool
}

// Open opens path read-only. It never blocks: a named pipe, a device, a
// socket or a directory is refused with ErrNotRegular, and with
// o.NoFollow a final symbolic link with ErrSymlink. A file larger than
// o.Max is refused with ErrTooLarge (it may still grow while read: ReadFile
// bounds what it reads too).
func Open(path string, o Opts) (*os.File, error) {
	return OpenFile(path, os.O_RDONLY, 0, o)
}

// OpenFile is Open with flags and perm as for os.OpenFile (O_RDWR,
// O_CREATE and the like), for files the program writes as well as reads.
// O_NONBLOCK is added while opening and has no effect on a regular file.
func OpenFile(path string, flag int, perm fs.FileMode, o Opts) (*os.File, error) {
	flag |= syscall.O_NONBLOCK | syscall.O_CLOEXEC
	if o.NoFollow {
		flag |= syscall.O_NOFOLLOW
	}
	f, err := os.OpenFile(path, flag, perm)
	if err != nil {
		if o.NoFollow && errors.Is(err, syscall.ELOOP) {
			if fi, lerr := os.Lstat(path); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
				return nil, &fs.PathError{Op: "open", Path: path, Err: ErrSymlink}
			}
		}
		if errors.Is(err, syscall.ENXIO) {
			// O_NONBLOCK|O_WRONLY on a FIFO with no reader.
			return nil, &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w (a named pipe)", ErrNotRegular)}
		}
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w (%s)", ErrNotRegular, kind(fi.Mode()))}
	}
	if o.Max > 0 && fi.Size() > o.Max {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w: %d bytes, at most %d accepted", ErrTooLarge, fi.Size(), o.Max)}
	}
	return f, nil
}

// ReadFile reads the whole of path with Open's checks, and never more than
// o.Max bytes, even from a file that grows while it is read.
func ReadFile(path string, o Opts) ([]byte, error) {
	f, err := Open(path, o)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if o.Max > 0 {
		r = io.LimitReader(f, o.Max+1)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: path, Err: unwrap(err)}
	}
	if o.Max > 0 && int64(len(data)) > o.Max {
		return nil, &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w: more than %d bytes", ErrTooLarge, o.Max)}
	}
	return data, nil
}

func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// kind names a file mode that is not a regular file.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "mode " + m.String()
}

// WithoutPath takes off the file name an *fs.PathError, *os.LinkError or
// *os.SyscallError carries, leaving what the system said: for errors that
// name the file themselves (not a temporary one, and not twice).
func WithoutPath(err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	var se *os.SyscallError
	switch {
	case errors.As(err, &pe):
		return pe.Err
	case errors.As(err, &le):
		return le.Err
	case errors.As(err, &se):
		return se.Err
	}
	return err
}
