package sim

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/ui"
)

// TestScheduledStartOnTheVirtualClock: with a time of day, the scripted
// simulator counts down to the round's start and starts White's clock at
// its millisecond (FIDE 6.5); after the default time the side that has not
// moved is marked DEFAULT (6.6). A power cut before the start leaves the
// game waiting, and it still starts on time.
func TestScheduledStartOnTheVirtualClock(t *testing.T) {
	dir := t.TempDir()
	script := `0 round 2026-03-07T18:30:00+01:00 2m
1000 state
30000 power-cut
59999 state
60000 state
65000 tap left
180000 state
180000 shot default
`
	var out strings.Builder
	tod := time.Date(2026, 3, 7, 18, 29, 0, 0, time.FixedZone("CET", 3600))
	err := RunScript(ScriptOpts{StateDir: filepath.Join(dir, "state"), Shots: dir, Out: &out, TimeOfDay: tod}, "round.sim", strings.NewReader(script))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 4 {
		t.Fatalf("want 4 state lines, got %q", out.String())
	}
	var st [4]ui.Status
	for i, l := range lines {
		json.Unmarshal([]byte(l), &st[i])
	}
	if st[0].Started || st[0].TimeSource != "sim" || st[0].Round == nil || *st[0].Round.StartsIn != 59000 {
		t.Errorf("counting down: %+v %+v", st[0], st[0].Round)
	}
	if st[1].Started || *st[1].Round.StartsIn != 1 {
		t.Errorf("1 ms before the start, after a power cut: %+v %+v", st[1], st[1].Round)
	}
	if !st[2].Started || st[2].Running != "white" || st[2].At != 60000 || st[2].White.Ms != 5430000 {
		t.Errorf("at the start: %+v", st[2])
	}
	// White moved at 65 s; Black had not by 18:30 + 2 min.
	if st[3].White.Moves != 1 || strings.Join(st[3].Default, ",") != "black" {
		t.Errorf("after the default time: %+v", st[3])
	}
	data, _ := os.ReadFile(filepath.Join(dir, "state", "game.log"))
	if !strings.Contains(string(data), "\n60000 start *") {
		t.Errorf("the journal's start is not at 60000 ms:\n%s", strings.TrimRight(string(data), "\x00"))
	}
	txt, _ := os.ReadFile(filepath.Join(dir, "default.txt"))
	if len(txt) == 0 {
		t.Error("no shot")
	}
}

// TestRequestDirective: a script sends the hall's requests as the link
// does and prints the answers; a start without a time of day is refused.
func TestRequestDirective(t *testing.T) {
	script := `0 request players {"white":"Carlsen, Magnus"}
0 request log
0 request pause
0 request takeover {"board":7}
`
	var out strings.Builder
	if err := RunScript(ScriptOpts{StateDir: t.TempDir(), Out: &out}, "r.sim", strings.NewReader(script)); err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(got) != 4 || got[0] != "ok" || !strings.HasPrefix(got[1], `{"game":"0001-`) || !strings.HasSuffix(got[1], `","lines":5}`) ||
		got[2] != "ok not running" || !strings.HasPrefix(got[3], "error: takeover: ") {
		t.Errorf("answers %q", got)
	}
	err := RunScript(ScriptOpts{StateDir: t.TempDir()}, "r.sim", strings.NewReader("0 round 2026-03-07T18:30:00+01:00\n"))
	if err == nil || !strings.Contains(err.Error(), "r.sim:1: round: round: the clock does not know the time of day") {
		t.Errorf("a start without a time of day: %v", err)
	}
	for _, tc := range []struct{ script, want string }{
		{"0 round\n", "s.sim:1: round takes a start"},
		{"0 round 18:30\n", `s.sim:1: round: start "18:30": want an RFC 3339 time`},
		{"0 round none 25h\n", `s.sim:1: round: default time "25h": want a duration from 0s to 24h`},
		{"0 request\n", "s.sim:1: request takes a control request"},
	} {
		if _, err := ParseScript("s.sim", strings.NewReader(tc.script)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.script, err, tc.want)
		}
	}
}
