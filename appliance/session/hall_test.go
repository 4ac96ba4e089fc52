package session

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/protocol"

	"github.com/zeitnot/zeitnot/appliance/journal"
	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
)

// fileLines returns the numbered lines of a journal file as the hall
// protocol counts them: not comments, not blank, not the zero padding.
func fileLines(t *testing.T, path string) (lines, comments []string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := strings.TrimRight(sc.Text(), "\x00")
		switch {
		case strings.TrimSpace(l) == "":
		case strings.HasPrefix(l, "#"):
			comments = append(comments, l)
		default:
			lines = append(lines, l)
		}
	}
	return lines, comments
}

func pairOf(t *testing.T, spec string) timecontrol.Pair {
	t.Helper()
	p, err := timecontrol.ParsePair(spec)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestGameIDs: every journal gets an id of its own, an unstarted game
// replaced by another too; the id is in the journal, comes back with a
// recovery, stays with the game in the archive, and the counter never
// goes back, even when its file is lost.
func TestGameIDs(t *testing.T) {
	dir := t.TempDir()
	s := New(Opts{StateDir: dir, Life: "abc123"})
	s.Recover(0)
	s.NewGame(0, pairOf(t, "300+2"), clock.DefaultOptions, "")
	first := s.GameID()
	if first != "0001-abc123" {
		t.Fatalf("first id %q", first)
	}
	// An unstarted game replaced: a new id.
	s.NewGame(time.Second, pairOf(t, "600+5"), clock.DefaultOptions, "")
	second := s.GameID()
	if second != "0002-abc123" {
		t.Fatalf("replacement's id %q", second)
	}
	if _, c := fileLines(t, filepath.Join(dir, journal.File)); len(c) != 1 || !strings.HasPrefix(c[0], "# game 0002-abc123 *") {
		t.Errorf("the journal's comments %q, want the id", c)
	}
	s.Start(2 * time.Second)
	s.Press(5*time.Second, clock.White)
	s.Close()

	// Recovery keeps the id.
	s = New(Opts{StateDir: dir, Life: "other"})
	if !s.Recover(10 * time.Second) {
		t.Fatal("nothing recovered")
	}
	if s.GameID() != second {
		t.Fatalf("recovered game's id %q, want %q", s.GameID(), second)
	}
	// The finished game goes to the archive with its id; the next game's
	// id is the next number.
	s.NewGame(11*time.Second, pairOf(t, "300+2"), clock.DefaultOptions, "")
	if s.GameID() != "0003-abc123" {
		t.Fatalf("next id %q", s.GameID())
	}
	s.Start(12 * time.Second)
	s.Close()

	// IDFile lost: the counter goes on from the ids found.
	os.Remove(filepath.Join(dir, IDFile))
	s = New(Opts{StateDir: dir, Life: "zzz"})
	s.Recover(20 * time.Second)
	if s.GameID() != "0003-abc123" {
		t.Fatalf("recovered %q", s.GameID())
	}
	s.NewGame(21*time.Second, pairOf(t, "300+2"), clock.DefaultOptions, "")
	if s.GameID() != "0004-abc123" {
		t.Errorf("after IDFile was lost: %q, want 0004-abc123", s.GameID())
	}
	// The archived game is served by its id.
	lines, more, err := s.LogLines(second, 1, protocol.MaxLogLines, protocol.MaxLogBytes)
	if err != nil || more || len(lines) != 8 || !strings.HasPrefix(lines[5], "1000 start") || !strings.HasPrefix(lines[6], "4000 press white") {
		t.Errorf("archived game: %q %v %v", lines, more, err)
	}
	if _, _, err := s.LogLines(first, 1, 10, 1000); !errors.As(err, new(*NoGameError)) || err.Error() != "no game "+first {
		t.Errorf("the replaced, unstarted game: %v, want no game", err)
	}
	s.Close()
}

// TestLogLines: the numbered lines are the journal's, comments left out;
// an answer keeps to its bounds; recovery does not renumber.
func TestLogLines(t *testing.T) {
	dir := t.TempDir()
	s, _ := newSession(t, dir, "40/5400+30:1800+30")
	s.Note("a comment, not numbered")
	s.Start(0)
	now := time.Duration(0)
	for i := 0; i < 300; i++ {
		now += 3 * time.Second
		tick(s, now-3*time.Second+100*ms, now)
		s.Press(now, []clock.Side{clock.White, clock.Black}[i%2])
	}
	want, _ := fileLines(t, filepath.Join(dir, journal.File))
	game, n := s.LogInfo()
	if game != s.GameID() || n != int64(len(want)) {
		t.Fatalf("log info %s %d, want %s %d", game, n, s.GameID(), len(want))
	}
	// All of it, in answers of at most 256 lines and 64 KiB.
	var got []string
	for from := int64(1); ; {
		lines, more, err := s.LogLines(game, from, protocol.MaxLogLines, protocol.MaxLogBytes)
		if err != nil {
			t.Fatal(err)
		}
		size := 0
		for _, l := range lines {
			size += len(l)
		}
		if len(lines) > protocol.MaxLogLines || size > protocol.MaxLogBytes {
			t.Fatalf("from %d: %d lines, %d bytes", from, len(lines), size)
		}
		got = append(got, lines...)
		from += int64(len(lines))
		if !more {
			break
		}
		if len(lines) == 0 {
			t.Fatal("more, but no lines")
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("served %d lines, the journal has %d", len(got), len(want))
	}
	// From any line, small bounds.
	for _, from := range []int64{1, 5, 6, 255, 256, 257, 513, n} {
		lines, more, err := s.LogLines(game, from, 3, protocol.MaxLogBytes)
		wantN := min(3, int(n-from+1))
		if err != nil || len(lines) != wantN || lines[0] != want[from-1] || more != (from+3 <= n) {
			t.Errorf("from %d: %d lines (first %q), more %v, %v", from, len(lines), lines[0], more, err)
		}
	}
	if lines, more, err := s.LogLines(game, n+1, 3, protocol.MaxLogBytes); err != nil || len(lines) != 0 || more || lines == nil {
		t.Errorf("past the end: %q %v %v", lines, more, err)
	}
	// The byte bound: a line more than fits is left for the next answer.
	fit, size := 0, 0
	for _, l := range want {
		if size+len(l) > 5000 {
			break
		}
		fit, size = fit+1, size+len(l)
	}
	if lines, more, _ := s.LogLines(game, 1, 1000, 5000); len(lines) != fit || !more || fit == 0 {
		t.Errorf("byte bound: %d lines, more %v; want %d", len(lines), more, fit)
	}
	if _, _, err := s.LogLines(game, 0, 3, 100); err == nil {
		t.Error("line 0 served")
	}

	// A power cut and a recovery: the lines keep their numbers, the
	// recovery's pause comes after them.
	s.Close()
	s = New(Opts{StateDir: dir})
	s.Recover(now + time.Minute)
	lines, more, err := s.LogLines(game, 1, 10000, 10<<20)
	if err != nil || more || len(lines) != len(want)+1 || strings.Join(lines[:len(want)], "\n") != strings.Join(want, "\n") || !strings.Contains(lines[len(want)], " pause ") {
		t.Errorf("after recovery: %d lines (%v, %v), want the %d before and the pause", len(lines), more, err, len(want))
	}
	s.Close()
}

// TestLogLinesHeldNotServed: while the journal holds lines in memory (a
// full disk, a failed sync), the hall gets only what is durable.
func TestLogLinesHeldNotServed(t *testing.T) {
	dir := t.TempDir()
	s, _ := newSession(t, dir, "300+0")
	s.Start(0)
	s.Press(time.Second, clock.White)
	_, before := s.LogInfo()
	// The same file, opened so that every write fails (WriteAt on an
	// O_APPEND file): the lines are held.
	broken, err := os.OpenFile(filepath.Join(dir, journal.File), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	s.swapJournal(broken)
	s.Press(2*time.Second, clock.Black)
	if s.jr.Pending() == 0 {
		t.Fatal("nothing held")
	}
	// As a write whose sync failed leaves it: the line's bytes in the
	// file, not known to be durable.
	data, _ := os.ReadFile(filepath.Join(dir, journal.File))
	end := strings.IndexByte(string(data), 0)
	f, _ := os.OpenFile(filepath.Join(dir, journal.File), os.O_WRONLY, 0)
	f.WriteAt(clocklog.AppendEvent(nil, clocklog.Event{At: 2000, Verb: clocklog.Press, Side: clock.Black}), int64(end))
	f.Close()
	if _, n := s.LogInfo(); n != before {
		t.Errorf("%d lines served while one is held, want %d", n, before)
	}
}

// TestTakeOver: another board's game comes up paused with its times,
// moves, periods, side to move and overstep marks, taken over until
// resumed; the marks survive a recovery and clear-overstep ends them.
func TestTakeOver(t *testing.T) {
	dir := t.TempDir()
	s, got := newSession(t, dir, "300+2")
	old := s.GameID()
	*got = nil
	tk := Takeover{
		Controls: pairOf(t, "40/5400+30:1800+30"),
		Options:  clock.DefaultOptions,
		ToMove:   clock.Black,
		Note:     "takeover of board 7",
	}
	tk.Side[clock.White] = clocklog.SideClock{Ms: 4200000, Moves: 41, Period: 2}
	tk.Side[clock.Black] = clocklog.SideClock{Ms: 4100500, Moves: 40, Period: 2, Overstep: true}
	if err := s.TakeOver(time.Second, tk); err != nil {
		t.Fatal(err)
	}
	if s.GameID() == old {
		t.Error("the takeover kept the old game's id")
	}
	check := func(when string, s *Session, now time.Duration, overstep bool) {
		t.Helper()
		st := s.State(now)
		w, b := st.Player[clock.White], st.Player[clock.Black]
		if !st.Started || !st.Paused || st.ToMove != clock.Black || w.Ms != 4200000 || w.Moves != 41 || w.Period != 2 ||
			b.Ms != 4100500 || b.Moves != 40 || b.Period != 2 || b.Overstep != overstep || w.Overstep {
			t.Errorf("%s: %+v", when, st)
		}
	}
	check("taken over", s, 2*time.Second, true)
	if !s.TakenOver() {
		t.Error("not marked taken over")
	}
	if k := kinds(*got); k != "new-game corrected corrected corrected corrected corrected corrected corrected started paused" {
		t.Errorf("events %s", k)
	}
	_, c := fileLines(t, filepath.Join(dir, journal.File))
	if len(c) != 3 || !strings.Contains(c[1], "takeover of board 7") || !strings.HasPrefix(c[2], "# takeover overstep black *") {
		t.Errorf("comments %q", c)
	}
	// A power cut: the game and the carried mark come back.
	s.Close()
	s = New(Opts{StateDir: dir})
	s.Recover(5 * time.Second)
	check("recovered", s, 6*time.Second, true)
	if s.Correct(7*time.Second, clearOverstep(clock.Black)) != nil {
		t.Fatal("clear-overstep refused")
	}
	check("cleared", s, 8*time.Second, false)
	s.Close()
	s = New(Opts{StateDir: dir})
	s.Recover(10 * time.Second)
	check("recovered after the clear", s, 11*time.Second, false)
	if !s.Resume(12*time.Second) || s.TakenOver() {
		t.Error("resume")
	}

	// A takeover the clock refuses changes nothing.
	s2, _ := newSession(t, t.TempDir(), "300+2")
	id := s2.GameID()
	bad := tk
	bad.Side[clock.White].Period = 7
	if err := s2.TakeOver(time.Second, bad); err == nil || s2.GameID() != id {
		t.Errorf("a period the control does not have: %v, game %s", err, s2.GameID())
	}
}

func clearOverstep(s clock.Side) clocklog.Event {
	return clocklog.Event{Verb: clocklog.ClearOverstep, Side: s}
}

// TestGameIDWithoutItsComment: a journal whose id comment is gone (a
// recovery that did not keep comments, a journal of an older version)
// keeps the id IDFile names as the current game's, and gets it written
// again; without IDFile either, it gets a new one.
func TestGameIDWithoutItsComment(t *testing.T) {
	dir := t.TempDir()
	s, _ := newSession(t, dir, "300+2")
	id := s.GameID()
	s.Start(0)
	s.Press(time.Second, clock.White)
	s.Close()
	path := filepath.Join(dir, journal.File)
	strip := func() {
		data, _ := os.ReadFile(path)
		var keep []string
		for _, l := range strings.SplitAfter(string(data), "\n") {
			if !strings.HasPrefix(l, "# game ") {
				keep = append(keep, l)
			}
		}
		os.WriteFile(path, []byte(strings.Join(keep, "")), 0o644)
	}
	strip()
	s = New(Opts{StateDir: dir})
	s.Recover(2 * time.Second)
	if s.GameID() != id {
		t.Errorf("id %q, want IDFile's %q", s.GameID(), id)
	}
	if got := readGameID(path); got != id {
		t.Errorf("the journal names %q, want %q written again", got, id)
	}
	s.Close()
	strip()
	os.Remove(filepath.Join(dir, IDFile))
	s = New(Opts{StateDir: dir})
	s.Recover(3 * time.Second)
	if got := s.GameID(); got == id || !validID(got) || readGameID(path) != got {
		t.Errorf("without IDFile: %q (was %q), the journal names %q", got, id, readGameID(path))
	}
	s.Close()
}

// TestEventsCarryTheJournal: the events of a game carry every numbered
// line of its journal after the header, each with its number, as
// LogLines serves them: the link publishes from the stream, not a "log
// GAME FROM" per press. A full disk leaves the number out; the lines after
// it are numbered again once written.
func TestEventsCarryTheJournal(t *testing.T) {
	dir := t.TempDir()
	s, _ := newSession(t, dir, "40/5400+30:1800+30")
	var got []Event
	s.Subscribe(func(e Event) { got = append(got, e) })
	s.Start(0)
	now := time.Duration(0)
	for i := 0; i < 40; i++ {
		now += 3 * time.Second
		tick(s, now-3*time.Second+100*ms, now)
		s.Press(now, []clock.Side{clock.White, clock.Black}[i%2])
	}
	game, n := s.LogInfo()
	want, _, err := s.LogLines(game, 1, 10000, 10<<20)
	if err != nil || int64(len(want)) != n {
		t.Fatal(len(want), n, err)
	}
	streamed := map[int64]string{}
	for _, e := range got {
		if e.Seq == 0 {
			continue
		}
		if e.Game != game {
			t.Fatalf("event of game %q, the game is %q", e.Game, game)
		}
		if len(e.Before) > protocol.MaxBefore {
			t.Fatalf("%d lines before", len(e.Before))
		}
		for i, l := range append(slices.Clone(e.Before), e.Line) {
			streamed[e.Seq-int64(len(e.Before))+int64(i)] = l
		}
	}
	first := int64(0)
	for seq := int64(1); seq <= n; seq++ {
		l, ok := streamed[seq]
		if !ok {
			if first != 0 {
				t.Fatalf("line %d not streamed, line %d was", seq, first)
			}
			continue
		}
		if first == 0 {
			first = seq
		}
		if l != want[seq-1] {
			t.Errorf("line %d streamed as %q, the journal has %q", seq, l, want[seq-1])
		}
	}
	if first == 0 || !strings.Contains(want[first-1], " start") {
		t.Errorf("the stream starts at line %d (%q), want the start", first, want[max(first, 1)-1])
	}
	if n < 100 {
		t.Errorf("only %d lines: the checkpoints are missing", n)
	}
	s.Close()
}

// TestHeldLinesNumberedOnceWritten: the lines a full disk held go out with
// the first event after the disk takes them again, numbered on from the
// last line on disk, as LogLines serves them: the journal hands back every
// line a write made durable, the held ones too, and the link needs no "log
// GAME FROM" for them. A held press's event says its line without a
// number.
func TestHeldLinesNumberedOnceWritten(t *testing.T) {
	dir := t.TempDir()
	if err := exec.Command("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", dir).Run(); err != nil {
		t.Skip("cannot mount a tmpfs here (needs root):", err)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	s, _ := newSession(t, dir, "90+30")
	var got []Event
	s.Subscribe(func(e Event) { got = append(got, e) })
	s.Start(0)
	// Presses until the journal's preallocated end is almost used up: the
	// next lines need the file to grow.
	now, side := time.Duration(0), clock.White
	press := func() {
		t.Helper()
		now += time.Second
		if !s.Press(now, side) {
			t.Fatalf("press at %v refused", now)
		}
		side = 1 - side
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, journal.File))
		if err != nil {
			t.Fatal(err)
		}
		if end := strings.IndexByte(string(data), 0); end < 0 || len(data)-end < 40 {
			break
		}
		press()
	}
	filler := filepath.Join(dir, "filler")
	f, err := os.Create(filler)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{64 << 10, 4096, 512, 64, 1} {
		for {
			if _, err := f.Write(make([]byte, n)); err != nil {
				break
			}
		}
	}
	f.Close()
	got = got[:0]
	press()
	press()
	if s.jr.Pending() != 2 || s.Warning() != "DISK FULL" {
		t.Fatalf("%d lines held, warning %q; want 2 held on a full disk", s.jr.Pending(), s.Warning())
	}
	for _, e := range got {
		if e.Kind == Pressed && (e.Seq != 0 || !strings.Contains(e.Line, " press ")) {
			t.Errorf("held press: seq %d line %q, want its line without a number", e.Seq, e.Line)
		}
	}
	os.Remove(filler)
	for i := range 2 {
		got = got[:0]
		press()
		var last Event
		for _, e := range got {
			if e.Kind == Pressed {
				last = e
			}
		}
		game, n := s.LogInfo()
		wantBefore := []int{2, 0}[i] // the held presses, then none
		want, _, err := s.LogLines(game, n-int64(wantBefore), 10, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		streamed := append(slices.Clone(last.Before), last.Line)
		if last.Seq != n || last.Game != game || strings.Join(streamed, "\n") != strings.Join(want, "\n") {
			t.Errorf("press %d after the disk took the lines: seq %d of %d, streamed %q, the journal has %q", i+1, last.Seq, n, streamed, want)
		}
	}
	s.Close()
}

// TestFlagCarriesTheTrailingLines: a flag that stops the clock (after-flag
// freeze) writes one last checkpoint, and no event follows it in the
// game: the flag's event carries it, numbered, with the checkpoints
// written since the last press, so the hall has the game's last lines
// now, not with the next game's first event.
func TestFlagCarriesTheTrailingLines(t *testing.T) {
	dir := t.TempDir()
	s, got := newSession(t, dir, "5")
	s.Start(0)
	tick(s, 0, 7*time.Second) // White's 5 s run out at 5 s
	var flag *Event
	var seqs []int64
	for i, e := range *got {
		if e.Seq > 0 {
			for k := range e.Before {
				seqs = append(seqs, e.Seq-int64(len(e.Before)-k))
			}
			seqs = append(seqs, e.Seq)
		}
		if e.Kind == Flagged {
			flag = &(*got)[i]
		}
	}
	if flag == nil {
		t.Fatalf("no flag event among %+v", *got)
	}
	if flag.Seq == 0 || !strings.Contains(flag.Line, " checkpoint") {
		t.Fatalf("the flag's event %+v: want it to carry the last checkpoint, numbered", *flag)
	}
	// Every line the journal numbered went out once, in order.
	lines, _, err := s.LogLines(s.GameID(), 1, 1000, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	// The game's last line is the flag's, and the events carried every
	// line after the header (which the link reads with the new game) in
	// order, each once.
	if int64(len(lines)) != flag.Seq {
		t.Errorf("the journal has %d lines, the flag's event carried line %d", len(lines), flag.Seq)
	}
	for i := 1; i < len(seqs); i++ {
		if seqs[i] != seqs[i-1]+1 {
			t.Fatalf("the events carried lines %v: want them in order, each once", seqs)
		}
	}
}
