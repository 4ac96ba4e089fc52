package dgt

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go.bug.st/serial"
)

// ByIDDir is where udev names serial devices by what they are.
const ByIDDir = "/dev/serial/by-id"

// Open opens the DGT board on the serial device port (a path such as
// /dev/ttyACM0, /dev/serial/by-id/..., /dev/rfcomm0, or "auto": see FindPort)
// at 9600 8N1 and returns it as New does.
func Open(port string, opts *Opts) (*Dev, error) {
	if port == "auto" {
		p, err := FindPort(ByIDDir)
		if err != nil {
			return nil, err
		}
		port = p
	}
	sp, err := serial.Open(port, &serial.Mode{BaudRate: 9600, DataBits: 8, Parity: serial.NoParity, StopBits: serial.OneStopBit})
	if err != nil {
		return nil, fmt.Errorf("dgt: %s: opening at 9600 8N1: %w", port, err)
	}
	return New(sp, port, opts)
}

// FindPort returns the one entry of dir (ByIDDir) whose name contains "DGT",
// in any case. It fails, naming dir and what it holds, when there is none or
// more than one.
func FindPort(dir string) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if os.IsNotExist(err) {
			return "", fmt.Errorf("dgt: auto: %s does not exist: no USB serial device is plugged in", dir)
		}
		return "", fmt.Errorf("dgt: auto: %w", err)
	}
	var found, others []string
	for _, e := range entries {
		if strings.Contains(strings.ToUpper(e.Name()), "DGT") {
			found = append(found, filepath.Join(dir, e.Name()))
		} else {
			others = append(others, e.Name())
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		if len(others) == 0 {
			return "", fmt.Errorf("dgt: auto: no DGT board in %s (it is empty)", dir)
		}
		return "", fmt.Errorf("dgt: auto: no DGT board in %s, only %s: give the port's path", dir, strings.Join(others, ", "))
	default:
		return "", fmt.Errorf("dgt: auto: %d DGT boards in %s (%s): give the port's path", len(found), dir, strings.Join(found, ", "))
	}
}
