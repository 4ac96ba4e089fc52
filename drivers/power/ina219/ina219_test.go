package ina219

import (
	"errors"
	"math"
	"strings"
	"testing"

	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/conn/v3/physic"

	"github.com/zeitnot/zeitnot/drivers/power"
)

// A UPS board's: 0x42, 0.1 Ω, 3.2 A.
var board = Opts{Addr: 0x42, Shunt: 100 * physic.MilliOhm, MaxCurrent: 3200 * physic.MilliAmpere, Cells: 1}

// setupOps is what New writes: configuration 0x3EEF, calibration 4194
// (0x1062) = trunc(0.04096 / (3.2 A / 32768 × 0.1 Ω)).
var setupOps = []i2ctest.IO{
	{Addr: 0x42, W: []byte{0x00, 0x3E, 0xEF}},
	{Addr: 0x42, W: []byte{0x05, 0x10, 0x62}},
}

func readOps(cfg, bus, cur uint16) []i2ctest.IO {
	return []i2ctest.IO{
		{Addr: 0x42, W: []byte{0x00}, R: []byte{byte(cfg >> 8), byte(cfg)}},
		{Addr: 0x42, W: []byte{0x02}, R: []byte{byte(bus >> 8), byte(bus)}},
		{Addr: 0x42, W: []byte{0x04}, R: []byte{byte(cur >> 8), byte(cur)}},
	}
}

func cat(ops ...[]i2ctest.IO) []i2ctest.IO {
	var all []i2ctest.IO
	for _, o := range ops {
		all = append(all, o...)
	}
	return all
}

func TestConfigValue(t *testing.T) {
	if config != 0x3EEF {
		t.Fatalf("config %#04x", config)
	}
}

func TestNewAndRead(t *testing.T) {
	// 3.712 V on the bus: 928 × 4 mV in bits 15..3 (0x1D00), conversion
	// ready (bit 1). -5242 counts of 0.04096/(4194 × 0.1 Ω) A: -511.95 mA.
	bus := &i2ctest.Playback{Ops: cat(setupOps, readOps(0x3EEF, 0x1D02, 0xEB86))}
	d, err := New(bus, &board)
	if err != nil {
		t.Fatal(err)
	}
	if d.Calibration() != 4194 || d.String() != "ina219 on playback@0x42" {
		t.Fatalf("calibration %d, %q", d.Calibration(), d)
	}
	r, err := d.Read()
	if err != nil {
		t.Fatal(err)
	}
	if r.Voltage != 3712*physic.MilliVolt || !r.HasCurrent {
		t.Errorf("reading %+v", r)
	}
	if want := -5242 * 0.04096 / (4194 * 0.1); math.Abs(float64(r.Current)/float64(physic.Ampere)-want) > 1e-6 {
		t.Errorf("current %s, want %g A", r.Current, want)
	}
	if want := power.LiIon.Percent(3712 * physic.MilliVolt); r.Percent != want || r.Percent < 15 || r.Percent > 16 {
		t.Errorf("percent %g, want %g", r.Percent, want)
	}
	if err := bus.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestReadAfterReset: a chip found with its power-on configuration has
// lost its calibration; Read writes both again before reading.
func TestReadAfterReset(t *testing.T) {
	bus := &i2ctest.Playback{Ops: cat(setupOps,
		[]i2ctest.IO{{Addr: 0x42, W: []byte{0x00}, R: []byte{0x39, 0x9F}}},
		setupOps,
		readOps(0x3EEF, 0x1D02, 0x0000)[1:])}
	d, err := New(bus, &board)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Read(); err != nil {
		t.Fatal(err)
	}
	if err := bus.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestTwoCells: a pack of two cells in series at 7.68 V is 3.84 V a cell,
// 50% on the Li-ion curve.
func TestTwoCells(t *testing.T) {
	o := board
	o.Cells = 2
	bus := &i2ctest.Playback{Ops: cat(setupOps, readOps(0x3EEF, uint16(7680/4)<<3, 0))}
	d, err := New(bus, &o)
	if err != nil {
		t.Fatal(err)
	}
	r, err := d.Read()
	if err != nil || r.Percent != 50 || r.Voltage != 7680*physic.MilliVolt {
		t.Fatalf("%+v, %v", r, err)
	}
}

func TestOverflow(t *testing.T) {
	bus := &i2ctest.Playback{Ops: cat(setupOps, readOps(0x3EEF, 0x1D03, 0)[:2])}
	d, err := New(bus, &board)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Read(); err == nil || !strings.Contains(err.Error(), "ina219 on playback@0x42: the current overflowed") {
		t.Fatalf("%v", err)
	}
}

func TestOptsErrors(t *testing.T) {
	for _, c := range []struct {
		o    Opts
		want string
	}{
		{Opts{Addr: 0x3F, Shunt: physic.Ohm, MaxCurrent: physic.Ampere / 10}, "address 0x3f is not between 0x40 and 0x4f"},
		{Opts{Addr: 0x40, Shunt: 100 * physic.MilliOhm, MaxCurrent: 5 * physic.Ampere}, "5A through the 100mΩ shunt is 500 mV, more than the 320 mV"},
		{Opts{Addr: 0x40, Shunt: physic.MilliOhm, MaxCurrent: 100 * physic.MilliAmpere}, "needs calibration 13421772, above the chip's 65534"},
		{Opts{Addr: 0x40, Shunt: 0, MaxCurrent: physic.Ampere}, "must both be above zero"},
		{Opts{Addr: 0x40, Shunt: 100 * physic.MilliOhm, MaxCurrent: physic.Ampere, Curve: power.Curve{{V: physic.Volt}}}, "ina219: curve: a curve needs at least two points"},
	} {
		_, err := New(&i2ctest.Record{}, &c.o)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.o, err, c.want)
		}
	}
}

type nack struct{ i2ctest.Record }

func (*nack) Tx(uint16, []byte, []byte) error { return errors.New("sysfs-i2c: remote I/O error") }

func TestNoAnswer(t *testing.T) {
	_, err := New(&nack{}, &board)
	if err == nil || err.Error() != "ina219 on record@0x42: write register 0x00: sysfs-i2c: remote I/O error" {
		t.Fatalf("%v", err)
	}
}
