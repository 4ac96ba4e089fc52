package config

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/zeitnot/zeitnot/appliance/config/halltable"
	eboardsettings "github.com/zeitnot/zeitnot/appliance/eboard/settings"
	hwprofile "github.com/zeitnot/zeitnot/drivers/profile"
	"github.com/zeitnot/zeitnot/internal/regfile"
	"github.com/zeitnot/zeitnot/internal/suggest"
	"github.com/zeitnot/zeitnot/internal/tomldoc"
)

// Error is one problem in a file.
type Error struct {
	File string // the path as given
	Line int    // from 1; 0 when the problem is the whole file (cannot read it)
	Col  int    // from 1, for syntax errors; else 0
	Key  string // dotted key ("display.tenths_below"), "" for syntax errors
	// Msg says what was wanted and what was found. For a bad value it does
	// not repeat the key; for an unknown key it names it.
	Msg string
	// Unknown is set when Key is not in the schema.
	Unknown bool
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		b.WriteString(":" + strconv.Itoa(e.Line))
		if e.Col > 0 {
			b.WriteString(":" + strconv.Itoa(e.Col))
		}
	}
	b.WriteString(": ")
	if e.Key != "" && !e.Unknown {
		k := e.Key
		if i := strings.LastIndexByte(k, '.'); i >= 0 {
			k = k[i+1:]
		}
		b.WriteString(k + ": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// maxFileSize bounds what is read: a config file is a few hundred bytes.
const maxFileSize = 1 << 20

// readFile reads a config file with regfile: a regular file only (a named
// pipe or a device is refused at once, never read), at most maxFileSize
// bytes; with owned (a file in the state directory, which the program
// owns), not through a final symbolic link. A missing file is reported as
// an error wrapping fs.ErrNotExist.
func readFile(path string, owned bool) ([]byte, error) {
	return regfile.ReadFile(path, regfile.Opts{Max: maxFileSize, NoFollow: owned})
}

// readError reports a file that could not be read.
func readError(path string, err error) *Error {
	if errors.Is(err, regfile.ErrTooLarge) {
		return &Error{File: path, Msg: fmt.Sprintf("cannot read: larger than %d bytes, not a config file", maxFileSize)}
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &Error{File: path, Msg: "cannot read: " + err.Error()}
}

// Load reads the config file at path over base: the keys the file has
// override base. saved are the saved presets, whose keys a control may
// name. A missing file gives base and no errors. A file that cannot be
// read, or is not TOML, gives base and one error. Each bad or unknown key
// gives an error and leaves base's value. A profile path that names
// something other than a regular file (a named pipe, a device) is such a
// bad key.
func Load(path string, base Settings, saved Presets) (Settings, []error) {
	return load(path, base, saved, false)
}

// load is Load; owned says the file is in the state directory.
func load(path string, base Settings, saved Presets, owned bool) (Settings, []error) {
	data, err := readFile(path, owned)
	if errors.Is(err, fs.ErrNotExist) {
		return base, nil
	}
	if err != nil {
		return base, []error{readError(path, err)}
	}
	return parse(path, data, base, saved, true)
}

// Check reads the config file at path and returns every problem in it; a
// missing file is one. A control may name a saved preset of the
// presets.toml in the same directory.
func Check(path string) []error {
	data, err := readFile(path, false)
	if err != nil {
		return []error{readError(path, err)}
	}
	saved, _ := LoadPresets(filepath.Join(filepath.Dir(path), PresetsFile))
	_, errs := parse(path, data, Defaults(SimProfile), saved, true)
	if notTOML(errs) {
		return errs // the [hall] table would say the same
	}
	// The [hall] table is zeitnot link's: what it would refuse is refused
	// here, with its messages. The password file may be on the clock
	// only.
	errs = append(errs, eboardProblems(path, data)...)
	return append(errs, halltable.Check(path, data, halltable.CheckOpts{MissingOK: true})...)
}

// eboardProblems is what zeitnot eboard would refuse in the [eboard]
// table of data (it would exit, and the clock lose its board without a
// word): the table's parser's own error, with its line.
func eboardProblems(path string, data []byte) []error {
	if _, err := eboardsettings.Parse(data, path); err != nil {
		return []error{err}
	}
	return nil
}

// Parse reads a config file's contents over base; name is the file's name
// for errors. See Load; Parse reads no other file, so it does not check
// profile paths.
//
// A file that names a control gets the control's own options (a preset's,
// or FIDE practice for a notation), then the options it sets itself; a
// file that names none changes only the options it sets.
func Parse(name string, data []byte, base Settings, saved Presets) (Settings, []error) {
	return parse(name, data, base, saved, false)
}

// parse is Parse; with files, a profile path is checked to be a regular
// file (see CheckProfilePath).
func parse(name string, data []byte, base Settings, saved Presets, files bool) (Settings, []error) {
	doc, err := tomldoc.Parse(data)
	if err != nil {
		return base, []error{syntaxError(name, err)}
	}
	d := &errs{name: name}
	s := base
	found := make([]*tomldoc.Value, len(fields))
	for _, k := range doc.Root.Keys {
		v := doc.Root.Values[k]
		if i := fieldIndex("", k); i >= 0 {
			found[i] = v
			continue
		}
		if slices.Contains(otherTables, k) && v.Kind == tomldoc.Table {
			continue // another program's: zeitnot link reads [hall], zeitnot network [network], zeitnot eboard [eboard]
		}
		if !slices.Contains(tables, k) {
			d.unknown([]string{k}, v)
			continue
		}
		t := v.Table()
		if t == nil {
			d.add(&Error{Key: k, Msg: want("a table ["+k+"]", v).Error()}, v.Line)
			continue
		}
		for _, sub := range t.Keys {
			if i := fieldIndex(k, sub); i >= 0 {
				found[i] = t.Values[sub]
			} else {
				d.unknown([]string{k, sub}, t.Values[sub])
			}
		}
	}
	for i, f := range fields {
		v := found[i]
		if v == nil {
			continue
		}
		if err := f.set(&s, v, saved); err != nil {
			d.add(&Error{Key: f.key(), Msg: err.Error()}, v.Line)
		}
	}
	if v := found[fieldIndex("lock", "locked")]; v != nil && s.Locked && s.PINHash == "" {
		// A lock anyone could lift is no lock: it needs the arbiter's PIN.
		d.add(&Error{Key: "lock.locked", Msg: "the lock needs the arbiter's PIN: set [lock] pin = \"NNNN\" too; the clock stays unlocked"}, v.Line)
		s.Locked = base.Locked && base.PINHash != ""
	}
	if v := found[fieldIndex("", "profile")]; files && v != nil && v.V == s.Profile {
		if err := CheckProfilePath(s.Profile); err != nil {
			d.add(&Error{Key: "profile", Msg: err.Error()}, v.Line)
			s.Profile = base.Profile
		}
	}
	d.sort()
	return s, d.errs
}

// notTOML reports whether errs say the file is not TOML: one syntax error.
func notTOML(errs []error) bool {
	var e *Error
	return len(errs) == 1 && errors.As(errs[0], &e) && e.Col > 0
}

// CheckProfilePath reports a profile that names something other than a
// regular file: a named pipe or a device would block or never end when
// read; and a name that is no built-in profile's (drivers/profile), which
// the daemon would not find (issue 22: it fell back to another profile
// without a word at check or import). A built-in profile name, a missing
// file (it may be on another machine than the one checking) and a regular
// file are fine.
func CheckProfilePath(profile string) error {
	if !isProfilePath(profile) {
		return hwprofile.CheckBuiltin(profile)
	}
	f, err := regfile.Open(profile, regfile.Opts{})
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("%s: %v: want a profile file", quote(profile), err)
	}
	return f.Close()
}

// syntaxError reports a file that is not TOML.
func syntaxError(name string, err error) *Error {
	e := &Error{File: name, Line: 1, Msg: err.Error() + "; the whole file is ignored"}
	var te *tomldoc.Error
	if errors.As(err, &te) {
		e.Line, e.Col, e.Msg = te.Line, te.Col, te.Msg+"; the whole file is ignored"
	}
	return e
}

// errs collects the errors of one file.
type errs struct {
	name string
	errs []error
}

// add completes e with the file and line, and keeps it.
func (d *errs) add(e *Error, line int) {
	e.File, e.Line = d.name, line
	d.errs = append(d.errs, e)
}

// unknown reports a key the schema does not have, suggesting the nearest
// known one.
func (d *errs) unknown(path []string, v *tomldoc.Value) {
	key := tomldoc.Key(path).String()
	var msg string
	if v.Kind == tomldoc.Table && len(path) == 1 {
		msg = fmt.Sprintf("unknown table [%s]", key)
		if s := suggest.Nearest(key, tables); s != "" {
			msg += fmt.Sprintf(" (did you mean [%s]?)", s)
		}
	} else if m, ok := retired[key]; ok {
		msg = m
	} else {
		msg = fmt.Sprintf("unknown key %q", key)
		if s := suggestKey(path); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		}
	}
	d.add(&Error{Key: key, Msg: msg, Unknown: true}, v.Line)
}

// retired are keys the clock no longer reads, with what to do instead.
var retired = map[string]string{
	// The public unlock (hold + and - together) before the PIN.
	"lock.combination": `lock.combination: no longer used: the lock is lifted with the arbiter's PIN ([lock] pin); remove this key`,
}

func (d *errs) sort() {
	slices.SortStableFunc(d.errs, func(a, b error) int {
		x, y := a.(*Error), b.(*Error)
		if x.Line != y.Line {
			return x.Line - y.Line
		}
		return strings.Compare(x.Key, y.Key)
	})
}

// suggestKey returns the known key nearest to path: the same name in
// another table, or a key within a small edit distance.
func suggestKey(path []string) string {
	last := path[len(path)-1]
	var all []string
	for _, f := range fields {
		if f.name == last {
			return f.key()
		}
		all = append(all, f.key())
	}
	return suggest.Nearest(tomldoc.Key(path).String(), all)
}

// fieldIndex returns the index in fields of table.name, or -1.
func fieldIndex(table, name string) int {
	for i, f := range fields {
		if f.table == table && f.name == name {
			return i
		}
	}
	return -1
}
