package ui

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/engine/clocklog/clocklogtest"
	"golang.org/x/sys/unix"
)

// The journal's faults, played through the core: what the arbiter sees and
// what a restart gives back.

// logged collects the core's notices.
type logged struct{ lines []string }

func (l *logged) add(s string) { l.lines = append(l.lines, s) }

func (l *logged) find(sub string) string {
	for _, s := range l.lines {
		if strings.Contains(s, sub) {
			return s
		}
	}
	return ""
}

// restart starts a core on dir as the daemon does after a SIGKILL: the old
// core is dropped without closing anything.
func restart(t *testing.T, dir string, l *logged) *driver {
	return newDriver(t, Opts{StateDir: dir, Log: l.add})
}

// fillDisk writes a file in dir until the file system is full and returns
// its name.
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

// sameGame compares a recovered status with the truth before the crash:
// counts exact, the waiting side's time exact, the running side's within
// the second a checkpoint may lag.
func sameGame(t *testing.T, truth, got Status) {
	t.Helper()
	if truth.Running != "none" && (!got.Recovered || !got.Paused) {
		t.Errorf("not recovered paused: %+v", got)
	}
	for _, side := range []string{"white", "black"} {
		tp, gp := truth.White, got.White
		if side == "black" {
			tp, gp = truth.Black, got.Black
		}
		if gp.Moves != tp.Moves || gp.Period != tp.Period || gp.Flag != tp.Flag {
			t.Errorf("%s: recovered %+v, truth %+v", side, gp, tp)
		}
		d := gp.Ms - tp.Ms
		hi := int64(0)
		if side == truth.Running {
			hi = 1000
		}
		if d < 0 || d > hi {
			t.Errorf("%s: recovered time off by %d ms", side, d)
		}
	}
}

// TestDiskFullThenSpaceReturns fills the state directory's file system in
// the middle of a game, plays on for two hours (the journal runs out of
// room), frees the space, plays on, and kills the daemon: every move comes
// back, the times are right, and the DISK FULL banner went when the space
// came back.
func TestDiskFullThenSpaceReturns(t *testing.T) {
	dir := mountTmpfs(t, "size=1m")
	var l logged
	d := restart(t, dir, &l)
	levers := []string{Left, Right}
	d.press(Right)
	for m := 0; m < 5; m++ {
		d.wait(7 * time.Second)
		d.press(levers[m%2])
	}
	filler := fillDisk(t, dir)
	for m := 5; m < 17; m++ {
		d.wait(10 * time.Minute)
		d.press(levers[m%2])
	}
	if st := d.status(); st.Warning != "DISK FULL" {
		t.Errorf("two hours on a full disk: warning %q", st.Warning)
	}
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	d.wait(3 * time.Second)
	d.press(Right)
	d.wait(2 * time.Second)
	truth := d.status()
	if truth.Warning != "" || d.c.View(d.now).Game.Banner != "" {
		t.Errorf("space is back: warning %q, banner %q", truth.Warning, d.c.View(d.now).Game.Banner)
	}
	if truth.White.Moves != 9 || truth.Black.Moves != 9 {
		t.Fatalf("the game itself went wrong: %+v", truth)
	}
	d2 := restart(t, dir, &l)
	sameGame(t, truth, d2.status())
	if s := l.find("recovery:"); s != "" {
		t.Errorf("recovery dropped events: %s", s)
	}
	if s := l.find(".new"); s != "" {
		t.Errorf("notice names a file the journal is not: %s", s)
	}
}

// asUser runs f with the file system permissions of uid (as the daemon's
// own user would have them), on this thread only.
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

// filesWith lists the files under dir whose content is want.
func filesWith(dir string, want []byte) []string {
	var found []string
	filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err == nil && e.Type().IsRegular() {
			if b, err := os.ReadFile(p); err == nil && bytes.Equal(b, want) {
				found = append(found, p)
			}
		}
		return nil
	})
	return found
}

// TestUnreadableJournalKept starts the daemon (as its own user) on a
// journal it cannot read: it says JOURNAL LOST, starts a new game in
// another file and keeps the old one intact; the next start recovers the
// new game.
func TestUnreadableJournalKept(t *testing.T) {
	dir := t.TempDir()
	os.Chmod(filepath.Dir(dir), 0o755) // t.TempDir's own, for the other user
	os.Chmod(dir, 0o777)
	d := restart(t, dir, &logged{})
	d.press(Right)
	d.wait(5 * time.Second)
	d.press(Left)
	d.c.Close()
	path := filepath.Join(dir, "game.log")
	game, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(path, 0)
	var l logged
	asUser(t, 65534, func() {
		d = restart(t, dir, &l)
		if st := d.status(); st.Warning != "JOURNAL LOST" || st.White.Moves != 0 {
			t.Errorf("unreadable journal: %+v", st)
		}
		d.press(Right)
		d.wait(3 * time.Second)
		d.press(Left)
	})
	if kept := filesWith(dir, game); len(kept) != 1 {
		t.Errorf("the unreadable game is kept in %v, want one copy; notices %q", kept, l.lines)
	}
	if s := l.find("permission denied"); s == "" {
		t.Errorf("no notice says why: %q", l.lines)
	}
	// The next start (the journal readable again or not) recovers the
	// new game, not the old one.
	asUser(t, 65534, func() {
		d2 := restart(t, dir, &l)
		if st := d2.status(); !st.Recovered || st.White.Moves != 1 || st.Warning != "" {
			t.Errorf("the new game after a restart: %+v", st)
		}
	})
}

// TestEveryDamagedCopyKept damages the journal twice: both damaged
// journals are kept for the arbiter.
func TestEveryDamagedCopyKept(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "game.log")
	var damaged [][]byte
	for _, tail := range []string{"20\x00\x00 garbage\n3000 press black\n", "2500 jump\n4000 pause\n"} {
		b := []byte("format 1\ncontrol 300\n0 start\n1000 press white\n" + tail)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		damaged = append(damaged, b)
		var l logged
		d := restart(t, dir, &l)
		if st := d.status(); !st.Recovered || st.White.Moves != 1 {
			t.Errorf("damaged journal: %+v", st)
		}
		d.c.Close()
	}
	for i, b := range damaged {
		if kept := filesWith(dir, b); len(kept) != 1 {
			t.Errorf("damaged journal %d kept in %v, want one copy", i+1, kept)
		}
	}
}

// TestJournalNotAFile puts a symbolic link to /dev/zero and a directory in
// the journal's place: start-up neither hangs nor loses what was there, and
// the new game is journaled.
func TestJournalNotAFile(t *testing.T) {
	cases := []struct {
		name  string
		plant func(path string) error
		check func(dir string) error
	}{
		{"symlink to /dev/zero", func(p string) error { return os.Symlink("/dev/zero", p) }, func(dir string) error {
			found := false
			filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
				if err == nil && e.Type()&fs.ModeSymlink != 0 {
					if to, _ := os.Readlink(p); to == "/dev/zero" {
						found = true
					}
				}
				return nil
			})
			if !found {
				return errors.New("the link is gone")
			}
			return nil
		}},
		{"directory", func(p string) error {
			if err := os.Mkdir(p, 0o755); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(p, "notes.txt"), []byte("the arbiter's notes\n"), 0o644)
		}, func(dir string) error {
			if len(filesWith(dir, []byte("the arbiter's notes\n"))) != 1 {
				return errors.New("the directory's file is gone")
			}
			return nil
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := tc.plant(filepath.Join(dir, "game.log")); err != nil {
				t.Fatal(err)
			}
			var l logged
			started := make(chan *driver, 1)
			go func() { started <- restart(t, dir, &l) }()
			var d *driver
			select {
			case d = <-started:
			case <-time.After(5 * time.Second):
				t.Fatal("start-up hangs")
			}
			if len(l.lines) == 0 {
				t.Error("nothing reported")
			}
			d.press(Right)
			d.wait(4 * time.Second)
			d.press(Left)
			truth := d.status()
			if truth.Warning != "" && truth.Warning != "JOURNAL LOST" {
				t.Errorf("warning %q: the new game is not journaled", truth.Warning)
			}
			sameGame(t, truth, restart(t, dir, &logged{}).status())
			if err := tc.check(dir); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestHugeJournalRecovery recovers a 100 MB journal in bounded memory:
// the journal of a clock run for 12 days (clocklogtest.LongJournal).
func TestHugeJournalRecovery(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 100 MB")
	}
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "game.log"))
	if err != nil {
		t.Fatal(err)
	}
	b, presses := clocklogtest.LongJournal(100 << 20)
	f.Write(b)
	f.Close()
	b = nil
	runtime.GC()
	peak := make(chan uint64)
	stop := make(chan bool)
	go func() {
		var m runtime.MemStats
		var hi uint64
		for {
			select {
			case <-stop:
				peak <- hi
				return
			case <-time.After(2 * time.Millisecond):
				runtime.ReadMemStats(&m)
				hi = max(hi, m.HeapInuse)
			}
		}
	}()
	t0 := time.Now()
	d := restart(t, dir, &logged{})
	took := time.Since(t0)
	close(stop)
	hi := <-peak
	t.Logf("100 MB journal: recovered in %v, heap in use at most %d MB", took, hi>>20)
	if st := d.status(); !st.Recovered || st.Running != "none" || st.White.Moves+st.Black.Moves != presses {
		t.Errorf("%+v, want %d moves", st, presses)
	}
	// 4 MB measured; the bound leaves room for a collector slowed by a
	// busy machine, and still catches a journal held in memory.
	if hi > 16<<20 {
		t.Errorf("recovery held %d MB of heap", hi>>20)
	}
	// Its speed is a benchmark's, not a timed test's: BenchmarkRecover
	// (appliance/session).
}
