package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/BurntSushi/toml"

	"github.com/zeitnot/zeitnot/internal/tomlkeys"
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

// readFile reads a config file. A missing file is reported as an error
// wrapping fs.ErrNotExist.
func readFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxFileSize {
		return nil, fmt.Errorf("larger than %d bytes, not a config file", maxFileSize)
	}
	return data, nil
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// readError reports a file that could not be read.
func readError(path string, err error) *Error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &Error{File: path, Msg: "cannot read: " + err.Error()}
}

// Load reads the config file at path over base: the keys the file has
// override base. A missing file gives base and no errors. A file that
// cannot be read, or has a syntax error, gives base and one error. Each bad
// or unknown key gives an error and leaves base's value.
func Load(path string, base Config) (Config, []error) {
	data, err := readFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return base, nil
	}
	if err != nil {
		return base, []error{readError(path, err)}
	}
	return Parse(path, data, base)
}

// Check reads the config file at path and returns every problem in it; a
// missing file is one.
func Check(path string) []error {
	data, err := readFile(path)
	if err != nil {
		return []error{readError(path, err)}
	}
	_, errs := Parse(path, data, Defaults(SimProfile))
	return errs
}

// Parse reads a config file's contents over base; name is the file's name
// for errors. See Load.
func Parse(name string, data []byte, base Config) (Config, []error) {
	m, err := decode(name, data)
	if err != nil {
		return base, []error{err}
	}
	d := &doc{name: name, lines: tomlkeys.Lines(string(data)), nlines: strings.Count(string(data), "\n") + 1}
	c := base
	for _, k := range sortedKeys(m) {
		v := m[k]
		if f, ok := findField("", k); ok {
			d.set(&c, f, v)
			continue
		}
		if !slices.Contains(tables, k) {
			d.unknown([]string{k}, v)
			continue
		}
		t, ok := v.(map[string]any)
		if !ok {
			d.add(&Error{Key: k, Msg: want("a table ["+k+"]", v).Error()}, k)
			continue
		}
		for _, sub := range sortedKeys(t) {
			if f, ok := findField(k, sub); ok {
				d.set(&c, f, t[sub])
			} else {
				d.unknown([]string{k, sub}, t[sub])
			}
		}
	}
	d.sort()
	return c, d.errs
}

// decode parses TOML into a map, turning a syntax error into an *Error with
// the line and column.
func decode(name string, data []byte) (m map[string]any, err error) {
	defer func() {
		if r := recover(); r != nil {
			m, err = nil, &Error{File: name, Line: 1, Msg: fmt.Sprintf("cannot parse: %v; the whole file is ignored", r)}
		}
	}()
	if _, err := toml.Decode(string(data), &m); err != nil {
		e := &Error{File: name, Line: 1, Msg: err.Error() + "; the whole file is ignored"}
		var pe toml.ParseError
		if errors.As(err, &pe) {
			e.Line, e.Col = position(data, pe.Position)
			e.Msg = pe.Message + "; the whole file is ignored"
		}
		return nil, e
	}
	return m, nil
}

// position returns the line and column of a syntax error. They are worked
// out from the byte offset, as the toml package puts an error at a newline on
// the next line; the result is always within the file.
func position(data []byte, p toml.Position) (line, col int) {
	n := strings.Count(string(data), "\n") + 1
	if p.Start < 0 || p.Start > len(data) {
		return max(1, min(p.Line, n)), max(p.Col, 1)
	}
	before := data[:p.Start]
	line = bytes.Count(before, []byte{'\n'}) + 1
	col = utf8.RuneCount(before[bytes.LastIndexByte(before, '\n')+1:]) + 1
	return line, col
}

// doc collects the errors of one file.
type doc struct {
	name   string
	lines  map[string]int
	nlines int
	errs   []error
}

// line returns the line of the key path, or of its nearest parent found,
// or 1.
func (d *doc) line(path ...string) int {
	for n := len(path); n > 0; n-- {
		if l, ok := d.lines[tomlkeys.Key(path[:n]...)]; ok && l >= 1 && l <= d.nlines {
			return l
		}
	}
	return 1
}

// add completes e with the file and the line of path, and keeps it.
func (d *doc) add(e *Error, path ...string) {
	e.File = d.name
	e.Line = d.line(path...)
	d.errs = append(d.errs, e)
}

func (d *doc) set(c *Config, f field, v any) {
	if err := f.set(c, v); err != nil {
		path := []string{f.name}
		if f.table != "" {
			path = []string{f.table, f.name}
		}
		d.add(&Error{Key: f.key(), Msg: err.Error()}, path...)
	}
}

// unknown reports a key the schema does not have, suggesting the nearest
// known one.
func (d *doc) unknown(path []string, v any) {
	key := dotted(path)
	var msg string
	if _, isTable := v.(map[string]any); isTable && len(path) == 1 {
		msg = fmt.Sprintf("unknown table [%s]", key)
		if s := nearest(key, tables); s != "" {
			msg += fmt.Sprintf(" (did you mean [%s]?)", s)
		}
	} else {
		msg = fmt.Sprintf("unknown key %q", key)
		if s := suggestKey(path); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		}
	}
	d.add(&Error{Key: key, Msg: msg, Unknown: true}, path...)
}

func (d *doc) sort() {
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
	return nearest(dotted(path), all)
}

func findField(table, name string) (field, bool) {
	for _, f := range fields {
		if f.table == table && f.name == name {
			return f, true
		}
	}
	return field{}, false
}

// dotted writes a key path as TOML, quoting segments that are not bare.
func dotted(path []string) string {
	q := make([]string, len(path))
	for i, p := range path {
		q[i] = p
		bare := p != ""
		for j := 0; j < len(p); j++ {
			bare = bare && isBare(p[j])
		}
		if !bare {
			q[i] = quote(p)
		}
	}
	return strings.Join(q, ".")
}

// isBare reports whether c may appear in a bare TOML key.
func isBare(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
