package ui

import (
	"github.com/zeitnot/zeitnot/appliance/config"
	"github.com/zeitnot/zeitnot/engine/preset"
)

// Settings is everything the menu can change on the device: the one
// settings type of the config files, `zeitnot config show` and the daemon.
type Settings = config.Settings

// DefaultSettings are what a clock fresh from the image uses.
var DefaultSettings = config.Defaults(config.SimProfile)

// Store keeps settings and saved presets across restarts. The daemon's
// implementation writes files atomically; tests use a memory store.
type Store interface {
	SaveSettings(Settings) error
	SavePresets([]preset.Preset) error
}

// MemStore is a Store in memory.
type MemStore struct {
	Settings Settings
	Presets  []preset.Preset
	Saves    int
}

// SaveSettings records s.
func (m *MemStore) SaveSettings(s Settings) error { m.Settings = s; m.Saves++; return nil }

// SavePresets records p.
func (m *MemStore) SavePresets(p []preset.Preset) error {
	m.Presets = append([]preset.Preset(nil), p...)
	m.Saves++
	return nil
}
