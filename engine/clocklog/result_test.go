package clocklog

import (
	"bytes"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/engine/clock"
)

// TestResultLines: a result line reads and writes back as it was, the
// last one holds, and a bad one says what is wrong on its line.
func TestResultLines(t *testing.T) {
	log := "control 300\n0 start\n1000 press white\n2000 pause\n2500 result 0-1 players\n3000 result 1/2-1/2 arbiter\n"
	l, err := Parse("game.log", strings.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	if r, by := ResultOf(l); r != Draw || by != Arbiter {
		t.Errorf("ResultOf = %v %v, want 1/2-1/2 arbiter", r, by)
	}
	b := AppendHeader(nil, l.Header)
	for _, e := range l.Events {
		b = AppendEvent(b, e)
	}
	if !strings.Contains(string(b), "2500 result 0-1 players *") {
		t.Errorf("written:\n%s", b)
	}
	l2, err := Parse("written", bytes.NewReader(b))
	if err != nil || !sameEvents(l, l2) {
		t.Fatalf("round trip: %v\n%s", err, b)
	}
	// A result changes no clock: the replay is the same without it.
	c, _ := Replay(l, Handlers{})
	if st := c.State(3000); !st.Paused || st.Player[clock.White].Moves != 1 {
		t.Errorf("clock after results: %+v", st)
	}
	if r, _ := ResultOf(&Log{}); r != NoResult {
		t.Errorf("no result lines: %v", r)
	}
	for _, tc := range []struct{ line, want string }{
		{"5 result 1-0", "game.log:2: result takes 2 argument(s), got 1"},
		{"5 result 2-0 players", `game.log:2: result: want 1-0, 1/2-1/2, 0-1 or *, got "2-0"`},
		{"5 result ½-½ players", `game.log:2: result: want 1-0, 1/2-1/2, 0-1 or *, got "½-½"`},
		{"5 result 1-0 white", `game.log:2: result 1-0: want players or arbiter, got "white"`},
		{"5 result * players", "game.log:2: result *: only the arbiter takes a result back"},
	} {
		_, err := Parse("game.log", strings.NewReader("control 300\n"+tc.line+"\n"))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.line, err, tc.want)
		}
	}
}

// TestResultSalvage: a result line among the events is kept by salvage
// and breaks no inference of a lost press around it.
func TestResultSalvage(t *testing.T) {
	log := "control 300\n0 start\n1000 press white\n2000 prXss black\n3000 press white\n4000 pause\n5000 result 1-0 players\n"
	l, rep := SalvageReport("game.log", strings.NewReader(log))
	if l == nil {
		t.Fatal(rep.Problems)
	}
	if r, by := ResultOf(l); r != WhiteWins || by != Players {
		t.Errorf("salvaged result %v %v, problems %v", r, by, rep.Problems)
	}
	if rep.Inferred != 1 || rep.Dropped != 1 {
		t.Errorf("report %+v", rep)
	}
}

// TestPGNResultFromLog: the log's result line is the PGN's Result tag and
// the movetext's end, unless the caller gives one.
func TestPGNResultFromLog(t *testing.T) {
	l, err := Parse("game.log", strings.NewReader("control 300\n0 start\n1000 press white\n2000 pause\n3000 result 0-1 players\n"))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WritePGN(l, &b, PGNGame{}); err != nil {
		t.Fatal(err)
	}
	if s := b.String(); !strings.Contains(s, `[Result "0-1"]`) || !strings.HasSuffix(strings.TrimSpace(s), " 0-1") {
		t.Errorf("PGN:\n%s", s)
	}
	b.Reset()
	WritePGN(l, &b, PGNGame{Result: "*"})
	if !strings.Contains(b.String(), `[Result "*"]`) {
		t.Errorf("a given result is not the log's:\n%s", b.String())
	}
}
