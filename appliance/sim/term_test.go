package sim

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/daemon"
	"github.com/zeitnot/zeitnot/appliance/ui"
	"github.com/zeitnot/zeitnot/drivers/button"
)

// TestScreenMenuAsText: a terminal wide enough shows the menu as text, not
// as pictures of the displays; a narrow one keeps the pictures.
func TestScreenMenuAsText(t *testing.T) {
	c := start(t, ScriptOpts{})
	c.hold(ui.OK)
	wide := Screen(c.v.M, c.v.Now(), 100, 40, nil)
	if !strings.Contains(wide, "Rapid-Armag.") || strings.ContainsAny(wide, "▘▝▖▗▚▞") {
		t.Errorf("wide terminal, menu not as text:\n%s", wide)
	}
	narrow := Screen(c.v.M, c.v.Now(), 30, 40, nil)
	if strings.Contains(narrow, "Rapid-Armag.") {
		t.Errorf("narrow terminal shows text it cannot fit:\n%s", narrow)
	}
	c.tap(ui.Pause)
	game := Screen(c.v.M, c.v.Now(), 100, 40, nil)
	if !strings.ContainsAny(game, "▘▝▖▗▚▞█") {
		t.Errorf("the game is not drawn as the displays:\n%s", game)
	}
}

// TestScreenNoticesAsText: the game screen's notices, LOCKED, WRONG PIN
// and RESULT, are written as text under the displays on a terminal wide
// enough, as README.md says of messages: in the pictures of the displays
// they were only small letters in block characters.
func TestScreenNoticesAsText(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "zeitnot.toml")
	os.WriteFile(cfg, []byte("[game]\ncontrol = \"60\"\n[lock]\nlocked = true\npin = \"4711\"\n"), 0o644)
	c := start(t, ScriptOpts{ConfigPath: cfg})
	notice := func(want string) {
		t.Helper()
		s := Screen(c.v.M, c.v.Now(), 100, 40, nil)
		if !strings.Contains(s, "\nnotice: "+want+"\n") {
			t.Errorf("no notice %q as text:\n%s", want, s)
		}
		if narrow := Screen(c.v.M, c.v.Now(), 30, 40, nil); strings.Contains(narrow, "notice: ") {
			t.Errorf("a narrow terminal writes the notice it cannot fit:\n%s", narrow)
		}
	}
	c.tap(ui.Right)
	c.wait(61 * time.Second) // White's flag
	c.v.Button(ui.OK, button.Press)
	c.v.Button(ui.OK, button.Release)
	notice("LOCKED")
	c.wait(3 * time.Second)
	c.hold(ui.OK) // the PIN form; ok on 0000 takes a wrong PIN
	for range 4 {
		c.tap(ui.OK)
	}
	notice("WRONG PIN")
	c.wait(3 * time.Second)
	if _, ok := c.v.M.Control("result", `{"result":"0-1"}`, c.v.Now()); !ok {
		t.Fatal("result not handled")
	}
	notice("RESULT 0-1")
}

// TestScreenShowsTheBuzzer: the flag alarm shows under the displays while
// it sounds.
func TestScreenShowsTheBuzzer(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "zeitnot.toml")
	os.WriteFile(cfg, []byte("[game]\ncontrol = \"60\"\n"), 0o644)
	c := start(t, ScriptOpts{ConfigPath: cfg})
	if s := Screen(c.v.M, c.v.Now(), 100, 40, nil); !strings.Contains(s, "buzzer: -") {
		t.Errorf("quiet buzzer not shown:\n%s", s)
	}
	c.tap(ui.Right)
	c.v.Advance(c.v.Now() + 60*time.Second + 100*time.Millisecond)
	if s := Screen(c.v.M, c.v.Now(), 100, 40, nil); !strings.Contains(s, "buzzer: alarm") {
		t.Errorf("flag alarm not shown:\n%s", s)
	}
}

// TestScreenStatusLive: the line under the displays is the clock's state
// after every step, and no line the start left says otherwise: the
// daemon's "zeitnot running: ready; white 1:30:30, ..." stayed among the
// log lines under the displays for the whole game (issue 24).
func TestScreenStatusLive(t *testing.T) {
	c := start(t, ScriptOpts{})
	logs := &termLog{}
	fmt.Fprintln(logs, "buzzer: ok: simulated buzzer")
	fmt.Fprintln(logs, daemon.RunningLine(c.v.M, c.v.Now())) // as Run logs it
	was := c.v.M.Core.StatusLine(c.v.Now())
	for _, step := range []struct {
		tap  string
		want string
	}{
		{ui.Right, "white running"},
		{ui.Left, "black running"},
		{ui.Pause, "paused"},
	} {
		c.tap(step.tap)
		c.wait(3 * time.Second)
		now := c.v.M.Core.StatusLine(c.v.Now())
		s := Screen(c.v.M, c.v.Now(), 100, 40, logs.Lines())
		if !strings.HasPrefix(now, step.want) || strings.Count(s, now) != 1 {
			t.Errorf("after %s: the screen does not show the state %q once:\n%s", step.tap, now, s)
		}
		if strings.Contains(s, was) {
			t.Errorf("after %s: the screen still shows the state at the start, %q:\n%s", step.tap, was, s)
		}
		if !strings.Contains(s, "buzzer: ok: simulated buzzer") {
			t.Errorf("after %s: the other log lines are gone:\n%s", step.tap, s)
		}
	}
}

func TestDefaultStateDir(t *testing.T) {
	base := t.TempDir()
	t.Setenv("XDG_STATE_HOME", base)
	dir, err := DefaultStateDir()
	if err != nil || dir != filepath.Join(base, "zeitnot", "sim") {
		t.Fatalf("DefaultStateDir = %q, %v", dir, err)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		t.Errorf("not made: %v", err)
	}
	t.Setenv("XDG_STATE_HOME", "relative/path") // ignored, as the spec says
	t.Setenv("HOME", base)
	if dir, _ := DefaultStateDir(); dir != filepath.Join(base, ".local", "state", "zeitnot", "sim") {
		t.Errorf("with a relative XDG_STATE_HOME: %q", dir)
	}
}
