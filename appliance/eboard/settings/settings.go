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

// Parse reads the [eboard] table of the TOML document data; file names the
// document in errors, which give the line.
func Parse(data []byte, file string) (EBoard, error) {
	doc, err := tomldoc.Parse(data)
	if err != nil {
		return EBoard{}, fmt.Errorf("%s:%w", file, err)
	}
	v := doc.Root.Get("eboard")
	if v == nil {
		return EBoard{}, nil
	}
	t := v.Table()
	if t == nil || v.Kind != tomldoc.Table {
		return EBoard{}, fmt.Errorf("%s:%d: eboard must be a table ([eboard])", file, v.Line)
	}
	e := EBoard{Enabled: true}
	for _, k := range t.Keys {
		kv := t.Get(k)
		switch k {
		case "port":
			s, ok := kv.V.(string)
			if !ok {
				return EBoard{}, fmt.Errorf("%s:%d: eboard.port must be a string: a device path or \"auto\"", file, kv.Line)
			}
			if err := checkPort(s); err != nil {
				return EBoard{}, fmt.Errorf("%s:%d: eboard.port: %w", file, kv.Line, err)
			}
			e.Port = s
		default:
			return EBoard{}, fmt.Errorf("%s:%d: eboard.%s: no such setting (there is port)", file, kv.Line, k)
		}
	}
	if e.Port == "" {
		return EBoard{}, fmt.Errorf("%s:%d: [eboard] needs port = \"/dev/ttyACM0\", a /dev/serial/by-id/ path or \"auto\"", file, v.Line)
	}
	return e, nil
}

// checkPort accepts "auto" or a clean absolute path under /dev.
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
	case strings.ContainsAny(s, "\x00\n"):
		return fmt.Errorf("%q holds a control character", s)
	}
	return nil
}
