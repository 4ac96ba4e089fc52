// Package journal keeps the running game's clock log on disk, durable before
// anything is shown, and gives the game back after a power cut.
//
// The journal is a clock log (engine/clocklog): a header, then one line per
// event. Every line is written with one write call and made durable with
// fsync before Append returns; the directory is synced when the file is
// created or renamed. While a clock runs, the daemon appends a checkpoint at
// least once per second, so a power cut costs the running side at most one
// second and never loses a press that was shown.
package journal

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
)

// File is the name of the running game's journal in the state directory;
// finished games are kept in Archive beside it.
const (
	File    = "game.log"
	Archive = "games"
	// Keep is how many finished games the archive keeps.
	Keep = 100
)

// Journal is an open journal file.
type Journal struct {
	f     *os.File
	path  string
	buf   []byte
	Bytes int64 // bytes written since open
	Syncs int64 // fsync calls since open
	sync  func(*os.File) error
}

// Stats are the write counters of a journal, for the write budget.
type Stats struct{ Bytes, Syncs int64 }

// Create starts a new journal at path with header h and events, replacing
// any file there (the caller archives it first). It writes a temporary file,
// syncs it, renames it over path and syncs the directory, so a power cut
// leaves the old file or the new one, never a mix.
func Create(path string, h clocklog.Header, events ...clocklog.Event) (*Journal, error) {
	tmp := path + ".new"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	j := &Journal{f: f, path: path, sync: (*os.File).Sync}
	b := clocklog.AppendHeader(nil, h)
	for _, e := range events {
		b = clocklog.AppendEvent(b, e)
	}
	if err := j.write(b); err != nil {
		f.Close()
		os.Remove(tmp)
		return nil, err
	}
	if err := os.Rename(tmp, path); err != nil {
		f.Close()
		os.Remove(tmp)
		return nil, fmt.Errorf("journal: %w", err)
	}
	if err := syncDir(filepath.Dir(path)); err != nil {
		f.Close()
		return nil, err
	}
	return j, nil
}

// Open opens an existing journal to append to it. If its last line is torn
// (no newline), the torn part is cut off first so new lines start clean.
func Open(path string) (*Journal, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	j := &Journal{f: f, path: path, sync: (*os.File).Sync}
	data, err := io.ReadAll(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("journal: read %s: %w", path, err)
	}
	keep := int64(bytes.LastIndexByte(data, '\n') + 1)
	if keep != int64(len(data)) {
		if err := f.Truncate(keep); err != nil {
			f.Close()
			return nil, fmt.Errorf("journal: cut torn line of %s: %w", path, err)
		}
	}
	if _, err := f.Seek(keep, io.SeekStart); err != nil {
		f.Close()
		return nil, fmt.Errorf("journal: %w", err)
	}
	return j, nil
}

// Path is the journal's file name.
func (j *Journal) Path() string { return j.path }

func (j *Journal) write(b []byte) error {
	if _, err := j.f.Write(b); err != nil {
		return fmt.Errorf("journal: write %s: %w", j.path, err)
	}
	j.Bytes += int64(len(b))
	j.Syncs++
	if err := j.sync(j.f); err != nil {
		return fmt.Errorf("journal: sync %s: %w", j.path, err)
	}
	return nil
}

// Append writes one event and makes it durable.
func (j *Journal) Append(e clocklog.Event) error {
	j.buf = clocklog.AppendEvent(j.buf[:0], e)
	return j.write(j.buf)
}

// Note writes a comment line (a setting change, a recovery report) and
// makes it durable. Line breaks in text are replaced by spaces.
func (j *Journal) Note(text string) error {
	j.buf = append(j.buf[:0], "# "...)
	j.buf = append(j.buf, strings.NewReplacer("\n", " ", "\r", " ").Replace(text)...)
	j.buf = append(j.buf, '\n')
	return j.write(j.buf)
}

// Stats returns the write counters.
func (j *Journal) Stats() Stats { return Stats{Bytes: j.Bytes, Syncs: j.Syncs} }

// Close closes the file.
func (j *Journal) Close() error { return j.f.Close() }

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("journal: sync directory %s: %w", dir, err)
	}
	return nil
}

// ArchiveFile moves a finished game's journal into dir/games as NNNN.log,
// keeping the newest Keep games, and syncs both directories.
func ArchiveFile(stateDir string) error {
	src := filepath.Join(stateDir, File)
	if _, err := os.Stat(src); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	dir := filepath.Join(stateDir, Archive)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	names, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	next := 1
	var nums []int
	for _, n := range names {
		if k, err := strconv.Atoi(strings.TrimSuffix(filepath.Base(n), ".log")); err == nil {
			nums = append(nums, k)
			next = max(next, k+1)
		}
	}
	if err := os.Rename(src, filepath.Join(dir, fmt.Sprintf("%04d.log", next))); err != nil {
		return fmt.Errorf("journal: archive %s: %w", src, err)
	}
	sort.Ints(nums)
	for len(nums) >= Keep {
		os.Remove(filepath.Join(dir, fmt.Sprintf("%04d.log", nums[0])))
		nums = nums[1:]
	}
	if err := syncDir(dir); err != nil {
		return err
	}
	return syncDir(stateDir)
}

// Recovered is a game brought back from its journal.
type Recovered struct {
	Log     *clocklog.Log
	Clock   *clock.Clock // paused at Last if it was running
	Last    int64        // the last instant the journal proves
	Dropped []error      // what could not be read, exactly
	Paused  bool         // the clock was running and recovery paused it
}

// Recover reads the journal at path and rebuilds its game. The caller then
// rewrites the journal with Create(path, r.Log.Header, r.Events()...), so
// nothing damaged stays in it, after keeping a copy of a damaged file. A torn last line,
// a truncated or corrupt file give back every event before the damage, with
// Dropped saying what was lost; Recover fails only when not even the header
// can be read, or the file cannot be opened.
func Recover(path string) (*Recovered, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	defer f.Close()
	l, problems := clocklog.Salvage(filepath.Base(path), f)
	if l == nil {
		return nil, fmt.Errorf("journal: %s unusable: %w", path, errors.Join(problems...))
	}
	c, err := clocklog.Replay(l, clocklog.Handlers{})
	if err != nil {
		return nil, fmt.Errorf("journal: %s: %w", path, err)
	}
	r := &Recovered{Log: l, Clock: c, Dropped: problems}
	if n := len(l.Events); n > 0 {
		r.Last = l.Events[n-1].At
	}
	st := c.State(r.Last)
	if st.Running != clock.NoSide {
		c.Pause(r.Last)
		r.Paused = true
	}
	return r, nil
}

// Events returns the events to write back: the salvaged ones, then the
// pause that recovery added.
func (r *Recovered) Events() []clocklog.Event {
	ev := r.Log.Events
	if r.Paused {
		ev = append(ev[:len(ev):len(ev)], clocklog.Event{At: r.Last, Verb: clocklog.Pause, Side: clock.NoSide})
	}
	return ev
}

// KeepDamaged copies a journal that recovery could not read whole to
// path.damaged, for the arbiter.
func KeepDamaged(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	if err := os.WriteFile(path+".damaged", data, 0o644); err != nil {
		return fmt.Errorf("journal: keep damaged copy: %w", err)
	}
	return nil
}

// Wrap makes a journal of a file already open for appending, for tests that
// inject faults (a full disk is /dev/full).
func Wrap(f *os.File) *Journal {
	return &Journal{f: f, path: f.Name(), sync: (*os.File).Sync}
}
