package max17048

import (
	"errors"
	"strings"
	"testing"

	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/conn/v3/physic"
)

func TestNewAndRead(t *testing.T) {
	bus := &i2ctest.Playback{Ops: []i2ctest.IO{
		{Addr: 0x36, W: []byte{0x08}, R: []byte{0x00, 0x12}},
		// VCELL 0xC350 = 50000 × 78.125 µV = 3.90625 V; SOC 0x3A80 = 58.5%.
		{Addr: 0x36, W: []byte{0x02}, R: []byte{0xC3, 0x50}},
		{Addr: 0x36, W: []byte{0x04}, R: []byte{0x3A, 0x80}},
		// A full cell: SOC 0x6500 = 101% is reported as 100%.
		{Addr: 0x36, W: []byte{0x02}, R: []byte{0xD6, 0xD8}},
		{Addr: 0x36, W: []byte{0x04}, R: []byte{0x65, 0x00}},
	}}
	d, err := New(bus, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d.String() != "max17048 on playback@0x36" || d.Version() != 0x0012 {
		t.Fatalf("%q, version %#04x", d, d.Version())
	}
	r, err := d.Read()
	if err != nil {
		t.Fatal(err)
	}
	if r.Voltage != 3906250*physic.MicroVolt || r.Percent != 58.5 || r.HasCurrent {
		t.Errorf("%+v", r)
	}
	r, err = d.Read()
	if err != nil || r.Percent != 100 || r.Voltage != 55000*78125*physic.NanoVolt {
		t.Errorf("%+v, %v", r, err)
	}
	if err := bus.Close(); err != nil {
		t.Fatal(err)
	}
}

type nack struct{ i2ctest.Record }

func (*nack) Tx(uint16, []byte, []byte) error { return errors.New("sysfs-i2c: remote I/O error") }

func TestErrors(t *testing.T) {
	if _, err := New(&nack{}, nil); err == nil || err.Error() != "max17048 on record@0x36: read register 0x08: sysfs-i2c: remote I/O error" {
		t.Errorf("%v", err)
	}
	if _, err := New(&i2ctest.Record{}, &Opts{Addr: 0x80}); err == nil || !strings.Contains(err.Error(), "not a 7-bit address") {
		t.Errorf("%v", err)
	}
}
