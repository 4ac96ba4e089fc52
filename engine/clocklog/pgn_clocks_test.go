package clocklog_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/engine/clocklog"
)

// WhiteClock and BlackClock at PGNGame.ClocksAt, the moment the PGN is
// written: the running side's clock as it stands then (a period's time
// added when the last ran out, FIDE 6.3), a pause and a correction as
// the log has them, and after a result the clocks where the game ended,
// however much later the PGN is written.
func TestPGNClocksAt(t *testing.T) {
	for _, tc := range []struct {
		name, log string
		at        int64
		result    string
		white     string
		black     string
	}{
		{"at the log's last instant without ClocksAt", "control 60\n0 start\n5000 checkpoint white\n", 0, "", "0:00:55", "0:01:00"},
		{"running, read later", "control 60\n0 start\n5000 checkpoint white\n", 42000, "", "0:00:18", "0:01:00"},
		{"an instant before the last one reads the last", "control 60\n0 start\n5000 checkpoint white\n", 2000, "", "0:00:55", "0:01:00"},
		{"Black runs after a press", "control 60\n0 start\n4000 press white\n", 10000, "", "0:00:56", "0:00:54"},
		{"the next period's time added when the first ran out", "control 2/60:60\n0 start\n", 70000, "", "0:00:50", "0:01:00"},
		{"paused: the clock stands", "control 60\n0 start\n10000 pause\n", 50000, "", "0:00:50", "0:01:00"},
		{"an arbiter's correction while paused", "control 60\n0 start\n10000 pause\n20000 add white +120000\n", 30000, "", "0:02:50", "0:01:00"},
		{"a flag: the clock stops at zero", "control 60\n0 start\n", 90000, "", "0:00:00", "0:01:00"},
		{"a result freezes the clocks where the game ended", "control 60\n0 start\n10000 result 1/2-1/2 players\n", 40000, "", "0:00:50", "0:01:00"},
		{"a result corrected later: where the game ended", "control 60\n0 start\n10000 result 1-0 players\n15000 result 0-1 arbiter\n", 40000, "", "0:00:50", "0:01:00"},
		{"a result taken back: the game goes on", "control 60\n0 start\n10000 result 1-0 arbiter\n12000 result * arbiter\n", 40000, "", "0:00:20", "0:01:00"},
		{"a result the caller gives: at the log's last instant", "control 60\n0 start\n10000 checkpoint white\n", 40000, "1-0", "0:00:50", "0:01:00"},
		{"the caller's * is no result", "control 60\n0 start\n10000 checkpoint white\n", 40000, "*", "0:00:20", "0:01:00"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := clocklog.Parse(tc.name, strings.NewReader("format 1\n"+tc.log))
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := clocklog.WritePGN(l, &out, clocklog.PGNGame{Result: tc.result, ClocksAt: tc.at}); err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{`[WhiteClock "` + tc.white + `"]`, `[BlackClock "` + tc.black + `"]`} {
				if !strings.Contains(out.String(), want) {
					t.Errorf("no %s in\n%s", want, out.String())
				}
			}
		})
	}
}

// ClocksAt changes the tags only: the moves' %clk and the clock record
// are the log's.
func TestPGNClocksAtTagsOnly(t *testing.T) {
	l := gameLog(t, "format 1\ncontrol 60+1\n", 6, "")
	var before, after bytes.Buffer
	if err := clocklog.WritePGN(l, &before, clocklog.PGNGame{}); err != nil {
		t.Fatal(err)
	}
	if err := clocklog.WritePGN(l, &after, clocklog.PGNGame{ClocksAt: 1 << 30}); err != nil {
		t.Fatal(err)
	}
	_, m1, _ := strings.Cut(before.String(), "\n\n")
	_, m2, _ := strings.Cut(after.String(), "\n\n")
	if m1 != m2 {
		t.Errorf("movetext changed with ClocksAt:\n%s\nwant\n%s", m2, m1)
	}
	if before.String() == after.String() {
		t.Errorf("tags did not change with ClocksAt far later:\n%s", after.String())
	}
}
