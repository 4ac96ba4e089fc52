// Package repocheck holds the repository to what it may track: sources and
// documents, no build output (executables, object files, archives, test
// binaries, profiles) and no file over MaxSize, the pictures in docs/
// aside. Its test runs `git ls-files` and fails on any other; `make test`
// runs it.
package repocheck

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"path"
	"strings"
)

// MaxSize is the largest file the repository may track, pictures in docs/
// aside.
const MaxSize = 1 << 20

// outputExts are the names of build outputs, whatever their content.
var outputExts = []string{".test", ".o", ".a", ".so", ".exe", ".dll", ".dylib", ".prof", ".pprof", ".syso", ".img", ".img.xz", ".stl"}

// pictureExts are the pictures docs/ may hold at any size.
var pictureExts = []string{".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".pdf"}

// HeadSize is how much of a file's start Problem looks at.
const HeadSize = 64

// Problem says why the tracked file name, of size bytes and starting with
// head (its first HeadSize bytes, or all of a shorter file), does not
// belong in the repository, or returns "" if it does.
func Problem(name string, size int64, head []byte) string {
	base := path.Base(name)
	for _, e := range outputExts {
		if strings.HasSuffix(base, e) {
			return fmt.Sprintf("%s: a build output (%s)", name, e)
		}
	}
	if kind := executable(head); kind != "" {
		return fmt.Sprintf("%s: a build output (%s)", name, kind)
	}
	if size > MaxSize && !picture(name) {
		return fmt.Sprintf("%s: %d bytes, over the %d a tracked file may have (pictures in docs/ aside)", name, size, MaxSize)
	}
	return ""
}

func picture(name string) bool {
	if !strings.HasPrefix(name, "docs/") {
		return false
	}
	ext := strings.ToLower(path.Ext(name))
	for _, e := range pictureExts {
		if ext == e {
			return true
		}
	}
	return false
}

// executable names the kind of compiled program or object head starts, or
// returns "".
func executable(head []byte) string {
	switch {
	case bytes.HasPrefix(head, []byte("\x7fELF")):
		return "ELF"
	case bytes.HasPrefix(head, []byte("!<arch>\n")):
		return "ar archive"
	case len(head) >= 4:
		switch binary.BigEndian.Uint32(head) {
		case 0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe:
			return "Mach-O"
		case 0xcafebabe:
			// Mach-O universal binaries share their magic with Java
			// classes: both are build outputs.
			return "Mach-O universal or Java class"
		}
	}
	// PE: "MZ", and at the offset in 0x3c the "PE\0\0" signature (a text
	// file may start with MZ; it has no such header).
	if len(head) >= 0x40 && bytes.HasPrefix(head, []byte("MZ")) {
		off := int(binary.LittleEndian.Uint32(head[0x3c:]))
		if off+4 <= len(head) && bytes.Equal(head[off:off+4], []byte("PE\x00\x00")) {
			return "PE"
		}
		if off >= len(head) && off < 1<<16 {
			return "PE (DOS header)"
		}
	}
	return ""
}
