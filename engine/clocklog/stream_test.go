package clocklog

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"testing/iotest"
	"time"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
)

// TestSalvagerEntries: a Salvager gives the events and the comments in the
// log's order, each with its line; an inferred event has the line of the
// damage; a comment amid the damage is not given.
func TestSalvagerEntries(t *testing.T) {
	log := "control 300\n# before the start\n0 start\n1000 press white\n# a note\n" +
		"2000 prXss black\n# amid the damage\n3000 press white\n"
	s := NewSalvager("game.log", strings.NewReader(log))
	h, ok := s.Header()
	if !ok || timecontrol.FormatPair(h.Controls) != "300" {
		t.Fatalf("header %+v %v", h, s.Report().Problems)
	}
	var got []string
	for s.Next() {
		e := s.Entry()
		if e.Comment {
			got = append(got, fmt.Sprintf("%d # %s", e.Line, e.Text))
		} else {
			got = append(got, fmt.Sprintf("%d %s", e.Line, e.Event))
		}
	}
	want := []string{"2 # before the start", "3 0 start", "4 1000 press white", "5 # a note", "6 2000 press black", "8 3000 press white"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("entries %q, want %q", got, want)
	}
	rep := s.Report()
	if rep.Lines != 8 || rep.Dropped != 1 || rep.Inferred != 1 || len(rep.Problems) != 1 || rep.Problems[0].Line != 6 {
		t.Errorf("report %+v %v", rep, rep.Problems)
	}
	if s.Next() {
		t.Error("Next after the end")
	}
}

// TestSalvageReadError: a read error ends the log; the line it cut is
// dropped and counted, and the report names the error.
func TestSalvageReadError(t *testing.T) {
	good := "control 300\n0 start\n1000 press white\n"
	for _, tc := range []struct {
		tail    string
		dropped int
		problem string
	}{
		{"2000 press bl", 1, "game.log:4: read error in this line: input/output error: the line and the rest of the log are lost"},
		{"", 0, "game.log:3: read error after this line: input/output error: the rest of the log is lost"},
		{"# " + strings.Repeat("x", 2*MaxLine), 1, "game.log:4: read error in this line"},
	} {
		r := io.MultiReader(strings.NewReader(good+tc.tail), iotest.ErrReader(syscall.EIO))
		l, rep := SalvageReport("game.log", r)
		if l == nil || len(l.Events) != 2 || !errors.Is(rep.Err, syscall.EIO) || rep.Dropped != tc.dropped || rep.Clean() {
			t.Fatalf("%q: %v %+v", tc.tail, l, rep)
		}
		if len(rep.Problems) != 1 || !strings.HasPrefix(rep.Problems[0].Error(), tc.problem) {
			t.Errorf("%q: problems %v, want %q", tc.tail, rep.Problems, tc.problem)
		}
	}
}

// runningLog is the log of a clock that runs for n seconds after its start
// (and white's press): checkpoints naming no side but the last one, which
// names side. The checkpoints restate the header if restate. Before the
// start come sets corrections.
func runningLog(n int, side clock.Side, restate bool, sets int) string {
	pair, _ := timecontrol.ParsePair("300")
	h := Header{Controls: pair, Options: clock.DefaultOptions}
	b := AppendHeader(nil, h)
	for range sets {
		b = AppendEvent(b, Event{At: 0, Verb: SetTime, Side: clock.White, Value: 300000})
	}
	b = AppendEvent(b, Event{At: 0, Verb: Start, Side: clock.NoSide})
	b = AppendEvent(b, Event{At: 500, Verb: Press, Side: clock.White})
	for i := 1; i <= n; i++ {
		at := int64(i) * 1000
		s := clock.NoSide
		if i == n {
			s = side
		}
		if restate {
			b = AppendCheckpoint(b, at, s, h)
		} else {
			b = AppendEvent(b, Event{At: at, Verb: Checkpoint, Side: s})
		}
	}
	return string(b)
}

// TestSalvageLookahead: salvage decides on what it sees within Lookahead
// lines. A lost press is put back when a checkpoint within Lookahead lines
// after it names the side that runs; one further on does not count.
func TestSalvageLookahead(t *testing.T) {
	destroy := func(log string, n int) string { // line n made unreadable
		lines := strings.SplitAfter(log, "\n")
		lines[n-1] = strings.Repeat("?", len(lines[n-1])-1) + "\n"
		return strings.Join(lines, "")
	}
	for _, tc := range []struct {
		seconds  int
		inferred int
	}{
		{10, 1},
		{Lookahead - 1, 1},
		{Lookahead + 1, 0},
	} {
		// Line 7 is the press: white pressed, black runs, and the last
		// checkpoint says so.
		log := destroy(runningLog(tc.seconds, clock.Black, false, 0), 7)
		l, rep := SalvageReport("game.log", strings.NewReader(log))
		if l == nil || rep.Dropped != 1 || rep.Inferred != tc.inferred {
			t.Errorf("%d checkpoints after a lost press: %+v %v", tc.seconds, rep, rep.Problems)
		}
	}
	// The header, destroyed, is taken from the first checkpoint that
	// restates it within Lookahead lines of the first event.
	for _, tc := range []struct {
		log string
		ok  bool
	}{
		{runningLog(3, clock.Black, true, 0), true},
		{runningLog(3, clock.Black, true, Lookahead-3), true},
		{runningLog(3, clock.Black, true, Lookahead), false},
	} {
		log := destroy(tc.log, 2)
		l, rep := SalvageReport("game.log", strings.NewReader(log))
		if (l != nil) != tc.ok {
			t.Errorf("header destroyed, %d lines: log %v, want one %v: %v", strings.Count(tc.log, "\n"), l, tc.ok, rep.Problems)
		}
	}
	// The format is told by the first Lookahead lines.
	log := "control 300\n" + strings.Repeat("# a comment\n", Lookahead) + "0 start *37990e4f\n"
	if _, rep := SalvageReport("game.log", strings.NewReader(log)); rep.Format != 1 || rep.Dropped != 1 {
		t.Errorf("checksums after %d lines: format %d, %v", Lookahead, rep.Format, rep.Problems)
	}
}

// logReader gives the lines of a running clock's journal, as the journal
// writes them, up to size bytes, without holding them: the header, a
// start, then a checkpoint a second restating the header and a press every
// 20 seconds. With garbage, one line in four is junk.
type logReader struct {
	h       Header
	size    int64
	read    int64
	buf     []byte
	i       int
	garbage bool
	junk    int
}

func (r *logReader) Read(p []byte) (int, error) {
	for len(r.buf) == 0 {
		if r.read >= r.size {
			return 0, io.EOF
		}
		switch {
		case r.i == 0:
			r.buf = AppendHeader(r.buf, r.h)
			r.buf = AppendEvent(r.buf, Event{At: 0, Verb: Start, Side: clock.NoSide})
		case r.garbage && r.i%4 == 2:
			r.buf = append(r.buf, "j\x00unk *0123abcd\n"...)
			r.junk++
		case r.i%20 == 0:
			r.buf = AppendEvent(r.buf, Event{At: int64(r.i) * 1000, Verb: Press, Side: clock.Side((r.i/20 - 1) % 2)})
		default:
			r.buf = AppendCheckpoint(r.buf, int64(r.i)*1000, clock.Side(r.i/20%2), r.h)
		}
		r.i++
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	r.read += int64(n)
	return n, nil
}

// TestSalvageBoundedMemory salvages 50 MB journals, whole and with one
// line in four junk, without holding them: the live heap stays small,
// and the report lists MaxProblems problems and says how many more.
func TestSalvageBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 100 MB")
	}
	pair, _ := timecontrol.ParsePair("40/5400+30:1800+30")
	for _, garbage := range []bool{false, true} {
		r := &logReader{h: Header{Controls: pair, Options: clock.DefaultOptions}, size: 50 << 20, garbage: garbage}
		runtime.GC()
		var peak uint64
		var events int
		t0 := time.Now()
		s := NewSalvager("game.log", r)
		if _, ok := s.Header(); !ok {
			t.Fatal(s.Report().Problems)
		}
		for s.Next() {
			events++
			if events%100000 == 0 {
				// What the Salvager holds: the heap live after a
				// collection.
				var m runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&m)
				peak = max(peak, m.HeapAlloc)
			}
		}
		rep := s.Report()
		t.Logf("50 MB, garbage %v: %d events in %v, live heap at most %d KB; %s", garbage, events, time.Since(t0), peak>>10, rep)
		if peak > 4<<20 {
			t.Errorf("garbage %v: %d KB of live heap", garbage, peak>>10)
		}
		if want := r.i; !garbage && (events != want || !rep.Clean()) {
			t.Errorf("%d events, want %d: %v", events, want, rep)
		}
		if garbage {
			if rep.Dropped != r.junk || len(rep.Problems) != MaxProblems+1 {
				t.Fatalf("%d lines, %d dropped, %d problems", r.i, rep.Dropped, len(rep.Problems))
			}
			if last := rep.Problems[MaxProblems].Error(); !strings.HasSuffix(last, fmt.Sprintf("%d more problems, up to this line, are not listed", rep.Dropped-MaxProblems)) {
				t.Errorf("last problem %q", last)
			}
		}
	}
}
