package clocklog

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
)

// journal writes a game's log as the daemon's journal does: the header, the
// start, presses, a pause now and then, and while a clock runs a checkpoint
// naming the running side and restating the header whenever a second has
// passed without a line. It returns the log and its last instant.
func journal(t testing.TB, spec string, opt clock.Options, seed uint64, moves int) ([]byte, int64) {
	t.Helper()
	pair, err := timecontrol.ParsePair(spec)
	if err != nil {
		t.Fatal(err)
	}
	h := Header{Controls: pair, Options: opt}
	c, err := clock.New(pair, opt)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	b := AppendHeader(nil, h)
	last := int64(0)
	emit := func(e Event) {
		b = AppendEvent(b, e)
		last = e.At
	}
	checkpoints := func(until int64) {
		for last+1000 <= until {
			run := c.State(last + 1000).Running
			if run == clock.NoSide {
				return
			}
			b = AppendCheckpoint(b, last+1000, run, h)
			last += 1000
		}
	}
	now := 1000 + rng.Int64N(60000)
	c.Start(now)
	emit(Event{At: now, Verb: Start, Side: clock.NoSide})
	for m := 0; m < moves; m++ {
		now += 200 + rng.Int64N(4000)
		checkpoints(now)
		if rng.IntN(6) == 0 {
			c.Pause(now)
			emit(Event{At: now, Verb: Pause, Side: clock.NoSide})
			now += 5000 + rng.Int64N(60000)
			c.Resume(now)
			emit(Event{At: now, Verb: Resume, Side: clock.NoSide})
			now += 100 + rng.Int64N(3000)
			checkpoints(now)
		}
		side := c.State(now).ToMove
		if c.Press(now, side) {
			emit(Event{At: now, Verb: Press, Side: side})
		}
	}
	now += 2500
	checkpoints(now)
	return b, last
}

func finalState(t *testing.T, l *Log, at int64) clock.State {
	t.Helper()
	c, err := Replay(l, Handlers{})
	if err != nil {
		t.Fatal(err)
	}
	return c.State(at)
}

// near reports whether two states are the same game, times within tol ms.
func near(a, b clock.State, tol int64) bool {
	if a.Running != b.Running || a.Paused != b.Paused || a.Started != b.Started || a.Stopped != b.Stopped || a.FirstFlag != b.FirstFlag {
		return false
	}
	for s := range a.Player {
		p, q := a.Player[s], b.Player[s]
		if p.Moves != q.Moves || p.Period != q.Period || p.Flag != q.Flag || abs(p.Ms-q.Ms) > tol {
			return false
		}
	}
	return true
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestBitFlipRepaired flips every bit of a format 2 journal in turn: the
// strict reader names the damaged line, and salvage gives back exactly the
// same game, reporting one line repaired. (In format 1, 6858 becoming 7858
// in an instant charged a side a second unnoticed.)
func TestBitFlipRepaired(t *testing.T) {
	log, _ := journal(t, "40/60+1:30+1", clock.DefaultOptions, 1, 3)
	want, err := Parse("game.log", bytes.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	buf := append([]byte(nil), log...)
	for i := range buf {
		line := bytes.Count(log[:i], []byte("\n")) + 1
		for k := 0; k < 8; k++ {
			buf[i] ^= 1 << k
			if _, err := Parse("game.log", bytes.NewReader(buf)); err == nil {
				t.Fatalf("byte %d bit %d (line %d): damage not found", i, k, line)
			}
			got, rep := SalvageReport("game.log", bytes.NewReader(buf))
			if got == nil || rep.Repaired != 1 || rep.Dropped != 0 || rep.Inferred != 0 || rep.Torn || rep.Clean() {
				t.Fatalf("byte %d bit %d (line %d): report %v %v", i, k, line, rep, rep.Problems)
			}
			if !sameLog(got, want) {
				t.Fatalf("byte %d bit %d (line %d): salvaged a different game", i, k, line)
			}
			if !strings.HasPrefix(rep.Problems[0].Error(), "game.log:") || rep.Problems[0].Line < line-1 || rep.Problems[0].Line > line+1 {
				t.Fatalf("byte %d bit %d (line %d): problem %v", i, k, line, rep.Problems[0])
			}
			buf[i] ^= 1 << k
		}
	}
}

func sameLog(a, b *Log) bool {
	if !a.Controls.Equal(b.Controls) || a.Options != b.Options || a.Format != b.Format || len(a.Events) != len(b.Events) {
		return false
	}
	for i := range a.Events {
		if a.Events[i] != b.Events[i] {
			return false
		}
	}
	return true
}

// TestInstantFlipFound is the review's case: 6858 read as 7858. The strict
// reader refuses the line and says what it was; salvage puts it back.
func TestInstantFlipFound(t *testing.T) {
	pair, _ := timecontrol.ParsePair("300")
	h := Header{Controls: pair, Options: clock.DefaultOptions}
	b := AppendHeader(nil, h)
	b = AppendEvent(b, Event{At: 0, Verb: Start, Side: clock.NoSide})
	b = AppendEvent(b, Event{At: 3000, Verb: Press, Side: clock.White})
	b = AppendEvent(b, Event{At: 6858, Verb: Press, Side: clock.Black})
	bad := bytes.Replace(b, []byte("6858 press"), []byte("7858 press"), 1)
	_, err := Parse("game.log", bytes.NewReader(bad))
	if err == nil || !strings.Contains(err.Error(), `game.log:8: checksum mismatch: the line is damaged (one flipped bit: it read "6858 press black")`) {
		t.Errorf("strict read of a flipped instant: %v", err)
	}
	l, rep := SalvageReport("game.log", bytes.NewReader(bad))
	if l == nil || l.Events[2].At != 6858 || rep.Repaired != 1 {
		t.Fatalf("salvage: %v %v", l, rep.Problems)
	}
	if got := finalState(t, l, 7000).Player[clock.Black].Ms; got != 300000-3858 {
		t.Errorf("black has %d ms, want %d", got, 300000-3858)
	}
}

// TestOneDamagedLineAnywhere destroys each line of a journal in turn
// (every byte replaced, beyond repair): the game always comes back, with
// the same moves, periods and side to move, and times within the second
// between journal lines; the report counts the one line dropped.
func TestOneDamagedLineAnywhere(t *testing.T) {
	for _, tc := range []struct {
		spec string
		opt  clock.Options
	}{
		{"300+2", clock.DefaultOptions},
		{"8/20:5/10", clock.DefaultOptions},
		{"60d3|50d3", clock.Options{FirstIncrement: false, PeriodTrigger: clock.OnMoves, AfterFlag: clock.Continue}},
	} {
		log, end := journal(t, tc.spec, tc.opt, 3, 24)
		whole, err := Parse("game.log", bytes.NewReader(log))
		if err != nil {
			t.Fatal(err)
		}
		want := finalState(t, whole, end)
		lines := strings.SplitAfter(string(log), "\n")
		lines = lines[:len(lines)-1]
		for i, ln := range lines {
			damaged := strings.Join(lines[:i], "") + strings.Repeat("?", len(ln)-1) + "\n" + strings.Join(lines[i+1:], "")
			checkWhole(t, damaged)
			l, rep := SalvageReport("game.log", strings.NewReader(damaged))
			if l == nil {
				t.Fatalf("%s: line %d %q destroyed: game lost: %v", tc.spec, i+1, ln, rep.Problems)
			}
			if rep.Dropped != 1 || rep.Clean() || rep.Problems[0].Line != i+1 {
				t.Errorf("%s: line %d %q destroyed: report %v %v", tc.spec, i+1, ln, rep, rep.Problems)
			}
			if !l.Controls.Equal(whole.Controls) || l.Options != whole.Options {
				t.Errorf("%s: line %d %q destroyed: header %v %+v", tc.spec, i+1, ln, l.Controls, l.Options)
			}
			if got := finalState(t, l, end); !near(got, want, 1000) {
				t.Errorf("%s: line %d %q destroyed:\n got %+v\nwant %+v\n%v", tc.spec, i+1, ln, got, want, rep.Problems)
			}
		}
	}
}

// BenchmarkSalvage reads the journal of a game of 2,000 moves, with one
// line damaged beyond repair in its middle.
func BenchmarkSalvage(b *testing.B) {
	log, _ := journal(b, "40/5400+30:1800+30", clock.DefaultOptions, 5, 2000)
	mid := bytes.IndexByte(log[len(log)/2:], '\n') + len(log)/2 + 1
	log[mid], log[mid+1] = '?', '?'
	b.SetBytes(int64(len(log)))
	b.ReportAllocs()
	for b.Loop() {
		l, rep := SalvageReport("game.log", bytes.NewReader(log))
		if l == nil || rep.Dropped != 1 {
			b.Fatal(rep.Problems)
		}
	}
}
