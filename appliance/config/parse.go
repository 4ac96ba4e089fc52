package config

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/zeitnot/zeitnot/appliance/config/halltable"
	eboardsettings "github.com/zeitnot/zeitnot/appliance/eboard/settings"
	hwprofile "github.com/zeitnot/zeitnot/drivers/profile"
	"github.com/zeitnot/zeitnot/internal/regfile"
	"github.com/zeitnot/zeitnot/internal/suggest"
	"github.com/zeitnot/zeitnot/internal/tomldoc"
)

// Error is one problem in a file: "FILE:LINE: KEY: what was wanted, got
// what was found", or "FILE:LINE:COL: ..." for a file that is not TOML.
// It is the one error type of every table of the clock's files and the
// hall's (internal/tomldoc).
type Error = tomldoc.FileError

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
	d, err := newDecoder(name, data)
	if err != nil {
		return base, []error{err}
	}
	d.Suggest = suggestKey
	r := reading{Settings: base, saved: saved}
	schema.Decode(d, &r)
	s := r.Settings
	if d.Doc.IsDefined("lock", "locked") && s.Locked && s.PINHash == "" {
		// A lock anyone could lift is no lock: it needs the arbiter's PIN.
		d.Errorf(d.Line("lock", "locked"), tomldoc.Key{"lock", "locked"}, "the lock needs the arbiter's PIN: set [lock] pin = \"NNNN\" too; the clock stays unlocked")
		s.Locked = base.Locked && base.PINHash != ""
	}
	if v := d.Doc.Root.Get("profile"); files && v != nil && v.V == s.Profile {
		if err := CheckProfilePath(s.Profile); err != nil {
			d.Errorf(v.Line, tomldoc.Key{"profile"}, "%v", err)
			s.Profile = base.Profile
		}
	}
	return s, d.Errors()
}

// newDecoder parses a file of the clock's; one that is not TOML is ignored
// as a whole, which its error says.
func newDecoder(name string, data []byte) (*tomldoc.Decoder, *Error) {
	d, err := tomldoc.NewDecoder(name, data)
	if err != nil {
		err.Msg += "; the whole file is ignored"
	}
	return d, err
}

// notTOML reports whether errs say the file is not TOML: one syntax error.
func notTOML(errs []error) bool {
	var e *Error
	return len(errs) == 1 && errors.As(errs[0], &e) && e.Col > 0
}

// CheckProfilePath reports a profile the daemon could not use: a name that
// is no built-in profile's (drivers/profile); a path that is not absolute
// and clean (the daemon runs from /, so "../etc/passwd" or "board.toml"
// would be read from wherever it is started); a file that does not exist, or
// names something other than a regular file (a named pipe or a device would
// block or never end when read), or is not a profile. Each was passed, and
// the daemon fell back to another profile with no word at check or import.
func CheckProfilePath(profile string) error {
	if !isProfilePath(profile) {
		return hwprofile.CheckBuiltin(profile)
	}
	switch {
	case !filepath.IsAbs(profile):
		return fmt.Errorf("%s is not an absolute path: want the whole path of a profile file, like \"/etc/zeitnot/board.toml\", or a built-in profile's name", quote(profile))
	case filepath.Clean(profile) != profile || strings.Contains(profile, ".."):
		return fmt.Errorf("%s is not a clean path: want the whole path of a profile file, without . or .. or //", quote(profile))
	}
	f, err := regfile.Open(profile, regfile.Opts{})
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("%s: %v: want a profile file", quote(profile), err)
	}
	f.Close()
	if _, err := hwprofile.Load(profile); err != nil {
		return fmt.Errorf("%s is not a profile: %v", quote(profile), err)
	}
	return nil
}

// suggestKey returns the known key nearest to path: the same name in
// another table, or a key within a small edit distance.
func suggestKey(path tomldoc.Key) string {
	last := path[len(path)-1]
	var all []string
	for _, f := range fields {
		if f.Doc == "" {
			continue // retired
		}
		if f.Key == last {
			return f.key()
		}
		all = append(all, f.key())
	}
	return suggest.Nearest(path.String(), all)
}
