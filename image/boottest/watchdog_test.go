package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseNRestarts(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int
		ok   bool
	}{
		{"0\n", 0, true},
		{"  3 ", 3, true},
		{"NRestarts=12", 12, true},
		{"\n2\n1\n", 2, true}, // the count, then other lines
		{"", 0, false},
		{"[not set]", 0, false},
		{"-1", 0, false},
	} {
		got, err := parseNRestarts(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("parseNRestarts(%q) = %d, %v; want %d, ok=%v", c.in, got, err, c.want, c.ok)
		}
	}
}

func TestParseStatusDaemonLine(t *testing.T) {
	// As `zeitnot status` prints it: the replay state plus the daemon's fields.
	line := `{"at":61234,"running":"none","paused":true,"first_flag":"none",` +
		`"white":{"ms":5398766,"moves":1,"period":0,"flag":false,"mode":"countdown"},` +
		`"black":{"ms":5400000,"moves":0,"period":0,"flag":false,"mode":"countdown"},` +
		`"to_move":"black","started":true,"stopped":false,"recovered":true,"screen":"message",` +
		`"control":"90m/40+30m+30s","left":"white","locked":false,"messages":["RECOVERED"]}`
	c, err := parseStatus("some warning\n" + line + "\n")
	if err != nil {
		t.Fatal(err)
	}
	want := clockState{Running: "none", Paused: true, Recovered: true, Started: true, Left: "white",
		White: side{MS: 5398766, Moves: 1}, Black: side{MS: 5400000, Moves: 0}}
	if c != want {
		t.Fatalf("got %+v\nwant %+v", c, want)
	}
	if _, err := parseStatus("zeitnot status: cannot reach the clock"); err == nil {
		t.Fatal("no JSON line: want an error")
	}
}

func TestRecoveryProblems(t *testing.T) {
	before := clockState{Running: "black", White: side{MS: 60000, Moves: 2}, Black: side{MS: 58000, Moves: 1}}
	good := clockState{Running: "none", Paused: true, Recovered: true,
		White: side{MS: 60000, Moves: 2}, Black: side{MS: 57200, Moves: 1}}
	if p := recoveryProblems(before, good, 2000); len(p) != 0 {
		t.Fatalf("a good recovery: %v", p)
	}
	bad := good
	bad.Recovered, bad.Paused = false, false
	bad.Black.Moves = 0
	bad.Black.MS = 50000 // the hang billed to black
	p := recoveryProblems(before, bad, 2000)
	want := []string{"not recovered", "not paused", "moves 2/0, were 2/1", "black's time off by 8000 ms (at most 2000)"}
	if strings.Join(p, "|") != strings.Join(want, "|") {
		t.Fatalf("got %q\nwant %q", p, want)
	}
}

func TestLeverOf(t *testing.T) {
	if leverOf(clockState{Left: "white"}, "white") != "left" || leverOf(clockState{Left: "white"}, "black") != "right" ||
		leverOf(clockState{Left: "black"}, "black") != "left" {
		t.Fatal("leverOf")
	}
}

// shellWords quotes for the guest's shell.
func TestShellWords(t *testing.T) {
	text := "[Service]\nEnvironment=" + hooksSetting + "\n"
	out, err := exec.Command("sh", "-c", "printf '%s\\n' "+shellWords(text)).Output()
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != text {
		t.Fatalf("got %q, want %q", out, text)
	}
	if got := shellWords("it's\n"); got != `'it'\''s'` {
		t.Fatalf("shellWords: %s", got)
	}
}

// fakeTools puts systemctl and zeitnot stand-ins on PATH: NRestarts reads
// as 0 for the first `calls` queries, then 1 (never, with calls < 0).
func fakeTools(t *testing.T, calls int) {
	dir := t.TempDir()
	counter := filepath.Join(dir, "count")
	systemctl := fmt.Sprintf(`#!/bin/sh
case "$1" in
show) n=$(cat %[1]s 2>/dev/null || echo 0); echo $((n+1)) > %[1]s
      if [ %[2]d -ge 0 ] && [ "$n" -ge %[2]d ]; then echo 1; else echo 0; fi ;;
is-active) [ "$2" = -q ] || echo active ;;
esac
`, counter, calls)
	for name, text := range map[string]string{"systemctl": systemctl, "zeitnot": "#!/bin/sh\necho '{}'\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", dir+":"+os.Getenv("PATH"))
}

func TestWaitActiveScriptSeesTheRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the wait script in real time: not with -short")
	}
	fakeTools(t, 2)
	out, err := exec.Command("sh", "-c", waitActiveScript(20, 0)).CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "active, NRestarts=1" {
		t.Fatalf("%v: %s", err, out)
	}
	// Without a count to beat, active is enough.
	out, err = exec.Command("sh", "-c", waitActiveScript(20, -1)).CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "active, NRestarts=") {
		t.Fatalf("%v: %s", err, out)
	}
}

func TestWaitActiveScriptTimesOut(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a timeout: not with -short")
	}
	fakeTools(t, -1)
	start := time.Now()
	out, err := exec.Command("sh", "-c", waitActiveScript(2, 0)).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "not back after 2s: active, NRestarts=0") {
		t.Fatalf("want a timeout, got %v: %s", err, out)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("the 2 s wait took %s", d)
	}
}

// fakeGuest answers watchdogCheck's commands as the image would, hooks and
// all; broken makes one part misbehave.
type fakeGuest struct {
	broken   string // "", "no-restart" (no watchdog), "lost-move", "hooks-stay"
	hooks    bool
	hung     bool
	restarts int
	timeouts int
	state    fakeClock
	cmds     []string
}

// fakeClock is the guest's clock; paused is the side that was running when
// the game was paused.
type fakeClock struct {
	clockState
	paused string
}

func (g *fakeGuest) run(cmd string, timeout time.Duration) (string, int) {
	g.cmds = append(g.cmds, cmd)
	switch {
	case cmd == "systemctl set-environment "+hooksSetting+" && systemctl show-environment":
		g.hooks = true
		return "LANG=C.UTF-8\n" + hooksSetting, 0
	case strings.HasPrefix(cmd, "systemctl unset-environment ZEITNOT_TEST_HOOKS; systemctl restart"):
		g.hooks = g.broken == "hooks-stay"
		g.hung, g.restarts = false, 0
		return "active, NRestarts=0", 0
	case cmd == "systemctl show-environment":
		if g.hooks {
			return "LANG=C.UTF-8\n" + hooksSetting, 0
		}
		return "LANG=C.UTF-8", 0
	case strings.HasPrefix(cmd, "systemctl restart"):
		g.restarts = 0
		return "active, NRestarts=0", 0
	case cmd == "systemctl show -p Environment --value zeitnot.service":
		if g.hooks {
			return hooksSetting, 0
		}
		return "", 0
	case strings.HasPrefix(cmd, "systemctl show -p NRestarts --value zeitnot.service; journalctl"):
		return fmt.Sprintf("%d\n%d", g.restarts, g.timeouts), 0
	case strings.HasPrefix(cmd, "journalctl"):
		return strings.Repeat("zeitnot.service: Watchdog timeout (limit 5s)!\n", g.timeouts), 0
	case strings.HasPrefix(cmd, "end="):
		if !g.hung || g.broken == "no-restart" {
			return "not back after 60s: activating, NRestarts=0", 1
		}
		g.hung = false
		g.restarts++
		g.timeouts++
		g.state.Running, g.state.Paused, g.state.Recovered = "none", true, true
		if g.broken == "lost-move" {
			g.state.White.Moves--
		}
		return fmt.Sprintf("active, NRestarts=%d", g.restarts), 0
	case cmd == "zeitnot hang":
		if !g.hooks {
			return `zeitnot hang: unknown command "hang", want status, press or hold`, 1
		}
		g.hung = true
		return "", 0
	case strings.Contains(cmd, "zeitnot press "):
		b := cmd[strings.LastIndex(cmd, " ")+1:]
		s := &g.state
		switch {
		case b == "pause" && s.Paused:
			s.Paused, s.Recovered, s.Running = false, false, s.paused
		case b == "right" && !s.Started:
			s.Started, s.Running = true, "white"
		case s.Running != "none" && leverOf(s.clockState, s.Running) == b:
			if s.Running == "white" {
				s.White.Moves++
				s.Running = "black"
			} else {
				s.Black.Moves++
				s.Running = "white"
			}
		}
		return "", 0
	case strings.HasPrefix(cmd, "systemctl status"):
		return "", 0
	}
	return "unexpected command " + cmd, 127
}

func (g *fakeGuest) status() (clockState, string, error) {
	if g.hung {
		return clockState{}, "", fmt.Errorf("no answer")
	}
	return g.state.clockState, "", nil
}

func TestWatchdogCheck(t *testing.T) {
	for _, c := range []struct {
		broken string
		start  clockState
		failed []string
	}{
		{start: clockState{Running: "none", Left: "white"}},
		{start: clockState{Running: "none", Paused: true, Recovered: true, Started: true, Left: "black"}},
		{broken: "no-restart", start: clockState{Running: "none", Left: "white"},
			failed: []string{"watchdog: hung daemon restarted by systemd"}},
		{broken: "lost-move", start: clockState{Running: "none", Left: "white"},
			failed: []string{"watchdog: game recovered, paused, same moves and times"}},
		{broken: "hooks-stay", start: clockState{Running: "none", Left: "white"},
			failed: []string{"watchdog: hooks removed, the image's service back, hang refused"}},
	} {
		t.Run(c.broken, func(t *testing.T) {
			g := &fakeGuest{broken: c.broken}
			g.state.clockState = c.start
			if c.start.Paused {
				g.state.paused = "black"
			}
			rep := &report{}
			watchdogCheck(rep, g.run, g.status)
			var failed []string
			for _, r := range rep.results {
				if !r.ok {
					failed = append(failed, r.name)
				}
			}
			if strings.Join(failed, "|") != strings.Join(c.failed, "|") {
				t.Fatalf("failed checks %q, want %q\ncommands:\n%s", failed, c.failed, strings.Join(g.cmds, "\n"))
			}
			if g.hooks && c.broken != "hooks-stay" {
				t.Fatal("the test hooks were left in the manager's environment")
			}
			if c.broken == "" && len(rep.results) != 8 {
				t.Fatalf("%d checks, want 8", len(rep.results))
			}
		})
	}
}
