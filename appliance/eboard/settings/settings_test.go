package settings

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/internal/tomldoc"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		want      EBoard
		err       string // a part of the error, "" for none
	}{
		{"no table: no board", "[clock]\nx = 1\n", EBoard{}, ""},
		{"empty file", "", EBoard{}, ""},
		{"ttyACM0", "[eboard]\nport = \"/dev/ttyACM0\"\n", EBoard{true, "/dev/ttyACM0"}, ""},
		{"by-id", "[eboard]\nport = \"/dev/serial/by-id/usb-DGT_DGT_Board_P0001-if00\"\n", EBoard{true, "/dev/serial/by-id/usb-DGT_DGT_Board_P0001-if00"}, ""},
		{"auto", "[eboard]\nport = \"auto\"\n", EBoard{true, "auto"}, ""},
		{"rfcomm", "[eboard]\nport = '/dev/rfcomm0'\n", EBoard{true, "/dev/rfcomm0"}, ""},
		{"no port", "\n[eboard]\n", EBoard{}, "z.toml:2: eboard.port: missing: the board's serial port"},
		{"a number", "[eboard]\nport = 3\n", EBoard{}, "z.toml:2: eboard.port: want a string, got 3"},
		{"not under /dev", "[eboard]\nport = \"/etc/shadow\"\n", EBoard{}, "z.toml:2: eboard.port: \"/etc/shadow\" is not a device"},
		{"relative", "[eboard]\nport = \"ttyACM0\"\n", EBoard{}, "not a device"},
		{"dot-dot", "[eboard]\nport = \"/dev/../etc/passwd\"\n", EBoard{}, "not a clean path"},
		{"empty", "[eboard]\nport = \"\"\n", EBoard{}, "empty"},
		{"unknown key", "[eboard]\nport = \"auto\"\nbaud = 9600\n", EBoard{}, "z.toml:3: eboard.baud: unknown key; [eboard] has port"},
		{"not a table", "eboard = \"auto\"\n", EBoard{}, "z.toml:1: eboard: want a table [eboard], got \"auto\""},
		{"control character", "[eboard]\nport = \"/dev/tty\\n\"\n", EBoard{}, "z.toml:2: eboard.port: control characters"},
		{"an array of tables", "[[eboard]]\nport = \"auto\"\n", EBoard{}, "z.toml:1: eboard: want a table [eboard], got an array"},
		{"not TOML", "[eboard\n", EBoard{}, "z.toml:1:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse([]byte(tc.doc), "z.toml")
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want one with %q", err, tc.err)
				}
				if fe := (*tomldoc.FileError)(nil); !errors.As(err, &fe) || fe.Line == 0 {
					t.Fatalf("err %T %v is not a *tomldoc.FileError at a line", err, err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("Parse = %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
}

func TestSettleOpts(t *testing.T) {
	if s := (EBoard{true, "/dev/rfcomm0"}).SettleOpts().Stable; s != 500*time.Millisecond {
		t.Errorf("Bluetooth: %v", s)
	}
	if s := (EBoard{true, "/dev/ttyACM0"}).SettleOpts().Stable; s != 250*time.Millisecond {
		t.Errorf("USB: %v", s)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("[eboard]\nport = \"auto\"\n"))
	f.Add([]byte("[eboard]\nport = \"/dev/ttyACM0\"\n"))
	f.Fuzz(func(t *testing.T, doc []byte) {
		e, err := Parse(doc, "f.toml")
		if err == nil && e.Enabled && checkPort(e.Port) != nil {
			t.Fatalf("accepted port %q", e.Port)
		}
	})
}
