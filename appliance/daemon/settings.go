package daemon

import (
	"path/filepath"

	"github.com/zeitnot/zeitnot/appliance/config"
	"github.com/zeitnot/zeitnot/appliance/ui"
	"github.com/zeitnot/zeitnot/engine/preset"
)

// fileStore saves the menu's changes in the state directory: the settings
// as their difference from the club config (config.SaveSettings), the
// saved presets whole.
type fileStore struct {
	dir  string
	club config.Settings // what the club file says: settings store the difference
}

func (f *fileStore) SaveSettings(s ui.Settings) error {
	return config.SaveSettings(filepath.Join(f.dir, config.SettingsFile), f.club, s)
}

func (f *fileStore) SavePresets(ps []preset.Preset) error {
	return config.SavePresets(filepath.Join(f.dir, config.PresetsFile), ps)
}
