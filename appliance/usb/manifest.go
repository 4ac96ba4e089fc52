package usb

import (
	"strings"
)

// Manifest is the list of finished games a clock folder on a stick holds,
// exported.txt: one line per game, "CLOCK HASH NAME", CLOCK being the host
// name of the clock that exported it, HASH the first 16 hex digits of the
// SHA-256 of the game's clock log, NAME the base name of its files. A
// clock does not export a game again whose hash it finds under its own
// name, even when its files were moved off the stick; deleting the file
// exports every game again. Lines of other clocks (a board's folder
// shared by clocks that stood on that board in turn) are kept as they are.
type Manifest []ManifestEntry

// ManifestEntry is one game of a Manifest.
type ManifestEntry struct {
	Clock, Hash, Name string
}

// Bounds of a manifest read from a stick.
const (
	// MaxManifest is the largest manifest read, in bytes.
	MaxManifest = 512 << 10
	// maxManifestEntries is how many lines are kept: the newest.
	maxManifestEntries = 4096
)

const manifestHeader = "# zeitnot: the finished games in this folder, one a line: the clock that\n" +
	"# saved it, the game's fingerprint, its file name. A clock does not save a\n" +
	"# game listed here again; delete this file to save every game again.\n"

// ParseManifest reads a manifest. Lines that are not "CLOCK HASH NAME"
// with a plain host name, 16 lower-case hex digits and a name the
// exporter makes are left out and counted in bad; comments and blank
// lines are not counted. At most the last 4096 entries are kept.
//
// The manifest comes from the stick and is untrusted: ParseManifest
// accepts any input, and is fuzzed (FuzzParseManifest).
func ParseManifest(data []byte) (m Manifest, bad int) {
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 3 || !HostName(f[0]) || !hexHash(f[1]) || !gameBaseOK(f[2]) {
			bad++
			continue
		}
		m = append(m, ManifestEntry{Clock: f[0], Hash: f[1], Name: f[2]})
	}
	if len(m) > maxManifestEntries {
		m = m[len(m)-maxManifestEntries:]
	}
	return m, bad
}

// Format writes the manifest as ParseManifest reads it.
func (m Manifest) Format() []byte {
	var b strings.Builder
	b.WriteString(manifestHeader)
	for _, e := range m {
		b.WriteString(e.Clock + " " + e.Hash + " " + e.Name + "\n")
	}
	return []byte(b.String())
}

// Has returns the name under which clock exported the game of hash.
func (m Manifest) Has(clock, hash string) (string, bool) {
	for _, e := range m {
		if e.Clock == clock && e.Hash == hash {
			return e.Name, true
		}
	}
	return "", false
}

func hexHash(s string) bool {
	if len(s) != 16 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
