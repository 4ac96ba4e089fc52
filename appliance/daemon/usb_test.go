package daemon

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/config"
	"github.com/zeitnot/zeitnot/appliance/ui"
)

// TestStickRequests: zeitnot usb's requests: its message on the displays
// for at most ten minutes, a bad config refused with its first problem and
// the old one kept, a good one imported once.
func TestStickRequests(t *testing.T) {
	dir := t.TempDir()
	m, devs := Setup(Opts{StateDir: dir, ConfigPath: filepath.Join(dir, "none.toml"), Profile: "sim", FallbackProfile: "sim", Now: func() time.Duration { return 0 }}, func(string) {})
	defer devs.Close()
	defer m.Core.Close()
	if a, ok := m.stickRequest("usb-message", "12 GAMES SAVED/PULL THE STICK", 0); !ok || a != "ok" {
		t.Fatalf("usb-message: %q %v", a, ok)
	}
	if b := m.Core.View(time.Second).Game.Banner; b != "12 GAMES SAVED - PULL THE STICK" {
		t.Errorf("banner %q", b)
	}
	if b := m.Core.View(11 * time.Minute).Game.Banner; strings.Contains(b, "GAMES SAVED") {
		t.Errorf("still shown after ten minutes: %q", b)
	}
	if a, _ := m.stickRequest("usb-message", "bad\x01", 0); !strings.HasPrefix(a, "error: ") {
		t.Errorf("control character accepted: %q", a)
	}

	bad := filepath.Join(dir, "bad.toml")
	os.WriteFile(bad, []byte("[display]\nbrightness = 500\n"), 0o644)
	if a, _ := importNow(m, bad); !strings.HasPrefix(a, "error: refused: ") || !strings.Contains(a, "brightness") {
		t.Errorf("bad config: %q", a)
	}
	if _, err := os.Stat(filepath.Join(dir, config.ImportedFile)); err == nil {
		t.Error("a refused config was imported")
	}
	good := filepath.Join(dir, "good.toml")
	os.WriteFile(good, []byte("[display]\nbrightness = 42\n"), 0o644)
	if a, _ := importNow(m, good); a != "imported" {
		t.Errorf("good config: %q", a)
	}
	if a, _ := importNow(m, good); a != "unchanged" {
		t.Errorf("the same config again: %q", a)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, config.ImportedFile)); !strings.Contains(string(data), "brightness = 42") {
		t.Errorf("imported file: %q", data)
	}
}

// importNow does an import as the event loop does: started, and answered
// when it comes back.
func importNow(m *Machine, path string) (string, bool) {
	var answer string
	m.StartImport(path, func(a string) { answer = a })
	if answer != "" {
		return answer, true
	}
	m.FinishImport(<-m.Imports(), 0)
	return answer, true
}

// TestImportBesideTheLoop: "import PATH" writes the club config, fsync
// and all, outside the loop that keeps time: while the disk takes its
// time the loop answers, and the answer comes once the import is done
// (a slow stick or card never holds up the clock). A second import
// meanwhile is refused.
func TestImportBesideTheLoop(t *testing.T) {
	dir := t.TempDir()
	m, devs := Setup(Opts{StateDir: dir, ConfigPath: filepath.Join(dir, "none.toml"), Profile: "sim", FallbackProfile: "sim", Now: func() time.Duration { return 0 }}, func(string) {})
	defer devs.Close()
	defer m.Core.Close()
	slow := make(chan struct{})
	m.importFile = func(src, stateDir string) ([]error, bool, error) {
		<-slow // a disk that takes its time to sync
		return config.Import(src, stateDir)
	}
	good := filepath.Join(dir, "good.toml")
	os.WriteFile(good, []byte("[display]\nbrightness = 42\n"), 0o644)
	answers := make(chan string, 2)
	m.StartImport(good, func(a string) { answers <- a })
	m.StartImport(good, func(a string) { answers <- a })
	if a := <-answers; a != "error: import: another import is under way" {
		t.Fatalf("second import: %q", a)
	}
	// The loop goes on: a status request is answered while the import
	// waits for the disk.
	if a, ok := m.Control("status", "", time.Second); !ok || !strings.HasPrefix(a, "{") {
		t.Fatalf("status during the import: %q %v", a, ok)
	}
	select {
	case a := <-answers:
		t.Fatalf("answered %q before the import was done", a)
	default:
	}
	close(slow)
	m.FinishImport(<-m.Imports(), 2*time.Second)
	if a := <-answers; a != "imported" {
		t.Fatalf("import: %q", a)
	}
	if a, _ := importNow(m, good); a != "unchanged" {
		t.Errorf("again: %q", a)
	}
}

// TestStickCannotTouchALockedGame: a stick is no arbiter. The club config
// locks the clock with a PIN and a game runs. A stick's zeitnot.toml that
// swaps the levers, lifts the lock and changes the control is not
// imported. When a config that does so is imported anyway (by the arbiter,
// or from the boot partition), the game under way keeps its levers and
// its lock across a restart: the new settings apply from the next game.
// (A config without a PIN cannot keep a lock: no one could lift it.)
func TestStickCannotTouchALockedGame(t *testing.T) {
	dir := t.TempDir()
	club := filepath.Join(dir, "zeitnot.toml")
	state := filepath.Join(dir, "state")
	os.WriteFile(club, []byte("[lock]\nlocked = true\npin = \"4711\"\n"), 0o644)
	stick := filepath.Join(dir, "stick.toml")
	os.WriteFile(stick, []byte("[display]\nwhite = \"right\"\n[lock]\nlocked = false\npin = \"4711\"\n[game]\ncontrol = \"bullet-1\"\n"), 0o644)
	pin := []string{ui.Right, ui.Minus, ui.OK, ui.Right, ui.Plus, ui.Plus, ui.OK, ui.Plus, ui.OK, ui.Plus, ui.OK}

	r := boot(t, club, state)
	r.press(ui.Right) // White's clock starts
	r.now += 5 * time.Second
	r.press(ui.Left) // 1. e4
	if a, _ := importNow(r.m, stick); a != "locked" {
		t.Fatalf("import on a locked clock: %q", a)
	}
	if _, err := os.Stat(filepath.Join(state, config.ImportedFile)); err == nil {
		t.Fatal("a locked clock imported a stick's config")
	}
	if st := r.m.Core.Status(r.now); st.Left != "white" || !st.Locked || st.Running != "black" {
		t.Fatalf("after the refused import: %+v", st)
	}

	// The arbiter opens the menu with the PIN (the game paused), and with
	// the menu open the stick's config is imported.
	r.press(ui.Pause)
	r.hold(ui.OK)
	r.press(pin...)
	if s := r.m.Core.Status(r.now).Screen; s != "menu:arbiter" {
		t.Fatalf("after the PIN: %s", s)
	}
	if a, _ := importNow(r.m, stick); a != "imported" {
		t.Fatalf("import with the arbiter's menu open: %q", a)
	}
	r.press(ui.Pause) // the menu closes: locked again
	if !r.m.Core.Locked() {
		t.Fatal("not locked again after the menu closed")
	}

	// A power cut: the recovered game keeps its levers and its lock.
	r.stop()
	r = boot(t, club, state)
	st := r.m.Core.Status(r.now)
	if !st.Recovered || st.Left != "white" || !st.Locked || !r.m.Core.Locked() || st.Control == "60" {
		t.Fatalf("recovered game: left %s locked %v (Core.Locked %v) control %s: %+v", st.Left, st.Locked, r.m.Core.Locked(), st.Control, st)
	}
	r.hold(ui.OK)
	if s := r.m.Core.Status(r.now).Screen; s != "menu:pin" {
		t.Fatalf("hold ok on the recovered locked game: %s", s)
	}
	// The arbiter ends the game: the next one has the imported settings.
	r.press(pin...)
	r.press(ui.Plus, ui.Plus, ui.OK, ui.OK) // End game, yes
	r.press(ui.Pause)                       // the setup menu closes
	st = r.m.Core.Status(r.now)
	if st.Started || st.Left != "black" || st.Locked || st.Control != "60" {
		t.Errorf("the next game: left %s locked %v control %s started %v", st.Left, st.Locked, st.Control, st.Started)
	}
	// The settings file holds what the clock changed, not the game's.
	if data, _ := os.ReadFile(filepath.Join(state, config.SettingsFile)); strings.Contains(string(data), "white") || strings.Contains(string(data), "locked") {
		t.Errorf("settings.toml:\n%s", data)
	}
}
