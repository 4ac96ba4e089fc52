package profile

import (
	"fmt"

	"github.com/zeitnot/zeitnot/internal/regfile"
)

// MaxFileSize is the largest profile file Load reads; the builtins are
// about 1 KB.
const MaxFileSize = 64 << 10

// Load reads and checks the profile file at path. It reads a regular file
// of at most MaxFileSize bytes and nothing else: a FIFO, a device such as
// /dev/zero or a directory is refused at once, with an error naming path.
func Load(path string) (*Profile, error) {
	data, err := regfile.ReadFile(path, regfile.Opts{Max: MaxFileSize})
	if err != nil {
		return nil, fmt.Errorf("profile: %w", err)
	}
	return Parse(path, data)
}
