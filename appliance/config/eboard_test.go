package config

import (
	"path/filepath"
	"strings"
	"testing"
)

// The [eboard] table is zeitnot eboard's: the daemon's parser leaves it
// alone, and check and import refuse what zeitnot eboard would refuse,
// with its line.
func TestEBoardTable(t *testing.T) {
	good := "profile = \"sim\"\n[eboard]\nport = \"/dev/serial/by-id/usb-Digital_Game_Technology_DGT_Board-if00\"\n"
	if _, errs := Parse("zeitnot.toml", []byte(good), Defaults(SimProfile), nil); len(errs) != 0 {
		t.Errorf("a good [eboard]: %v", errs)
	}
	dir, state := t.TempDir(), t.TempDir()
	path := filepath.Join(dir, "zeitnot.toml")
	write(t, path, good)
	if errs := Check(path); len(errs) != 0 {
		t.Errorf("check of a good [eboard]: %v", errs)
	}
	if problems, changed, err := Import(path, state); len(problems) > 0 || !changed || err != nil {
		t.Fatalf("import of a good [eboard]: %q changed=%v err=%v", errStrings(problems), changed, err)
	}
	for _, c := range []struct{ table, want string }{
		{"[eboard]\nport = \"/etc/passwd/../shadow\"\n", ":3: eboard.port: "},
		{"[eboard]\nport = \"/dev/ptmx\"\n", ":3: eboard.port: \"/dev/ptmx\" is not a serial port"},
		{"[eboard]\nport = \"/dev/null\"\n", ":3: eboard.port: \"/dev/null\" is not a serial port"},
		{"[eboard]\nport = \"/dev/shm/fifo\"\n", ":3: eboard.port: \"/dev/shm/fifo\" is not a serial port"},
		{"[eboard]\nport = 7\n", ":3: eboard.port: want a string, got 7"},
		{"[eboard]\nbaud = 9600\nport = \"auto\"\n", ":3: eboard.baud: unknown key; [eboard] has port"},
		{"[eboard]\n", ":2: eboard.port: missing: the board's serial port"},
	} {
		write(t, path, "profile = \"sim\"\n"+c.table)
		errs := Check(path)
		if len(errs) != 1 || !strings.Contains(errs[0].Error(), path+c.want) {
			t.Errorf("check of %q: %v, want one problem with %q", c.table, errs, c.want)
		}
		problems, changed, _ := Import(path, state)
		if changed || len(problems) != 1 || !strings.Contains(problems[0].Error(), c.want) {
			t.Errorf("import of %q: %v changed=%v", c.table, errStrings(problems), changed)
		}
	}
}
