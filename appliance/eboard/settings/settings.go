// Package settings reads the [eboard] table of zeitnot.toml: which serial
// port an electronic chessboard is on.
//
//	[eboard]
//	port = "/dev/ttyACM0"   # or a /dev/serial/by-id/ path, or "auto"
//
// Without the table there is no board, and the clock is exactly the clock
// it is without one. The table is zeitnot eboard's (appliance/eboard/relay),
// which reads it with Parse; appliance/config leaves it to this parser and
// refuses, at check and import, what it refuses.
package settings

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/zeitnot/zeitnot/drivers/eboard"
	"github.com/zeitnot/zeitnot/internal/tomldoc"
)

// Auto is the port that finds a DGT board by its /dev/serial/by-id name.
const Auto = "auto"

// EBoard is the [eboard] table.
type EBoard struct {
	// Enabled is false when the file has no [eboard] table.
	Enabled bool
	// Port is a serial port's name (/dev/ttyACMn, /dev/ttyUSBn,
	// /dev/rfcommn, a /dev/serial/by-id/ entry), or Auto.
	Port string
}

// Bluetooth reports whether the port is a Bluetooth serial port
// (/dev/rfcommN), where a DGT board scans at half speed.
func (e EBoard) Bluetooth() bool { return strings.HasPrefix(e.Port, "/dev/rfcomm") }

// SettleOpts returns how long a position must stand to be believed on this
// port: eboard.BluetoothSettleOpts on Bluetooth, eboard.DefaultSettleOpts
// otherwise.
func (e EBoard) SettleOpts() eboard.SettleOpts {
	if e.Bluetooth() {
		return eboard.BluetoothSettleOpts
	}
	return eboard.DefaultSettleOpts
}

// Table is the schema of the [eboard] table.
var Table = &tomldoc.Schema[EBoard]{Fields: []tomldoc.Field[EBoard]{
	tomldoc.StringField("port", checkPort, func(e *EBoard, s string) { e.Port = s }).
		Needed(`the board's serial port: port = "/dev/ttyACM0", a /dev/serial/by-id/ path or "auto"`).
		Documented("the board's serial port: `/dev/ttyACMn` (`\"/dev/ttyACM0\"`), `/dev/ttyUSBn`, a `/dev/serial/by-id/` path, `/dev/rfcommN` for Bluetooth, and no other device, or `\"auto\"`, which finds a DGT board by its `/dev/serial/by-id/` name", "required"),
}}

// Parse reads the [eboard] table of the TOML document data; file names the
// document in errors, which are *tomldoc.FileError values (joined), each
// with its line and key.
func Parse(data []byte, file string) (EBoard, error) {
	d, fe := tomldoc.NewDecoder(file, data)
	if fe != nil {
		return EBoard{}, fe
	}
	v := d.Doc.Root.Get("eboard")
	if v == nil {
		return EBoard{}, nil
	}
	e := EBoard{Enabled: true}
	if !Table.DecodeTable(d, v, tomldoc.Key{"eboard"}, &e) || !d.OK() {
		return EBoard{}, d.Err()
	}
	return e, nil
}

// checkPort accepts "auto" or a serial port's stable name (see
// checkName); the schema refuses control characters before.
func checkPort(s string) error {
	if s == Auto {
		return nil
	}
	return checkName(s)
}

// Serial ports' names, the only ones a port may have: USB CDC ACM ttys (DGT's
// USB boards), USB serial adapters, Bluetooth serial ttys, and udev's
// /dev/serial/by-id links to them. Anything else under /dev (a FIFO, /dev/null,
// /dev/ptmx, a link to a file) would have the board's commands written to it.
var ttyPrefixes = []string{"/dev/ttyACM", "/dev/ttyUSB", "/dev/rfcomm"}

// byID is where udev names serial devices by what they are.
const byID = "/dev/serial/by-id/"

// checkName accepts a clean absolute path that is /dev/ttyACMn, /dev/ttyUSBn,
// /dev/rfcommn or an entry of /dev/serial/by-id.
func checkName(s string) error {
	const want = "want /dev/ttyACMn, /dev/ttyUSBn, /dev/rfcommn, a /dev/serial/by-id/ path or \"auto\""
	switch {
	case s == "":
		return fmt.Errorf("empty: %s", want)
	case !strings.HasPrefix(s, "/dev/"):
		return fmt.Errorf("%q is not a device under /dev: %s", s, want)
	case path.Clean(s) != s || strings.Contains(s, ".."):
		return fmt.Errorf("%q is not a clean path: %s", s, want)
	}
	if name, ok := strings.CutPrefix(s, byID); ok {
		if name == "" || strings.Contains(name, "/") {
			return fmt.Errorf("%q is not an entry of %s: %s", s, byID, want)
		}
		return nil
	}
	for _, p := range ttyPrefixes {
		if n, ok := strings.CutPrefix(s, p); ok && n != "" && strings.Trim(n, "0123456789") == "" {
			return nil
		}
	}
	return fmt.Errorf("%q is not a serial port: %s", s, want)
}

// Device checks, when zeitnot eboard opens it, that the port (not "auto":
// the by-id path it found) is a serial port: its links resolved, the device
// they reach must have a serial tty's name (/dev/ttyACMn, /dev/ttyUSBn,
// /dev/rfcommn) and be a character device. It returns that device's path,
// the one to open, so that what was checked is what is opened.
func Device(port string) (string, error) { return device("", port) }

// device is Device on the tree under root ("" is /): tests make a /dev of
// their own.
func device(root, port string) (string, error) {
	if err := checkName(port); err != nil {
		return "", fmt.Errorf("eboard: port %w", err)
	}
	real, err := filepath.EvalSymlinks(root + port)
	if err != nil {
		return "", fmt.Errorf("eboard: port %s: %w", port, err)
	}
	resolved, ok := strings.CutPrefix(real, root)
	if !ok || !strings.HasPrefix(resolved, "/") {
		return "", fmt.Errorf("eboard: port %s is %s, not a serial port", port, real)
	}
	if err := checkName(resolved); err != nil || strings.HasPrefix(resolved, byID) {
		return "", fmt.Errorf("eboard: port %s is %s, not a serial port (/dev/ttyACMn, /dev/ttyUSBn, /dev/rfcommn)", port, resolved)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return "", fmt.Errorf("eboard: port %s: %w", port, err)
	}
	if m := fi.Mode(); m&os.ModeDevice == 0 || m&os.ModeCharDevice == 0 {
		return "", fmt.Errorf("eboard: port %s is %s, which is not a character device (mode %v)", port, resolved, m)
	}
	return resolved, nil
}

// SimDevice checks the simulator's board: a pseudo-terminal, /dev/pts/n,
// that is a character device. Only the laptop's demo names one, with
// zeitnot eboard's --sim-port flag: no config file can, so that a stick
// cannot point a clock's board at a terminal.
func SimDevice(port string) (string, error) { return simDevice("", port) }

func simDevice(root, port string) (string, error) {
	n, ok := strings.CutPrefix(port, "/dev/pts/")
	if !ok || n == "" || strings.Trim(n, "0123456789") != "" {
		return "", fmt.Errorf("eboard: --sim-port %q: want a pseudo-terminal, /dev/pts/n", port)
	}
	fi, err := os.Lstat(root + port) // a link is not a terminal
	if err != nil {
		return "", fmt.Errorf("eboard: --sim-port %s: %w", port, err)
	}
	if m := fi.Mode(); m&os.ModeDevice == 0 || m&os.ModeCharDevice == 0 {
		return "", fmt.Errorf("eboard: --sim-port %s is not a character device (mode %v)", port, m)
	}
	return port, nil
}
