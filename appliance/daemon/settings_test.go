package daemon

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/config"
	"github.com/zeitnot/zeitnot/engine/clock"
)

func TestSettingsRoundTrip(t *testing.T) {
	c := config.Defaults("sim")
	c.Game.Control = "online-3-2"
	c.Display.White = config.Right
	c.Display.TenthsBelow = 10 * time.Second
	c.Sound.LowTimeWarning = 0
	s := settingsFrom(c, nil)
	// A blitz preset brings its own option: play continues after a flag.
	if s.Options.AfterFlag != clock.Continue || s.WhiteLeft || s.TenthsBelow != 10000 || s.LowTimeMs != 0 {
		t.Fatalf("settings %+v", s)
	}
	c.Game.AfterFlag = config.Some(clock.Freeze)
	if settingsFrom(c, nil).Options.AfterFlag != clock.Freeze {
		t.Error("the config's option does not override the preset's")
	}
	back := settingsFrom(configFrom(c, s), nil)
	if back.Control != s.Control || back.Options != s.Options || back.WhiteLeft != s.WhiteLeft || back.TenthsBelow != s.TenthsBelow {
		t.Errorf("round trip: %+v -> %+v", s, back)
	}
}

// TestStoreSavesWhatChanged: the menu's changes land in settings.toml and
// override the club file at the next start; presets in presets.toml.
func TestStoreSavesWhatChanged(t *testing.T) {
	dir := t.TempDir()
	club := config.Defaults("sim")
	st := &fileStore{dir: dir, club: club, base: club}
	s := settingsFrom(club, nil)
	s.Sound = false
	s.Locked = true
	if err := st.SaveSettings(s); err != nil {
		t.Fatal(err)
	}
	layers, errs := config.LoadLayers(filepath.Join(dir, "none.toml"), dir, config.Defaults("sim"))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if layers.Effective.Sound.Enabled || !layers.Effective.Lock.Locked {
		t.Errorf("saved settings not read back: %+v", layers.Effective)
	}
}
