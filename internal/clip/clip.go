// Package clip shortens text that came from outside before an error message
// quotes it: a message names what was wrong without repeating a megabyte of
// it, and never cuts a UTF-8 character in two.
package clip

import "unicode/utf8"

// Text returns s if it has at most n bytes; otherwise its first n bytes or
// fewer, ending at a character's boundary, and "...".
func Text(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return Bytes(s, n) + "..."
}

// Bytes returns s cut to at most n bytes, at a character's boundary: for a
// value kept, not quoted (a player's name the hall stores).
func Bytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	n = max(n, 0)
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
