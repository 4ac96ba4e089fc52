package usb

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Names on the stick. A clock's folder is zeitnot/NAME/ (FolderName);
// these are the names in it, and at the stick's root.
const (
	// Top is the folder of every clock's folder.
	Top = "zeitnot"
	// ConfigFile is the config to import, at the stick's root.
	ConfigFile = "zeitnot.toml"
	// ErrorsFile, at the root beside ConfigFile, says why a clock refused
	// it.
	ErrorsFile = "zeitnot-errors.txt"
	// StatusFile is the clock's version, settings and health.
	StatusFile = "status.txt"
	// ManifestFile lists the finished games the folder has from each
	// clock (see Manifest).
	ManifestFile = "exported.txt"
	// Current is the base name of the game under way (or the last one,
	// until the next starts): Current+".log" and Current+".pgn".
	Current = "current-game"
	// TempSuffix ends the name of a file being written. It gets its own
	// name once whole, so a file without the suffix is never partial.
	TempSuffix = ".tmp"
)

// ParseListing reads the bare listing of the folder dir ("" is the root)
// that "mdir -b -a ::/DIR" prints: one path a line, "::/DIR/NAME", with a
// '/' after a folder's name. Lines that do not have that form, and names
// that are not UTF-8, hold control characters or a '/', or are "." or
// "..", are left out and counted in odd: such a name may come from a
// damaged or hostile file system and is never used. isFile says that dir
// itself is a file (mdir lists a file as its own path).
//
// What is on the stick is untrusted: ParseListing accepts any input, and
// is fuzzed (FuzzParseListing).
func ParseListing(dir, out string) (entries []Entry, odd int, isFile bool) {
	self := "::/" + dir
	prefix := self + "/"
	if dir == "" {
		prefix = "::/"
	}
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimSuffix(line, "\r")
		if line == "" {
			continue
		}
		if dir != "" && strings.EqualFold(line, self) {
			isFile = true
			continue
		}
		if len(line) <= len(prefix) || !strings.EqualFold(line[:len(prefix)], prefix) {
			odd++
			continue
		}
		name := line[len(prefix):]
		e := Entry{}
		if n, ok := strings.CutSuffix(name, "/"); ok {
			name, e.Dir = n, true
		}
		if !plainName(name) {
			odd++
			continue
		}
		e.Name = name
		entries = append(entries, e)
	}
	return entries, odd, isFile
}

// plainName reports whether name can be a name in a FAT folder as a
// person wrote it: UTF-8, at most 255 bytes, no control character, no
// '/' or '\', not "." or "..".
func plainName(name string) bool {
	if name == "" || name == "." || name == ".." || len(name) > 255 || !utf8.ValidString(name) {
		return false
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f || r == '/' || r == '\\' || unicode.IsControl(r) || r == utf8.RuneError {
			return false
		}
	}
	return true
}

// SafeName reports whether name is one the exporter reads or writes: 1 to
// 64 ASCII letters, digits, '.', '-' and '_', not starting with '.' or
// '-'. mtools takes '*', '?' and '[' as wildcards and a leading '-' as an
// option; none can be in such a name.
func SafeName(name string) bool {
	if name == "" || len(name) > 64 || name[0] == '.' || name[0] == '-' {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// find returns the entry named name, compared as FAT does (without
// regard to case), and how many entries have that name: more than one is
// a damaged file system.
func find(entries []Entry, name string) (Entry, int) {
	var e Entry
	n := 0
	for _, x := range entries {
		if strings.EqualFold(x.Name, name) {
			if n == 0 {
				e = x
			}
			n++
		}
	}
	return e, n
}

// FolderName is the name of a clock's folder under zeitnot/: "board-N"
// when the club config gives the clock a board number ([hall] board),
// else the host name, or "clock" when the host name is not a plain one.
func FolderName(board int, hostname string) string {
	if board > 0 {
		return "board-" + strconv.Itoa(board)
	}
	if HostName(hostname) {
		return hostname
	}
	return "clock"
}

// HostName reports whether s is a plain host name: 1 to 63 lower-case
// letters, digits and '-', not starting or ending with '-'.
func HostName(s string) bool {
	if s == "" || len(s) > 63 || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// gameBase is the base name of a finished game's files on the stick:
// its number on the clock, the date, and "-K" when the plain name is
// taken: "0012-2026-03-14", "0012-2026-03-14-2".
func gameBase(num, date string, k int) string {
	b := num
	if date != "" {
		b += "-" + date
	}
	if k > 1 {
		b += "-" + strconv.Itoa(k)
	}
	return b
}

// gameBaseOK reports whether b is a base name gameBase makes.
func gameBaseOK(b string) bool {
	parts := strings.Split(b, "-")
	if len(parts) < 1 || len(parts) > 5 || !digits(parts[0], 1, 9) {
		return false
	}
	rest := parts[1:]
	if len(rest) >= 3 && digits(rest[0], 4, 4) && digits(rest[1], 2, 2) && digits(rest[2], 2, 2) {
		rest = rest[3:]
	}
	switch len(rest) {
	case 0:
		return true
	case 1:
		return digits(rest[0], 1, 3)
	}
	return false
}

func digits(s string, lo, hi int) bool {
	if len(s) < lo || len(s) > hi {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
