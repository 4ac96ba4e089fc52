package profile

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/drivers/display"
	"github.com/zeitnot/zeitnot/internal/regfile"
)

// TestRegistryRows holds every row of the display registry to what Parse
// and Open rely on.
func TestRegistryRows(t *testing.T) {
	for _, name := range Types() {
		r := displayTypes[name]
		switch r.family {
		case display.Pixels:
			if r.pixel == nil || r.text != nil {
				t.Errorf("%s: a pixel display needs a pixel open function, and only that", name)
			}
			if r.maxH%8 != 0 || r.size.H%8 != 0 {
				t.Errorf("%s: pixel heights must be multiples of 8 (max %d, default %d)", name, r.maxH, r.size.H)
			}
		case display.Segments, display.Characters:
			if r.text == nil || r.pixel != nil {
				t.Errorf("%s: a %v display needs a text open function, and only that", name, r.family)
			}
		default:
			t.Errorf("%s: no family", name)
		}
		if r.conns == 0 || (r.conns&connSim != 0 && r.conns != connSim) {
			t.Errorf("%s: connections %b: some, and simulated alone", name, r.conns)
		}
		if r.size.W < 1 || r.size.H < 1 || r.size.W > r.maxW || r.size.H > r.maxH {
			t.Errorf("%s: default size %v beyond %dx%d", name, r.size, r.maxW, r.maxH)
		}
		if (r.conns&connI2C != 0) != (len(r.addrs) > 0) || (len(r.addrs) > 0 && !inRanges(int64(r.defAddr), r.addrs)) {
			t.Errorf("%s: I²C addresses %v, default %#x", name, r.addrs, r.defAddr)
		}
		if len(r.spiPins) > 0 && r.conns&connSPI == 0 {
			t.Errorf("%s: SPI pins but no SPI", name)
		}
		if pins := slices.Concat(r.pins, r.spiPins, r.optPins); len(pins) != len(slices.Compact(slices.Sorted(slices.Values(pins)))) {
			t.Errorf("%s: a pin function twice: %v", name, pins)
		}
	}
}

// TestFamilies: the family of each display comes from its type's row.
func TestFamilies(t *testing.T) {
	want := map[string]display.Family{
		"ssd1306": display.Pixels, "sh1106": display.Pixels, "sim-oled": display.Pixels,
		"tm1637": display.Segments, "max7219": display.Segments, "ht16k33": display.Segments, "sim-segment": display.Segments,
		"hd44780": display.Characters, "hd44780-pcf8574": display.Characters, "sim-lcd": display.Characters,
	}
	if len(want) != len(Types()) {
		t.Fatalf("types %v: update the test", Types())
	}
	for typ, f := range want {
		d := Display{Type: typ}
		if d.Family() != f || d.Pixel() != (f == display.Pixels) || d.Simulated() != strings.HasPrefix(typ, "sim-") {
			t.Errorf("%s: family %v, pixel %v, simulated %v; want %v", typ, d.Family(), d.Pixel(), d.Simulated(), f)
		}
	}
	if d := (Display{Type: "ssd1309"}); d.Family() != 0 || d.Pixel() || d.Simulated() {
		t.Errorf("unknown type: family %v", d.Family())
	}
}

// TestOpenSimFamilies: each simulated type opens, with no hardware, as a
// device of its family, named as before.
func TestOpenSimFamilies(t *testing.T) {
	fakeHardware(t)
	p := &Profile{Displays: []Display{
		{Name: "left", Type: "sim-oled", Role: "left", Size: Size{128, 32}},
		{Name: "seg", Type: "sim-segment", Role: "right", Size: Size{8, 1}},
		{Name: "lcd", Type: "sim-lcd", Role: "both", Size: Size{16, 2}},
	}}
	devs, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer devs.Close()
	want := []string{
		`display "left": ok: sim-oled 128x32 (left)`,
		`display "seg": ok: sim-segment 8x1 (seg)`,
		`display "lcd": ok: sim-lcd 16x2 (lcd)`,
	}
	for i, w := range want {
		od := devs.Displays[i]
		if got := devs.Results[i].String(); got != w || (od.Pixel != nil) != od.Display.Pixel() || (od.Text != nil) == od.Display.Pixel() {
			t.Errorf("%s (pixel %v, text %v), want %s", got, od.Pixel, od.Text, w)
		}
	}
}

// TestLoadRefusesNonRegularFiles: a profile path naming a device, a FIFO
// or a directory is refused at once, with an error naming it; so is a file
// too large to be a profile.
func TestLoadRefusesNonRegularFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "profile.fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.toml")
	if err := os.WriteFile(big, []byte(strings.Repeat("# padding\n", MaxFileSize/10+1)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		is   error
		want string
	}{
		{"/dev/zero", regfile.ErrNotRegular, "profile: open /dev/zero: not a regular file (a character device)"},
		{fifo, regfile.ErrNotRegular, "profile: open " + fifo + ": not a regular file (a named pipe)"},
		{dir, regfile.ErrNotRegular, "profile: open " + dir + ": not a regular file (a directory)"},
		{big, regfile.ErrTooLarge, "profile: open " + big + ": too large: 65540 bytes, at most 65536 accepted"},
	} {
		done := make(chan error, 1)
		go func() {
			_, err := Load(tc.path)
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, tc.is) || err.Error() != tc.want {
				t.Errorf("Load(%s): %v\nwant %s", tc.path, err, tc.want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("Load(%s) blocks", tc.path)
		}
	}
	// Lookup goes through Load for anything that is not a builtin.
	if _, err := Lookup("/dev/zero"); err == nil || !strings.Contains(err.Error(), "/dev/zero: not a regular file") {
		t.Errorf("Lookup(/dev/zero): %v", err)
	}
}
