package profile

import "strings"

// keyLines returns the line (from 1) where each key and table of a TOML
// document is defined, by path with segments joined by "\x00". It exists
// because the toml package reports lines for syntax errors but not for keys
// found unknown or invalid after decoding. It follows the parts of TOML that
// define keys (table headers, dotted and quoted keys, inline tables) and
// skips values (strings of all four kinds, arrays, comments). On input that
// is not TOML it returns what it found so far; it never loops or panics.
// For arrays of tables, the first definition wins.
func keyLines(src string) map[string]int {
	s := &scanner{src: src, line: 1, out: map[string]int{}}
	s.document()
	return s.out
}

type scanner struct {
	src  string
	i    int
	line int
	out  map[string]int
}

func (s *scanner) peek() byte {
	if s.i < len(s.src) {
		return s.src[s.i]
	}
	return 0
}

func (s *scanner) next() {
	if s.i < len(s.src) {
		if s.src[s.i] == '\n' {
			s.line++
		}
		s.i++
	}
}

func (s *scanner) record(path []string, line int) {
	k := strings.Join(path, "\x00")
	if _, ok := s.out[k]; !ok {
		s.out[k] = line
	}
}

// blank skips spaces and tabs, and with newlines also newlines and comments.
func (s *scanner) blank(newlines bool) {
	for s.i < len(s.src) {
		switch c := s.peek(); {
		case c == ' ' || c == '\t' || c == '\r':
			s.next()
		case c == '#':
			for s.i < len(s.src) && s.peek() != '\n' {
				s.next()
			}
		case c == '\n' && newlines:
			s.next()
		default:
			return
		}
	}
}

// skipLine moves past the end of the current line.
func (s *scanner) skipLine() {
	for s.i < len(s.src) && s.peek() != '\n' {
		s.next()
	}
	s.next()
}

func (s *scanner) document() {
	var table []string
	for {
		s.blank(true)
		if s.i >= len(s.src) {
			return
		}
		start := s.i
		line := s.line
		if s.peek() == '[' {
			s.next()
			array := s.peek() == '['
			if array {
				s.next()
			}
			key, ok := s.key()
			if ok && s.peek() == ']' {
				table = key
				s.record(table, line)
			}
			s.skipLine()
			continue
		}
		key, ok := s.key()
		if ok && s.peek() == '=' {
			s.next()
			path := append(append([]string(nil), table...), key...)
			s.record(path, line)
			s.blank(false)
			s.value(path)
		}
		if s.i == start {
			s.skipLine()
		}
	}
}

// key reads a possibly dotted, possibly quoted key and the blanks after it.
func (s *scanner) key() ([]string, bool) {
	var parts []string
	for {
		s.blank(false)
		part, ok := s.keyPart()
		if !ok {
			return parts, false
		}
		parts = append(parts, part)
		s.blank(false)
		if s.peek() != '.' {
			return parts, true
		}
		s.next()
	}
}

func (s *scanner) keyPart() (string, bool) {
	switch c := s.peek(); {
	case c == '"' || c == '\'':
		v, ok := s.str(c)
		return v, ok
	case isBare(c):
		start := s.i
		for s.i < len(s.src) && isBare(s.peek()) {
			s.next()
		}
		return s.src[start:s.i], true
	}
	return "", false
}

func isBare(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// str reads a one-line string opened by quote and returns its content,
// with the common escapes of basic strings decoded.
func (s *scanner) str(quote byte) (string, bool) {
	s.next()
	var b strings.Builder
	for s.i < len(s.src) {
		c := s.peek()
		switch {
		case c == '\n':
			return b.String(), false
		case c == quote:
			s.next()
			return b.String(), true
		case c == '\\' && quote == '"':
			s.next()
			e := s.peek()
			s.next()
			switch e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(e)
			}
		default:
			b.WriteByte(c)
			s.next()
		}
	}
	return b.String(), false
}

// value skips a value; the keys of inline tables are recorded under path.
func (s *scanner) value(path []string) {
	switch c := s.peek(); c {
	case '"', '\'':
		if strings.HasPrefix(s.src[s.i:], strings.Repeat(string(c), 3)) {
			s.multiline(c)
			return
		}
		s.str(c)
	case '[':
		s.next()
		for s.i < len(s.src) {
			s.blank(true)
			switch s.peek() {
			case ']':
				s.next()
				return
			case ',':
				s.next()
				continue
			case 0:
				return
			}
			before := s.i
			s.value(path)
			if s.i == before {
				s.next()
			}
		}
	case '{':
		s.next()
		for s.i < len(s.src) {
			s.blank(false)
			switch s.peek() {
			case '}':
				s.next()
				return
			case ',':
				s.next()
				continue
			case '\n', 0:
				return
			}
			line := s.line
			key, ok := s.key()
			if !ok || s.peek() != '=' {
				return
			}
			s.next()
			sub := append(append([]string(nil), path...), key...)
			s.record(sub, line)
			s.blank(false)
			s.value(sub)
		}
	default:
		for s.i < len(s.src) {
			switch s.peek() {
			case ' ', '\t', '\r', '\n', ',', ']', '}', '#':
				return
			}
			s.next()
		}
	}
}

// multiline skips a multi-line string, basic or literal.
func (s *scanner) multiline(q byte) {
	end := strings.Repeat(string(q), 3)
	s.i += 3
	for s.i < len(s.src) {
		if q == '"' && s.peek() == '\\' {
			s.next()
			s.next()
			continue
		}
		if strings.HasPrefix(s.src[s.i:], end) {
			s.i += 3
			// Up to two more quotes belong to the string.
			for k := 0; k < 2 && s.peek() == q; k++ {
				s.i++
			}
			return
		}
		s.next()
	}
}
