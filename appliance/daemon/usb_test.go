package daemon

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/config"
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
// (issue 21, section 2). A second import meanwhile is refused.
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
