package boardname

import (
	"testing"
	"testing/fstest"
)

func TestName(t *testing.T) {
	for _, c := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		// The Pi's firmware: the serial in the device tree, NUL-terminated.
		{"device tree", map[string]string{"sys/firmware/devicetree/base/serial-number": "00000000a1b2c3d4\x00", "etc/machine-id": "ffff"}, "zeitnot-c3d4"},
		{"proc's device tree", map[string]string{"proc/device-tree/serial-number": "10000000ABCDEF12\x00"}, "zeitnot-ef12"},
		{"cpuinfo", map[string]string{"proc/cpuinfo": "processor\t: 0\nHardware\t: BCM2835\nSerial\t\t: 00000000deadBEEF\nModel\t: Raspberry Pi 3\n"}, "zeitnot-beef"},
		{"cpuinfo without a serial, then machine-id", map[string]string{"proc/cpuinfo": "processor\t: 0\n", "etc/machine-id": "6f1c2a9e0b7d4e5f8a3b2c1d0e9f6c86\n"}, "zeitnot-6c86"},
		{"an empty device tree entry is skipped", map[string]string{"sys/firmware/devicetree/base/serial-number": "\x00", "etc/machine-id": "12\n"}, "zeitnot-0012"},
		{"nothing", map[string]string{}, "zeitnot-0000"},
	} {
		fsys := fstest.MapFS{}
		for k, v := range c.files {
			fsys[k] = &fstest.MapFile{Data: []byte(v)}
		}
		if got := Name(fsys); got != c.want {
			t.Errorf("%s: Name = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestSuffix(t *testing.T) {
	for in, want := range map[string]string{"": "0000", "7": "0007", "g-h": "0000", "AB:CD:EF": "cdef", "0x1234567": "4567"} {
		if got := Suffix(in); got != want {
			t.Errorf("Suffix(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzSuffix(f *testing.F) {
	f.Add("00000000a1b2c3d4")
	f.Fuzz(func(t *testing.T, s string) {
		got := Suffix(s)
		if len(got) != 4 {
			t.Fatalf("Suffix(%q) = %q, not four digits", s, got)
		}
		for _, c := range []byte(got) {
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
				t.Fatalf("Suffix(%q) = %q", s, got)
			}
		}
	})
}
