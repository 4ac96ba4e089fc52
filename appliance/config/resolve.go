package config

import (
	"errors"
	"fmt"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/preset"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
	"github.com/zeitnot/zeitnot/internal/suggest"
)

// Control is a control key resolved.
type Control struct {
	Key  string // the key resolved: a preset's key, or the notation as given
	Name string // what the displays call it: the preset's name, or the notation
	Pair timecontrol.Pair
	// Options are the control's own: the preset's, or clock.DefaultOptions
	// (FIDE practice) for a notation.
	Options clock.Options
}

// Resolve turns a control key into a control. A key is one of:
//
//   - the key of a built-in preset (engine/preset): "fide-rapid-15";
//   - the key of one of ps, the saved presets: "saved-3";
//   - a time control notation (engine/timecontrol): "40/5400+30:1800+30",
//     "300|240". Its name is that of the first preset with the same
//     controls, if any, else the notation in canonical form.
//
// Preset names are never keys: they need not be unique. The error says
// briefly what is wrong: the nearest key for a key with a typing slip, or
// the column of a bad notation.
func (ps Presets) Resolve(key string) (Control, error) {
	p, ok := preset.ByKey(key)
	if !ok {
		p, ok = ps.Find(key)
	}
	if ok {
		pair, err := timecontrol.ParsePair(p.Spec)
		if err != nil {
			return Control{}, fmt.Errorf("preset %s: %w", p.Key, notationError(err))
		}
		return Control{Key: p.Key, Name: p.Name, Pair: pair, Options: p.Options}, nil
	}
	pair, err := timecontrol.ParsePair(key)
	if err != nil {
		if looksLikeKey(key) {
			if k := suggest.Nearest(key, ps.keys()); k != "" {
				return Control{}, fmt.Errorf("did you mean %q?", k)
			}
			return Control{}, errors.New("no such preset")
		}
		return Control{}, notationError(err)
	}
	return Control{Key: key, Name: ps.nameOf(pair), Pair: pair, Options: clock.DefaultOptions}, nil
}

// nameOf names controls by the first preset with the same notation, or as
// people write them (90'+30"): what a person reads is never the notation.
func (ps Presets) nameOf(pair timecontrol.Pair) string {
	spec := timecontrol.FormatPair(pair)
	for _, list := range [][]preset.Preset{preset.All, ps} {
		for _, p := range list {
			if p.Spec == spec {
				return p.Name
			}
		}
	}
	return timecontrol.HumanPair(pair)
}

// keys returns every preset key, built-in and saved.
func (ps Presets) keys() []string {
	var keys []string
	for _, list := range [][]preset.Preset{preset.All, ps} {
		for _, p := range list {
			keys = append(keys, p.Key)
		}
	}
	return keys
}

// notationError shortens a notation error to its column and message.
func notationError(err error) error {
	var se *timecontrol.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("column %d: %s", se.Column, se.Msg)
	}
	return err
}

// looksLikeKey: a word starting with a letter, as preset keys do and
// notations do not.
func looksLikeKey(s string) bool {
	return s != "" && (s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z') && bare(s)
}
