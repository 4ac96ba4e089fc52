package usb

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// Runner runs one mtools program (mdir, mtype, mcopy, mren, mdel, mmd,
// mshowfat) with args, writing what it prints on standard output to
// stdout. It returns an error if the program could not be run or did not
// exit 0; the error says what the program said on standard error. Tests
// pass a Runner that fails part-way, as a stick pulled out would.
type Runner func(ctx context.Context, prog string, args []string, stdout io.Writer) error

// ExecRunner runs the mtools programs found in PATH, each in a fresh,
// fixed environment (no mtools configuration from the caller's
// environment), stopped with SIGTERM when ctx ends and killed 5 s later.
func ExecRunner(ctx context.Context, prog string, args []string, stdout io.Writer) error {
	cmd := exec.CommandContext(ctx, prog, args...)
	cmd.Env = mtoolsEnv()
	cmd.Stdin = nil // /dev/null: mtools never waits for an answer
	cmd.Stdout = stdout
	var stderr limitedBuffer
	stderr.max = 4 << 10
	cmd.Stderr = &stderr
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	if err == nil {
		return nil
	}
	msg := strings.Join(strings.Fields(stderr.String()), " ")
	if ctx.Err() != nil {
		return fmt.Errorf("%s: stopped: %w", prog, context.Cause(ctx))
	}
	if msg == "" {
		return fmt.Errorf("%s: %w", prog, err)
	}
	return fmt.Errorf("%s: %s (%v)", prog, msg, err)
}

// mtoolsEnv is the environment of every mtools program: the path, a UTF-8
// locale for long names, the time zone (FAT stores local times), and
// MTOOLSRC pointing at nothing. The drive is given with -i, so no
// configuration is needed; /etc/mtools.conf is the system's own.
func mtoolsEnv() []string {
	env := []string{"PATH=/usr/bin:/bin", "LC_ALL=C.UTF-8", "MTOOLSRC=/dev/null", "HOME=/nonexistent"}
	if tz, ok := os.LookupEnv("TZ"); ok {
		env = append(env, "TZ="+tz)
	}
	return env
}

// limitedBuffer keeps the first max bytes written to it.
type limitedBuffer struct {
	bytes.Buffer
	max int
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); room > 0 {
		b.Buffer.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

// errLimit is what a bounded writer returns when more came than allowed.
var errLimit = errors.New("output limit")

// boundedWriter takes at most max bytes and then fails and stops the
// program writing (Stick.run sets stop).
type boundedWriter struct {
	buf  bytes.Buffer
	max  int
	over bool
	stop func()
}

func (w *boundedWriter) Write(p []byte) (int, error) {
	if w.buf.Len()+len(p) > w.max {
		w.over = true
		if w.stop != nil {
			w.stop()
		}
		return 0, errLimit
	}
	return w.buf.Write(p)
}

// Errors of a Stick, wrapped with what was being done (test with errors.Is).
var (
	// ErrNotFAT: mtools found no FAT file system on the device.
	ErrNotFAT = errors.New("no FAT file system (exFAT, NTFS and the like cannot be read: format the stick FAT32)")
	// ErrFull: the stick has no room for what was being written.
	ErrFull = errors.New("the stick is full")
	// ErrNotFound: no such file or folder on the stick.
	ErrNotFound = errors.New("not found")
	// ErrTooMuch: a listing or a file was larger than the bound.
	ErrTooMuch = errors.New("too large")
	// ErrDamaged: the stick's file system is damaged in a way that
	// writing to it would make worse: it is to be checked on a computer.
	ErrDamaged = errors.New("the stick's file system is damaged: check it on a computer (Windows: Properties, Tools, Check)")
)

// FATOpts bound what a Stick reads and how long a program may take.
type FATOpts struct {
	// Run runs the programs; nil: ExecRunner.
	Run Runner
	// Timeout bounds each program; 0: 2 minutes.
	Timeout time.Duration
	// MaxEntries bounds a folder's listing; 0: 4096 entries.
	MaxEntries int
}

// Stick is a FAT file system on a block device (or in an image file),
// read and written from user space with mtools: nothing is mounted, the
// kernel's FAT driver never sees the stick, and this program parses only
// mtools' bare listings and the bytes of the files it reads, bounded.
//
// Paths are relative to the stick's root, with '/' between names
// ("zeitnot/zeitnot-ab12/status.txt"); a path is given to mtools as
// "::/PATH" and must hold only names that SafeName accepts.
type Stick struct {
	dev string
	o   FATOpts
}

// OpenStick checks dev and returns a Stick on it. dev must be a block
// device (a final symbolic link is refused: the unit names /dev/sdXN
// itself) or, with image, a regular file holding a FAT image (tests, and
// reading an image copied from a stick).
func OpenStick(dev string, image bool, o *FATOpts) (*Stick, error) {
	fi, err := os.Lstat(dev)
	if err != nil {
		return nil, fmt.Errorf("usb: %w", err)
	}
	switch m := fi.Mode(); {
	case m&fs.ModeSymlink != 0:
		return nil, fmt.Errorf("usb: %s is a symbolic link: name the device itself", dev)
	case m&fs.ModeDevice != 0 && m&fs.ModeCharDevice == 0:
	case image && m.IsRegular():
	default:
		what := "a block device"
		if image {
			what += " or an image file"
		}
		return nil, fmt.Errorf("usb: %s is not %s (mode %s)", dev, what, m)
	}
	s := &Stick{dev: dev}
	if o != nil {
		s.o = *o
	}
	if s.o.Run == nil {
		s.o.Run = ExecRunner
	}
	if s.o.Timeout <= 0 {
		s.o.Timeout = 2 * time.Minute
	}
	if s.o.MaxEntries <= 0 {
		s.o.MaxEntries = 4096
	}
	return s, nil
}

// Device is the device (or image) the stick is on.
func (s *Stick) Device() string { return s.dev }

// Gone reports whether the device has gone from /dev: the stick was
// pulled out.
func (s *Stick) Gone() bool {
	_, err := os.Lstat(s.dev)
	return errors.Is(err, fs.ErrNotExist)
}

func msdos(path string) string { return "::/" + path }

// run runs one program on the stick, with the device as the drive.
func (s *Stick) run(ctx context.Context, prog string, stdout io.Writer, args ...string) error {
	ctx, cancel := context.WithTimeoutCause(ctx, s.o.Timeout, fmt.Errorf("%s took longer than %v", prog, s.o.Timeout))
	defer cancel()
	if w, ok := stdout.(*boundedWriter); ok {
		w.stop = cancel
	}
	err := s.o.Run(ctx, prog, append([]string{"-i", s.dev}, args...), stdout)
	if err == nil {
		return nil
	}
	msg := err.Error()
	switch {
	case strings.Contains(msg, "non DOS media") || strings.Contains(msg, "Cannot initialize"):
		return fmt.Errorf("%s: %w", s.dev, ErrNotFAT)
	case strings.Contains(msg, "Disk full") || strings.Contains(msg, "No directory slots") || strings.Contains(msg, "No space"):
		return fmt.Errorf("%s: %w: %v", s.dev, ErrFull, err)
	case strings.Contains(msg, "not found"):
		return fmt.Errorf("%s: %w: %v", s.dev, ErrNotFound, err)
	}
	return fmt.Errorf("%s: %w", s.dev, err)
}

// Entry is one name in a folder of the stick.
type Entry struct {
	Name string
	Dir  bool
}

// List returns the entries of the folder dir ("" is the root), hidden
// and system files included. A folder listed is parsed by ParseListing:
// names it cannot take as they are (not UTF-8, control characters, a '/',
// odd bytes from a damaged or hostile file system) are left out, and
// counted in odd. A dir that is a file gives ErrNotDir.
func (s *Stick) List(ctx context.Context, dir string) (entries []Entry, odd int, err error) {
	w := &boundedWriter{max: s.o.MaxEntries * 300}
	err = s.run(ctx, "mdir", w, "-b", "-a", msdos(dir))
	if w.over {
		return nil, 0, fmt.Errorf("%s: listing %s: %w: more than %d bytes", s.dev, msdos(dir), ErrTooMuch, w.max)
	}
	if err != nil {
		return nil, 0, err
	}
	entries, odd, isFile := ParseListing(dir, w.buf.String())
	if isFile {
		return nil, 0, fmt.Errorf("%s: %s: %w", s.dev, msdos(dir), ErrNotDir)
	}
	if len(entries) > s.o.MaxEntries {
		return nil, 0, fmt.Errorf("%s: %s: %w: more than %d entries", s.dev, msdos(dir), ErrTooMuch, s.o.MaxEntries)
	}
	return entries, odd, nil
}

// ErrNotDir: a name that should be a folder is a file.
var ErrNotDir = errors.New("is a file, not a folder")

// Read returns the contents of the file at path, at most max bytes: a
// longer file (or a damaged one whose clusters run in a loop) is refused
// with ErrTooMuch as soon as more comes, and its reading stopped.
func (s *Stick) Read(ctx context.Context, path string, max int64) ([]byte, error) {
	w := &boundedWriter{max: int(max)}
	err := s.run(ctx, "mtype", w, msdos(path))
	if w.over {
		return nil, fmt.Errorf("%s: %s: %w: more than %d bytes", s.dev, msdos(path), ErrTooMuch, max)
	}
	if err != nil {
		return nil, err
	}
	return w.buf.Bytes(), nil
}

// Mkdir makes the folder path.
func (s *Stick) Mkdir(ctx context.Context, path string) error {
	return s.run(ctx, "mmd", io.Discard, msdos(path))
}

// Put copies the local files into the folder dir, each under its own base
// name, overwriting a file of that name, with the local file's
// modification time.
func (s *Stick) Put(ctx context.Context, dir string, local ...string) error {
	target := msdos(dir)
	if dir != "" {
		target += "/"
	}
	args := append([]string{"-m", "-D", "o"}, local...)
	return s.run(ctx, "mcopy", io.Discard, append(args, target)...)
}

// Rename gives the file at path the name name in the same folder,
// replacing a file of that name.
func (s *Stick) Rename(ctx context.Context, path, name string) error {
	return s.run(ctx, "mren", io.Discard, "-D", "o", msdos(path), name)
}

// Remove deletes the files at paths.
func (s *Stick) Remove(ctx context.Context, paths ...string) error {
	args := make([]string, len(paths))
	for i, p := range paths {
		args[i] = msdos(p)
	}
	return s.run(ctx, "mdel", io.Discard, args...)
}

// FirstClusters returns the first cluster of each file at paths that has
// one ("" for an empty file), from mshowfat. Two directory entries with
// the same first cluster share their data (a rename cut short can leave
// that): deleting one would free the other's clusters.
func (s *Stick) FirstClusters(ctx context.Context, paths ...string) (map[string]string, error) {
	args := make([]string, len(paths))
	for i, p := range paths {
		args[i] = msdos(p)
	}
	w := &boundedWriter{max: 64 << 10}
	err := s.run(ctx, "mshowfat", w, args...)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return nil, err
	}
	return parseShowFAT(w.buf.String()), nil
}

// parseShowFAT reads mshowfat's lines, "::/PATH <C-D> <E>" or "::/PATH <>",
// into the first cluster of each path.
func parseShowFAT(out string) map[string]string {
	m := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		i := strings.LastIndex(line, " <")
		if i < 0 || !strings.HasPrefix(line, "::/") {
			continue
		}
		p, chain := line[3:i], line[i+2:]
		first := chain
		if j := strings.IndexAny(first, "-> "); j >= 0 {
			first = first[:j]
		}
		if _, dup := m[p]; !dup {
			m[p] = first
		}
	}
	return m
}

// Sync makes everything written to the stick durable: it opens the
// device and syncs it, which writes the kernel's cached blocks of it and
// flushes the stick's own cache. mtools writes with plain writes; the
// exporter syncs after a file's data and before its rename, so that a
// name never reaches the stick before the data it names.
func (s *Stick) Sync() error {
	f, err := os.OpenFile(s.dev, os.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return fmt.Errorf("usb: sync: %w", err)
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		return fmt.Errorf("usb: sync %s: %w", s.dev, err)
	}
	return nil
}
