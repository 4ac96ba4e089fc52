package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/control"
	"github.com/zeitnot/zeitnot/appliance/usb"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/internal/needtool"
	"github.com/zeitnot/zeitnot/sim"
)

// fatImage makes a FAT image file, as a stick, or skips the test without
// mtools and dosfstools.
func fatImage(t *testing.T) string {
	t.Helper()
	mkfs := needtool.Path(t, "apt-get install dosfstools", "mkfs.fat")
	needtool.Path(t, "apt-get install mtools", "mcopy")
	img := filepath.Join(t.TempDir(), "stick.img")
	if out, err := exec.Command(mkfs, "-C", img, "8192").CombinedOutput(); err != nil {
		t.Fatalf("mkfs.fat: %v\n%s", err, out)
	}
	return img
}

// stickFile reads a file of the image.
func stickFile(t *testing.T, img, path string) string {
	t.Helper()
	var b bytes.Buffer
	if err := usb.ExecRunner(context.Background(), "mtype", []string{"-i", img, "::/" + path}, &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestUSBCommand: the simulator plays a game to a flag and starts the next;
// `zeitnot usb` puts both on a stick, and the PGN's clock comments, read
// back, are what `zeitnot replay --clk` prints for the same logs.
func TestUSBCommand(t *testing.T) {
	img := fatImage(t)
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	cfg := filepath.Join(dir, "zeitnot.toml")
	os.WriteFile(cfg, []byte("[game]\ncontrol = \"60+1\"\n"), 0o644)
	script := filepath.Join(dir, "game.sim")
	os.WriteFile(script, []byte(`0 tap right
1200 tap left
3100 tap right
5000 tap left
7400 tap right
9000 tap left
# Black's flag falls at 70500; ok starts the next game.
71000 tap ok
72000 tap right
73500 tap left
75000 tap right
75500 state
`), 0o644)
	// The simulator plays it (the laptop's program has it, not this one).
	f, _ := os.Open(script)
	defer f.Close()
	var simLog bytes.Buffer
	if err := sim.RunScript(sim.ScriptOpts{Profile: "sim", ConfigPath: cfg, StateDir: state, Shots: dir, Out: io.Discard, Log: &simLog}, script, f); err != nil {
		t.Fatalf("sim: %v\n%s", err, simLog.String())
	}
	code, out, errOut := prog.Run("usb", "--image", "--socket", "", "--state-dir", state, "--config", cfg, img)
	if code != 0 {
		t.Fatalf("usb: exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "1 games saved to zeitnot/") || !strings.Contains(out, "the game in the journal: true") {
		t.Errorf("stdout %q", out)
	}
	host, _ := os.Hostname()
	folder := "zeitnot/" + usb.FolderName(0, host)
	var listing bytes.Buffer
	usb.ExecRunner(context.Background(), "mdir", []string{"-b", "-i", img, "::/" + folder}, &listing)
	entries, _, _ := usb.ParseListing(folder, listing.String())
	var pgnName string
	for _, e := range entries {
		if strings.HasPrefix(e.Name, "0001-") && strings.HasSuffix(e.Name, ".pgn") {
			pgnName = e.Name
		}
	}
	if pgnName == "" {
		t.Fatalf("no PGN of game 1 in %s: %v", folder, entries)
	}
	for _, c := range []struct{ pgn, log string }{
		{folder + "/" + pgnName, filepath.Join(state, "games", "0001.log")},
		{folder + "/" + usb.Current + ".pgn", ""},
	} {
		log := c.log
		if log == "" {
			log = filepath.Join(dir, "current.log")
			os.WriteFile(log, []byte(stickFile(t, img, folder+"/"+usb.Current+".log")), 0o644)
		}
		// The stick's PGN is the one writer's: its movetext is what
		// replay --pgn prints of the same log.
		code, want, errOut := prog.Run("replay", "--pgn", log)
		if code != 0 || !strings.Contains(want, "1. clk ") {
			t.Fatalf("replay --pgn %s: exit %d: %s\n%s", log, code, errOut, want)
		}
		pgn := stickFile(t, img, c.pgn)
		if got := movetextOf(pgn); got != movetextOf(want) {
			t.Errorf("%s movetext:\n%s\nzeitnot replay --pgn %s:\n%s", c.pgn, got, filepath.Base(log), movetextOf(want))
		}
		if !strings.Contains(pgn, `[TimeControl "60+1"]`) {
			t.Errorf("%s:\n%s", c.pgn, pgn)
		}
	}
	// WhiteClock and BlackClock are the clocks at the log's last
	// instant, as replay prints them.
	_, js, _ := prog.Run("replay", filepath.Join(state, "games", "0001.log"))
	var end struct{ White, Black struct{ Ms int64 } }
	if err := json.Unmarshal([]byte(js), &end); err != nil {
		t.Fatal(err)
	}
	pgn := stickFile(t, img, folder+"/"+pgnName)
	for _, tag := range []string{
		fmt.Sprintf(`[WhiteClock "%s"]`, clocklog.PGNTime(end.White.Ms)),
		fmt.Sprintf(`[BlackClock "%s"]`, clocklog.PGNTime(end.Black.Ms)),
		`[Date "` + time.Now().Format("2006.01.02") + `"]`,
	} {
		if !strings.Contains(pgn, tag) {
			t.Errorf("game 1 has no %s:\n%s", tag, pgn)
		}
	}
	if st := stickFile(t, img, folder+"/status.txt"); !strings.Contains(st, "version:  "+version) || !strings.Contains(st, `control = "60+1"`) {
		t.Errorf("status.txt:\n%s", st)
	}
}

// movetextOf is a PGN game's movetext, after its tags.
func movetextOf(pgn string) string {
	_, movetext, _ := strings.Cut(pgn, "\n\n")
	return movetext
}

// TestUSBStopped: the unit's ExecStopPost= takes the message away after
// an export that ran to the end, and leaves it after one cut short.
func TestUSBStopped(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "control.sock")
	srv, err := control.Listen(sock)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	got := make(chan string, 4)
	go func() {
		for r := range srv.Requests {
			got <- strings.TrimSpace(r.Cmd + " " + r.Arg)
			r.Reply("ok")
		}
	}()
	for _, tc := range []struct {
		code, status string
		want         string
	}{
		{"exited", "0", "usb-message"},
		{"exited", "1", ""},
		{"killed", "15", ""},
	} {
		t.Setenv("EXIT_CODE", tc.code)
		t.Setenv("EXIT_STATUS", tc.status)
		if code, _, errOut := prog.Run("usb", "--stopped", "--socket", sock); code != 0 {
			t.Errorf("%s %s: exit %d: %s", tc.code, tc.status, code, errOut)
		}
		select {
		case r := <-got:
			if r != tc.want {
				t.Errorf("%s %s: request %q, want %q", tc.code, tc.status, r, tc.want)
			}
		default:
			if tc.want != "" {
				t.Errorf("%s %s: no request", tc.code, tc.status)
			}
		}
	}
}

// TestUSBStoppedNoDaemon: a daemon that is gone, or does not know the
// request, is no failure of the unit.
func TestUSBStoppedNoDaemon(t *testing.T) {
	t.Setenv("EXIT_CODE", "exited")
	t.Setenv("EXIT_STATUS", "0")
	code, _, errOut := prog.Run("usb", "--stopped", "--socket", filepath.Join(t.TempDir(), "none.sock"))
	if code != 0 || !strings.Contains(errOut, "the message stays on the displays") {
		t.Errorf("exit %d: %s", code, errOut)
	}
}

func TestUSBUsage(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{{"usb"}, {"usb", "a", "b"}, {"usb", filepath.Join(dir, "none")}, {"usb", dir}} {
		if code, _, errOut := prog.Run(args...); code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", args, code, errOut)
		}
	}
	img := filepath.Join(dir, "x.img")
	os.WriteFile(img, nil, 0o644)
	if code, _, errOut := prog.Run("usb", img); code != 2 || !strings.Contains(errOut, "not a block device") {
		t.Errorf("an image without --image: exit %d: %s", code, errOut)
	}
	if code, _, errOut := prog.Run("usb", "--image", "--socket", "", "--state-dir", dir, img); code != 1 || !strings.Contains(errOut, "no FAT file system") {
		t.Errorf("an empty image: exit %d: %s", code, errOut)
	}
}
