package config

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Format writes every key of s, as TOML that Parse reads back to s over
// any base.
func Format(s Settings) []byte {
	return format(s, func(field) bool { return true })
}

// FormatDiff writes only the keys whose values in s differ from base: a
// settings file that Parse reads over base back to s. A control is written
// with all its options, as a file that names a control without options
// gets the control's own. A lock on is written with its PIN's hash, so
// that a new club config cannot lift it by leaving out or changing the PIN.
func FormatDiff(base, s Settings) []byte {
	control := s.Control != base.Control
	return format(s, func(f field) bool {
		return f.get != nil && f.get(base) != f.get(s) || control && f.table == "game" || s.Locked && f.table == "lock"
	})
}

func format(s Settings, keep func(field) bool) []byte {
	var b strings.Builder
	table := ""
	for _, f := range fields {
		if f.get == nil || !keep(f) {
			continue // a key that is read, never written (pin: pin_hash is)
		}
		if !keep(f) {
			continue
		}
		if f.table != table {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			fmt.Fprintf(&b, "[%s]\n", f.table)
			table = f.table
		}
		fmt.Fprintf(&b, "%s = %s\n", f.Key, f.get(s))
	}
	return []byte(b.String())
}

// quote writes s as a TOML basic string. Bytes that are not UTF-8 are
// written as U+FFFD.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		case r == utf8.RuneError:
			b.WriteString(`\uFFFD`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
