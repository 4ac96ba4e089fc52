package config

import (
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
	"github.com/zeitnot/zeitnot/internal/tomlkeys"
)

// MaxNameLen is the longest preset name, in characters: what a display
// shows on one line.
const MaxNameLen = 16

// Preset is a saved custom control.
type Preset struct {
	Name    string // 1 to MaxNameLen characters, unique in its file
	Control string // time control notation, "WHITE|BLACK" when the players differ
	Options clock.Options
}

// Controls parses the preset's notation.
func (p Preset) Controls() (timecontrol.Pair, error) {
	return timecontrol.ParsePair(p.Control)
}

// Check reports whether the name and control are valid.
func (p Preset) Check() error {
	if err := CheckName(p.Name); err != nil {
		return err
	}
	if _, err := timecontrol.ParsePair(p.Control); err != nil {
		return fmt.Errorf("preset %q: control %q: %w", p.Name, p.Control, err)
	}
	return nil
}

// CheckName reports whether s is a valid preset name: 1 to MaxNameLen
// printable characters, not starting or ending with a space.
func CheckName(s string) error {
	n := utf8.RuneCountInString(s)
	if n == 0 || n > MaxNameLen || !utf8.ValidString(s) {
		return fmt.Errorf("preset name %q: want 1 to %d characters", s, MaxNameLen)
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return fmt.Errorf("preset name %q: want printable characters", s)
		}
	}
	if strings.TrimSpace(s) != s {
		return fmt.Errorf("preset name %q: want no space at the start or end", s)
	}
	return nil
}

// Presets is the list of saved presets, in menu order.
type Presets []Preset

// Find returns the preset named name.
func (ps Presets) Find(name string) (Preset, bool) {
	for _, p := range ps {
		if p.Name == name {
			return p, true
		}
	}
	return Preset{}, false
}

// Put adds p at the end, or replaces the preset of the same name in place.
func (ps *Presets) Put(p Preset) error {
	if err := p.Check(); err != nil {
		return err
	}
	for i := range *ps {
		if (*ps)[i].Name == p.Name {
			(*ps)[i] = p
			return nil
		}
	}
	*ps = append(*ps, p)
	return nil
}

// Delete removes the preset named name and reports whether there was one.
func (ps *Presets) Delete(name string) bool {
	for i, p := range *ps {
		if p.Name == name {
			*ps = append((*ps)[:i:i], (*ps)[i+1:]...)
			return true
		}
	}
	return false
}

// LoadPresets reads the presets file at path. A missing file is an empty
// list. Bad entries are reported and left out; a bad option is reported and
// takes its default.
func LoadPresets(path string) (Presets, []error) {
	data, err := readFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []error{readError(path, err)}
	}
	return ParsePresets(path, data)
}

// CheckPresets returns every problem in the presets file at path; a missing
// file is one.
func CheckPresets(path string) []error {
	data, err := readFile(path)
	if err != nil {
		return []error{readError(path, err)}
	}
	_, errs := ParsePresets(path, data)
	return errs
}

// SavePresets writes ps to path, atomically.
func SavePresets(path string, ps Presets) error {
	return WriteFileAtomic(path, FormatPresets(ps), 0o644)
}

// FormatPresets writes ps as a presets file.
func FormatPresets(ps Presets) []byte {
	var b strings.Builder
	b.WriteString("# Saved presets: [[preset]] tables, in menu order.\n")
	for _, p := range ps {
		fmt.Fprintf(&b, "\n[[preset]]\nname = %s\ncontrol = %s\n", quote(p.Name), quote(p.Control))
		fmt.Fprintf(&b, "first_increment = %t\n", p.Options.FirstIncrement)
		fmt.Fprintf(&b, "period_trigger = %s\n", quote(p.Options.Get(clock.OptPeriodTrigger)))
		fmt.Fprintf(&b, "after_flag = %s\n", quote(p.Options.Get(clock.OptAfterFlag)))
	}
	return []byte(b.String())
}

// ParsePresets reads a presets file's contents; name is the file's name for
// errors. See LoadPresets.
func ParsePresets(name string, data []byte) (Presets, []error) {
	m, err := decode(name, data)
	if err != nil {
		return nil, []error{err}
	}
	d := &doc{name: name, lines: tomlkeys.Lines(string(data)), nlines: strings.Count(string(data), "\n") + 1}
	var ps Presets
	for _, k := range sortedKeys(m) {
		if k != "preset" {
			d.add(&Error{Key: k, Msg: fmt.Sprintf("unknown key %q (want [[preset]] tables)", dotted([]string{k})), Unknown: true}, k)
			continue
		}
		var list []any
		switch v := m[k].(type) {
		case []map[string]any:
			for _, t := range v {
				list = append(list, t)
			}
		case []any:
			list = v
		default:
			d.add(&Error{Key: k, Msg: want("[[preset]] tables", v).Error()}, k)
			continue
		}
		seen := map[string]int{}
		for i, e := range list {
			p, ok := d.preset(e, i)
			if !ok {
				continue
			}
			if line, dup := seen[p.Name]; dup {
				d.add(&Error{Key: "preset.name", Msg: fmt.Sprintf("%s is already the name of the preset on line %d; this one is skipped", quote(p.Name), line)}, k, tomlkeys.Index(i), "name")
				continue
			}
			seen[p.Name] = d.line(k, tomlkeys.Index(i))
			ps = append(ps, p)
		}
	}
	d.sort()
	return ps, d.errs
}

// preset reads entry i of the list.
func (d *doc) preset(e any, i int) (Preset, bool) {
	at := []string{"preset", tomlkeys.Index(i)}
	sub := func(k string) []string { return append(append([]string{}, at...), k) }
	t, ok := e.(map[string]any)
	if !ok {
		d.add(&Error{Key: "preset", Msg: want("a table", e).Error()}, at...)
		return Preset{}, false
	}
	p := Preset{Options: clock.DefaultOptions}
	good := true
	for _, k := range sortedKeys(t) {
		v := t[k]
		var err error
		switch k {
		case "name":
			s, isString := v.(string)
			if !isString || CheckName(s) != nil {
				err = want(fmt.Sprintf("a name of 1 to %d characters", MaxNameLen), v)
			}
			p.Name = s
		case "control":
			s, isString := v.(string)
			if !isString {
				err = want(`a notation like "40/5400+30:1800+30"`, v)
			} else if _, e := timecontrol.ParsePair(s); e != nil {
				err = &wantError{want(`a notation like "40/5400+30:1800+30"`, v).Error() + " (" + notationError(e).Error() + ")"}
			}
			p.Control = s
		case "first_increment":
			var b bool
			if b, err = wantBool(v); err == nil {
				p.Options.FirstIncrement = b
			}
		case "period_trigger", "after_flag":
			words := map[string][]string{"period_trigger": {"flag", "moves"}, "after_flag": {"freeze", "continue"}}[k]
			var s string
			if s, err = wantWord(v, words...); err == nil {
				p.Options.Set(strings.ReplaceAll(k, "_", "-"), s)
			}
		default:
			msg := fmt.Sprintf("unknown key %q", dotted([]string{"preset", k}))
			if s := nearest(k, []string{"name", "control", "first_increment", "period_trigger", "after_flag"}); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", "preset."+s)
			}
			d.add(&Error{Key: "preset." + k, Msg: msg, Unknown: true}, sub(k)...)
			continue
		}
		if err != nil {
			if k == "name" || k == "control" {
				err = &wantError{err.Error() + "; this preset is skipped"}
				good = false
			}
			d.add(&Error{Key: "preset." + k, Msg: err.Error()}, sub(k)...)
		}
	}
	for _, k := range []string{"name", "control"} {
		if _, ok := t[k]; !ok {
			d.add(&Error{Key: "preset", Msg: "has no " + k + "; it is skipped"}, at...)
			good = false
		}
	}
	return p, good
}

// String is the preset as one line, for listings.
func (p Preset) String() string {
	var opts []string
	for _, n := range clock.OptionNames {
		opts = append(opts, n+" "+p.Options.Get(n))
	}
	return strconv.Quote(p.Name) + " " + p.Control + " (" + strings.Join(opts, ", ") + ")"
}
