// Package tomlkeys finds the line of every key and table in a TOML
// document.
//
// The toml package reports the line of a syntax error but not the line of a
// key it decoded, so a value found wrong after decoding needs its line looked
// up here. [Lines] follows the parts of TOML that define keys and skips
// values. It is meant for documents the toml package accepted, but it never
// loops or panics on any input: on text that is not TOML it returns what it
// found so far.
//
// # What is recorded
//
// Lines maps a key path, made with [Key], to the line (from 1) of its first
// definition; a path defined again later keeps its first line.
//
//   - A table header [a.b] records a.b and its parent a, at the header's
//     line. The keys that follow are under a.b.
//   - An array-of-tables header [[a.b]] records a, a.b and a.b.Index(n) for
//     the n-th table (from 0) of that array, all at the header's line, so a.b
//     keeps the line of the first header. The keys that follow are under
//     a.b.Index(n). A later header that goes through an array of tables, as
//     [a.b.c], goes into the array's last table: a.b.Index(n).c.
//   - A key line k1.k2 = v records k1 and k1.k2 under the current table, at
//     the line of the key.
//   - An inline table records its keys, dotted ones with their parents, under
//     the path of the key it is the value of, at the line of each key. It is
//     followed to the end of the line it opens on, no further: the keys on
//     the later lines of a multi-line inline table (TOML 1.1) are taken for
//     keys of the current table.
//   - An array value records its n-th element as the array's path followed by
//     Index(n), at the line where the element starts; an inline table in an
//     element records its keys under that path.
//   - A value written over several lines (a multi-line string, an array) is
//     recorded at the line of its key; nothing inside a string or a comment
//     is ever taken for a key.
//
// A quoted key is one segment ("a.b" is the segment a.b), with the escapes
// of TOML 1.0 basic strings and \e decoded ("\u0041" is A; \x is not
// decoded). A value nested more than 100 deep ends the scan of its line.
package tomlkeys

import (
	"strconv"
	"strings"
)

// sep joins the segments of a key path; it cannot appear in a bare key and
// is unlikely in a quoted one.
const sep = "\x00"

// indexMark starts a segment made by Index; it cannot appear in a bare key
// and is unlikely in a quoted one.
const indexMark = "\x01"

// Key returns the map key of a path in the map Lines returns.
func Key(path ...string) string { return strings.Join(path, sep) }

// Index returns the path segment of the i-th table (from 0) of an array of
// tables, or of the i-th element of an array value.
func Index(i int) string { return indexMark + strconv.Itoa(i) }

// Lines returns the line (from 1) of the first definition of each key and
// table path in src, as described in the package comment.
func Lines(src string) map[string]int {
	s := &scanner{src: src, line: 1, out: map[string]int{}, arrays: map[string]int{}}
	s.document()
	return s.out
}

// Unindexed returns lines with the Index segments left out of every path,
// for looking up paths that do not count tables and elements, such as the
// keys of the toml package. Where paths then coincide the first line is
// kept: a key of an array of tables gets the line where the first table of
// the array defines it.
func Unindexed(lines map[string]int) map[string]int {
	out := make(map[string]int, len(lines))
	for k, line := range lines {
		if strings.Contains(k, indexMark) {
			segs := strings.Split(k, sep)
			kept := segs[:0]
			for _, s := range segs {
				if !strings.HasPrefix(s, indexMark) {
					kept = append(kept, s)
				}
			}
			k = Key(kept...)
		}
		if l, ok := out[k]; !ok || line < l {
			out[k] = line
		}
	}
	return out
}

// scanner reads src once, from the start; every step either consumes a
// byte or returns.
type scanner struct {
	src    string
	i      int
	line   int
	out    map[string]int
	arrays map[string]int // tables so far of each array of tables
	depth  int
}

func (s *scanner) peek() byte {
	if s.i < len(s.src) {
		return s.src[s.i]
	}
	return 0
}

func (s *scanner) eof() bool { return s.i >= len(s.src) }

func (s *scanner) next() {
	if s.i < len(s.src) {
		if s.src[s.i] == '\n' {
			s.line++
		}
		s.i++
	}
}

func (s *scanner) record(path []string, line int) {
	k := Key(path...)
	if _, ok := s.out[k]; !ok {
		s.out[k] = line
	}
}

// blank skips spaces, tabs and comments; with newlines, newlines too.
func (s *scanner) blank(newlines bool) {
	for !s.eof() {
		switch c := s.peek(); {
		case c == ' ' || c == '\t' || c == '\r':
			s.next()
		case c == '#':
			for !s.eof() && s.peek() != '\n' {
				s.next()
			}
		case c == '\n' && newlines:
			s.next()
		default:
			return
		}
	}
}

func (s *scanner) skipLine() {
	for !s.eof() && s.peek() != '\n' {
		s.next()
	}
}

func (s *scanner) document() {
	var table []string
	for {
		s.blank(true)
		if s.eof() {
			return
		}
		line := s.line
		if s.peek() == '[' {
			s.next()
			array := s.peek() == '['
			if array {
				s.next()
			}
			s.blank(false)
			key, ok := s.key()
			if !ok {
				s.skipLine()
				continue
			}
			table = s.resolve(key, array)
			for n := 1; n <= len(table); n++ {
				s.record(table[:n], line)
			}
			s.skipLine()
			continue
		}
		key, ok := s.key()
		if !ok || s.peek() != '=' {
			s.skipLine()
			continue
		}
		s.next()
		path := append(append([]string{}, table...), key...)
		for n := len(table) + 1; n <= len(path); n++ {
			s.record(path[:n], line)
		}
		s.blank(false)
		s.value(path)
		s.skipLine()
	}
}

// resolve turns the key of a table header into a path, putting in the index
// of the current table of every array of tables on the way; for an array
// header it starts the array's next table.
func (s *scanner) resolve(key []string, array bool) []string {
	var path []string
	for i, seg := range key {
		path = append(path, seg)
		k := Key(path...)
		last := i == len(key)-1
		if last && array {
			n := s.arrays[k]
			s.arrays[k] = n + 1
			path = append(path, Index(n))
			continue
		}
		if n, ok := s.arrays[k]; ok && n > 0 {
			path = append(path, Index(n-1))
		}
	}
	return path
}

// key reads a dotted key and the blanks after it.
func (s *scanner) key() ([]string, bool) {
	var parts []string
	for {
		part, ok := s.keyPart()
		if !ok {
			return nil, false
		}
		parts = append(parts, part)
		s.blank(false)
		if s.peek() != '.' {
			return parts, true
		}
		s.next()
		s.blank(false)
	}
}

func (s *scanner) keyPart() (string, bool) {
	switch c := s.peek(); {
	case c == '"' || c == '\'':
		s.next()
		return s.str(c)
	case isBare(c):
		start := s.i
		for isBare(s.peek()) {
			s.next()
		}
		return s.src[start:s.i], true
	}
	return "", false
}

func isBare(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// str reads the rest of a one-line string after its opening quote. A basic
// string's escapes are decoded well enough to name a key; a string broken by
// a newline or the end of input is not a key.
func (s *scanner) str(quote byte) (string, bool) {
	var b strings.Builder
	for !s.eof() {
		c := s.peek()
		switch {
		case c == quote:
			s.next()
			return b.String(), true
		case c == '\n':
			return "", false
		case c == '\\' && quote == '"':
			s.next()
			e := s.peek()
			s.next()
			switch e {
			case 'u', 'U':
				n := 4
				if e == 'U' {
					n = 8
				}
				if s.i+n <= len(s.src) {
					if r, err := strconv.ParseUint(s.src[s.i:s.i+n], 16, 32); err == nil {
						b.WriteRune(rune(r))
						s.i += n
						continue
					}
				}
				b.WriteByte(e)
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'e':
				b.WriteByte(0x1b)
			default:
				b.WriteByte(e)
			}
		default:
			b.WriteByte(c)
			s.next()
		}
	}
	return "", false
}

// value skips one value, recording the keys of inline tables and the
// elements of arrays under path.
func (s *scanner) value(path []string) {
	if s.depth > 100 {
		s.skipLine()
		return
	}
	s.depth++
	defer func() { s.depth-- }()
	switch c := s.peek(); c {
	case '"', '\'':
		if strings.HasPrefix(s.src[s.i:], strings.Repeat(string(c), 3)) {
			s.multiline(c)
			return
		}
		s.next()
		s.str(c)
	case '[':
		s.next()
		for n := 0; ; n++ {
			s.blank(true)
			if s.eof() {
				return
			}
			if s.peek() == ']' {
				s.next()
				return
			}
			start := s.i
			elem := append(append([]string{}, path...), Index(n))
			s.record(elem, s.line)
			s.value(elem)
			s.blank(true)
			switch s.peek() {
			case ',':
				s.next()
			case ']':
			default:
				if s.i == start {
					s.next() // not a value: step over it
				}
			}
		}
	case '{':
		s.next()
		for {
			s.blank(false)
			if s.eof() || s.peek() == '\n' {
				return
			}
			if s.peek() == '}' {
				s.next()
				return
			}
			line := s.line
			key, ok := s.key()
			if !ok || s.peek() != '=' {
				s.skipLine()
				return
			}
			s.next()
			sub := append(append([]string{}, path...), key...)
			for n := len(path) + 1; n <= len(sub); n++ {
				s.record(sub[:n], line)
			}
			s.blank(false)
			s.value(sub)
			s.blank(false)
			if s.peek() == ',' {
				s.next()
			}
		}
	default:
		// A number, boolean or date: up to the next delimiter.
		for !s.eof() {
			switch s.peek() {
			case ',', ']', '}', '\n', '#':
				return
			}
			s.next()
		}
	}
}

// multiline skips a multi-line string from its opening quotes to its
// closing ones (which may be followed by up to two more quotes).
func (s *scanner) multiline(q byte) {
	s.i += 3
	for !s.eof() {
		c := s.peek()
		if c == '\\' && q == '"' {
			s.next()
			s.next()
			continue
		}
		if c == q && strings.HasPrefix(s.src[s.i:], strings.Repeat(string(q), 3)) {
			s.i += 3
			for k := 0; k < 2 && s.peek() == q; k++ {
				s.next()
			}
			return
		}
		s.next()
	}
}
