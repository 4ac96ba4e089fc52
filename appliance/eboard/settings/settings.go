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
	"path"
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
	// Port is a device path under /dev, or Auto.
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
		Documented("the board's serial port: a device under `/dev` (`\"/dev/ttyACM0\"`, a `/dev/serial/by-id/` path, `/dev/rfcommN` for Bluetooth) or `\"auto\"`, which finds a DGT board by its `/dev/serial/by-id/` name", "required"),
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

// checkPort accepts "auto" or a clean absolute path under /dev (the
// schema refuses control characters before).
func checkPort(s string) error {
	switch {
	case s == Auto:
		return nil
	case s == "":
		return fmt.Errorf("empty: give a device path or \"auto\"")
	case !strings.HasPrefix(s, "/dev/"):
		return fmt.Errorf("%q is not a device under /dev (or \"auto\")", s)
	case path.Clean(s) != s || strings.Contains(s, ".."):
		return fmt.Errorf("%q is not a clean path", s)
	}
	return nil
}
