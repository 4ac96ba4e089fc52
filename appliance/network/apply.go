package network

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// Apply writes files under the directory out and removes the files of
// Paths that files does not hold, so that a run for a config without
// [network] leaves none. Each file is written atomically: a temporary file
// in the same directory, synced, then renamed over the old one, and the
// directory synced. Missing directories are made, mode 0755.
//
// Nothing is followed through a symbolic link: every directory under out
// is opened with O_NOFOLLOW, a file is written as a new file and renamed
// (a link in its place is replaced, not followed), and a link is removed,
// not what it points to. out itself is taken as given, and must exist.
// Apply goes on after a failure, and returns every one, joined.
func Apply(out string, files []File) error {
	root, err := unix.Open(out, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("network: %s: %w", out, err)
	}
	defer unix.Close(root)
	var errs []error
	for _, f := range files {
		if err := checkPath(f.Path); err != nil {
			errs = append(errs, fmt.Errorf("network: %w", err))
			continue
		}
		if err := writeFile(root, f); err != nil {
			errs = append(errs, fmt.Errorf("network: %s: %w", path.Join(out, f.Path), err))
		}
	}
	for _, p := range Paths {
		if slices.ContainsFunc(files, func(f File) bool { return f.Path == p }) {
			continue // written, or left as it was if that failed
		}
		if err := remove(root, p); err != nil {
			errs = append(errs, fmt.Errorf("network: %s: %w", path.Join(out, p), err))
		}
	}
	return errors.Join(errs...)
}

// checkPath accepts a '/'-separated path with no "..", ".", empty or
// absolute part.
func checkPath(p string) error {
	if p == "" || path.IsAbs(p) || path.Clean(p) != p || p == "." || strings.HasPrefix(p, "../") || p == ".." || strings.ContainsRune(p, 0) {
		return fmt.Errorf("%q: want a path inside the output directory", p)
	}
	return nil
}

// openDir opens the directory dir (a '/'-separated path, "" for root)
// under root, each part with O_NOFOLLOW; with create, missing parts are
// made, mode 0755.
func openDir(root int, dir string, create bool) (int, error) {
	fd, err := unix.Dup(root)
	if err != nil {
		return -1, err
	}
	if dir == "" || dir == "." {
		return fd, nil
	}
	for _, part := range strings.Split(dir, "/") {
		made := false
		if create {
			switch err := unix.Mkdirat(fd, part, 0o755); {
			case err == nil:
				made = true
			case errors.Is(err, unix.EEXIST):
			default:
				unix.Close(fd)
				return -1, fmt.Errorf("%s: %w", part, err)
			}
		}
		next, err := unix.Openat(fd, part, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
			var st unix.Stat_t
			if unix.Fstatat(fd, part, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK {
				err = errors.New("is a symbolic link, not followed")
			} else {
				err = errors.New("not a directory")
			}
		}
		if err == nil && made {
			err = unix.Fchmod(next, 0o755) // the umask may have taken bits off
			if err != nil {
				unix.Close(next)
			}
		}
		unix.Close(fd)
		if err != nil {
			return -1, fmt.Errorf("%s: %w", part, err)
		}
		fd = next
	}
	return fd, nil
}

// writeFile writes f under root, atomically.
func writeFile(root int, f File) (err error) {
	dir, name := path.Split(f.Path)
	dfd, err := openDir(root, strings.TrimSuffix(dir, "/"), true)
	if err != nil {
		return err
	}
	defer unix.Close(dfd)
	var r [6]byte
	if _, err := rand.Read(r[:]); err != nil {
		return err
	}
	tmp := "." + name + ".tmp-" + hex.EncodeToString(r[:])
	fd, err := unix.Openat(dfd, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return err
	}
	file := os.NewFile(uintptr(fd), tmp)
	defer func() {
		if err != nil {
			file.Close()
			unix.Unlinkat(dfd, tmp, 0)
		}
	}()
	if _, err := file.Write(f.Content); err != nil {
		return err
	}
	if err := file.Chmod(f.Mode.Perm()); err != nil {
		return err
	}
	if err := file.Sync(); err != nil {
		return err
	}
	if err := file.Close(); err != nil {
		return err
	}
	if err := unix.Renameat(dfd, tmp, dfd, name); err != nil {
		return err
	}
	return unix.Fsync(dfd)
}

// remove removes the file p under root if it is there.
func remove(root int, p string) error {
	dir, name := path.Split(p)
	dfd, err := openDir(root, strings.TrimSuffix(dir, "/"), false)
	if errors.Is(err, unix.ENOENT) {
		return nil
	}
	if err != nil {
		return err
	}
	defer unix.Close(dfd)
	switch err := unix.Unlinkat(dfd, name, 0); {
	case errors.Is(err, unix.ENOENT):
		return nil
	case err != nil:
		return err
	}
	return unix.Fsync(dfd)
}
