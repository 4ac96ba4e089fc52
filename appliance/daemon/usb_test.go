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
	if a, _ := m.stickRequest("import", bad, 0); !strings.HasPrefix(a, "error: refused: ") || !strings.Contains(a, "brightness") {
		t.Errorf("bad config: %q", a)
	}
	if _, err := os.Stat(filepath.Join(dir, config.ImportedFile)); err == nil {
		t.Error("a refused config was imported")
	}
	good := filepath.Join(dir, "good.toml")
	os.WriteFile(good, []byte("[display]\nbrightness = 42\n"), 0o644)
	if a, _ := m.stickRequest("import", good, 0); a != "imported" {
		t.Errorf("good config: %q", a)
	}
	if a, _ := m.stickRequest("import", good, 0); a != "unchanged" {
		t.Errorf("the same config again: %q", a)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, config.ImportedFile)); !strings.Contains(string(data), "brightness = 42") {
		t.Errorf("imported file: %q", data)
	}
}
