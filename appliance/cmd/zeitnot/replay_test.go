package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func run(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	code = dispatch(args, &o, &e)
	return code, o.String(), e.String()
}

func TestReplayCommand(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "game.log")
	os.WriteFile(good, []byte("control 40/5400+30:1800+30\n0 show\n0 start\n60000 press white\n60000 show\n"), 0o644)
	code, out, errOut := run(t, "replay", good)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("want 2 JSON lines, got %q", out)
	}
	if !strings.HasPrefix(lines[0], `{"at":0,"running":"none","paused":false,"first_flag":"none","white":{"ms":5430000,"moves":0,"period":1,"flag":false,"overstep":false`) {
		t.Errorf("first show: %s", lines[0])
	}
	if !strings.HasPrefix(lines[1], `{"at":60000,"running":"black","paused":false,"first_flag":"none","white":{"ms":5400000,"moves":1,`) {
		t.Errorf("second show: %s", lines[1])
	}

	code, out, _ = run(t, "replay", "--clk", good)
	if code != 0 || out != "1. {[%clk 1:30:00] [%emt 0:01:00]}\n" {
		t.Errorf("--clk: exit %d, %q", code, out)
	}

	bad := filepath.Join(dir, "bad.log")
	os.WriteFile(bad, []byte("control 300\n0 start\n10 press purple\n"), 0o644)
	code, _, errOut = run(t, "replay", bad)
	if code == 0 || !strings.Contains(errOut, "bad.log:3: press: want white or black, got \"purple\"") {
		t.Errorf("bad log: exit %d, stderr %q", code, errOut)
	}
	code, _, errOut = run(t, "replay", filepath.Join(dir, "missing.log"))
	if code == 0 || !strings.Contains(errOut, "missing.log") {
		t.Errorf("missing file: exit %d, stderr %q", code, errOut)
	}
	if code, _, _ = run(t, "replay"); code != 2 {
		t.Errorf("no file: exit %d, want 2", code)
	}
}
