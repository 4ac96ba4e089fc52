package session

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/engine/clocklog"
)

// FuzzLineIndex: whatever a journal file holds, the line index serves its
// numbered lines as the protocol counts them (complete lines, not
// comments or blank, up to the first NUL byte), in any answer sizes, and
// never panics; its id and overstep notes are read without panicking.
func FuzzLineIndex(f *testing.F) {
	f.Add([]byte("format 2 *5a1bec3d\ncontrol 300+2 *6c2bd659\n# game 0001-abcdef *00000000\n0 start *37990e4f\n\x00\x00"), 2)
	f.Add([]byte("a\n\n#c\nb\r\nc"), 1)
	f.Add([]byte("x\x00y\nz\n"), 3)
	f.Add([]byte("a\n"+strings.Repeat("b", 5000)+"\nc\n"+strings.Repeat("d", 40000)+"\ne\n"), 1)
	f.Fuzz(func(t *testing.T, data []byte, step int) {
		step = max(1, min(step, 300))
		path := filepath.Join(t.TempDir(), "game.log")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		var want []string
		rest := data
		for {
			i := bytes.IndexByte(rest, '\n')
			if i < 0 {
				break
			}
			line := rest[:i+1]
			if bytes.IndexByte(line, 0) >= 0 || len(line) > 32<<10 {
				break
			}
			rest = rest[i+1:]
			text := bytes.TrimRight(line, "\r\n")
			if t := bytes.TrimSpace(text); len(t) > 0 && t[0] != '#' {
				want = append(want, string(text))
			}
		}
		x := &lineIndex{path: path}
		if err := x.update(); err != nil {
			t.Fatal(err)
		}
		if x.count != int64(len(want)) {
			t.Fatalf("%d lines indexed, want %d", x.count, len(want))
		}
		var got []string
		for from := int64(1); ; {
			lines, more, err := x.lines(from, step, clocklog.MaxLine+1)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, lines...)
			from += int64(len(lines))
			if !more {
				break
			}
			if len(lines) == 0 {
				t.Fatal("more, and no lines")
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("served %q, want %q", got, want)
		}
		readNotes(path, false)
		if id := readGameID(path); id != "" && (!validID(id) || !strings.Contains(string(data), "game "+id)) {
			t.Fatalf("id %q", id)
		}
	})
}
