// Package boardname derives a clock's name, zeitnot-XXXX, from its board's
// serial number: the last four hex digits, so that thirty clocks in a hall
// are told apart on the hall's pages, in their games' files and on their
// own displays at power-on.
//
// The serial comes from the device tree (the Pi's firmware puts it there),
// then from /proc/cpuinfo's Serial line (32-bit kernels), then from
// /etc/machine-id (a machine with neither, such as QEMU's virt: systemd
// makes the ID at boot). zeitnot-hostname.service (`zeitnot hostname`)
// makes it the host's name; the daemon shows it as its first frame, before
// that unit has run.
package boardname

import (
	"bufio"
	"bytes"
	"io/fs"
	"strings"
)

// Prefix begins every clock's name.
const Prefix = "zeitnot-"

// Sources are the files Name reads, in order, relative to the root.
var Sources = []string{
	"sys/firmware/devicetree/base/serial-number",
	"proc/device-tree/serial-number",
	"proc/cpuinfo",
	"etc/machine-id",
}

// Name returns the clock's name from the first source in root that gives a
// serial: Prefix and its last four hex digits, lowercase, padded with
// zeros. With no source it is Prefix + "0000".
func Name(root fs.FS) string {
	return Prefix + Suffix(Serial(root))
}

// Serial returns the board's serial from the first source in root that
// has one, or "".
func Serial(root fs.FS) string {
	for _, f := range Sources {
		b, err := fs.ReadFile(root, f)
		if err != nil {
			continue
		}
		var s string
		if f == "proc/cpuinfo" {
			s = cpuinfoSerial(b)
		} else {
			s = string(bytes.Trim(b, "\x00 \t\r\n"))
		}
		if s != "" {
			return s
		}
	}
	return ""
}

// cpuinfoSerial is the value of /proc/cpuinfo's "Serial : …" line.
func cpuinfoSerial(b []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == "Serial" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// Suffix returns the last four hex digits of serial, lowercase, padded
// with zeros on the left; other characters are left out.
func Suffix(serial string) string {
	var hex []byte
	for i := 0; i < len(serial); i++ {
		c := serial[i]
		switch {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'f':
			hex = append(hex, c)
		case c >= 'A' && c <= 'F':
			hex = append(hex, c+'a'-'A')
		}
	}
	if len(hex) > 4 {
		hex = hex[len(hex)-4:]
	}
	return strings.Repeat("0", 4-len(hex)) + string(hex)
}
