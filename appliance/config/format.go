package config

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Format writes every key of c that is set, as TOML that Parse reads back
// to c over any base whose unset game options are unset too.
func Format(c Config) []byte {
	return format(c, func(field) bool { return true })
}

// FormatDiff writes only the keys whose values in c differ from base: a
// settings file that Parse reads over base back to c (except for game
// options that base sets and c does not, which cannot be written).
func FormatDiff(base, c Config) []byte {
	return format(c, func(f field) bool {
		bv, bset := f.get(base)
		cv, cset := f.get(c)
		return cset && (!bset || bv != cv)
	})
}

func format(c Config, keep func(field) bool) []byte {
	var b strings.Builder
	table := ""
	for _, f := range fields {
		v, set := f.get(c)
		if !set || !keep(f) {
			continue
		}
		if f.table != table {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			fmt.Fprintf(&b, "[%s]\n", f.table)
			table = f.table
		}
		fmt.Fprintf(&b, "%s = %s\n", f.name, v)
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
