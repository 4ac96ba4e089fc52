package settings

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/drivers/eboard/simdgt"
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

// TestCheckName: a port is a serial port's stable name and nothing else
// under /dev.
func TestCheckName(t *testing.T) {
	for _, tc := range []struct {
		port string
		ok   bool
	}{
		{"/dev/ttyACM0", true},
		{"/dev/ttyACM12", true},
		{"/dev/ttyUSB0", true},
		{"/dev/rfcomm3", true},
		{"/dev/serial/by-id/usb-DGT_DGT_Board_P0001-if00", true},
		{"/dev/null", false},
		{"/dev/ptmx", false},
		{"/dev/pts/3", false},
		{"/dev/tty", false},
		{"/dev/ttyS0", false},
		{"/dev/ttyACM", false},
		{"/dev/ttyACM0x", false},
		{"/dev/ttyACM-1", false},
		{"/dev/sda", false},
		{"/dev/shm/fifo", false},
		{"/dev/serial/by-id/", false},
		{"/dev/serial/by-id/a/b", false},
		{"/dev/serial/by-path/platform-usb-0:1", false},
		{"/dev/serial/by-id/../../null", false},
		{"/dev/../etc/shadow", false},
		{"/dev/ttyACM0/..", false},
		{"/dev//ttyACM0", false},
		{"dev/ttyACM0", false},
		{"ttyACM0", false},
		{"./ttyACM0", false},
		{"/etc/shadow", false},
		{"/var/lib/zeitnot/game.log", false},
		{"", false},
	} {
		err := checkPort(tc.port)
		if (err == nil) != tc.ok {
			t.Errorf("checkPort(%q) = %v, want ok=%v", tc.port, err, tc.ok)
		}
		if err != nil && tc.port != "" && !strings.Contains(err.Error(), strconv.Quote(tc.port)) {
			t.Errorf("checkPort(%q) = %v: the error does not name the value", tc.port, err)
		}
	}
}

// TestDevice: at open, the port's links are resolved, and what they reach
// must be a serial tty's name and a character device. The test makes a /dev
// of its own under a temporary root.
func TestDevice(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"/dev/serial/by-id", "/dev/shm", "/var/lib/zeitnot"} {
		if err := os.MkdirAll(root+d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	symlink := func(target, name string) {
		t.Helper()
		if err := os.Symlink(target, root+name); err != nil {
			t.Fatal(err)
		}
	}
	// A regular file with a tty's name, a FIFO, a game log.
	if err := os.WriteFile(root+"/dev/ttyUSB0", nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(root+"/dev/ttyUSB1", 0o600); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(root+"/dev/shm/fifo", 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(root+"/var/lib/zeitnot/game.log", []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	symlink("../../../var/lib/zeitnot/game.log", "/dev/serial/by-id/usb-log")
	symlink("/etc/shadow", "/dev/serial/by-id/usb-shadow")
	symlink("../../shm/fifo", "/dev/serial/by-id/usb-fifo")
	symlink("../../ttyUSB1", "/dev/serial/by-id/usb-fifo-named-tty")
	symlink("../../ttyUSB0", "/dev/serial/by-id/usb-file-named-tty")
	symlink("../../nowhere", "/dev/serial/by-id/usb-dangling")
	symlink("/dev/null", "/dev/ttyACM5")
	symlink("../../serial/by-id/usb-log", "/dev/serial/by-id/usb-chain")

	for _, tc := range []struct{ port, err string }{
		{"/dev/serial/by-id/usb-log", "is /var/lib/zeitnot/game.log, not a serial port"},
		{"/dev/serial/by-id/usb-shadow", "not a serial port"},
		{"/dev/serial/by-id/usb-fifo", "is /dev/shm/fifo, not a serial port"},
		{"/dev/serial/by-id/usb-chain", "is /var/lib/zeitnot/game.log, not a serial port"},
		{"/dev/serial/by-id/usb-fifo-named-tty", "is /dev/ttyUSB1, which is not a character device"},
		{"/dev/serial/by-id/usb-file-named-tty", "is /dev/ttyUSB0, which is not a character device"},
		{"/dev/ttyUSB1", "which is not a character device"},
		{"/dev/serial/by-id/usb-dangling", "no such file"},
		{"/dev/ttyACM5", "not a serial port"},
		{"/dev/shm/fifo", "is not a serial port"},
		{"/dev/null", "is not a serial port"},
		{"/dev/ptmx", "is not a serial port"},
		{"/dev/serial/by-id/../../shm/fifo", "not a clean path"},
		{"ttyACM0", "not a device under /dev"},
	} {
		got, err := device(root, tc.port)
		if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), tc.port) {
			t.Errorf("device(%s) = %q, %v; want an error naming it with %q", tc.port, got, err, tc.err)
		}
	}
	// The real /dev/null and /dev/ptmx are character devices, but not serial ports.
	for _, p := range []string{"/dev/null", "/dev/ptmx"} {
		if _, err := Device(p); err == nil {
			t.Errorf("Device(%s) accepted", p)
		}
	}

	// A character device with a tty's name, directly and by its by-id link.
	if err := syscall.Mknod(root+"/dev/ttyACM0", syscall.S_IFCHR|0o600, 166<<8); err != nil {
		t.Skipf("no mknod here (%v): the accepted case is not tested", err)
	}
	symlink("../../ttyACM0", "/dev/serial/by-id/usb-DGT_DGT_Board-if00")
	for _, p := range []string{"/dev/ttyACM0", "/dev/serial/by-id/usb-DGT_DGT_Board-if00"} {
		if got, err := device(root, p); err != nil || got != "/dev/ttyACM0" {
			t.Errorf("device(%s) = %q, %v; want /dev/ttyACM0", p, got, err)
		}
	}
}

// TestSimDevice: the demo's --sim-port names a pseudo-terminal and nothing
// else; a link, a FIFO or another device with a terminal's name is refused.
func TestSimDevice(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(root+"/dev/pts", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(root+"/dev/pts/7", 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/null", root+"/dev/pts/8"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ port, err string }{
		{"/dev/pts/7", "not a character device"},
		{"/dev/pts/8", "not a character device"},
		{"/dev/pts/9", "no such file"},
		{"/dev/ptmx", "want a pseudo-terminal"},
		{"/dev/pts/", "want a pseudo-terminal"},
		{"/dev/pts/../null", "want a pseudo-terminal"},
		{"/dev/pts/1x", "want a pseudo-terminal"},
		{"/dev/ttyACM0", "want a pseudo-terminal"},
	} {
		if got, err := simDevice(root, tc.port); err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), tc.port) {
			t.Errorf("simDevice(%s) = %q, %v; want an error naming it with %q", tc.port, got, err, tc.err)
		}
	}
	p, err := simdgt.OpenPTY()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if got, err := SimDevice(p.Name); err != nil || got != p.Name {
		t.Errorf("SimDevice(%s) = %q, %v; want the terminal", p.Name, got, err)
	}
	// No config file names one: the [eboard] table's port refuses it.
	if _, err := Parse([]byte(fmt.Sprintf("[eboard]\nport = %q\n", p.Name)), "z.toml"); err == nil {
		t.Errorf("the [eboard] table took %s", p.Name)
	}
}
