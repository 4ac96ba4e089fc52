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

// ParsePresets reads a presets file's contents; name is the file's name for
// errors. See LoadPresets.
//
// A preset without a key (files written before presets had keys) gets one,
// as NewKey makes them, in file order; so does one whose key is bad or
// already taken by an earlier preset, which is reported. The keys are
// written at the next save.
func ParsePresets(name string, data []byte) (Presets, []error) {
	d, err := newDecoder(name, data)
	if err != nil {
		return nil, []error{err}
	}
	var ps Presets
	presetsSchema.Decode(d, &ps)
	// NewKey's keys, one after another, without a scan of ps for each:
	// linear in the number of presets.
	next := ps.NewKey()
	for i := range ps {
		if ps[i].Key == "" {
			ps[i].Key = next
			n, _ := strconv.Atoi(strings.TrimPrefix(next, savedPrefix))
			next = savedPrefix + strconv.Itoa(n+1)
		}
	}
	return ps, d.Errors()
}

// presetsSchema is the schema of presets.toml: [[preset]] tables.
var presetsSchema = &tomldoc.Schema[Presets]{Fields: []tomldoc.Field[Presets]{{
	Key: "preset", Want: "[[preset]] tables",
	Read: func(d *tomldoc.Decoder, ps *Presets, v *tomldoc.Value, path tomldoc.Key) {
		if v.Kind != tomldoc.Array {
			d.Wrong(v, path, "[[preset]] tables")
			return
		}
		seen := map[string]int{}
		for _, e := range v.Array() {
			r := presetReading{p: preset.Preset{Group: SavedGroup, Options: clock.DefaultOptions}}
			if !presetSchema.DecodeTable(d, e, path, &r) || r.skip {
				continue
			}
			p := r.p
			if line, dup := seen[p.Key]; dup && p.Key != "" {
				k := e.Table().Get("key")
				d.Errorf(k.Line, tomldoc.Key{"preset", "key"}, "%s is already the key of the preset on line %d; this one gets a new key", quote(p.Key), line)
				p.Key = ""
			}
			if p.Key != "" {
				seen[p.Key] = e.Line
			}
			*ps = append(*ps, p)
		}
	},
}}}

// presetReading is one [[preset]] table as it is read.
type presetReading struct {
	p    preset.Preset
	skip bool // its name or control is bad or missing
}

// skipped is a bad value that leaves out its preset.
func (r *presetReading) skipped(want, more string) error {
	r.skip = true
	return &tomldoc.WantError{Want: want, More: more + "; this preset is skipped"}
}

// presetSchema is the schema of one [[preset]] table.
var presetSchema = &tomldoc.Schema[presetReading]{
	Fields: []tomldoc.Field[presetReading]{
		tomldoc.CustomField("key", "a key", func(r *presetReading, v *tomldoc.Value) error {
			s, ok := v.V.(string)
			if !ok || CheckKey(s) != nil {
				return &tomldoc.WantError{Want: `a key like "saved-1"`, More: "; this preset gets a new key"}
			}
			r.p.Key = s
			return nil
		}),
		tomldoc.CustomField("name", "a name", func(r *presetReading, v *tomldoc.Value) error {
			s, ok := v.V.(string)
			if !ok || CheckName(s) != nil {
				return r.skipped(fmt.Sprintf("a name of 1 to %d characters", MaxNameLen), "")
			}
			r.p.Name = s
			return nil
		}).Needed("the preset's name; it is skipped"),
		tomldoc.CustomField("control", "a notation", func(r *presetReading, v *tomldoc.Value) error {
			const what = `a notation like "40/5400+30:1800+30"`
			s, ok := v.V.(string)
			if !ok {
				return r.skipped(what, "")
			}
			if _, e := timecontrol.ParsePair(s); e != nil {
				return r.skipped(what, " ("+notationError(e).Error()+")")
			}
			r.p.Spec = s
			return nil
		}).Needed("the preset's control, a notation; it is skipped"),
		tomldoc.BoolField("first_increment", func(r *presetReading, b bool) { r.p.Options.FirstIncrement = b }),
		optionField("period_trigger", clock.OptPeriodTrigger, func(r *presetReading) *clock.Options { return &r.p.Options }),
		optionField("after_flag", clock.OptAfterFlag, func(r *presetReading) *clock.Options { return &r.p.Options }),
	},
	Check: func(_ *tomldoc.Decoder, r *presetReading, tab *tomldoc.Tab, _ tomldoc.Key) {
		if tab.Get("name") == nil || tab.Get("control") == nil {
			r.skip = true
		}
	},
}
