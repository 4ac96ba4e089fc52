package journal

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
	"github.com/zeitnot/zeitnot/internal/regfile"
)

func mountTmpfs(t *testing.T, opts string) string {
	dir := t.TempDir()
	if err := exec.Command("mount", "-t", "tmpfs", "-o", opts, "tmpfs", dir).Run(); err != nil {
		t.Skip("cannot mount a tmpfs here (needs root):", err)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	return dir
}

// fillDisk writes a file in dir until the file system is full.
func fillDisk(t *testing.T, dir string) string {
	name := filepath.Join(dir, "filler")
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, n := range []int{64 << 10, 4096, 512, 64, 1} {
		for {
			if _, err := f.Write(make([]byte, n)); err != nil {
				break
			}
		}
	}
	return name
}

// TestDiskFullThenSpaceReturns fills a 1 MB file system while the journal's
// preallocated end is almost used up, appends (the lines are held, in
// order, with the disk full), frees the space, appends (all of them are
// written), and reads the journal as a restart after a SIGKILL would: every
// event, in order, nothing dropped.
func TestDiskFullThenSpaceReturns(t *testing.T) {
	dir := mountTmpfs(t, "size=1m")
	o := &Opts{Chunk: 4096}
	j := started(t, dir, "40/5400+30:1800+30", o)
	var want []clocklog.Event
	add := func(e clocklog.Event) error {
		if len(want) > 0 && e.Verb == clocklog.Checkpoint && want[len(want)-1].Verb == clocklog.Checkpoint && j.Pending() > 0 {
			want[len(want)-1] = e // a held checkpoint replaces a held checkpoint
		} else {
			want = append(want, e)
		}
		_, err := j.Append(e)
		return err
	}
	at := int64(0)
	add(ev(0, clocklog.Start, clock.NoSide))
	for j.size-j.end > 30 {
		at += 1000
		if err := add(ev(at, clocklog.Checkpoint, clock.NoSide)); err != nil {
			t.Fatal(err)
		}
	}
	filler := fillDisk(t, dir)
	presses := []clocklog.Event{ev(at+400, clocklog.Press, clock.White), ev(at+1000, clocklog.Checkpoint, clock.NoSide),
		ev(at+2000, clocklog.Checkpoint, clock.NoSide), ev(at+2600, clocklog.Press, clock.Black), ev(at+3000, clocklog.Checkpoint, clock.NoSide)}
	var held int
	for _, e := range presses {
		err := add(e)
		var je *Error
		if err == nil {
			continue // the line still fitted in the preallocated end
		}
		if !errors.As(err, &je) || !errors.Is(err, syscall.ENOSPC) || je.Held == 0 || je.Lost != 0 {
			t.Fatalf("append on a full disk: %v", err)
		}
		if je.Path != filepath.Join(dir, File) || strings.Contains(err.Error(), ".new") {
			t.Errorf("the error names another file: %v", err)
		}
		held = je.Held
	}
	if held == 0 || j.Pending() != held {
		t.Fatalf("nothing held on a full disk (%d, pending %d): the test did not fill it", held, j.Pending())
	}
	// A crash now finds every line written so far, and no partial one.
	if r, err := Recover(j.Path()); err != nil || len(r.Dropped) != 0 || r.Events != len(want)-held {
		t.Fatalf("on the full disk: %v, %+v, want %d events", err, r, len(want)-held)
	}
	if _, err := j.Retry(); err == nil || j.Cleared() {
		t.Error("retry on a full disk succeeded")
	}
	os.Remove(filler)
	// The caller's loop retries (a paused clock appends nothing).
	if _, err := j.Retry(); err != nil || !j.Cleared() || j.Pending() != 0 {
		t.Fatalf("space is back: %v, cleared %v, pending %d", err, j.Cleared(), j.Pending())
	}
	if err := add(ev(at+4000, clocklog.Press, clock.White)); err != nil || j.Cleared() {
		t.Errorf("the next append: %v, cleared again %v", err, j.Cleared())
	}
	if err := add(ev(at+5000, clocklog.Checkpoint, clock.NoSide)); err != nil {
		t.Fatal(err)
	}
	// SIGKILL: nothing closed; a new process opens the directory.
	_, r := open(t, dir, o)
	if len(r.Dropped) != 0 || r.Events != len(want) || r.Last != at+5000 {
		t.Fatalf("recovered %d events to %d, dropped %v; want %d to %d", r.Events, r.Last, r.Dropped, len(want), at+5000)
	}
	f, _ := os.Open(j.Path())
	l, err := clocklog.Parse(File, Unpad(f))
	f.Close()
	if err != nil || len(l.Events) != len(want)+1 || l.Events[len(want)].Verb != clocklog.Pause {
		t.Fatalf("journal after the restart: %v, %d events", err, len(l.Events))
	}
	for i, e := range want {
		if l.Events[i] != e {
			t.Fatalf("event %d: journal has %v, want %v", i, l.Events[i], e)
		}
	}
}

// TestReadOnlyThenWritable: a card remounted read-only under a game
// still gives the game back; what is played is held, and written when the
// file system is writable again, after the recovered part.
func TestReadOnlyThenWritable(t *testing.T) {
	dir := mountTmpfs(t, "size=1m")
	j := started(t, dir, "300", nil)
	appendAll(t, j, ev(0, clocklog.Start, clock.NoSide), ev(2000, clocklog.Press, clock.White), ev(3000, clocklog.Checkpoint, clock.NoSide))
	j.Close()
	if err := exec.Command("mount", "-o", "remount,ro", dir).Run(); err != nil {
		t.Skip("remount:", err)
	}
	j2, r, err := Open(dir, nil)
	if r.Clock == nil || r.Events != 3 || !r.Paused || !errors.Is(err, syscall.EROFS) || j2.Pending() != 1 {
		t.Fatalf("read-only: %v, %+v, pending %d", err, r, j2.Pending())
	}
	if _, err := j2.Append(ev(3000, clocklog.Resume, clock.NoSide)); !errors.Is(err, syscall.EROFS) || j2.Pending() != 2 {
		t.Fatalf("append read-only: %v", err)
	}
	if err := exec.Command("mount", "-o", "remount,rw", dir).Run(); err != nil {
		t.Fatal(err)
	}
	if _, err := j2.Append(ev(4000, clocklog.Press, clock.Black)); err != nil || !j2.Cleared() {
		t.Fatalf("writable again: %v", err)
	}
	_, r = open(t, dir, nil)
	if r.Events != 6 || len(r.Dropped) != 0 || r.Clock.State(r.Last).Player[clock.Black].Moves != 1 {
		t.Errorf("after the remount: %+v", r)
	}
}

// TestFailedWriteRolledBack: the bytes of a failed write after the last
// line are zeroed before anything else, so a crash finds no partial line,
// and a later, shorter write leaves none of them behind.
func TestFailedWriteRolledBack(t *testing.T) {
	dir := t.TempDir()
	j := started(t, dir, "300", nil)
	appendAll(t, j, ev(0, clocklog.Start, clock.NoSide))
	end := j.end
	// What a short write leaves: part of a line after the last one.
	j.f.WriteAt([]byte("3678 p"), end)
	j.dirty = end + 6
	j.rollback()
	if r, err := Recover(j.Path()); err != nil || len(r.Dropped) != 0 || r.Events != 1 {
		t.Fatalf("after the rollback: %v %+v", err, r)
	}
	// The rollback could not write either: the next write covers it.
	j.f.WriteAt([]byte("3678 press white\n4000 che"), end)
	j.dirty = end + 26
	j.datasync = func(*os.File) error { return syscall.EIO }
	j.rollback()
	if j.dirty != end+26 {
		t.Fatal("a rollback that could not sync is taken as done")
	}
	_, err := j.Append(ev(3678, clocklog.Press, clock.White))
	if !errors.Is(err, syscall.EIO) || j.Pending() != 1 {
		t.Fatalf("append with a failing sync: %v, pending %d", err, j.Pending())
	}
	j.datasync = fdatasync
	appendAll(t, j, ev(3800, clocklog.Pause, clock.NoSide))
	var want []byte
	for _, e := range []clocklog.Event{ev(0, clocklog.Start, clock.NoSide), ev(3678, clocklog.Press, clock.White), ev(3800, clocklog.Pause, clock.NoSide)} {
		want = clocklog.AppendEvent(want, e)
	}
	if got := text(t, j.Path()); !strings.HasSuffix(got, "\n"+string(want)) {
		t.Errorf("journal ends %q, want %q", got[len(got)-len(want):], want)
	}
	if r, err := Recover(j.Path()); err != nil || len(r.Dropped) != 0 || r.Events != 3 {
		t.Fatalf("after the next write: %v %+v", err, r)
	}
}

// TestDevFull: a journal on /dev/full holds its lines and says the disk is
// full, naming the file.
func TestDevFull(t *testing.T) {
	f, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	j := Wrap(f)
	_, err = j.Append(ev(0, clocklog.Start, clock.NoSide))
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "/dev/full: no space left on device; 1 lines held") {
		t.Errorf("%v", err)
	}
	if err := j.Start(header(t, "60"), false); err == nil {
		t.Error("Start without a state directory")
	}
}

// TestHeldBounded: a full disk holds one line per press, not per
// checkpoint, and past MaxHeld lines the journal stops rather than skip.
func TestHeldBounded(t *testing.T) {
	f, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	j := Wrap(f)
	j.o.MaxHeld = 4
	j.Append(ev(0, clocklog.Start, clock.NoSide))
	for at := int64(1000); at < 60000; at += 1000 {
		j.Append(ev(at, clocklog.Checkpoint, clock.NoSide))
	}
	if j.Pending() != 2 || j.held[1].e.At != 59000 {
		t.Fatalf("held %v", j.held)
	}
	j.Append(ev(60000, clocklog.Press, clock.White))
	j.Append(ev(61000, clocklog.Press, clock.Black))
	_, err = j.Append(ev(62000, clocklog.Press, clock.White))
	var je *Error
	if !errors.As(err, &je) || je.Lost != 1 || j.Pending() != 4 {
		t.Fatalf("past MaxHeld: %v", err)
	}
	if _, err := j.Append(ev(63000, clocklog.Checkpoint, clock.NoSide)); !errors.As(err, &je) || je.Lost != 2 {
		t.Errorf("after a lost line: %v", err)
	}
}

// asUser runs f with the file permissions of uid (as the daemon's own
// user has them), on this thread only.
func asUser(t *testing.T, uid int, f func()) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to take another user's file permissions")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	unix.Setfsuid(uid)
	defer unix.Setfsuid(0)
	if got, _ := unix.SetfsuidRetUid(-1); got != uid {
		t.Skip("setfsuid did not take")
	}
	f()
}

// TestUnreadableKept: a journal the daemon cannot read (mode 000) is never
// replaced nor removed: it is moved aside whole, the report says why, the
// new game starts in game.log, and the next start recovers that.
func TestUnreadableKept(t *testing.T) {
	dir := t.TempDir()
	os.Chmod(filepath.Dir(dir), 0o755)
	os.Chmod(dir, 0o777)
	j := started(t, dir, "300", nil)
	appendAll(t, j, ev(0, clocklog.Start, clock.NoSide), ev(5000, clocklog.Press, clock.White))
	j.Close()
	path := filepath.Join(dir, File)
	game, _ := os.ReadFile(path)
	os.Chmod(path, 0)
	asUser(t, 65534, func() {
		j, r, err := Open(dir, nil)
		if err != nil || r.Clock != nil || !errors.Is(r.Lost, syscall.EACCES) {
			t.Fatalf("unreadable journal: %v %+v", err, r)
		}
		if !strings.Contains(r.Lost.Error(), "journal: open "+path+": permission denied") {
			t.Errorf("lost: %v", r.Lost)
		}
		if len(r.Notes) != 1 || !strings.Contains(r.Notes[0], "kept as game.log.kept.1") || len(r.Kept) != 1 || r.Kept[0] != path+".kept.1" {
			t.Errorf("notes %q, kept %q", r.Notes, r.Kept)
		}
		if err := j.Start(header(t, "60"), false); err != nil {
			t.Fatal(err)
		}
		appendAll(t, j, ev(0, clocklog.Start, clock.NoSide))
	})
	if b, _ := os.ReadFile(filepath.Join(dir, File+".kept.1")); !bytes.Equal(b, game) {
		t.Error("the unreadable journal is not kept as it was")
	}
	if fi, _ := os.Stat(filepath.Join(dir, File+".kept.1")); fi.Mode().Perm() != 0 {
		t.Errorf("kept with mode %v", fi.Mode())
	}
	_, r := open(t, dir, nil)
	if r.Clock == nil || r.Events != 1 || r.Lost != nil {
		t.Errorf("the new game: %+v", r)
	}
}

// TestUnmovableJournal: a journal that can be neither read nor moved aside
// (here a directory with a file system mounted on it) stays where it is;
// the new game goes on in game-1.log, and every later start recovers that.
func TestUnmovableJournal(t *testing.T) {
	dir := t.TempDir()
	stuck := filepath.Join(dir, File)
	os.Mkdir(stuck, 0o755)
	if err := exec.Command("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", stuck).Run(); err != nil {
		t.Skip("cannot mount a tmpfs here (needs root):", err)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", stuck).Run() })
	os.WriteFile(filepath.Join(stuck, "notes.txt"), []byte("kept\n"), 0o644)
	j, r := open(t, dir, nil)
	if !errors.Is(r.Lost, regfile.ErrNotRegular) || len(r.Notes) != 1 || !strings.Contains(r.Notes[0], "left as it is; the new game goes to game-1.log") {
		t.Fatalf("lost %v, notes %q", r.Lost, r.Notes)
	}
	if err := j.Start(header(t, "300"), false); err != nil {
		t.Fatal(err)
	}
	appendAll(t, j, ev(0, clocklog.Start, clock.NoSide), ev(3000, clocklog.Press, clock.White))
	if j.Path() != filepath.Join(dir, "game-1.log") {
		t.Errorf("the new game is in %s", j.Path())
	}
	for i := 0; i < 2; i++ {
		j.Close()
		j, r = open(t, dir, nil)
		if r.Clock == nil || r.File != filepath.Join(dir, "game-1.log") || r.Clock.State(r.Last).Player[clock.White].Moves != 1 {
			t.Fatalf("start %d: recovered %+v", i+2, r)
		}
		if len(r.Notes) != 1 || !strings.Contains(r.Notes[0], "game.log is older than game-1.log and could not be moved aside") {
			t.Errorf("notes %q", r.Notes)
		}
	}
	// A new game archives game-1.log and goes on in game-1.log again.
	if err := j.Start(header(t, "300"), true); err != nil {
		t.Fatal(err)
	}
	if j.Path() != filepath.Join(dir, "game-1.log") {
		t.Errorf("the next game is in %s", j.Path())
	}
	if b, _ := os.ReadFile(filepath.Join(stuck, "notes.txt")); string(b) != "kept\n" {
		t.Error("what was in the journal's place is gone")
	}
}

// TestLeftoverGenerations: once the older journal can be moved, the next
// start keeps it aside and the newest goes on.
func TestLeftoverGenerations(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, File), []byte("an old game\n"), 0o644)
	j := started(t, dir, "300", nil) // the garbage is kept as a damaged copy
	j.Close()
	os.Rename(filepath.Join(dir, File), filepath.Join(dir, "game-2.log"))
	os.WriteFile(filepath.Join(dir, File), []byte("an old game\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "game-2.log.new"), []byte("interrupted"), 0o644)
	j, r := open(t, dir, nil)
	if r.Clock == nil || r.File != filepath.Join(dir, "game-2.log") {
		t.Fatalf("recovered %+v", r)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, File+".kept.1")); string(b) != "an old game\n" {
		t.Errorf("older generation not kept: %q", r.Notes)
	}
	if _, err := os.Stat(filepath.Join(dir, "game-2.log.new")); err == nil {
		t.Error("an interrupted creation's file stays")
	}
	if err := j.Start(header(t, "300"), false); err != nil || j.Path() != filepath.Join(dir, "game-2.log") {
		t.Errorf("an unstarted game is replaced in place: %v %s", err, j.Path())
	}
	if err := j.Start(header(t, "300"), true); err != nil || j.Path() != filepath.Join(dir, File) {
		t.Errorf("after archiving, the journal is game.log again: %v %s", err, j.Path())
	}
}

// TestNotAFile: a link to /dev/zero, a named pipe, a directory in the
// journal's place: Open neither blocks nor follows them, moves them aside
// and reports them; the new game gets a real file.
func TestNotAFile(t *testing.T) {
	cases := map[string]func(p string) error{
		"symlink to /dev/zero": func(p string) error { return os.Symlink("/dev/zero", p) },
		"named pipe":           func(p string) error { return syscall.Mkfifo(p, 0o644) },
		"directory":            func(p string) error { return os.Mkdir(p, 0o755) },
		"device":               func(p string) error { return syscall.Mknod(p, syscall.S_IFCHR|0o644, int(unix.Mkdev(1, 5))) },
	}
	for name, plant := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, File)
			if err := plant(path); err != nil {
				t.Skip(err)
			}
			before, _ := os.Lstat(path)
			done := make(chan *Report, 1)
			var j *Journal
			go func() {
				var r *Report
				j, r, _ = Open(dir, nil)
				done <- r
			}()
			var r *Report
			select {
			case r = <-done:
			case <-time.After(5 * time.Second):
				t.Fatal("Open blocks")
			}
			if r.Lost == nil || len(r.Notes) != 1 || !strings.Contains(r.Notes[0], "kept as game.log.kept.1") {
				t.Errorf("lost %v, notes %q", r.Lost, r.Notes)
			}
			if after, err := os.Lstat(path + ".kept.1"); err != nil || after.Mode() != before.Mode() {
				t.Errorf("not kept aside as it was: %v", err)
			}
			if err := j.Start(header(t, "300"), false); err != nil {
				t.Fatal(err)
			}
			if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
				t.Errorf("new journal: %v", err)
			}
		})
	}
}

// TestDamagedCopiesKept: every damaged journal is kept, numbered; past
// MaxDamaged bytes in all the oldest go, the newest stays.
func TestDamagedCopiesKept(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, File)
	o := &Opts{MaxDamaged: 1000}
	os.WriteFile(path+".damaged", []byte("from an earlier version\n"), 0o644)
	var copies [][]byte
	for i := 0; i < 5; i++ {
		b := []byte("control 300\n0 start\n1000 press white\n" + strings.Repeat("# padding\n", 10*i) + "20\x00 garbage\n")
		os.WriteFile(path, b, 0o644)
		copies = append(copies, b)
		j, r := open(t, dir, o)
		if r.Events != 2 || len(r.Dropped) == 0 {
			t.Fatalf("damage %d: %+v", i+1, r)
		}
		j.Close()
	}
	var total int64
	for i := 4; i >= 0; i-- {
		b, err := os.ReadFile(filepath.Join(dir, keptName(Damaged, i+1)))
		if err == nil && !bytes.Equal(b, copies[i]) {
			t.Errorf("damaged copy %d is not the damaged journal", i+1)
		}
		if i == 4 && err != nil {
			t.Error("the newest damaged copy is gone")
		}
		total += int64(len(b))
	}
	if _, err := os.Stat(path + ".damaged"); err == nil {
		t.Error("the earlier version's copy was not counted")
	}
	if _, err := os.Stat(filepath.Join(dir, keptName(Damaged, 4))); err != nil {
		t.Error("a copy that fits the bound was removed")
	}
	if total > 1000 {
		t.Errorf("damaged copies take %d bytes, bound 1000", total)
	}
	// One copy larger than the bound alone is kept all the same.
	big := []byte("control 300\n0 start\n" + strings.Repeat("# padding\n", 200) + "20\x00 garbage\n")
	os.WriteFile(path, big, 0o644)
	open(t, dir, o)
	if b, _ := os.ReadFile(filepath.Join(dir, keptName(Damaged, 6))); !bytes.Equal(b, big) {
		t.Error("a damaged copy over the bound is not kept")
	}
}

// heapPeak runs f and returns the most live heap while it ran, sampled
// every 2 ms.
func heapPeak(f func()) uint64 {
	// The live heap as the last collection marked it, not HeapInuse: on a
	// busy machine the collector runs late, and the garbage it has not
	// yet swept is no memory the recovery holds.
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	read := func() uint64 {
		metrics.Read(live)
		return live[0].Value.Uint64()
	}
	runtime.GC()
	stop := make(chan bool)
	peak := make(chan uint64)
	go func() {
		var hi uint64
		for {
			select {
			case <-stop:
				peak <- hi
				return
			case <-time.After(2 * time.Millisecond):
				hi = max(hi, read())
			}
		}
	}()
	f()
	// What f keeps after it returns is marked by one more collection.
	runtime.GC()
	close(stop)
	return max(<-peak, read())
}

var heldForTest []byte

// TestHeapPeak: heapPeak sees memory kept. (Garbage is not asserted: what
// is allocated while the collector marks counts as live for that cycle,
// so on a busy machine a burst of garbage can read as tens of MB.)
func TestHeapPeak(t *testing.T) {
	kept := heapPeak(func() {
		heldForTest = make([]byte, 64<<20)
		heldForTest[len(heldForTest)-1] = 1
	})
	heldForTest = nil
	if kept < 64<<20 {
		t.Errorf("64 MB kept measured as %d MB", kept>>20)
	}
}

// TestHugeJournal recovers a 100 MB journal as the journal writes it (a
// checkpoint a second restating the header, a press every 20 seconds, the
// zero padding) in bounded memory: whole, in place, nothing rewritten;
// with a line destroyed in its middle, every other event kept, the game
// rewritten to a fresh file and the damaged one kept.
func TestHugeJournal(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 100 MB")
	}
	h := header(t, "40/5400+30:1800+30")
	for _, damaged := range []bool{false, true} {
		name := "whole"
		if damaged {
			name = "one line destroyed"
		}
		t.Run(name, func(t *testing.T) {
			damage := damaged
			dir := t.TempDir()
			path := filepath.Join(dir, File)
			f, _ := os.Create(path)
			b := clocklog.AppendHeader(nil, h)
			b = clocklog.AppendEvent(b, ev(0, clocklog.Start, clock.NoSide))
			events := 1
			at := int64(0)
			for size := 0; size < 100<<20; {
				for len(b) < 1<<20 {
					at += 1000
					side := []clock.Side{clock.White, clock.Black}[events/20%2]
					if events%20 == 19 {
						b = clocklog.AppendEvent(b, ev(at, clocklog.Press, side))
					} else {
						b = clocklog.AppendCheckpoint(b, at, side, h)
					}
					events++
				}
				if damage && size >= 50<<20 {
					i := bytes.IndexByte(b, '\n') + 1
					copy(b[i:], "# destroyed")
					damage = false
				}
				f.Write(b)
				size += len(b)
				b = b[:0]
			}
			f.Write(make([]byte, 40000))
			f.Close()
			fi, _ := os.Stat(path)
			var j *Journal
			var r *Report
			var took time.Duration
			hi := heapPeak(func() {
				t0 := time.Now()
				j, r = open(t, dir, nil)
				took = time.Since(t0)
			})
			defer j.Close()
			t.Logf("%d MB journal, %d events: recovered in %v, at most %d MB of heap in use; %s", fi.Size()>>20, r.Events, took, hi>>20, r.Salvage)
			want := events
			if damaged {
				want-- // a checkpoint: the lines after it follow without it
			}
			if r.Events != want || r.Last != at || !r.Paused || r.Salvage.Dropped != btoi(damaged) || r.Salvage.Lines < events {
				t.Errorf("recovered %d events to %d (paused %v), %s, %v; want %d to %d", r.Events, r.Last, r.Paused, r.Salvage, r.Dropped, want, at)
			}
			// 4 MB measured; the bound leaves room for a collector
			// slowed by a busy machine, and still catches a journal held.
			if hi > 16<<20 {
				t.Errorf("recovery held %d MB of heap", hi>>20)
			}
			st := j.Stats()
			if !damaged && st.Bytes > 100 {
				t.Errorf("recovery rewrote %d bytes", st.Bytes)
			}
			if damaged {
				if kept, err := os.Stat(path + ".damaged.1"); err != nil || kept.Size() != fi.Size() {
					t.Errorf("the damaged journal is not kept: %v", err)
				}
				if got, err := Recover(path); err != nil || got.Events != want+1 || len(got.Dropped) != 0 {
					t.Errorf("the rewritten journal: %v %+v", err, got)
				}
			}
		})
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestStartOnFullDisk: a new game while the finished one's lines are held
// says they are lost, and the new game's lines are held until the disk
// takes them.
func TestStartOnFullDisk(t *testing.T) {
	dir := mountTmpfs(t, "size=256k")
	o := &Opts{Chunk: 4096}
	j := started(t, dir, "300", o)
	appendAll(t, j, ev(0, clocklog.Start, clock.NoSide))
	for j.size-j.end > 10 {
		appendAll(t, j, ev(1000, clocklog.Checkpoint, clock.NoSide))
	}
	filler := fillDisk(t, dir)
	j.Append(ev(2000, clocklog.Press, clock.White))
	if j.Pending() == 0 {
		t.Fatal("nothing held: the disk is not full")
	}
	err := j.Start(header(t, "60"), true)
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "game.log: the finished game's last 1 lines are lost: no space left on device") {
		t.Errorf("start on a full disk: %v", err)
	}
	if _, err := j.Append(ev(0, clocklog.Start, clock.NoSide)); !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("append: %v", err)
	}
	os.Remove(filler)
	if _, err := j.Retry(); err != nil || !j.Cleared() {
		t.Fatalf("space is back: %v", err)
	}
	j.Close()
	_, r := open(t, dir, o)
	if r.Events != 1 || timecontrol.FormatPair(r.Header.Controls) != "60" {
		t.Errorf("the new game: %+v", r)
	}
	if games, _ := os.ReadDir(filepath.Join(dir, Archive)); len(games) != 1 {
		t.Errorf("archive: %v", games)
	}
}

// TestAppendReturnsLines: Append and Note hand back the numbered lines a
// write made durable, as the file holds them: an event's line alone, the
// held lines first once a failed disk takes them again, no comment, a
// checkpoint restating the header, and nothing while the lines are held.
func TestAppendReturnsLines(t *testing.T) {
	dir := t.TempDir()
	j := started(t, dir, "300", nil)
	line := func(e clocklog.Event) string {
		b := clocklog.AppendEvent(nil, e)
		return string(b[:len(b)-1])
	}
	start, white, black := ev(0, clocklog.Start, clock.NoSide), ev(2000, clocklog.Press, clock.White), ev(3000, clocklog.Press, clock.Black)
	check := func(what string, got []string, err error, want ...string) {
		t.Helper()
		if err != nil || strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: %q, %v; want %q", what, got, err, want)
		}
	}
	lines, err := j.Append(start)
	check("start", lines, err, line(start))
	lines, err = j.Note("a note")
	check("note", lines, err)

	j.datasync = func(*os.File) error { return syscall.EIO }
	if lines, err := j.Append(white); err == nil || lines != nil || j.Pending() != 1 {
		t.Fatalf("append on a failing disk: %q, %v, %d held", lines, err, j.Pending())
	}
	if lines, err := j.Note("held note"); err == nil || lines != nil {
		t.Fatalf("note on a failing disk: %q, %v", lines, err)
	}
	j.datasync = fdatasync
	lines, err = j.Append(black)
	check("after the fault", lines, err, line(white), line(black))

	cp := ev(4000, clocklog.Checkpoint, clock.White)
	lines, err = j.Append(cp)
	b := clocklog.AppendCheckpoint(nil, cp.At, cp.Side, header(t, "300"))
	check("checkpoint", lines, err, string(b[:len(b)-1]))

	// What was handed back is what the file holds after its header.
	data, err := os.ReadFile(j.Path())
	if err != nil {
		t.Fatal(err)
	}
	var onDisk []string
	for _, l := range strings.Split(string(bytes.TrimRight(data, "\x00")), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") && !strings.HasPrefix(l, "format") && !strings.HasPrefix(l, "control") && !strings.HasPrefix(l, "option") {
			onDisk = append(onDisk, l)
		}
	}
	check("file", onDisk, nil, line(start), line(white), line(black), string(b[:len(b)-1]))
}
