// Package tomldoc reads a TOML document into a tree that keeps where every
// key was written, with github.com/pelletier/go-toml/v2.
//
// The files of the clock are checked key by key, and each problem is
// reported at its line; decoding into a struct or a map says nothing of
// lines. Parse builds the tables, arrays and values of the document from
// the nodes of go-toml's parser (package unstable), each value with the line
// and column of the key that set it, and lists every key path with its line.
// What TOML allows (a key or a table defined once, inline tables complete as
// written) is go-toml's decoder's to say: Parse runs it over the document too.
//
// Two kinds of problem are told apart:
//
//   - A document that is not TOML (a syntax error, a key or a table defined
//     twice, a key added to an inline table) cannot be read at all: Parse
//     returns an *Error with its line and column, and no tree.
//   - A number, date or time that the parser takes as one but whose value
//     cannot be read (an integer beyond 64 bits, 1e999, 2023-02-30, 25:00,
//     00:zz) is a problem of that value alone: it is in the tree with
//     Value.Err set, and the rest of the document reads as usual.
package tomldoc

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// Kind is what a value is.
type Kind uint8

// The kinds of value. Datetime is any of TOML's four date and time kinds.
const (
	String Kind = iota + 1
	Integer
	Float
	Bool
	Datetime
	Array
	Table
)

// Value is one value of the document.
type Value struct {
	Kind Kind
	// Line and Col (from 1) are where the value was first defined: the key
	// that set it, the header of a table (or the first key or header that
	// implies it), the first header of an array of tables, where an element
	// of an array starts.
	Line, Col int
	// Raw is a scalar as written ("0x1F", "'abc'"); "" for arrays and tables.
	Raw string
	// V holds the value: a string, an int64, a float64, a bool, one of
	// go-toml's date and time types (toml.LocalDate, toml.LocalTime,
	// toml.LocalDateTime, time.Time), []*Value for an array, *Tab for a
	// table. It is nil when Err is set.
	V any
	// Err says why a number, date or time cannot be read.
	Err error
	// ArrayOfTables is set on an array made by [[headers]].
	ArrayOfTables bool
}

// Tab is a table: keys and their values.
type Tab struct {
	Keys   []string // in order of definition
	Values map[string]*Value
}

// Get returns the value of key k of t, or nil if t is nil or has no k.
func (t *Tab) Get(k string) *Value {
	if t == nil {
		return nil
	}
	return t.Values[k]
}

// Array returns v's elements, or nil if v is nil or not an array.
func (v *Value) Array() []*Value {
	if v == nil {
		return nil
	}
	a, _ := v.V.([]*Value)
	return a
}

// Table returns v's table, or nil if v is nil or not a table.
func (v *Value) Table() *Tab {
	if v == nil {
		return nil
	}
	t, _ := v.V.(*Tab)
	return t
}

// Key is a key path.
type Key []string

// String writes k as TOML: segments joined by dots, quoted when not bare.
func (k Key) String() string {
	q := make([]string, len(k))
	for i, p := range k {
		q[i] = p
		if !IsBare(p) {
			q[i] = strconv.Quote(p)
		}
	}
	return strings.Join(q, ".")
}

// IsBare reports whether s can be written as a bare TOML key: letters,
// digits, '-' and '_' only, at least one.
func IsBare(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// Doc is a parsed document.
type Doc struct {
	Root *Tab
	keys []Key
	// lines maps a key path, joined by NUL, to the line of its first
	// mention. Paths go through arrays without indices.
	lines  map[string]int
	listed map[string]bool // paths in keys
}

// Keys returns the path of every key and table header of the document in
// order of first definition; the tables they imply (a of [a.b] or of
// a.b = 1) are not listed. A path through an array of tables has no index:
// the keys of every [[a]] table are under a.
func (d *Doc) Keys() []Key { return d.keys }

// Line returns the line of the first mention of the key path, or 0 if the
// document does not have it. Paths are as in Keys, and include the tables
// that keys and headers imply.
func (d *Doc) Line(path ...string) int { return d.lines[strings.Join(path, "\x00")] }

// IsDefined reports whether the document has the key path.
func (d *Doc) IsDefined(path ...string) bool { return d.Line(path...) > 0 }

// Error is a document that is not TOML.
type Error struct {
	Line, Col int // from 1; Line is at most one more than the number of newlines
	Msg       string
}

func (e *Error) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

// bom is the UTF-8 byte order mark some editors put first in a file.
var bom = []byte("\xef\xbb\xbf")

// Parse reads a TOML document, after a byte order mark if there is one
// (columns on the first line do not count it). A document that is not TOML
// gives an *Error and no Doc.
func Parse(data []byte) (doc *Doc, err error) {
	data = bytes.TrimPrefix(data, bom)
	data = data[:len(data):len(data)] // offsets of highlights come from capacities
	b := &builder{data: data, doc: &Doc{Root: newTab(), lines: map[string]int{}, listed: map[string]bool{}}}
	for i, c := range data {
		if c == '\n' {
			b.newlines = append(b.newlines, i)
		}
	}
	defer func() {
		if r := recover(); r != nil {
			doc, err = nil, &Error{Line: 1, Col: 1, Msg: fmt.Sprintf("cannot parse: %v", r)}
		}
	}()
	if off := tooManyCommas(data); off >= 0 {
		l, c := b.pos(off)
		return nil, &Error{Line: l, Col: c, Msg: overMsg}
	}
	syntax := b.build()
	if b.over != nil {
		return nil, b.over
	}
	if err := b.validate(syntax); err != nil {
		return nil, err
	}
	if b.stuck != nil {
		// What go-toml accepts, the tree should hold: this is not reached.
		return nil, b.stuck
	}
	return b.doc, nil
}

type builder struct {
	data     []byte
	newlines []int // offsets of '\n'
	doc      *Doc
	bad      []unstable.Range // values that cannot be read
	stuck    *Error           // where the tree could not be built
	last     position         // the last position pos computed
	values   int              // keys, headers and array elements so far
	over     *Error           // where the document passed MaxValues
}

// MaxValues bounds the keys, table headers and array elements of a
// document, all counted together. The clock's files have a few hundred;
// the bound keeps what go-toml's decoder does per key (it looks for the
// key among the table's keys already seen, so n keys in one table cost
// O(n²)) within milliseconds. Past it the document is refused as not a
// file of the clock's, before the decoder sees it.
const MaxValues = 4096

var overMsg = fmt.Sprintf("more than %d keys, tables and array elements: not a configuration file", MaxValues)

// tooManyCommas returns the offset of the comma past MaxValues outside
// strings and comments, or -1. Each such comma follows an array element or
// a key of an inline table, so a document with more is over MaxValues: it
// is refused before go-toml's parser builds an array of half a million
// elements. Strings and comments are skipped as TOML writes them; in a
// document that is not TOML this may count wrong, which only changes which
// error it gets.
func tooManyCommas(data []byte) int {
	n := 0
	for i := 0; i < len(data); i++ {
		switch c := data[i]; c {
		case ',':
			if n++; n > MaxValues {
				return i
			}
		case '#':
			for i < len(data) && data[i] != '\n' {
				i++
			}
		case '"', '\'':
			multi := i+2 < len(data) && data[i+1] == c && data[i+2] == c
			if multi {
				i += 3
				for i+2 < len(data) && !(data[i] == c && data[i+1] == c && data[i+2] == c) {
					if c == '"' && data[i] == '\\' {
						i++
					}
					i++
				}
				i += 2 // on the last closing quote
				for k := 0; k < 2 && i+1 < len(data) && data[i+1] == c; k++ {
					i++ // up to two more are the string's own
				}
				continue
			}
			for i++; i < len(data) && data[i] != c && data[i] != '\n'; i++ {
				if c == '"' && data[i] == '\\' {
					i++
				}
			}
		}
	}
	return -1
}

// count counts one more key, header or array element at at, and reports
// whether the document is still within MaxValues.
func (b *builder) count(at [2]int) bool {
	b.values++
	if b.values > MaxValues && b.over == nil {
		b.over = &Error{Line: at[0], Col: at[1], Msg: overMsg}
	}
	return b.over == nil
}

func newTab() *Tab { return &Tab{Values: map[string]*Value{}} }

// build builds the tree from the parser's nodes. It stops at a syntax
// error, which it returns, or where a key cannot go into the tree (stuck):
// there the document is not TOML, which validate reports.
func (b *builder) build() error {
	var p unstable.Parser
	p.Reset(b.data)
	cur, curPath := b.doc.Root, Key(nil)
	for b.stuck == nil && b.over == nil && p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.KeyValue:
			b.keyValue(cur, curPath, e)
		case unstable.Table, unstable.ArrayTable:
			cur, curPath = b.header(e)
		}
	}
	return p.Error()
}

// validate runs go-toml's decoder over the document, with the values that
// cannot be read written as 0: they are problems of their keys alone.
func (b *builder) validate(syntax error) error {
	doc := b.data
	if len(b.bad) > 0 {
		doc = bytes.Clone(b.data)
		for _, r := range b.bad {
			doc[r.Offset] = '0'
			for i := r.Offset + 1; i < r.Offset+r.Length; i++ {
				doc[i] = ' '
			}
		}
	}
	var m map[string]any
	err := toml.Unmarshal(doc, &m)
	if err == nil {
		return nil
	}
	off := len(b.data)
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, col := de.Position()
		if row >= 2 && row-2 < len(b.newlines) {
			off = b.newlines[row-2] + 1
		} else if row >= 2 {
			off = len(b.data)
		} else {
			off = 0
		}
		off = min(off+col-1, len(b.data))
	}
	if syntax != nil && off == len(b.data)-1 && b.atEnd(off) {
		off = len(b.data)
	}
	l, c := b.pos(off)
	return &Error{Line: l, Col: c, Msg: strings.TrimPrefix(err.Error(), "toml: ")}
}

// atEnd reports whether a syntax error put on the last byte was found at
// the end of the input: the parser puts those on the last byte. Parsing
// once more with a byte added tells them from errors about the last byte
// itself, which stay where they were.
func (b *builder) atEnd(off int) bool {
	more := append(b.data[:len(b.data):len(b.data)], 0)
	var p unstable.Parser
	p.Reset(more)
	for p.NextExpression() {
	}
	var pe *unstable.ParserError
	if !errors.As(p.Error(), &pe) {
		return true
	}
	return cap(more)-cap(pe.Highlight) != off
}

// pos returns the line and column (from 1, in characters) of a byte offset.
// The parser's nodes come in order of their offsets, so the column is
// counted on from the last position asked for when it is on the same line
// and not after off: an array of n elements on one line costs O(n), not
// O(n²) (500,000 elements took over 300 s).
func (b *builder) pos(off int) (line, col int) {
	off = min(max(off, 0), len(b.data))
	i := sort.SearchInts(b.newlines, off) // newlines before off
	start := 0
	if i > 0 {
		start = b.newlines[i-1] + 1
	}
	from, col := start, 1
	if p := b.last; p.line == i+1 && p.off >= start && p.off <= off {
		from, col = p.off, p.col
	}
	col += utf8.RuneCount(b.data[from:off])
	b.last = position{off: off, line: i + 1, col: col}
	return i + 1, col
}

// position is a byte offset with its line and column.
type position struct{ off, line, col int }

// nodePos returns the position of a node that has one: not an array.
func (b *builder) nodePos(n *unstable.Node) [2]int {
	l, c := b.pos(int(n.Raw.Offset))
	return [2]int{l, c}
}

// record notes the first mention of path, and lists it in Keys if it is
// written out: a header's whole path, a key's whole path, not the tables
// they imply.
func (b *builder) record(path Key, at [2]int, written bool) {
	k := strings.Join(path, "\x00")
	if _, ok := b.doc.lines[k]; !ok {
		b.doc.lines[k] = at[0]
	}
	if written && !b.doc.listed[k] {
		b.doc.listed[k] = true
		b.doc.keys = append(b.doc.keys, append(Key(nil), path...))
	}
}

// keyParts reads the parts of a dotted key and where each is written.
func (b *builder) keyParts(e *unstable.Node) ([]string, [][2]int) {
	var parts []string
	var at [][2]int
	it := e.Key()
	for it.Next() {
		k := it.Node()
		parts = append(parts, string(k.Data))
		at = append(at, b.nodePos(k))
	}
	return parts, at
}

func (b *builder) stop(at [2]int, path Key) {
	b.stuck = &Error{Line: at[0], Col: at[1], Msg: fmt.Sprintf("key %s cannot be defined here", path)}
}

// header handles [a.b] and [[a.b]], returning the table that the keys
// after it go into.
func (b *builder) header(e *unstable.Node) (*Tab, Key) {
	array := e.Kind == unstable.ArrayTable
	parts, at := b.keyParts(e)
	if !b.count(at[0]) {
		return b.doc.Root, nil
	}
	t := b.doc.Root
	var path Key
	for i, k := range parts {
		path = append(path, k)
		last := i == len(parts)-1
		v := t.Values[k]
		switch {
		case v == nil:
			v = &Value{Kind: Table, Line: at[0][0], Col: at[0][1], V: newTab()}
			if last && array {
				v.Kind, v.V, v.ArrayOfTables = Array, []*Value{}, true
			}
			t.Keys = append(t.Keys, k)
			t.Values[k] = v
		case v.ArrayOfTables == (last && array):
		case v.ArrayOfTables && !last:
		default:
			b.stop(at[i], path)
			return t, path
		}
		b.record(path, at[0], last)
		if v.ArrayOfTables && last {
			v.V = append(v.Array(), &Value{Kind: Table, Line: at[0][0], Col: at[0][1], V: newTab()})
		}
		if a := v.Array(); v.ArrayOfTables {
			t = a[len(a)-1].Table()
		} else if t = v.Table(); t == nil {
			b.stop(at[i], path)
			return b.doc.Root, path
		}
	}
	return t, path
}

// keyValue handles a.b = v in table t, whose path is tpath.
func (b *builder) keyValue(t *Tab, tpath Key, e *unstable.Node) {
	parts, at := b.keyParts(e)
	if !b.count(at[0]) {
		return
	}
	path := append(Key(nil), tpath...)
	for i, k := range parts {
		path = append(path, k)
		v := t.Values[k]
		if i == len(parts)-1 {
			if v != nil {
				b.stop(at[i], path)
				return
			}
			b.record(path, at[0], true)
			t.Keys = append(t.Keys, k)
			t.Values[k] = b.value(e.Value(), at[0], path)
			return
		}
		if v == nil {
			v = &Value{Kind: Table, Line: at[0][0], Col: at[0][1], V: newTab()}
			t.Keys = append(t.Keys, k)
			t.Values[k] = v
			b.record(path, at[0], false)
		}
		if t = v.Table(); t == nil {
			b.stop(at[i], path)
			return
		}
	}
}

// value builds the value of node n, defined at at, of key path.
func (b *builder) value(n *unstable.Node, at [2]int, path Key) *Value {
	v := &Value{Line: at[0], Col: at[1]}
	switch n.Kind {
	case unstable.String:
		v.Kind, v.V = String, string(n.Data)
	case unstable.Bool:
		v.Kind, v.V = Bool, string(n.Data) == "true"
	case unstable.Integer, unstable.Float, unstable.LocalDate, unstable.LocalTime, unstable.LocalDateTime, unstable.DateTime:
		v.Kind = map[unstable.Kind]Kind{unstable.Integer: Integer, unstable.Float: Float}[n.Kind]
		if v.Kind == 0 {
			v.Kind = Datetime
		}
		if v.V, v.Err = scalar(n.Data); v.Err != nil {
			b.bad = append(b.bad, n.Raw)
		}
	case unstable.Array:
		v.Kind = Array
		elems := []*Value{}
		it := n.Children()
		for it.Next() {
			c := it.Node()
			if c.Kind == unstable.Comment {
				continue
			}
			cat := at
			if c.Kind != unstable.Array {
				cat = b.nodePos(c)
			}
			if !b.count(cat) {
				break
			}
			ev := b.value(c, cat, path)
			if a := ev.Array(); len(a) > 0 {
				// An array has no position of its own: it starts where its
				// first element does.
				ev.Line, ev.Col = a[0].Line, a[0].Col
			}
			elems = append(elems, ev)
		}
		v.V = elems
	case unstable.InlineTable:
		t := newTab()
		it := n.Children()
		for it.Next() {
			if c := it.Node(); c.Kind == unstable.KeyValue {
				b.keyValue(t, path, c)
			}
		}
		v.Kind, v.V = Table, t
	}
	if v.Kind != Array && v.Kind != Table {
		v.Raw = string(b.data[n.Raw.Offset : n.Raw.Offset+n.Raw.Length])
	}
	return v
}

// scalar converts a number or a date as written, with go-toml's own
// decoder, so that every form TOML allows is read as go-toml reads it.
func scalar(raw []byte) (any, error) {
	if n, ok := plainInteger(raw); ok {
		return n, nil
	}
	doc := append([]byte("v="), raw...)
	var m struct {
		V any `toml:"v"`
	}
	if err := toml.Unmarshal(doc, &m); err != nil {
		return nil, errors.New(strings.TrimPrefix(err.Error(), "toml: "))
	}
	return m.V, nil
}

// plainInteger reads an integer written in plain decimal digits, with an
// optional sign and no leading zero or underscore, as go-toml would, but
// without a decoder per value. Every other form is left to scalar.
func plainInteger(raw []byte) (int64, bool) {
	d := raw
	if len(d) > 0 && (d[0] == '-' || d[0] == '+') {
		d = d[1:]
	}
	if len(d) == 0 || len(d) > 18 || d[0] == '0' && len(d) > 1 {
		return 0, false // longer ones may overflow: the decoder says how
	}
	for _, c := range d {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	return n, err == nil
}
