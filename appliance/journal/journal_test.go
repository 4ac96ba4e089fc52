package journal

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
)

func header(t testing.TB, spec string) clocklog.Header {
	pair, err := timecontrol.ParsePair(spec)
	if err != nil {
		t.Fatal(err)
	}
	return clocklog.Header{Format: clocklog.Format, Controls: pair, Options: clock.DefaultOptions}
}

func ev(at int64, v clocklog.Verb, s clock.Side) clocklog.Event {
	return clocklog.Event{At: at, Verb: v, Side: s}
}

// open opens the journal in dir and fails the test on storage trouble.
func open(t testing.TB, dir string, o *Opts) (*Journal, *Report) {
	t.Helper()
	j, r, err := Open(dir, o)
	if err != nil {
		t.Fatal(err)
	}
	return j, r
}

// started opens a fresh journal in dir and starts a game on spec.
func started(t testing.TB, dir, spec string, o *Opts) *Journal {
	t.Helper()
	j, r := open(t, dir, o)
	if r.Clock != nil {
		t.Fatalf("a game in a fresh directory: %+v", r)
	}
	if err := j.Start(header(t, spec), false); err != nil {
		t.Fatal(err)
	}
	return j
}

func appendAll(t testing.TB, j *Journal, events ...clocklog.Event) {
	t.Helper()
	for _, e := range events {
		if _, err := j.Append(e); err != nil {
			t.Fatal(err)
		}
	}
}

// text is the journal file's text without its zero padding.
func text(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(bytes.TrimRight(b, "\x00"))
}

func TestAppendAndRecover(t *testing.T) {
	dir := t.TempDir()
	j := started(t, dir, "300+2", nil)
	appendAll(t, j,
		ev(0, clocklog.Start, clock.NoSide),
		ev(4000, clocklog.Press, clock.White),
		ev(9000, clocklog.Checkpoint, clock.NoSide))
	if st := j.Stats(); st.Syncs != 4 || st.Writes != 4 || st.Bytes == 0 {
		t.Errorf("stats %+v: want 4 syncs and writes (header and three events)", st)
	}
	if j.Path() != filepath.Join(dir, File) {
		t.Errorf("path %s", j.Path())
	}
	j.Close()

	j, r := open(t, dir, nil)
	if len(r.Dropped) != 0 || r.Last != 9000 || !r.Paused || r.Events != 3 || r.File != filepath.Join(dir, File) {
		t.Fatalf("recovered %+v", r)
	}
	st := r.Clock.State(60000) // time passes: the clock must stay paused
	if !st.Paused || st.Running != clock.NoSide {
		t.Errorf("not paused after recovery: %+v", st)
	}
	if w, b := st.Player[clock.White].Ms, st.Player[clock.Black].Ms; w != 300000-4000+2000+2000 || b != 302000-5000 {
		t.Errorf("times %d %d", w, b)
	}
	tail := clocklog.AppendCheckpoint(nil, 9000, clock.NoSide, header(t, "300+2"))
	tail = clocklog.AppendEvent(tail, ev(9000, clocklog.Pause, clock.NoSide))
	if !strings.HasSuffix(text(t, j.Path()), string(tail)) {
		t.Errorf("the recovery's pause is not written:\n%s", text(t, j.Path()))
	}
	// The recovered game goes on in the same file.
	appendAll(t, j, ev(9000, clocklog.Resume, clock.NoSide), ev(10000, clocklog.Press, clock.Black))
	j.Close()
	_, r2 := open(t, dir, nil)
	if len(r2.Dropped) != 0 || r2.Notes != nil {
		t.Fatal(r2.Dropped, r2.Notes)
	}
	if got := r2.Clock.State(10000).Player[clock.Black].Moves; got != 1 {
		t.Errorf("black moves %d after the resumed game", got)
	}
}

func TestOpenEmpty(t *testing.T) {
	j, r, err := Open(filepath.Join(t.TempDir(), "none"), nil)
	if err != nil || r.Clock != nil || r.Lost != nil || j == nil {
		t.Fatalf("a missing directory: %v %+v", err, r)
	}
	if _, err := j.Append(ev(0, clocklog.Start, clock.NoSide)); err == nil {
		t.Error("append before Start: no error")
	}
}

// TestTornWriteEveryOffset tears the journal's last line at every byte, as
// a power cut in the middle of its write leaves it: the line's first bytes
// then the zeros it was written over, its last bytes after zeros (the
// device wrote a later sector first), or the file cut there (a journal
// of earlier versions, with no padding). Recovery keeps every earlier
// event and says what it dropped; the game goes on, and the next line
// never merges with the torn one.
func TestTornWriteEveryOffset(t *testing.T) {
	dir := t.TempDir()
	j := started(t, dir, "40/5400+30:1800+30", nil)
	appendAll(t, j, ev(0, clocklog.Start, clock.NoSide))
	before := j.end
	appendAll(t, j, ev(61000, clocklog.Press, clock.White))
	after := j.end
	j.Close()
	whole, _ := os.ReadFile(j.Path())
	path := j.Path()
	tears := map[string]func(cut int64) []byte{
		"head written": func(cut int64) []byte {
			b := bytes.Clone(whole)
			clear(b[cut:after])
			return b
		},
		"tail written": func(cut int64) []byte {
			b := bytes.Clone(whole)
			clear(b[before:cut])
			return b
		},
		"file cut": func(cut int64) []byte { return bytes.Clone(whole[:cut]) },
	}
	for name, tear := range tears {
		for cut := before; cut <= after; cut++ {
			torn := tear(cut)
			os.RemoveAll(dir)
			os.Mkdir(dir, 0o755)
			os.WriteFile(path, torn, 0o644)
			j, r := open(t, dir, nil)
			complete := name == "head written" && cut == after || name == "tail written" && cut == before || name == "file cut" && cut == after
			wantEvents := 1
			if complete {
				wantEvents = 2
			}
			if r.Events != wantEvents {
				t.Fatalf("%s at %d: %d events, want %d", name, cut, r.Events, wantEvents)
			}
			lineTorn := !complete && !(name == "head written" && cut == before) && !(name == "tail written" && cut == after) && !(name == "file cut" && cut == before)
			if lineTorn {
				if len(r.Dropped) == 0 {
					t.Fatalf("%s at %d: torn line dropped silently", name, cut)
				}
				if kept, _ := os.ReadFile(path + ".damaged.1"); !bytes.Equal(kept, torn) {
					t.Fatalf("%s at %d: the torn journal is not kept as it was: %v", name, cut, r.Notes)
				}
			} else if len(r.Dropped) != 0 {
				t.Fatalf("%s at %d: dropped %v", name, cut, r.Dropped)
			}
			appendAll(t, j, ev(70000, clocklog.Resume, clock.NoSide), ev(71000, clocklog.Press, clock.Black))
			j.Close()
			_, r = open(t, dir, nil)
			if len(r.Dropped) != 0 || r.Events != wantEvents+3 || r.Last != 71000 {
				t.Fatalf("%s at %d: after append: %d events to %d, dropped %v\n%q", name, cut, r.Events, r.Last, r.Dropped, text(t, path))
			}
		}
	}
}

func TestCorruptMiddle(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, File)
	damaged := []byte("format 1\ncontrol 300\n0 start\n1000 press white\n20\x00\x00 garbage\n3000 press black\n")
	os.WriteFile(path, damaged, 0o644)
	j, r := open(t, dir, nil)
	// The lines after the damage still make sense without it: only the
	// damaged line is lost.
	if r.Events != 3 || len(r.Dropped) != 1 || !r.Paused || r.Last != 3000 || r.Salvage.Dropped != 1 || r.Salvage.Inferred != 0 {
		t.Fatalf("events %d, dropped %v, paused %v at %d", r.Events, r.Dropped, r.Paused, r.Last)
	}
	if msg := r.Dropped[0].Error(); !strings.Contains(msg, "game.log:5:") {
		t.Errorf("dropped report %q does not name the line", msg)
	}
	if kept, err := os.ReadFile(path + ".damaged.1"); err != nil || !bytes.Equal(kept, damaged) {
		t.Errorf("damaged copy: %v %q", err, kept)
	}
	if r.Lines != 1 || len(r.Kept) != 1 || r.Kept[0] != path+".damaged.1" {
		t.Errorf("report: %d lines dropped, kept %q", r.Lines, r.Kept)
	}
	// The journal goes on in a fresh file, in format 2, without the
	// damaged line, after the recovery's pause.
	want := clocklog.AppendHeader(nil, header(t, "300"))
	for _, e := range []clocklog.Event{ev(0, clocklog.Start, clock.NoSide), ev(1000, clocklog.Press, clock.White),
		ev(3000, clocklog.Press, clock.Black), ev(3000, clocklog.Pause, clock.NoSide)} {
		want = clocklog.AppendEvent(want, e)
	}
	if got := text(t, path); got != string(want) {
		t.Errorf("the journal goes on with\n%q, want\n%q", got, want)
	}
	j.Close()
}

// TestDamagedLineAlone: a line destroyed in a format 2 journal is the only
// one lost when the lines after it follow without it; the game goes on in
// a fresh file written from what salvage kept, notes included, and the
// damaged journal is kept as it was.
func TestDamagedLineAlone(t *testing.T) {
	dir := t.TempDir()
	j := started(t, dir, "300+2", nil)
	appendAll(t, j, ev(0, clocklog.Start, clock.NoSide), ev(1000, clocklog.Checkpoint, clock.White))
	if _, err := j.Note("arbiter: a note"); err != nil {
		t.Fatal(err)
	}
	appendAll(t, j, ev(1500, clocklog.Press, clock.White), ev(2500, clocklog.Checkpoint, clock.Black),
		ev(3500, clocklog.Checkpoint, clock.Black), ev(3700, clocklog.Press, clock.Black))
	j.Close()
	path := j.Path()
	b, _ := os.ReadFile(path)
	i := bytes.Index(b, []byte("2500 checkpoint"))
	copy(b[i:], "####")
	os.WriteFile(path, b, 0o644)

	j, r := open(t, dir, nil)
	defer j.Close()
	if r.Events != 5 || r.Lines != 1 || len(r.Dropped) != 1 || r.Last != 3700 || !r.Paused || r.Salvage.Dropped != 1 {
		t.Fatalf("recovered %d events to %d, %d lines lost: %v", r.Events, r.Last, r.Lines, r.Dropped)
	}
	if msg := r.Dropped[0].Error(); !strings.HasPrefix(msg, "game.log:10: dropped: checksum mismatch") {
		t.Errorf("dropped %q", msg)
	}
	if kept, _ := os.ReadFile(path + ".damaged.1"); !bytes.Equal(kept, b) {
		t.Errorf("the damaged journal is not kept as it was: %v", r.Notes)
	}
	l, err := clocklog.Parse(File, Unpad(bytes.NewReader(must(os.ReadFile(path)))))
	if err != nil {
		t.Fatalf("the fresh journal does not read: %v", err)
	}
	var got []string
	for _, e := range l.Events {
		got = append(got, e.String())
	}
	if want := "[0 start 1000 checkpoint white 1500 press white 3500 checkpoint black 3700 press black 3700 pause]"; fmt.Sprint(got) != want {
		t.Errorf("the fresh journal holds %v, want %s", got, want)
	}
	if !strings.Contains(text(t, path), "\n# arbiter: a note *") {
		t.Errorf("the note is not in the fresh journal:\n%s", text(t, path))
	}
	// It goes on, and reads whole.
	appendAll(t, j, ev(3700, clocklog.Resume, clock.NoSide))
	j.Close()
	if _, r := open(t, dir, nil); len(r.Dropped) != 0 || r.Events != 7 {
		t.Errorf("after the fresh file: %+v", r)
	}
}

// TestFormat1Journal: a whole journal of format 1 (an earlier version's)
// gives its game back and goes on in a fresh file in format 2, for the
// journal writes format 2 lines, which cannot follow format 1 ones.
func TestFormat1Journal(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, File)
	os.WriteFile(path, []byte("format 1\ncontrol 300\n# set up\n0 start\n1000 press white\n2000 checkpoint\n"), 0o644)
	j, r := open(t, dir, nil)
	if r.Events != 3 || len(r.Dropped) != 0 || r.Lines != 0 || len(r.Kept) != 0 || r.Salvage.Format != 1 {
		t.Fatalf("recovered %+v", r)
	}
	want := clocklog.AppendHeader(nil, header(t, "300"))
	want = clocklog.AppendComment(want, "set up")
	want = clocklog.AppendEvent(want, ev(0, clocklog.Start, clock.NoSide))
	want = clocklog.AppendEvent(want, ev(1000, clocklog.Press, clock.White))
	want = clocklog.AppendCheckpoint(want, 2000, clock.NoSide, header(t, "300"))
	want = clocklog.AppendEvent(want, ev(2000, clocklog.Pause, clock.NoSide))
	if got := text(t, path); got != string(want) {
		t.Errorf("the journal goes on as\n%s\nwant\n%s", got, want)
	}
	appendAll(t, j, ev(2000, clocklog.Resume, clock.NoSide), ev(2500, clocklog.Press, clock.Black))
	j.Close()
	if _, r := open(t, dir, nil); len(r.Dropped) != 0 || r.Events != 6 || r.Salvage.Format != 2 {
		t.Errorf("after the rewrite: %+v", r)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
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
	// In the state directory the same file is a lost journal, kept.
	os.WriteFile(filepath.Join(dir, File), []byte("\x00\x01\x02"), 0o644)
	j, r := open(t, dir, nil)
	if r.Lost == nil || r.Clock != nil {
		t.Fatalf("garbage journal: %+v", r)
	}
	if kept, _ := os.ReadFile(filepath.Join(dir, File+".damaged.1")); string(kept) != "\x00\x01\x02" {
		t.Errorf("garbage journal not kept: %q %v", kept, r.Notes)
	}
	if err := j.Start(header(t, "60"), false); err != nil {
		t.Fatal(err)
	}
}

// TestArchive: finished games go to games/, trimmed of their padding, so
// they read as plain clock logs; an unstarted game is replaced.
func TestArchive(t *testing.T) {
	dir := t.TempDir()
	j := started(t, dir, "60", nil)
	for i := 0; i < 3; i++ {
		appendAll(t, j, ev(0, clocklog.Start, clock.NoSide), ev(int64(1000+i), clocklog.Press, clock.White))
		if err := j.Start(header(t, "60"), true); err != nil {
			t.Fatal(err)
		}
	}
	// Not started: replaced, not archived.
	if err := j.Start(header(t, "120"), false); err != nil {
		t.Fatal(err)
	}
	names, _ := filepath.Glob(filepath.Join(dir, Archive, "*.log"))
	if len(names) != 3 || filepath.Base(names[2]) != "0003.log" {
		t.Fatalf("archive holds %v", names)
	}
	for i, n := range names {
		f, _ := os.Open(n)
		l, err := clocklog.Parse(filepath.Base(n), f)
		f.Close()
		if err != nil || len(l.Events) != 2 || l.Events[1].At != int64(1000+i) {
			t.Errorf("archived %s: %v", n, err)
		}
	}
	j.Close()
	if _, r := open(t, dir, nil); r.Clock == nil || r.Events != 0 || !strings.Contains(timecontrol.FormatPair(r.Header.Controls), "120") {
		t.Errorf("the new game: %+v", r)
	}
}

// TestWriteCost counts what a game's lines cost: one write and one
// fdatasync per line, in place in a preallocated file, one block per line
// but for those that cross a block boundary, and an fsync only when the
// file is created or grown. The lines are a running clock's: a checkpoint
// a second naming the running side and restating the header (115 bytes in
// format 2), a press every 20 seconds.
func TestWriteCost(t *testing.T) {
	dir := t.TempDir()
	// On a tmpfs if it can: the counts are the same, the syncs quicker.
	if exec.Command("mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", dir).Run() == nil {
		t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	}
	j := started(t, dir, "40/5400+30:1800+30", nil)
	st0 := j.Stats()
	fi, _ := os.Stat(j.Path())
	if fi.Size() != DefaultOpts.Chunk || st0.Grows != 1 || st0.Syncs != 1 {
		t.Fatalf("new journal: %d bytes, %+v", fi.Size(), st0)
	}
	h := header(t, "40/5400+30:1800+30")
	// What the lines should cost, line by line: their bytes, and the
	// blocks from where each starts to where it ends.
	var lineBytes, blocks int64
	off := j.end
	expect := func(line []byte) {
		lineBytes += int64(len(line))
		blocks += (off+int64(len(line))-1)/Block - off/Block + 1
		off += int64(len(line))
	}
	appendAll(t, j, ev(0, clocklog.Start, clock.NoSide))
	expect(clocklog.AppendEvent(nil, ev(0, clocklog.Start, clock.NoSide)))
	const lines = 20000
	sizes := map[int64]bool{}
	at := int64(0)
	for i := 0; i < lines; i++ {
		at += 1000
		side := []clock.Side{clock.White, clock.Black}[i/20%2]
		e := ev(at, clocklog.Checkpoint, side)
		if i%20 == 19 {
			e = ev(at, clocklog.Press, side)
			expect(clocklog.AppendEvent(nil, e))
		} else {
			expect(clocklog.AppendCheckpoint(nil, at, side, h))
		}
		appendAll(t, j, e)
		fi, _ := os.Stat(j.Path())
		sizes[fi.Size()] = true
	}
	st := j.Stats()
	d := Stats{Bytes: st.Bytes - st0.Bytes, Syncs: st.Syncs - st0.Syncs, Writes: st.Writes - st0.Writes,
		Blocks: st.Blocks - st0.Blocks, Padding: st.Padding - st0.Padding, Grows: st.Grows - st0.Grows}
	n := int64(lines + 1)
	if d.Writes != n || d.Syncs != n+d.Grows {
		t.Errorf("%d lines: %d writes, %d syncs, %d grows: want a write and a sync per line, a sync per grow", n, d.Writes, d.Syncs, d.Grows)
	}
	if d.Bytes != lineBytes {
		t.Errorf("%d bytes of lines written, want %d", d.Bytes, lineBytes)
	}
	if wantGrows := (j.end-1)/DefaultOpts.Chunk + 1 - 1; d.Grows != wantGrows || int64(len(sizes)) != d.Grows+1 {
		t.Errorf("%d grows, %d sizes: want the file to grow by a chunk at a time, %d times", d.Grows, len(sizes), wantGrows)
	}
	// A line touches one block, or two when it crosses a boundary; each
	// boundary is crossed by one line at most, so at most one line in
	// Block/(bytes per line) crosses one: 1.028 blocks a line at 115.
	crossings := d.Blocks - d.Writes
	if d.Blocks != blocks || crossings > (d.Bytes+Block-1)/Block {
		t.Errorf("%d blocks (%d lines crossed a boundary), want %d, and at most one crossing per %d bytes", d.Blocks, crossings, blocks, Block)
	}
	t.Logf("%d lines: %.1f bytes, %.4f syncs (%d fsyncs to grow), %.4f blocks (%d lines crossed a block boundary), %.1f padding bytes per line",
		n, float64(d.Bytes)/float64(n), float64(d.Syncs)/float64(n), d.Grows, float64(d.Blocks)/float64(n), crossings, float64(d.Padding)/float64(n))
	// The file holds the lines then zeros, in a whole number of chunks.
	fi, _ = os.Stat(j.Path())
	if fi.Size()%DefaultOpts.Chunk != 0 || fi.Size() < j.end {
		t.Errorf("file of %d bytes for %d of lines", fi.Size(), j.end)
	}
	j.Close()
	if r, err := Recover(j.Path()); err != nil || r.Events != int(n) || len(r.Dropped) != 0 {
		t.Errorf("recovering it: %v %+v", err, r)
	}
}

func TestNoteOneLine(t *testing.T) {
	dir := t.TempDir()
	j := started(t, dir, "60", nil)
	if _, err := j.Note("low time\nwarning\r on"); err != nil {
		t.Fatal(err)
	}
	// A comment line with its checksum, as every format 2 line.
	got := text(t, j.Path())
	if want := "\n# low time warning  on *"; !strings.Contains(got, want) || !strings.HasSuffix(got, "\n") || strings.Count(got, "\n") != 6 {
		t.Errorf("note written as %q, want a line with %q", got, want)
	}
	if _, err := clocklog.Parse(File, strings.NewReader(got)); err != nil {
		t.Errorf("the journal with a note does not read: %v", err)
	}
	// It comes back with the game.
	j.Close()
	if _, r := open(t, dir, nil); r.Clock == nil || len(r.Dropped) != 0 || r.Salvage.Lines != 6 {
		t.Errorf("recovered %+v", r)
	}
}

func TestErrorSaysWhat(t *testing.T) {
	e := &Error{Op: "write", Path: "/s/game.log", Err: errors.New("no space left on device"), Held: 3}
	if got := e.Error(); got != "journal: write /s/game.log: no space left on device; 3 lines held in memory until they can be written" {
		t.Errorf("%q", got)
	}
}

func BenchmarkAppend(b *testing.B) {
	j := started(b, b.TempDir(), "300", nil)
	j.datasync = func(*os.File) error { return nil } // measure the formatting and write, not the disk
	b.ReportAllocs()
	at := int64(0)
	for b.Loop() {
		at += 1000
		j.Append(clocklog.Event{At: at, Verb: clocklog.Checkpoint})
	}
}
