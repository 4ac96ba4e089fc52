package journal

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
)

func header(t *testing.T, spec string) clocklog.Header {
	pair, err := timecontrol.ParsePair(spec)
	if err != nil {
		t.Fatal(err)
	}
	return clocklog.Header{Format: clocklog.Format, Controls: pair, Options: clock.DefaultOptions}
}

func ev(at int64, v clocklog.Verb, s clock.Side) clocklog.Event {
	return clocklog.Event{At: at, Verb: v, Side: s}
}

func TestAppendAndRecover(t *testing.T) {
	path := filepath.Join(t.TempDir(), File)
	j, err := Create(path, header(t, "300+2"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []clocklog.Event{
		ev(0, clocklog.Start, clock.NoSide),
		ev(4000, clocklog.Press, clock.White),
		ev(9000, clocklog.Checkpoint, clock.NoSide),
	} {
		if err := j.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	if st := j.Stats(); st.Syncs != 4 || st.Bytes == 0 {
		t.Errorf("stats %+v: want 4 syncs (header and three events)", st)
	}
	j.Close()

	r, err := Recover(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Dropped) != 0 || r.Last != 9000 || !r.Paused {
		t.Fatalf("recovered %+v", r)
	}
	st := r.Clock.State(60000) // time passes: the clock must stay paused
	if !st.Paused || st.Running != clock.NoSide {
		t.Errorf("not paused after recovery: %+v", st)
	}
	if w, b := st.Player[clock.White].Ms, st.Player[clock.Black].Ms; w != 300000-4000+2000+2000 || b != 302000-5000 {
		t.Errorf("times %d %d", w, b)
	}
	// Rewrite and append again: the recovered game goes on.
	j, err = Create(path, r.Log.Header, r.Events()...)
	if err != nil {
		t.Fatal(err)
	}
	j.Append(ev(9000, clocklog.Resume, clock.NoSide))
	j.Append(ev(10000, clocklog.Press, clock.Black))
	j.Close()
	r2, err := Recover(path)
	if err != nil || len(r2.Dropped) != 0 {
		t.Fatal(err, r2.Dropped)
	}
	if got := r2.Clock.State(10000).Player[clock.Black].Moves; got != 1 {
		t.Errorf("black moves %d after the resumed game", got)
	}
}

// TestTornWriteEveryOffset cuts the journal at every byte offset of its last
// record: recovery must succeed each time, keep every earlier event, and Open
// must leave a file that new lines can be appended to cleanly.
func TestTornWriteEveryOffset(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, File)
	j, _ := Create(path, header(t, "40/5400+30:1800+30"))
	j.Append(ev(0, clocklog.Start, clock.NoSide))
	j.Append(ev(61000, clocklog.Press, clock.White))
	j.Close()
	whole, _ := os.ReadFile(path)
	lastStart := strings.LastIndex(strings.TrimSuffix(string(whole), "\n"), "\n") + 1
	for cut := lastStart; cut <= len(whole); cut++ {
		os.WriteFile(path, whole[:cut], 0o644)
		r, err := Recover(path)
		if err != nil {
			t.Fatalf("cut %d: %v", cut, err)
		}
		wantEvents := 1
		if cut == len(whole) {
			wantEvents = 2
		}
		if len(r.Log.Events) != wantEvents {
			t.Fatalf("cut %d: %d events, want %d", cut, len(r.Log.Events), wantEvents)
		}
		if cut > lastStart && cut < len(whole) && len(r.Dropped) == 0 {
			t.Fatalf("cut %d: torn line dropped silently", cut)
		}
		j, err := Open(path)
		if err != nil {
			t.Fatalf("cut %d: open: %v", cut, err)
		}
		j.Append(ev(70000, clocklog.Pause, clock.NoSide))
		j.Close()
		if r, err := Recover(path); err != nil || len(r.Dropped) != 0 {
			t.Fatalf("cut %d: after append: %v %v", cut, err, r.Dropped)
		}
	}
}

func TestCorruptMiddle(t *testing.T) {
	path := filepath.Join(t.TempDir(), File)
	os.WriteFile(path, []byte("format 1\ncontrol 300\n0 start\n1000 press white\n20\x00\x00 garbage\n3000 press black\n"), 0o644)
	r, err := Recover(path)
	if err != nil {
		t.Fatal(err)
	}
	// The lines after the damage still make sense without it: only the
	// damaged line is lost.
	if len(r.Log.Events) != 3 || len(r.Dropped) != 1 {
		t.Fatalf("events %d, dropped %v", len(r.Log.Events), r.Dropped)
	}
	if msg := r.Dropped[0].Error(); !strings.Contains(msg, "game.log:5:") {
		t.Errorf("dropped report %q does not name the line", msg)
	}
	if err := KeepDamaged(path); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + ".damaged"); err != nil {
		t.Error(err)
	}
}

func TestRecoverUnusable(t *testing.T) {
	dir := t.TempDir()
	if _, err := Recover(filepath.Join(dir, "none.log")); err == nil {
		t.Error("missing file: no error")
	}
	bad := filepath.Join(dir, "bad.log")
	os.WriteFile(bad, []byte("\x00\x01\x02"), 0o644)
	if _, err := Recover(bad); err == nil || !strings.Contains(err.Error(), "unusable") {
		t.Errorf("garbage: %v", err)
	}
}

func TestArchive(t *testing.T) {
	dir := t.TempDir()
	for i := 0; i < 3; i++ {
		j, _ := Create(filepath.Join(dir, File), header(t, "60"))
		j.Close()
		if err := ArchiveFile(dir); err != nil {
			t.Fatal(err)
		}
	}
	names, _ := filepath.Glob(filepath.Join(dir, Archive, "*.log"))
	if len(names) != 3 || filepath.Base(names[2]) != "0003.log" {
		t.Errorf("archive holds %v", names)
	}
	if err := ArchiveFile(dir); err != nil {
		t.Errorf("archiving with no journal: %v", err)
	}
}

func BenchmarkAppend(b *testing.B) {
	path := filepath.Join(b.TempDir(), File)
	pair, _ := timecontrol.ParsePair("300")
	j, _ := Create(path, clocklog.Header{Controls: pair, Options: clock.DefaultOptions})
	j.sync = func(*os.File) error { return nil } // measure the formatting and write, not the disk
	b.ReportAllocs()
	at := int64(0)
	for b.Loop() {
		at += 1000
		j.Append(clocklog.Event{At: at, Verb: clocklog.Checkpoint})
	}
}
