package clip

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestText(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"", 40, ""},
		{"g-2026-03-07", 40, "g-2026-03-07"},
		{strings.Repeat("a", 40), 40, strings.Repeat("a", 40)},
		{strings.Repeat("a", 41), 40, strings.Repeat("a", 40) + "..."},
		{"Müller", 2, "M..."},  // ü is two bytes: not cut in two
		{"Müller", 3, "Mü..."}, // ends after ü
		{"abc", 0, "..."},
		{"abc", -1, "..."},
	} {
		got := Text(c.s, c.n)
		if got != c.want || !utf8.ValidString(got) {
			t.Errorf("Text(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
}

func FuzzText(f *testing.F) {
	f.Add("Müller, Jürgen", 5)
	f.Fuzz(func(t *testing.T, s string, n int) {
		got := Text(s, n)
		if len(s) <= n {
			if got != s {
				t.Fatalf("Text(%q, %d) = %q: changed a short string", s, n, got)
			}
			return
		}
		body := strings.TrimSuffix(got, "...")
		if len(body) > max(n, 0) || !strings.HasPrefix(s, body) || utf8.ValidString(s) && !utf8.ValidString(body) {
			t.Fatalf("Text(%q, %d) = %q", s, n, got)
		}
	})
}
