package tomldoc

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/zeitnot/zeitnot/internal/suggest"
)

// A Schema is one table of a file, read into a T: its keys, what each
// holds, its documentation and how it is stored. Every table of the
// clock's files and of the hall's is one, so that each checks its keys,
// reports its problems and documents itself the same way:
//
//	FILE:LINE: KEY: what was wanted, got what was there
//
// Keys are read in the order of Fields, whatever their order in the file
// (a key may depend on one before it), then the table's Check runs.
type Schema[T any] struct {
	Fields []Field[T]
	// Others are tables that other programs read from the same file: not
	// looked at. A key of that name that is not a table is unknown.
	Others []string
	// Check, if set, runs after the keys: what no key can say alone (two
	// keys that exclude each other). tab is the table read, path its key.
	Check func(d *Decoder, dst *T, tab *Tab, path Key)
}

// Field is one key of a Schema. The constructors (BoolField, IntField, StringField, ...)
// fill Want and Read; Doc, Default and Required are set with their
// methods, for documentation and presence.
type Field[T any] struct {
	Key string
	// Want says what the value must be, in the messages: "a whole number
	// from 1 to 9999".
	Want string
	// Doc says what the key is for, and Default what it is when the key is
	// absent, as the documentation's table of keys writes them (Markdown).
	Doc, Default string
	// Required, if set, makes a table without the key a problem, and says
	// what the key is for: "missing: " + Required.
	Required string
	// TableField is the schema of a table-valued key, for its documentation.
	Sub interface{ Rows(prefix Key) []string }
	// Read checks the value v of key path and stores it in dst, reporting
	// problems through d. v is never nil; a value that cannot be read
	// (Value.Err: an integer beyond 64 bits, 2023-02-30) has no V, and is
	// reported as a value of the wrong kind: "want WANT, got AS-WRITTEN".
	Read func(d *Decoder, dst *T, v *Value, path Key)

	retired bool // RetiredField's: read, reported, never listed
}

// Documented returns f with its documentation: what the key is for and
// its default, as the table of keys writes them.
func (f Field[T]) Documented(doc, def string) Field[T] {
	f.Doc, f.Default = doc, def
	return f
}

// Needed returns f as a key the table must have; why says what it is for.
func (f Field[T]) Needed(why string) Field[T] {
	f.Required = why
	return f
}

// Decoder reads one file's tables and collects their problems, each a
// *FileError at its line.
type Decoder struct {
	File string
	// Dir is where the relative file names of File are taken from;
	// "" is File's own directory.
	Dir string
	Doc *Doc
	// Suggest, if set, is asked first for the known key nearest to an
	// unknown one (path); "" leaves it to the table's own keys.
	Suggest func(path Key) string
	errs    []*FileError
}

// NewDecoder parses data, the contents of the file called file. A document
// that is not TOML gives a *FileError at its line and column.
func NewDecoder(file string, data []byte) (*Decoder, *FileError) {
	doc, err := ParseFile(file, data)
	if err != nil {
		return nil, err
	}
	return &Decoder{File: file, Doc: doc}, nil
}

// Errorf reports a problem of key path (nil for the whole file) at line.
func (d *Decoder) Errorf(line int, path Key, format string, a ...any) {
	d.errs = append(d.errs, &FileError{File: d.File, Line: line, Key: path.String(), Msg: fmt.Sprintf(format, a...)})
}

// Wrong reports that v, at path, is not what was wanted: "want WANT, got V".
func (d *Decoder) Wrong(v *Value, path Key, want string) {
	d.Errorf(v.Line, path, "want %s, got %s", want, Describe(v))
}

// Errors returns the problems so far, by line; those of one line in the
// order found (a table's missing keys in the schema's order).
func (d *Decoder) Errors() []error {
	slices.SortStableFunc(d.errs, func(a, b *FileError) int {
		return cmp.Compare(a.Line, b.Line)
	})
	out := make([]error, len(d.errs))
	for i, e := range d.errs {
		out[i] = e
	}
	return out
}

// Err returns the problems so far joined, or nil.
func (d *Decoder) Err() error { return errors.Join(d.Errors()...) }

// OK reports whether no problem has been found so far.
func (d *Decoder) OK() bool { return len(d.errs) == 0 }

// Path returns name as a file name: a relative one is taken from Dir.
func (d *Decoder) Path(name string) string {
	if filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(cmp.Or(d.Dir, filepath.Dir(d.File)), name)
}

// Line returns the line of the key path, or of the nearest table above it
// that the file has; 0 if none.
func (d *Decoder) Line(path ...string) int {
	for n := len(path); n > 0; n-- {
		if l := d.Doc.Line(path[:n]...); l > 0 {
			return l
		}
	}
	return 0
}

// Decode reads the top level of the document into dst.
func (s *Schema[T]) Decode(d *Decoder, dst *T) {
	s.read(d, dst, d.Doc.Root, nil, 1)
}

// DecodeTable reads the table v of key path into dst. A value that is not
// a table is reported, and DecodeTable returns false.
func (s *Schema[T]) DecodeTable(d *Decoder, v *Value, path Key, dst *T) bool {
	t := v.Table()
	if t == nil || v.Kind != Table {
		d.Wrong(v, path, "a table ["+path.String()+"]")
		return false
	}
	s.read(d, dst, t, path, v.Line)
	return true
}

func (s *Schema[T]) read(d *Decoder, dst *T, t *Tab, path Key, line int) {
	for _, f := range s.Fields {
		p := append(path[:len(path):len(path)], f.Key)
		v := t.Get(f.Key)
		switch {
		case v == nil && f.Required != "":
			d.Errorf(line, p, "missing: %s", f.Required)
		case v != nil:
			f.Read(d, dst, v, p)
		}
	}
	for _, k := range t.Keys {
		v := t.Get(k)
		other := slices.Contains(s.Others, k) && v.Kind == Table
		if !other && !slices.ContainsFunc(s.Fields, func(f Field[T]) bool { return f.Key == k }) {
			s.unknown(d, v, append(path[:len(path):len(path)], k))
		}
	}
	if s.Check != nil {
		s.Check(d, dst, t, path)
	}
}

// unknown reports a key the schema does not have, with the key of the
// same table nearest to it (or Decoder.Suggest's), or the list of keys.
func (s *Schema[T]) unknown(d *Decoder, v *Value, path Key) {
	var near string
	if d.Suggest != nil {
		near = d.Suggest(path)
	}
	keys := s.Keys()
	if near == "" {
		near = suggest.Nearest(path[len(path)-1], keys)
	}
	what := "key"
	if v.Kind == Table && !v.ArrayOfTables {
		what = "table"
	}
	switch {
	case near != "":
		d.Errorf(v.Line, path, "unknown %s (did you mean %s?)", what, near)
	case len(path) == 1:
		d.Errorf(v.Line, path, "unknown %s; the file has %s", what, strings.Join(keys, ", "))
	default:
		d.Errorf(v.Line, path, "unknown %s; [%s] has %s", what, path[:len(path)-1], strings.Join(keys, ", "))
	}
}

// Keys returns the schema's keys, in order; not the retired ones.
func (s *Schema[T]) Keys() []string {
	var k []string
	for _, f := range s.Fields {
		if !f.retired {
			k = append(k, f.Key)
		}
	}
	return k
}

// Rows returns the documentation of the schema as rows of a Markdown
// table of keys, "| `key` | doc | default |", a table-valued key as
// "| **`[prefix.key]`** | doc | default |" followed by its own rows.
// prefix is the schema's own key path. Retired keys have no row.
func (s *Schema[T]) Rows(prefix Key) []string {
	var rows []string
	for _, f := range s.Fields {
		if f.Doc == "" && f.Sub == nil {
			continue
		}
		key := "`" + f.Key + "`"
		if f.Sub != nil {
			key = fmt.Sprintf("**`[%s]`**", append(prefix[:len(prefix):len(prefix)], f.Key))
		}
		rows = append(rows, "|"+cell(key)+"|"+cell(f.Doc)+"|"+cell(f.Default)+"|")
		if f.Sub != nil {
			rows = append(rows, f.Sub.Rows(append(prefix[:len(prefix):len(prefix)], f.Key))...)
		}
	}
	return rows
}

// cell is a cell of a Markdown table: s between spaces, one for none.
func cell(s string) string {
	if s == "" {
		return " "
	}
	return " " + s + " "
}

// CustomField is a key read by read, which stores v in dst or returns what is
// wrong with it: a *WantError for a value of the wrong kind or range (the
// message gets ", got V"), any other error as it says.
func CustomField[T any](key, want string, read func(dst *T, v *Value) error) Field[T] {
	return Field[T]{Key: key, Want: want, Read: func(d *Decoder, dst *T, v *Value, path Key) {
		if err := read(dst, v); err != nil {
			var we *WantError
			if errors.As(err, &we) {
				d.Errorf(v.Line, path, "want %s, got %s%s", we.Want, Describe(v), we.More)
				return
			}
			d.Errorf(v.Line, path, "%v", err)
		}
	}}
}

// WantError is a value of the wrong kind or range: Want says what was
// wanted; More, if set, follows "got V" in the message: " (why)", "; what
// happens now".
type WantError struct{ Want, More string }

func (e *WantError) Error() string { return "want " + e.Want + e.More }

// Want returns a *WantError.
func Want(what string) error { return &WantError{Want: what} }

// BoolField is a key of true or false.
func BoolField[T any](key string, set func(dst *T, b bool)) Field[T] {
	return CustomField(key, "true or false", func(dst *T, v *Value) error {
		b, ok := v.V.(bool)
		if !ok {
			return Want("true or false")
		}
		set(dst, b)
		return nil
	})
}

// IntField is a key of a whole number from lo to hi; from math.MinInt64
// to math.MaxInt64 is any.
func IntField[T any](key string, lo, hi int64, set func(dst *T, n int64)) Field[T] {
	want := fmt.Sprintf("a whole number from %d to %d", lo, hi)
	if lo == math.MinInt64 && hi == math.MaxInt64 {
		want = "a whole number"
	}
	return CustomField(key, want, func(dst *T, v *Value) error {
		n, ok := v.V.(int64)
		if !ok || n < lo || n > hi {
			return Want(want)
		}
		set(dst, n)
		return nil
	})
}

// FloatField is a key of a number, whole or not.
func FloatField[T any](key string, set func(dst *T, f float64)) Field[T] {
	return CustomField(key, "a number", func(dst *T, v *Value) error {
		switch n := v.V.(type) {
		case float64:
			set(dst, n)
		case int64:
			set(dst, float64(n))
		default:
			return Want("a number")
		}
		return nil
	})
}

// StringField is a key of a string of valid UTF-8 without control characters
// (CheckText), which check (if not nil) accepts.
func StringField[T any](key string, check func(string) error, set func(dst *T, s string)) Field[T] {
	return CustomField(key, "a string", func(dst *T, v *Value) error {
		s, ok := v.V.(string)
		if !ok {
			return Want("a string")
		}
		if err := CheckText(s); err != nil {
			return fmt.Errorf("%v in %q", err, s)
		}
		if check != nil {
			if err := check(s); err != nil {
				return err
			}
		}
		set(dst, s)
		return nil
	})
}

// SecretField is String for a value that is never repeated in a message: a
// password, a passphrase. check's errors must not repeat it either.
func SecretField[T any](key string, check func(string) error, set func(dst *T, s string)) Field[T] {
	f := CustomField(key, "a string", func(dst *T, v *Value) error {
		s, ok := v.V.(string)
		if !ok {
			return fmt.Errorf("want a string, got %s", KindName(v))
		}
		if err := CheckText(s); err != nil {
			return fmt.Errorf("%v in it", err)
		}
		if check != nil {
			if err := check(s); err != nil {
				return err
			}
		}
		set(dst, s)
		return nil
	})
	return f
}

// WordField is a key of one of the words, as a string.
func WordField[T any](key string, words []string, set func(dst *T, w string)) Field[T] {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = strconv.Quote(w)
	}
	want := strings.Join(q, " or ")
	if len(q) > 2 {
		want = strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
	}
	return CustomField(key, want, func(dst *T, v *Value) error {
		s, ok := v.V.(string)
		if !ok || !slices.Contains(words, s) {
			return Want(want)
		}
		set(dst, s)
		return nil
	})
}

// FileField is a key naming a file: a string, not empty, a relative name taken
// from the decoder's directory (Decoder.Path). set gets the full name.
func FileField[T any](key string, set func(dst *T, path string)) Field[T] {
	return Field[T]{Key: key, Want: "a file name", Read: func(d *Decoder, dst *T, v *Value, path Key) {
		if name, ok := d.FileName(v, path); ok {
			set(dst, name)
		}
	}}
}

// FileName returns the file that v, the value of key path, names, as
// FileField reads it, or reports why it names none.
func (d *Decoder) FileName(v *Value, path Key) (string, bool) {
	s, ok := v.V.(string)
	switch {
	case !ok:
		d.Wrong(v, path, "a file name")
	case CheckText(s) != nil:
		d.Errorf(v.Line, path, "%v in %q", CheckText(s), s)
	case s == "":
		d.Errorf(v.Line, path, "want a file name, got an empty string")
	default:
		return d.Path(s), true
	}
	return "", false
}

// Item is a string of a list, with its line.
type Item struct {
	S    string
	Line int
}

// ListField is a key of a string or a list of 1 to max different strings
// (compared without case), each checked by check (if not nil). set gets
// the good ones.
func ListField[T any](key string, max int, check func(string) error, set func(dst *T, items []Item)) Field[T] {
	want := fmt.Sprintf("a string or a list of up to %d strings", max)
	return Field[T]{Key: key, Want: want, Read: func(d *Decoder, dst *T, v *Value, path Key) {
		elems := []*Value{v}
		if v.Kind != String {
			a, ok := v.V.([]*Value)
			if !ok || v.ArrayOfTables {
				d.Wrong(v, path, "a string or a list of strings")
				return
			}
			if len(a) == 0 || len(a) > max {
				d.Errorf(v.Line, path, "want 1 to %d entries, got %d (leave %s out for none)", max, len(a), path)
				return
			}
			elems = a
		}
		var out []Item
		var seen []string
		for _, e := range elems {
			s, ok := e.V.(string)
			switch {
			case !ok:
				d.Wrong(e, path, "a string")
			case CheckText(s) != nil:
				d.Errorf(e.Line, path, "%v in %q", CheckText(s), s)
			case slices.Contains(seen, strings.ToLower(s)):
				d.Errorf(e.Line, path, "%q is there twice", s)
			default:
				seen = append(seen, strings.ToLower(s))
				if check != nil {
					if err := check(s); err != nil {
						d.Errorf(e.Line, path, "%v", err)
						continue
					}
				}
				out = append(out, Item{s, e.Line})
			}
		}
		set(dst, out)
	}}
}

// TableField is a key holding a table, read with its own schema into the U that
// get returns (get is called only when the key is there).
func TableField[T, U any](key string, s *Schema[U], get func(dst *T) *U) Field[T] {
	return Field[T]{Key: key, Want: "a table", Sub: s, Read: func(d *Decoder, dst *T, v *Value, path Key) {
		if v.ArrayOfTables {
			d.Wrong(v, path, "a table ["+path.String()+"]")
			return
		}
		s.DecodeTable(d, v, path, get(dst))
	}}
}

// NamesField is a key holding a table whose keys are names the file chooses
// (user names, say), each read by read into dst. A problem of one entry
// is reported at its line, under path.name.
func NamesField[T any](key, want string, read func(d *Decoder, dst *T, name string, v *Value, path Key)) Field[T] {
	return Field[T]{Key: key, Want: want, Read: func(d *Decoder, dst *T, v *Value, path Key) {
		t := v.Table()
		if t == nil || v.Kind != Table {
			d.Wrong(v, path, want)
			return
		}
		for _, name := range t.Keys {
			e := t.Get(name)
			read(d, dst, name, e, append(path[:len(path):len(path)], name))
		}
	}}
}

// MapField is a key holding a table whose keys are names the file chooses,
// each a table read with s; put gets those read without a problem.
func MapField[T, U any](key string, s *Schema[U], put func(dst *T, name string, u U)) Field[T] {
	f := NamesField(key, "a table ["+key+"]", func(d *Decoder, dst *T, name string, v *Value, path Key) {
		var u U
		n := len(d.errs)
		if s.DecodeTable(d, v, path, &u) && len(d.errs) == n {
			put(dst, name, u)
		}
	})
	f.Sub = s
	return f
}

// RetiredField is a key no longer read: any value is reported with msg, which
// says what to do instead.
func RetiredField[T any](key, msg string) Field[T] {
	return Field[T]{Key: key, retired: true, Read: func(d *Decoder, _ *T, v *Value, path Key) {
		d.Errorf(v.Line, path, "%s", msg)
	}}
}

// CheckText reports a string that is not valid UTF-8 or holds a control
// character (C0, DEL or C1), which no value of the clock's files may.
func CheckText(s string) error {
	if !utf8.ValidString(s) || strings.ContainsFunc(s, IsControl) {
		return errors.New("control characters or invalid UTF-8")
	}
	return nil
}

// IsControl reports whether r is a control character: C0, DEL or C1.
func IsControl(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }

// Describe names a value for a message: a scalar as written (a string
// quoted, cut at 40 characters), otherwise its kind.
func Describe(v *Value) string {
	if v.Err != nil {
		return v.Raw
	}
	switch v.Kind {
	case String:
		s, _ := v.V.(string)
		if r := []rune(s); len(r) > 40 {
			return strconv.Quote(string(r[:40])) + "..."
		}
		return strconv.Quote(s)
	case Integer, Float, Bool:
		return v.Raw
	}
	return KindName(v)
}

// KindName names a value's kind alone, for a secret's message.
func KindName(v *Value) string {
	switch v.Kind {
	case String:
		return "a string"
	case Integer, Float:
		return "a number"
	case Bool:
		return "true or false"
	case Datetime:
		return "a date or time"
	case Array:
		return "an array"
	case Table:
		return "a table"
	}
	return "nothing"
}
