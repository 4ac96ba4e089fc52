package config

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Import checks the club config file src and, if it has no problem, writes
// it to stateDir/zeitnot.toml (which then replaces the club config in
// /etc/zeitnot) and removes stateDir/import-errors.txt. If it has problems,
// they are returned and written to stateDir/import-errors.txt, one a line,
// and the imported config stays as it was. The file is read once, so what
// is written is what was checked; it is not rewritten when unchanged, to
// spare the SD card. err is a failure to write the state directory.
func Import(src, stateDir string) (problems []error, changed bool, err error) {
	dst := filepath.Join(stateDir, ImportedFile)
	errFile := filepath.Join(stateDir, ImportErrorsFile)
	data, rerr := readFile(src)
	if rerr != nil {
		problems = []error{readError(src, rerr)}
	} else {
		_, problems = Parse(src, data, Defaults(SimProfile))
	}
	if len(problems) > 0 {
		var b strings.Builder
		for _, p := range problems {
			b.WriteString(p.Error() + "\n")
		}
		return problems, false, WriteFileAtomic(errFile, []byte(b.String()), 0o644)
	}
	if old, rerr := os.ReadFile(dst); rerr != nil || !bytes.Equal(old, data) {
		if err := WriteFileAtomic(dst, data, 0o644); err != nil {
			return nil, false, err
		}
		changed = true
	}
	return nil, changed, RemoveDurably(errFile)
}

// ImportErrors returns the problems of the last refused import, one a line,
// or nothing when the last import succeeded or there was none.
func ImportErrors(stateDir string) ([]string, error) {
	data, err := readFile(filepath.Join(stateDir, ImportErrorsFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, readError(filepath.Join(stateDir, ImportErrorsFile), err)
	}
	var lines []string
	for _, l := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	return lines, nil
}
