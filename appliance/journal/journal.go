package journal

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/internal/regfile"
)

// Names in the state directory.
const (
	// File is the running game's journal.
	File = "game.log"
	// Archive is the directory of finished games, NNNN.log.
	Archive = "games"
	// Keep is how many finished games the archive keeps.
	Keep = 100
	// Damaged names the copies of journals that recovery could read only
	// in part: game.log.damaged.N. They are bounded by Opts.MaxDamaged.
	Damaged = "damaged"
	// Kept names what was in a journal's place and could not be read or
	// used (a file without permission or with read errors, a directory, a
	// link, a device): game.log.kept.N, moved aside whole and never removed.
	Kept = "kept"
)

// Opts configure a journal.
type Opts struct {
	// Chunk is how much the file grows at a time: zeros written ahead of
	// the lines, which then overwrite them in place. Rounded up to 4 KiB.
	Chunk int64
	// MaxDamaged bounds the total size of the damaged copies: beyond it
	// the oldest are removed. The newest is always kept.
	MaxDamaged int64
	// MaxHeld is how many lines are held in memory, in order, while they
	// cannot be written. A checkpoint held right after a checkpoint
	// replaces it, so a full disk holds one line per press, not per second.
	MaxHeld int
}

// DefaultOpts are the options Open uses when given nil.
var DefaultOpts = Opts{Chunk: 64 << 10, MaxDamaged: 16 << 20, MaxHeld: 1 << 16}

// Block is the file system block the write counts assume: ext4's and the
// page cache's 4 KiB.
const Block = 4096

// Stats are the write counters of a journal, for the write budget.
type Stats struct {
	Bytes   int64 // bytes of lines written: headers, events, notes, copied games
	Syncs   int64 // syncs: an fdatasync per write of lines, an fsync per file created or grown
	Writes  int64 // writes of lines
	Blocks  int64 // Block-sized pieces of the file those writes touched
	Padding int64 // zero bytes written ahead of the lines or over a failed write
	Grows   int64 // times a file was created or grown (each with an fsync)
}

// Error is a journal operation that failed. Held says what became of the
// lines: when it is above zero they are in memory, in order, and the next
// Append, Note or Retry writes them; Lost counts lines that could not even
// be held. An Append that returns nil has its line, and every line before
// it, on disk.
type Error struct {
	Op   string // what failed: "write", "sync", "grow", "create", "open", ...
	Path string // the journal file it failed on
	Err  error  // what the system said
	Held int    // lines held in memory, waiting to be written
	Lost int    // lines refused since the journal broke (until the next game)
}

func (e *Error) Error() string {
	s := "journal: " + e.Op + " " + e.Path + ": " + e.Err.Error()
	switch {
	case e.Lost > 0:
		s += fmt.Sprintf("; %d lines lost (more than %d held in memory): the journal ends before them until a new game", e.Lost, e.Held)
	case e.Held > 0:
		s += fmt.Sprintf("; %d lines held in memory until they can be written", e.Held)
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// errNoFile is the trouble of a journal that has no file to write to.
var errNoFile = errors.New("no journal file: the game was not started")

// entry is a line waiting to be written.
type entry struct {
	e      clocklog.Event
	note   string
	isNote bool
}

// append writes the line: a comment, a checkpoint that repeats the header
// h (so a damaged header can be rebuilt from any checkpoint), or an event.
func (x entry) append(b []byte, h *clocklog.Header) []byte {
	switch {
	case x.isNote:
		return clocklog.AppendComment(b, x.note)
	case x.e.Verb == clocklog.Checkpoint && h != nil:
		return clocklog.AppendCheckpoint(b, x.e.At, x.e.Side, *h)
	}
	return clocklog.AppendEvent(b, x.e)
}

// creation is a journal file still to be made: a new game's header, or
// the game salvaged from a recovered journal src, written afresh.
type creation struct {
	hdr     clocklog.Header
	src     *os.File
	scan    *scan  // what reading src gave
	keep    string // the old file is kept aside as this kind (Damaged, Kept), or "": replaced
	replace bool   // the file in the way is the journal's own, to be replaced
}

// Journal is the running game's journal in a state directory. It is not
// safe for concurrent use.
type Journal struct {
	dir   string
	o     Opts
	gen   int // the current file's generation: genName(gen)
	floor int // the lowest generation a new file may take
	path  string

	f      *os.File
	end    int64 // where the next line goes: after the last line on disk
	size   int64 // the file's size; after end it holds zeros
	dirty  int64 // [end, dirty) may hold a failed write's bytes
	create *creation

	hdr     *clocklog.Header // the game's header, repeated in checkpoints
	held    []entry
	lost    int
	failed  bool // the last write failed: lines are held
	cleared bool // the last write ended a failure
	closed  bool
	notes   []string
	kept    []string

	st       Stats
	buf      []byte
	spans    []int    // where each numbered line of buf starts and ends (its newline), in pairs
	lines    []string // the numbered lines the last flush made durable
	datasync func(*os.File) error
}

// Report is what Open found and did.
type Report struct {
	File    string           // the journal the game came from; "" if none
	Header  clocklog.Header  // its header
	Clock   *clock.Clock     // the game, paused at Last if it was running; nil if none was recovered
	Last    int64            // the last instant the journal proves
	Paused  bool             // the clock was running: recovery paused it and wrote the pause
	Events  int              // events replayed
	Result  clocklog.Result  // the game's result, as its last result line says
	By      clocklog.Entrant // who entered it; 0 if there is none
	Dropped []error          // what recovery could not take as written, exactly (file:line: what was done)
	Lines   int              // how many of its lines were not used
	Salvage *clocklog.Report // what salvage found, in full (nil if the file could not be opened)
	Lost    error            // a journal was there, but no game could be had from it
	Kept    []string         // files kept aside (paths): damaged copies, what could not be read
	Notes   []string         // what was done with files and why, one sentence each
}

func fill(o *Opts) Opts {
	d := DefaultOpts
	if o == nil {
		return d
	}
	r := *o
	if r.Chunk <= 0 {
		r.Chunk = d.Chunk
	}
	r.Chunk = (r.Chunk + Block - 1) / Block * Block
	if r.MaxDamaged <= 0 {
		r.MaxDamaged = d.MaxDamaged
	}
	if r.MaxHeld <= 0 {
		r.MaxHeld = d.MaxHeld
	}
	return r
}

// Open opens the journal in the state directory dir (nil o: DefaultOpts),
// recovering the game it holds, if any (Report.Clock). With no game the
// journal has no file until Start. Open never blocks and never removes,
// or writes over, a journal it could not read: that is moved aside whole
// (game.log.kept.N) or, if it cannot be moved, left where it is while the
// game goes on in the next generation's file (game-1.log, ...); the next
// Open takes the newest generation and moves the older ones aside.
//
// The journal returned is never nil; the error is storage trouble (the
// directory cannot be read, the recovery's pause is held in memory), and
// the clock may run on.
func Open(dir string, o *Opts) (*Journal, *Report, error) {
	j := &Journal{dir: dir, o: fill(o), path: filepath.Join(dir, File), datasync: fdatasync}
	r := &Report{}
	ents, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return j, r, nil
		}
		return j, r, &Error{Op: "read directory", Path: dir, Err: regfile.WithoutPath(err)}
	}
	var gens []int
	for _, e := range ents {
		name := e.Name()
		if g, ok := parseGen(name); ok {
			gens = append(gens, g)
		} else if base, ok := strings.CutSuffix(name, ".new"); ok {
			if _, ok := parseGen(base); ok {
				// An interrupted creation: the journal it was to
				// replace is still there.
				clearTemp(dir, name)
			}
		}
	}
	if len(gens) == 0 {
		return j, r, nil
	}
	sort.Ints(gens)
	cur := gens[len(gens)-1]
	for _, g := range gens[:len(gens)-1] {
		p := filepath.Join(dir, genName(g))
		if name, err := keepAside(dir, genName(g), Kept, false); err != nil {
			j.floor = g + 1
			r.Notes = append(r.Notes, fmt.Sprintf("journal: %s is older than %s and could not be moved aside (%v): left as it is", p, genName(cur), regfile.WithoutPath(err)))
		} else {
			r.Notes = append(r.Notes, fmt.Sprintf("journal: %s is older than %s: kept as %s", p, genName(cur), name))
			r.Kept = append(r.Kept, filepath.Join(dir, name))
		}
	}
	j.gen = cur
	j.path = filepath.Join(dir, genName(cur))
	err = j.recover(r)
	r.Notes = append(r.Notes, j.notes...)
	r.Kept = append(r.Kept, j.kept...)
	j.notes, j.kept = nil, nil
	return j, r, err
}

// recover reads the current file and sets the journal up to go on.
func (j *Journal) recover(r *Report) error {
	name := filepath.Base(j.path)
	nf := regfile.Opts{NoFollow: true}
	f, err := regfile.OpenFile(j.path, os.O_RDWR, 0, nf)
	writable := err == nil
	if err != nil && !errors.Is(err, regfile.ErrNotRegular) && !errors.Is(err, regfile.ErrSymlink) {
		// Not writable (a read-only file system) may still be readable.
		f, err = regfile.Open(j.path, nf)
	}
	if err != nil {
		j.unreadable(r, "open", err)
		return nil
	}
	s := scanJournal(name, f)
	r.Dropped, r.Lines, r.Salvage = s.dropped(), s.lost(), s.report
	if s.header == nil {
		f.Close()
		if s.readErr != nil {
			j.unreadable(r, "read", s.readErr)
			return nil
		}
		// Read whole, but no game in it: a damaged copy for the arbiter.
		r.Lost = fmt.Errorf("journal: %s holds no game: %w", j.path, errors.Join(r.Dropped...))
		if kept, err := keepAside(j.dir, name, Damaged, false); err != nil {
			j.floor = j.gen + 1
			r.Notes = append(r.Notes, fmt.Sprintf("journal: %s could not be moved aside (%v): left as it is", j.path, regfile.WithoutPath(err)))
		} else {
			r.Notes = append(r.Notes, fmt.Sprintf("journal: %s kept as %s", j.path, kept))
			r.Kept = append(r.Kept, filepath.Join(j.dir, kept))
			r.Notes = append(r.Notes, boundDamaged(j.dir, j.o.MaxDamaged)...)
		}
		return nil
	}
	r.File, r.Header, r.Clock, r.Last, r.Events = j.path, *s.header, s.clock, s.last, s.events
	r.Result, r.By = s.result.Result, s.result.By
	j.hdr = s.header
	if st := s.clock.State(s.last); st.Running != clock.NoSide {
		s.clock.Pause(s.last)
		r.Paused = true
		j.held = append(j.held, entry{e: clocklog.Event{At: s.last, Verb: clocklog.Pause, Side: clock.NoSide}})
	}
	if s.whole() && writable {
		// Whole and writable: the game goes on in this file, after its
		// last line; what follows is zero padding.
		fi, err := f.Stat()
		if err != nil {
			f.Close()
			j.unreadable(r, "stat", err)
			return nil
		}
		j.f, j.end, j.size = f, s.text, fi.Size()
	} else {
		// The game goes to a fresh file, written from what salvage kept
		// (in this version's format); the old one is kept aside if
		// anything in it was not taken as written.
		h := *s.header
		h.Format = clocklog.Format
		j.hdr = &h
		c := &creation{hdr: h, src: f, scan: s, replace: true}
		switch {
		case s.readErr != nil:
			c.keep = Kept
		case len(s.report.Problems) > 0:
			c.keep = Damaged
		}
		j.create = c
	}
	return j.flush()
}

// unreadable records a journal that could not be opened or read, and
// moves it aside, or leaves it and moves the journal on a generation.
func (j *Journal) unreadable(r *Report, op string, err error) {
	r.Lost = &Error{Op: op, Path: j.path, Err: regfile.WithoutPath(err)}
	name := filepath.Base(j.path)
	if kept, kerr := keepAside(j.dir, name, Kept, false); kerr != nil {
		j.floor = j.gen + 1
		r.Notes = append(r.Notes, fmt.Sprintf("journal: %s could not be read (%v) nor moved aside (%v): left as it is; the new game goes to %s",
			j.path, regfile.WithoutPath(err), regfile.WithoutPath(kerr), genName(j.floor)))
	} else {
		r.Notes = append(r.Notes, fmt.Sprintf("journal: %s could not be read (%v): kept as %s, as it was", j.path, regfile.WithoutPath(err), kept))
		r.Kept = append(r.Kept, filepath.Join(j.dir, kept))
	}
}

// Recover reads the journal at path and replays its game, changing
// nothing: for tools and tests. The clock is paused at Last if it was
// running. It fails only when no game can be had from the file.
func Recover(path string) (*Report, error) {
	f, err := regfile.Open(path, regfile.Opts{})
	if err != nil {
		return nil, &Error{Op: "open", Path: path, Err: regfile.WithoutPath(err)}
	}
	defer f.Close()
	s := scanJournal(filepath.Base(path), f)
	if s.header == nil {
		return nil, fmt.Errorf("journal: %s unusable: %w", path, errors.Join(s.dropped()...))
	}
	r := &Report{File: path, Header: *s.header, Clock: s.clock, Last: s.last, Events: s.events, Result: s.result.Result, By: s.result.By, Dropped: s.dropped(), Lines: s.lost(), Salvage: s.report}
	if st := s.clock.State(s.last); st.Running != clock.NoSide {
		s.clock.Pause(s.last)
		r.Paused = true
	}
	return r, nil
}

// Start begins a new game's journal with header h. The current game's file
// is archived into games/ if archive is set (the game was started), else
// replaced. Lines of the old game still held in memory are written first
// if they can be; what cannot is said in the error. The new file is
// created beside the old and renamed into place, and the directory synced.
func (j *Journal) Start(h clocklog.Header, archive bool) error {
	if j.dir == "" {
		return &Error{Op: "start", Path: j.path, Err: errors.New("no state directory")}
	}
	var errs []error
	if archive && (len(j.held) > 0 || j.create != nil) {
		if err := j.flush(); err != nil {
			var je *Error
			if errors.As(err, &je) {
				err = je.Err
			}
			errs = append(errs, fmt.Errorf("journal: %s: the finished game's last %d lines are lost: %w", j.path, len(j.held), err))
		}
	}
	j.held, j.lost, j.dirty, j.closed = nil, 0, 0, false
	replace := false
	switch {
	case j.f != nil && archive:
		if err := j.archive(); err != nil {
			errs = append(errs, err)
			j.floor = max(j.floor, j.gen+1)
		}
	case j.f != nil:
		j.f.Close()
		j.f, replace = nil, true
	case j.create != nil && j.create.src != nil:
		// A recovered game that could not be rewritten: its file stays
		// as it was, archived or replaced.
		j.create.src.Close()
		if archive {
			if _, err := archiveInto(j.dir, j.path); err != nil {
				errs = append(errs, &Error{Op: "archive", Path: j.path, Err: regfile.WithoutPath(err)})
				j.floor = max(j.floor, j.gen+1)
			}
		} else {
			replace = true
		}
	}
	g := j.floor
	if replace && j.gen >= j.floor {
		g = j.gen
	} else {
		replace = false
	}
	j.gen, j.path = g, filepath.Join(j.dir, genName(g))
	j.create = &creation{hdr: h, replace: replace}
	j.hdr = &h
	j.end, j.size = 0, 0
	if err := j.flush(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// archive trims the current file's padding and moves it into games/.
func (j *Journal) archive() error {
	f := j.f
	j.f = nil
	err := f.Truncate(j.end)
	if err == nil {
		err = f.Sync()
	}
	f.Close()
	if err != nil {
		return &Error{Op: "trim", Path: j.path, Err: regfile.WithoutPath(err)}
	}
	if _, err := archiveInto(j.dir, j.path); err != nil {
		return &Error{Op: "archive", Path: j.path, Err: regfile.WithoutPath(err)}
	}
	return nil
}

// Path is the current journal file's name.
func (j *Journal) Path() string { return j.path }

// Append writes one event and makes it durable. It returns nil only when
// the event, and every line before it, is on disk; otherwise an *Error
// saying whether the event is held in memory (written by the next Append,
// Note or Retry) or lost.
//
// With nil it returns the numbered lines (events and checkpoints, as
// written: with their checksums, without their newlines) the write made
// durable: the held lines it wrote, in order, and e's last. The slice is
// valid until the next write; its strings are the caller's.
func (j *Journal) Append(e clocklog.Event) ([]string, error) {
	if j.lost > 0 || len(j.held) >= j.o.MaxHeld && !j.collapses(e) {
		// Writing later events after a missing one would make the
		// journal lie: it stops until a new game.
		j.lost++
		j.flush() // the lines before the missing one may still go
		return nil, &Error{Op: "hold", Path: j.path, Err: errors.New("the disk has not taken the journal's lines for too long"), Held: len(j.held), Lost: j.lost}
	}
	if j.collapses(e) {
		j.held[len(j.held)-1].e = e
	} else {
		j.held = append(j.held, entry{e: e})
	}
	if err := j.flush(); err != nil {
		return nil, err
	}
	return j.lines, nil
}

// collapses reports whether e, a checkpoint, replaces a held checkpoint
// just before it (a checkpoint only proves the clock ran until then).
func (j *Journal) collapses(e clocklog.Event) bool {
	n := len(j.held)
	return e.Verb == clocklog.Checkpoint && n > 0 && !j.held[n-1].isNote && j.held[n-1].e.Verb == clocklog.Checkpoint
}

// Note writes a comment line (a setting change, a recovery report) and
// makes it durable, as Append. Line breaks in text are replaced by spaces.
// A note that cannot be held is dropped; it does not stop the journal.
// With nil it returns the numbered lines held before it that the write
// made durable, as Append: the note itself is not numbered.
func (j *Journal) Note(text string) ([]string, error) {
	if len(j.held) >= j.o.MaxHeld {
		return nil, &Error{Op: "hold", Path: j.path, Err: errors.New("note dropped: too many lines held"), Held: len(j.held)}
	}
	j.held = append(j.held, entry{note: strings.NewReplacer("\n", " ", "\r", " ").Replace(text), isNote: true})
	if err := j.flush(); err != nil {
		return nil, err
	}
	return j.lines, nil
}

// Pending is how many lines are held in memory, waiting to be written.
func (j *Journal) Pending() int { return len(j.held) }

// Retry writes the held lines, if any: the caller's loop may call it
// while Pending is above zero, e.g. once a second. It returns nil when
// nothing is held any more, and with it the numbered lines it made
// durable, as Append.
func (j *Journal) Retry() ([]string, error) {
	if err := j.flush(); err != nil {
		return nil, err
	}
	return j.lines, nil
}

// Cleared reports whether the last Append, Note or Retry ended a trouble:
// it wrote the lines earlier failures had held, and the file is whole
// again. The caller clears its warning then.
func (j *Journal) Cleared() bool { return j.cleared }

// Stats returns the write counters.
func (j *Journal) Stats() Stats { return j.st }

// Close closes the file. Lines still held are lost.
func (j *Journal) Close() error {
	j.closed = true
	var err error
	if j.f != nil {
		err = j.f.Close()
		j.f = nil
	}
	if j.create != nil && j.create.src != nil {
		j.create.src.Close()
	}
	j.create = nil
	return err
}

// fail records a failed write and returns it with what is held.
func (j *Journal) fail(op string, err error) error {
	j.failed = true
	var je *Error
	if errors.As(err, &je) {
		je.Held = len(j.held)
		return je
	}
	return &Error{Op: op, Path: j.path, Err: regfile.WithoutPath(err), Held: len(j.held)}
}

// flush writes what is held: it creates the file if it is still to be
// made, grows it if the lines do not fit, writes them in place with one
// write and makes them durable with fdatasync. A failed write is undone
// (its bytes zeroed) before anything else is written after the last line.
func (j *Journal) flush() error {
	j.cleared = false
	j.lines = j.lines[:0]
	if j.closed {
		return j.fail("write", os.ErrClosed)
	}
	if j.f == nil {
		if j.create == nil {
			if len(j.held) == 0 {
				return nil
			}
			return j.fail("write", errNoFile)
		}
		if err := j.createFile(); err != nil {
			return j.fail("create", err)
		}
	}
	if len(j.held) > 0 || j.dirty > j.end {
		b, spans := j.buf[:0], j.spans[:0]
		for _, x := range j.held {
			start := len(b)
			b = x.append(b, j.hdr)
			if !x.isNote {
				spans = append(spans, start, len(b)-1)
			}
		}
		j.spans = spans
		n := int64(len(b))
		for j.end+int64(len(b)) < j.dirty {
			b = append(b, zeroBlock[:min(int64(len(zeroBlock)), j.dirty-j.end-int64(len(b)))]...)
		}
		j.buf = b
		if need := j.end + int64(len(b)); need > j.size {
			if err := j.grow(need); err != nil {
				return j.fail("grow", err)
			}
		}
		if _, err := j.f.WriteAt(b, j.end); err != nil {
			j.dirty = max(j.dirty, j.end+int64(len(b)))
			j.rollback()
			return j.fail("write", err)
		}
		j.count(n, int64(len(b)))
		if err := j.datasync(j.f); err != nil {
			j.dirty = max(j.dirty, j.end+int64(len(b)))
			return j.fail("sync", err)
		}
		j.st.Syncs++
		j.end += n
		j.dirty = 0
		j.held = j.held[:0]
		for i := 0; i < len(spans); i += 2 {
			j.lines = append(j.lines, string(b[spans[i]:spans[i+1]]))
		}
	}
	// Lines lost (past MaxHeld) keep the trouble on until a new game.
	j.cleared, j.failed = j.failed && j.lost == 0, j.lost > 0
	return nil
}

// count adds a write of n bytes of lines (and of zeros up to total) at
// the end to the counters.
func (j *Journal) count(n, total int64) {
	j.st.Writes++
	j.st.Bytes += n
	j.st.Padding += total - n
	if total > 0 {
		j.st.Blocks += (j.end+total-1)/Block - j.end/Block + 1
	}
}

// rollback zeroes the bytes a failed write may have left after the last
// line, so that a crash now finds no partial line. If it fails too, the
// next write covers them.
func (j *Journal) rollback() {
	if j.f == nil || j.dirty <= j.end {
		return
	}
	if j.dirty > j.size {
		j.f.Truncate(j.size)
		j.dirty = j.size
	}
	if err := writeZeros(j.f, j.end, j.dirty); err != nil {
		return
	}
	j.st.Padding += j.dirty - j.end
	if j.datasync(j.f) == nil {
		j.st.Syncs++
		j.dirty = 0
	}
}

// grow extends the file with zeros to hold need bytes: a whole chunk if
// the disk takes it, else to the next block. The new size is made durable
// with fsync before any line is written there, so that fdatasync of a
// line never has to write the file's metadata.
func (j *Journal) grow(need int64) error {
	size, err := j.pad(j.f, j.size, need)
	if err != nil {
		return err
	}
	if err := j.f.Sync(); err != nil {
		j.f.Truncate(j.size)
		return err
	}
	j.st.Syncs++
	j.st.Grows++
	j.size = size
	return nil
}

// pad writes zeros to f from offset from to at least need: to a chunk
// boundary if the disk takes it, else to a block boundary, else (when
// need == from) not at all. It returns the new size.
func (j *Journal) pad(f *os.File, from, need int64) (int64, error) {
	var err error
	for _, to := range []int64{roundUp(need, j.o.Chunk), roundUp(need, Block)} {
		if to <= from {
			return from, nil
		}
		if err = writeZeros(f, from, to); err == nil {
			j.st.Padding += to - from
			return to, nil
		}
		f.Truncate(from)
	}
	if need <= from {
		return from, nil
	}
	return from, err
}

func roundUp(n, to int64) int64 { return (n + to - 1) / to * to }

func writeZeros(f *os.File, from, to int64) error {
	for from < to {
		n, err := f.WriteAt(zeroBlock[:min(int64(len(zeroBlock)), to-from)], from)
		from += int64(n)
		if err != nil {
			return err
		}
	}
	return nil
}

// createFile makes the journal file j.create describes: written and
// synced under a temporary name, then renamed into place, the directory
// synced. An old file that must be kept gets its second name first, so a
// crash at any point leaves the old journal or the new one in place.
func (j *Journal) createFile() error {
	c := j.create
	name := filepath.Base(j.path)
	tmp := name + ".new"
	f, err := openTemp(j.dir, tmp)
	if err != nil {
		return err
	}
	tmpPath := filepath.Join(j.dir, tmp)
	abandon := func(err error) error {
		f.Close()
		os.Remove(tmpPath)
		return err
	}
	var n int64
	if c.src != nil {
		n, err = rewrite(f, name, c.src, c.scan)
	} else {
		b := clocklog.AppendHeader(nil, c.hdr)
		var k int
		k, err = f.Write(b)
		n = int64(k)
	}
	if err != nil {
		return abandon(err)
	}
	j.st.Writes++
	j.st.Bytes += n
	size, err := j.pad(f, n, n)
	if err == nil {
		err = f.Sync()
	}
	if err != nil {
		return abandon(err)
	}
	j.st.Syncs++
	j.st.Grows++
	if c.keep != "" {
		if kept, err := keepAside(j.dir, name, c.keep, true); err == nil {
			j.notes = append(j.notes, fmt.Sprintf("journal: %s kept as %s, as it was", j.path, kept))
			j.kept = append(j.kept, filepath.Join(j.dir, kept))
			if c.keep == Damaged {
				j.notes = append(j.notes, boundDamaged(j.dir, j.o.MaxDamaged)...)
			}
		} else {
			// It cannot have a second name: it stays where it is, and
			// the journal goes on in the next generation's file.
			j.notes = append(j.notes, fmt.Sprintf("journal: %s could not be kept under another name (%v): left as it is", j.path, regfile.WithoutPath(err)))
			j.gen++
			j.floor = j.gen
			j.path = filepath.Join(j.dir, genName(j.gen))
			c.replace = false
		}
	}
	if c.replace {
		err = os.Rename(tmpPath, j.path)
	} else {
		err = renameNoReplace(tmpPath, j.path)
	}
	if err == nil {
		err = syncDir(j.dir)
	}
	if err != nil {
		return abandon(err)
	}
	if c.src != nil {
		c.src.Close()
		j.notes = append(j.notes, fmt.Sprintf("journal: the game's %d events go on in a fresh %s", c.scan.events, j.path))
	}
	j.f, j.end, j.size, j.dirty, j.create = f, n, size, 0, nil
	return nil
}

func fdatasync(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	if err := rc.Control(func(fd uintptr) { serr = unix.Fdatasync(int(fd)) }); err != nil {
		return err
	}
	return serr
}

// Wrap makes a journal of a file already open for writing, appending at
// its end, for tests that inject faults (a full disk is /dev/full). It has
// no state directory: Start fails.
func Wrap(f *os.File) *Journal {
	j := &Journal{f: f, path: f.Name(), o: DefaultOpts, datasync: fdatasync}
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		j.end, j.size = fi.Size(), fi.Size()
	}
	return j
}
