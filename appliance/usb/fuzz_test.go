package usb

import (
	"slices"
	"strings"
	"testing"
)

// FuzzParseListing: any listing, however hostile, gives plain names only,
// never a '/' or a control character, never "." or "..", and no more
// entries than lines.
func FuzzParseListing(f *testing.F) {
	f.Add("zeitnot", "::/zeitnot/board-7/\n::/zeitnot/zeitnot-ab12/\n")
	f.Add("", "::/zeitnot.toml\n::/ZEITNOT/\n::/System Volume Information/\n")
	f.Add("zeitnot/x", "::/zeitnot/x\n")
	f.Add("zeitnot/x", "::/zeitnot/x/a\x00b\n::/zeitnot/x/../\n::/zeitnot/x/\xff.txt\n::/zeitnot/x/ok.log\r\n")
	f.Add("d", "::/d/a/b\n::/d//\n::/d/\t\n")
	f.Fuzz(func(t *testing.T, dir, out string) {
		entries, odd, _ := ParseListing(dir, out)
		if len(entries)+odd > strings.Count(out, "\n")+1 {
			t.Fatalf("%d entries and %d odd from %d lines", len(entries), odd, strings.Count(out, "\n")+1)
		}
		for _, e := range entries {
			if !plainName(e.Name) || strings.ContainsAny(e.Name, "/\\\x00\n\r") {
				t.Fatalf("name %q taken", e.Name)
			}
		}
	})
}

// FuzzParseManifest: any manifest gives entries a clock could have
// written, and what Format writes is read back the same.
func FuzzParseManifest(f *testing.F) {
	f.Add([]byte("# zeitnot\nzeitnot-ab12 0123456789abcdef 0001-2026-03-14\nboard 0123456789abcdef 12\n"))
	f.Add([]byte("zeitnot-ab12 0123456789ABCDEF 0001\nx y\n\n\n zeitnot-ab12   fedcba9876543210   0002-2026-03-14-2  \r\n"))
	f.Add([]byte("-a 0123456789abcdef 1\na- 0123456789abcdef 1\na 0123456789abcdef ../../x\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, _ := ParseManifest(data)
		if len(m) > maxManifestEntries {
			t.Fatalf("%d entries", len(m))
		}
		for _, e := range m {
			if !HostName(e.Clock) || !hexHash(e.Hash) || !gameBaseOK(e.Name) || !SafeName(e.Name+".pgn"+TempSuffix) {
				t.Fatalf("entry %+v taken", e)
			}
		}
		back, bad := ParseManifest(m.Format())
		if bad != 0 || !slices.Equal(back, m) {
			t.Fatalf("read back %v (%d bad), want %v", back, bad, m)
		}
	})
}

func TestNames(t *testing.T) {
	for _, tc := range []struct {
		name string
		safe bool
	}{
		{"0001-2026-03-14.pgn", true}, {"status.txt.tmp", true}, {"zeitnot-errors.txt", true},
		{"", false}, {".hidden", false}, {"-D", false}, {"a*b", false}, {"a?b", false}, {"x[1]", false},
		{"a b", false}, {"über", false}, {"a/b", false}, {strings.Repeat("a", 65), false},
	} {
		if SafeName(tc.name) != tc.safe {
			t.Errorf("SafeName(%q) = %v", tc.name, !tc.safe)
		}
	}
	for _, tc := range []struct {
		board int
		host  string
		want  string
	}{
		{0, "zeitnot-ab12", "zeitnot-ab12"}, {7, "zeitnot-ab12", "board-7"}, {0, "", "clock"},
		{0, "Bad Host", "clock"}, {0, "../x", "clock"}, {0, "-x", "clock"},
	} {
		if got := FolderName(tc.board, tc.host); got != tc.want {
			t.Errorf("FolderName(%d, %q) = %q, want %q", tc.board, tc.host, got, tc.want)
		}
	}
	for _, b := range []string{"0001", "0001-2026-03-14", "0001-2026-03-14-2", "12-3"} {
		if !gameBaseOK(b) {
			t.Errorf("gameBaseOK(%q) = false", b)
		}
	}
	for _, b := range []string{"", "x", "0001-2026-3-14", "0001-2026-03-14-1234", "0001--2", "1234567890"} {
		if gameBaseOK(b) {
			t.Errorf("gameBaseOK(%q) = true", b)
		}
	}
}

func TestMessage(t *testing.T) {
	if got := message("12 games saved/config refused: see stick\x00\n" + strings.Repeat("x", 200)); len(got) != MaxMessage || !strings.HasPrefix(got, "12 GAMES SAVED/CONFIG REFUSED: SEE STICK  X") {
		t.Errorf("%q", got)
	}
}
