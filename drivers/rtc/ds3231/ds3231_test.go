package ds3231

import (
	"errors"
	"strings"
	"testing"
	"time"

	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/conn/v3/physic"
)

// regs returns registers 0x00 to 0x12 with the given time registers,
// status and temperature 25.75 °C (0x19, 0xC0).
func regs(timeRegs [7]byte, status byte) []byte {
	r := make([]byte, nRegs)
	copy(r, timeRegs[:])
	r[0x0E] = 0x1C // control: the power-on value
	r[0x0F] = status
	r[0x11], r[0x12] = 0x19, 0xC0
	return r
}

func TestRead(t *testing.T) {
	for _, c := range []struct {
		name  string
		regs  [7]byte
		osf   byte
		want  time.Time
		valid bool
	}{
		{"24-hour", [7]byte{0x05, 0x59, 0x23, 0x07, 0x14, 0x03, 0x26}, 0x08, time.Date(2026, 3, 14, 23, 59, 5, 0, time.UTC), true},
		{"12-hour PM", [7]byte{0x30, 0x15, 0x40 | 0x20 | 0x12, 0x02, 0x01, 0x01, 0x30}, 0x00, time.Date(2030, 1, 1, 12, 15, 30, 0, time.UTC), true},
		{"12-hour 12 AM", [7]byte{0x00, 0x00, 0x40 | 0x12, 0x02, 0x01, 0x01, 0x30}, 0x00, time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC), true},
		{"12-hour 9 PM", [7]byte{0x00, 0x00, 0x40 | 0x20 | 0x09, 0x02, 0x01, 0x01, 0x30}, 0x00, time.Date(2030, 1, 1, 21, 0, 0, 0, time.UTC), true},
		{"century bit", [7]byte{0x00, 0x00, 0x00, 0x06, 0x29, 0x82, 0x04}, 0x00, time.Date(2104, 2, 29, 0, 0, 0, 0, time.UTC), true},
		{"oscillator stopped", [7]byte{0x00, 0x00, 0x00, 0x01, 0x01, 0x01, 0x00}, 0x88, time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC), false},
	} {
		bus := &i2ctest.Playback{Ops: []i2ctest.IO{
			{Addr: 0x68, W: []byte{0x0F}, R: []byte{c.osf}},
			{Addr: 0x68, W: []byte{0x00}, R: regs(c.regs, c.osf)},
		}}
		d, err := New(bus, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := d.Read()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !got.Time.Equal(c.want) || got.Valid() != c.valid {
			t.Errorf("%s: %v valid %v, want %v valid %v", c.name, got.Time, got.Valid(), c.want, c.valid)
		}
		if want := physic.ZeroCelsius + 25750*physic.MilliCelsius; got.Temperature != want {
			t.Errorf("%s: temperature %s, want %s", c.name, got.Temperature, want)
		}
		if err := bus.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestNegativeTemperature(t *testing.T) {
	var r [nRegs]byte
	copy(r[:], []byte{0, 0, 0, 1, 1, 1, 0})
	r[0x11], r[0x12] = 0xF6, 0x40 // -10 + 0.25 = -9.75 °C
	got, err := decode("x", &r)
	if err != nil {
		t.Fatal(err)
	}
	if want := physic.ZeroCelsius - 9750*physic.MilliCelsius; got.Temperature != want {
		t.Errorf("%s, want %s", got.Temperature, want)
	}
}

func TestNoValidDate(t *testing.T) {
	for _, c := range []struct {
		regs [7]byte
		want string
	}{
		{[7]byte{0x5A, 0, 0, 1, 1, 1, 0}, "seconds register 0x00 holds 0x5a"},
		{[7]byte{0, 0x60, 0, 1, 1, 1, 0}, "minutes register 0x01 holds 0x60"},
		{[7]byte{0, 0, 0x24, 1, 1, 1, 0}, "hours register 0x02 holds 0x24"},
		{[7]byte{0, 0, 0x40 | 0x13, 1, 1, 1, 0}, "hours register 0x02 holds 0x53"},
		{[7]byte{0, 0, 0x40, 1, 1, 1, 0}, "hours register 0x02 holds 0x40"},
		{[7]byte{0, 0, 0, 1, 0x00, 1, 0}, "date register 0x04 holds 0x00"},
		{[7]byte{0, 0, 0, 1, 0x30, 0x02, 0x26}, "date register 0x04 holds 0x30"},
		{[7]byte{0, 0, 0, 1, 1, 0x13, 0}, "month register 0x05 holds 0x13"},
		{[7]byte{0, 0, 0, 1, 1, 1, 0xA0}, "year register 0x06 holds 0xa0"},
		{[7]byte{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}, "seconds register 0x00 holds 0xff"},
	} {
		var r [nRegs]byte
		copy(r[:], c.regs[:])
		r[regStatus] = bitOSF
		got, err := decode("ds3231 on I2C1@0x68", &r)
		if !errors.Is(err, ErrNoTime) || !strings.Contains(err.Error(), "ds3231 on I2C1@0x68: the time registers hold no valid date: "+c.want) {
			t.Errorf("% x: %v, want %q", c.regs, err, c.want)
		}
		if !got.Stopped || !got.Time.IsZero() {
			t.Errorf("% x: %+v: want the flag and no time", c.regs, got)
		}
	}
}

type nack struct{ i2ctest.Record }

func (*nack) Tx(uint16, []byte, []byte) error { return errors.New("sysfs-i2c: remote I/O error") }

func TestNoAnswer(t *testing.T) {
	if _, err := New(&nack{}, nil); err == nil || err.Error() != "ds3231 on record@0x68: read status: sysfs-i2c: remote I/O error" {
		t.Errorf("%v", err)
	}
}

// FuzzDecode: no register contents make decode panic, and whatever it
// accepts is a real date that it gives back as written (bit 7 of the
// seconds register is not part of the time).
func FuzzDecode(f *testing.F) {
	f.Add([]byte{0x05, 0x59, 0x23, 0x07, 0x14, 0x03, 0x26})
	f.Add([]byte{0x00, 0x00, 0x52, 0x02, 0x29, 0x02, 0x24})
	f.Fuzz(func(t *testing.T, b []byte) {
		var r [nRegs]byte
		copy(r[:], b)
		got, err := decode("x", &r)
		if err != nil {
			return
		}
		if got.Year() < 2000 || got.Year() > 2199 || got.Second() != int(r[0]>>4&7)*10+int(r[0]&0xF) {
			t.Fatalf("% x: %v", b, got.Time)
		}
	})
}
