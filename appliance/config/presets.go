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
	"github.com/zeitnot/zeitnot/engine/preset"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
	"github.com/zeitnot/zeitnot/internal/atomicfile"
	"github.com/zeitnot/zeitnot/internal/suggest"
	"github.com/zeitnot/zeitnot/internal/tomldoc"
)

// MaxNameLen is the longest preset name, in characters: what a display
// shows on one line.
const MaxNameLen = 16

// SavedGroup is the Group of every saved preset: the menu's section.
const SavedGroup = "Saved"

// savedPrefix starts the keys NewKey makes.
const savedPrefix = "saved-"

// Presets is the list of saved presets, in menu order. Each has a key,
// unique among the built-in and the saved presets and kept in
// presets.toml; the Group is SavedGroup, the Spec a notation. Names need
// not be unique.
type Presets []preset.Preset

// Find returns the preset with the key.
func (ps Presets) Find(key string) (preset.Preset, bool) {
	for _, p := range ps {
		if p.Key == key {
			return p, true
		}
	}
	return preset.Preset{}, false
}

// NewKey returns a key for a new preset: "saved-N", N one more than the
// highest in use.
func (ps Presets) NewKey() string {
	n := 0
	for _, p := range ps {
		if k, ok := strings.CutPrefix(p.Key, savedPrefix); ok {
			if i, err := strconv.Atoi(k); err == nil && i > n {
				n = i
			}
		}
	}
	return savedPrefix + strconv.Itoa(n+1)
}

// Put replaces the preset with p's key in place, or adds p at the end; p
// gets a new key if it has none. It sets p's Group to SavedGroup.
func (ps *Presets) Put(p preset.Preset) error {
	if p.Key == "" {
		p.Key = ps.NewKey()
	}
	p.Group = SavedGroup
	if err := CheckPreset(p); err != nil {
		return err
	}
	for i := range *ps {
		if (*ps)[i].Key == p.Key {
			(*ps)[i] = p
			return nil
		}
	}
	*ps = append(*ps, p)
	return nil
}

// Delete removes the preset with the key and reports whether there was
// one.
func (ps *Presets) Delete(key string) bool {
	for i, p := range *ps {
		if p.Key == key {
			*ps = append((*ps)[:i:i], (*ps)[i+1:]...)
			return true
		}
	}
	return false
}

// CheckPreset reports whether p can be saved: a valid key, name and
// notation.
func CheckPreset(p preset.Preset) error {
	if err := CheckKey(p.Key); err != nil {
		return err
	}
	if err := CheckName(p.Name); err != nil {
		return err
	}
	if _, err := timecontrol.ParsePair(p.Spec); err != nil {
		return fmt.Errorf("preset %q: control %q: %w", p.Name, p.Spec, err)
	}
	return nil
}

// CheckKey reports whether s is a valid key for a saved preset: 1 to 32
// letters, digits, '-' and '_', starting with a letter, and not the key of
// a built-in preset.
func CheckKey(s string) error {
	if len(s) > 32 || !looksLikeKey(s) {
		return fmt.Errorf("preset key %q: want 1 to 32 letters, digits, '-' and '_', starting with a letter", s)
	}
	if _, builtin := preset.ByKey(s); builtin {
		return fmt.Errorf("preset key %q: the key of a built-in preset", s)
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

// LoadPresets reads the presets file at path. A missing file is an empty
// list. Bad entries are reported and left out; a bad option is reported and
// takes its default; see ParsePresets for keys.
func LoadPresets(path string) (Presets, []error) {
	data, err := readFile(path, true)
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
	data, err := readFile(path, false)
	if err != nil {
		return []error{readError(path, err)}
	}
	_, errs := ParsePresets(path, data)
	return errs
}

// SavePresets writes ps to path, atomically.
func SavePresets(path string, ps Presets) error {
	return atomicfile.WriteFile(path, FormatPresets(ps), 0o644)
}

// FormatPresets writes ps as a presets file.
func FormatPresets(ps Presets) []byte {
	var b strings.Builder
	b.WriteString("# Saved presets: [[preset]] tables, in menu order.\n")
	for _, p := range ps {
		fmt.Fprintf(&b, "\n[[preset]]\nkey = %s\nname = %s\ncontrol = %s\n", quote(p.Key), quote(p.Name), quote(p.Spec))
		fmt.Fprintf(&b, "first_increment = %t\n", p.Options.FirstIncrement)
		fmt.Fprintf(&b, "period_trigger = %s\n", quote(p.Options.Get(clock.OptPeriodTrigger)))
		fmt.Fprintf(&b, "after_flag = %s\n", quote(p.Options.Get(clock.OptAfterFlag)))
	}
	return []byte(b.String())
}

// presetKeys are the keys of a [[preset]] table.
var presetKeys = []string{"key", "name", "control", "first_increment", "period_trigger", "after_flag"}

// ParsePresets reads a presets file's contents; name is the file's name for
// errors. See LoadPresets.
//
// A preset without a key (files written before presets had keys) gets one,
// as NewKey makes them, in file order; so does one whose key is bad or
// already taken by an earlier preset, which is reported. The keys are
// written at the next save.
func ParsePresets(name string, data []byte) (Presets, []error) {
	doc, err := tomldoc.Parse(data)
	if err != nil {
		return nil, []error{syntaxError(name, err)}
	}
	d := &errs{name: name}
	var ps Presets
	var unkeyed []int // indices in ps of presets that need a key
	for _, k := range doc.Root.Keys {
		v := doc.Root.Values[k]
		if k != "preset" {
			d.add(&Error{Key: k, Msg: fmt.Sprintf("unknown key %q (want [[preset]] tables)", tomldoc.Key{k}.String()), Unknown: true}, v.Line)
			continue
		}
		list := v.Array()
		if v.Kind != tomldoc.Array {
			d.add(&Error{Key: k, Msg: want("[[preset]] tables", v).Error()}, v.Line)
			continue
		}
		seen := map[string]int{}
		for _, e := range list {
			p, ok := d.preset(e)
			if !ok {
				continue
			}
			if line, dup := seen[p.Key]; dup && p.Key != "" {
				d.add(&Error{Key: "preset.key", Msg: fmt.Sprintf("%s is already the key of the preset on line %d; this one gets a new key", quote(p.Key), line)}, e.Table().Values["key"].Line)
				p.Key = ""
			}
			if p.Key == "" {
				unkeyed = append(unkeyed, len(ps))
			} else {
				seen[p.Key] = e.Line
			}
			ps = append(ps, p)
		}
	}
	// NewKey's keys, one after another, without a scan of ps for each:
	// linear in the number of presets.
	next := ps.NewKey()
	for _, i := range unkeyed {
		ps[i].Key = next
		n, _ := strconv.Atoi(strings.TrimPrefix(next, savedPrefix))
		next = savedPrefix + strconv.Itoa(n+1)
	}
	d.sort()
	return ps, d.errs
}

// preset reads one entry of the list.
func (d *errs) preset(e *tomldoc.Value) (preset.Preset, bool) {
	t := e.Table()
	if t == nil {
		d.add(&Error{Key: "preset", Msg: want("a table", e).Error()}, e.Line)
		return preset.Preset{}, false
	}
	p := preset.Preset{Group: SavedGroup, Options: clock.DefaultOptions}
	good := true
	for _, k := range t.Keys {
		v := t.Values[k]
		var err error
		switch k {
		case "key":
			s, isString := v.V.(string)
			if !isString || CheckKey(s) != nil {
				err = &wantError{want(`a key like "saved-1"`, v).Error() + "; this preset gets a new key"}
				s = ""
			}
			p.Key = s
		case "name":
			s, isString := v.V.(string)
			if !isString || CheckName(s) != nil {
				err = want(fmt.Sprintf("a name of 1 to %d characters", MaxNameLen), v)
			}
			p.Name = s
		case "control":
			s, isString := v.V.(string)
			if !isString {
				err = want(`a notation like "40/5400+30:1800+30"`, v)
			} else if _, e := timecontrol.ParsePair(s); e != nil {
				err = &wantError{want(`a notation like "40/5400+30:1800+30"`, v).Error() + " (" + notationError(e).Error() + ")"}
			}
			p.Spec = s
		case "first_increment":
			var b bool
			if b, err = wantBool(v); err == nil {
				p.Options.FirstIncrement = b
			}
		case "period_trigger":
			err = setOption(&p.Options, clock.OptPeriodTrigger, v)
		case "after_flag":
			err = setOption(&p.Options, clock.OptAfterFlag, v)
		default:
			msg := fmt.Sprintf("unknown key %q", tomldoc.Key{"preset", k}.String())
			if s := suggest.Nearest(k, presetKeys); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", "preset."+s)
			}
			d.add(&Error{Key: "preset." + k, Msg: msg, Unknown: true}, v.Line)
			continue
		}
		if err != nil {
			if k == "name" || k == "control" {
				err = &wantError{err.Error() + "; this preset is skipped"}
				good = false
			}
			d.add(&Error{Key: "preset." + k, Msg: err.Error()}, v.Line)
		}
	}
	for _, k := range []string{"name", "control"} {
		if _, ok := t.Values[k]; !ok {
			d.add(&Error{Key: "preset", Msg: "has no " + k + "; it is skipped"}, e.Line)
			good = false
		}
	}
	return p, good
}
