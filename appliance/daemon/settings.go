package daemon

import (
	"path/filepath"
	"strings"
	"time"

	"github.com/zeitnot/zeitnot/appliance/config"
	"github.com/zeitnot/zeitnot/appliance/core"
	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/preset"
)

// settingsFrom turns the effective config into the core's settings. The
// game options are the control's own (a preset's, or FIDE practice for a
// notation), overridden by the options the config sets.
func settingsFrom(c config.Config, saved config.Presets) core.Settings {
	opt := clock.DefaultOptions
	if p, ok := preset.ByKey(c.Game.Control); ok {
		opt = p.Options
	} else if p, ok := saved.Find(c.Game.Control); ok {
		opt = p.Options
	}
	if c.Game.FirstIncrement.Set {
		opt.FirstIncrement = c.Game.FirstIncrement.Value
	}
	if c.Game.PeriodTrigger.Set {
		opt.PeriodTrigger = c.Game.PeriodTrigger.Value
	}
	if c.Game.AfterFlag.Set {
		opt.AfterFlag = c.Game.AfterFlag.Value
	}
	s := core.Settings{
		Control:     c.Game.Control,
		Options:     opt,
		TenthsBelow: c.Display.TenthsBelow.Milliseconds(),
		Brightness:  c.Display.Brightness,
		ShowMoves:   c.Display.ShowMoves,
		WhiteLeft:   c.Display.White == config.Left,
		Sound:       c.Sound.Enabled,
		PressBeep:   c.Sound.PressBeep,
		LowTimeMs:   c.Sound.LowTimeWarning.Milliseconds(),
		FlagAlarm:   c.Sound.FlagAlarm,
		Locked:      c.Lock.Locked,
		LockCombo:   strings.Split(c.Lock.Combination, "+"),
	}
	return s
}

// configFrom writes the core's settings back over base.
func configFrom(base config.Config, s core.Settings) config.Config {
	c := base
	c.Game.Control = s.Control
	c.Game.FirstIncrement = config.Maybe[bool]{Value: s.Options.FirstIncrement, Set: true}
	c.Game.PeriodTrigger = config.Maybe[clock.Trigger]{Value: s.Options.PeriodTrigger, Set: true}
	c.Game.AfterFlag = config.Maybe[clock.AfterFlag]{Value: s.Options.AfterFlag, Set: true}
	c.Display.TenthsBelow = msDuration(s.TenthsBelow)
	c.Display.Brightness = s.Brightness
	c.Display.ShowMoves = s.ShowMoves
	c.Display.White = config.Right
	if s.WhiteLeft {
		c.Display.White = config.Left
	}
	c.Sound.Enabled = s.Sound
	c.Sound.PressBeep = s.PressBeep
	c.Sound.LowTimeWarning = msDuration(s.LowTimeMs)
	c.Sound.FlagAlarm = s.FlagAlarm
	c.Lock.Locked = s.Locked
	return c
}

// presetsFrom turns saved presets into the engine's preset type.
func presetsFrom(ps config.Presets) []preset.Preset {
	var out []preset.Preset
	for _, p := range ps {
		out = append(out, preset.Preset{Key: p.Name, Name: p.Name, Group: "Saved", Spec: p.Control, Options: p.Options})
	}
	return out
}

// fileStore saves the menu's changes in the state directory.
type fileStore struct {
	dir   string
	club  config.Config // what the club file says: settings store the difference
	base  config.Config // the effective config at start
	saved config.Presets
}

func (f *fileStore) SaveSettings(s core.Settings) error {
	return config.SaveSettings(filepath.Join(f.dir, config.SettingsFile), f.club, configFrom(f.base, s))
}

func (f *fileStore) SavePresets(ps []preset.Preset) error {
	var out config.Presets
	for _, p := range ps {
		out = append(out, config.Preset{Name: p.Name, Control: p.Spec, Options: p.Options})
	}
	f.saved = out
	return config.SavePresets(filepath.Join(f.dir, config.PresetsFile), out)
}
func msDuration(ms int64) time.Duration { return time.Duration(ms) * time.Millisecond }
