package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/zeitnot/zeitnot/appliance/config/halltable"
	"github.com/zeitnot/zeitnot/appliance/network"
	"github.com/zeitnot/zeitnot/internal/atomicfile"
)

// Import checks the club config file src and, if it has no problem, writes
// it to stateDir/zeitnot.toml (which then replaces the club config in
// /etc/zeitnot) and removes stateDir/import-errors.txt. If it has problems,
// they are returned and written to stateDir/import-errors.txt, one a line,
// and the imported config stays as it was. The file is read once, so what
// is written is what was checked; it is not rewritten when unchanged, to
// spare the SD card. err is a failure to write the state directory.
//
// src is read as any config file (regfile: a regular file only, bounded,
// never blocking); a profile path in it that names a named pipe or a device
// is a problem, so the daemon never reads one.
func Import(src, stateDir string) (problems []error, changed bool, err error) {
	dst := filepath.Join(stateDir, ImportedFile)
	errFile := filepath.Join(stateDir, ImportErrorsFile)
	data, rerr := readFile(src, false)
	if rerr != nil {
		problems = []error{readError(src, rerr)}
	} else {
		var next Settings
		next, problems = parse(src, data, Defaults(SimProfile), nil, true)
		problems = append(problems, lockedAgainst(src, next, stateDir)...)
		// The [network] table is zeitnot-network.service's; a file whose
		// table it would refuse is refused here, where the display shows why.
		problems = append(problems, network.CheckData(src, data)...)
		// And an [eboard] table zeitnot eboard would refuse.
		if !notTOML(problems) {
			problems = append(problems, eboardProblems(src, data)...)
		}
		// So is a [hall] table zeitnot link would refuse (it would exit
		// and the clock leave the hall without a word), with relative file
		// names taken from where the link reads the file: stateDir.
		if !notTOML(problems) {
			problems = append(problems, halltable.Check(src, data, halltable.CheckOpts{Dir: stateDir})...)
		}
	}
	if len(problems) > 0 {
		var b strings.Builder
		for _, p := range problems {
			b.WriteString(p.Error() + "\n")
		}
		return problems, false, atomicfile.WriteFile(errFile, []byte(b.String()), 0o644)
	}
	if old, rerr := readFile(dst, true); rerr != nil || !bytes.Equal(old, data) {
		if err := atomicfile.WriteFile(dst, data, 0o644); err != nil {
			return nil, false, err
		}
		changed = true
	}
	return nil, changed, atomicfile.Remove(errFile)
}

// lockedAgainst is the problem of a config file imported on a locked clock
// without the arbiter's PIN: the boot partition's zeitnot.toml, as a
// stick's, must not lift the lock or change a locked clock unless it
// carries the PIN the clock is locked with ([lock] pin or pin_hash). The
// clock's lock is the one its state directory holds: the imported club
// config and the device's settings over it.
func lockedAgainst(src string, next Settings, stateDir string) []error {
	cur, _ := LoadLayers("", stateDir, Defaults(SimProfile))
	if !cur.Effective.Locked || cur.Effective.PINHash == "" || next.PINHash == cur.Effective.PINHash {
		return nil
	}
	return []error{fmt.Errorf("%s: the clock is locked: a config imported on it must carry the arbiter's PIN (pin or pin_hash in [lock]); this one does not, and is not imported", src)}
}

// ImportErrors returns the problems of the last refused import, one a line,
// or nothing when the last import succeeded or there was none.
func ImportErrors(stateDir string) ([]string, error) {
	data, err := readFile(filepath.Join(stateDir, ImportErrorsFile), true)
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
