package ds3231

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"
)

// Registers.
const (
	regSeconds = 0x00
	regStatus  = 0x0F
	nRegs      = 0x13 // 0x00 to 0x12

	bit12Hour = 0x40 // in the hours register
	bitPM     = 0x20 // in the hours register, 12-hour mode
	bitCent   = 0x80 // in the month register
	bitOSF    = 0x80 // in the status register
)

// ErrNoTime is wrapped by Read's error when the time registers hold no
// valid date (a chip never set, or not a DS3231).
var ErrNoTime = errors.New("the time registers hold no valid date")

// Opts configures the chip.
type Opts struct {
	// Addr is the I²C address; the chip's is 0x68.
	Addr uint16
}

// DefaultOpts is the chip's address.
var DefaultOpts = Opts{Addr: 0x68}

// Time is what Read found.
type Time struct {
	// Time is the chip's time, taken as UTC.
	time.Time
	// Stopped is the oscillator stop flag: the oscillator stopped at some
	// point since the flag was last cleared, so Time is not to be trusted.
	Stopped bool
	// Temperature is the chip's own sensor's, in steps of 0.25 °C.
	Temperature physic.Temperature
}

// Valid reports whether the time can be trusted: the oscillator has not
// stopped.
func (t Time) Valid() bool { return !t.Stopped }

// Dev is an open DS3231. It is safe for concurrent use.
type Dev struct {
	name string
	dev  i2c.Dev

	mu  sync.Mutex
	buf [nRegs]byte
}

// New opens the DS3231 on b (nil opts means DefaultOpts): it reads the
// status register, and fails if nothing acknowledges.
func New(b i2c.Bus, opts *Opts) (*Dev, error) {
	if opts == nil {
		opts = &DefaultOpts
	}
	if opts.Addr == 0 || opts.Addr > 0x7F {
		return nil, fmt.Errorf("ds3231: I²C address %#02x is not a 7-bit address", opts.Addr)
	}
	d := &Dev{
		name: fmt.Sprintf("ds3231 on %s@%#02x", b, opts.Addr),
		dev:  i2c.Dev{Bus: b, Addr: opts.Addr},
	}
	if err := d.dev.Tx([]byte{regStatus}, d.buf[:1]); err != nil {
		return nil, fmt.Errorf("%s: read status: %w", d.name, err)
	}
	return d, nil
}

// String names the chip, e.g. "ds3231 on I2C1@0x68".
func (d *Dev) String() string { return d.name }

// Read reads the time, the oscillator stop flag and the temperature in one
// transfer. Registers that hold no valid date give an error wrapping
// ErrNoTime, with the Time's Stopped and Temperature still filled in.
func (d *Dev) Read() (Time, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.dev.Tx([]byte{regSeconds}, d.buf[:]); err != nil {
		return Time{}, fmt.Errorf("%s: read registers: %w", d.name, err)
	}
	return decode(d.name, &d.buf)
}

// decode turns the registers 0x00 to 0x12 into a Time.
func decode(name string, r *[nRegs]byte) (Time, error) {
	t := Time{
		Stopped:     r[regStatus]&bitOSF != 0,
		Temperature: physic.ZeroCelsius + physic.Temperature(int8(r[0x11]))*physic.Celsius + physic.Temperature(r[0x12]>>6)*physic.Celsius/4,
	}
	bad := func(what string, reg int) (Time, error) {
		return t, fmt.Errorf("%s: %w: %s register %#02x holds %#02x", name, ErrNoTime, what, reg, r[reg])
	}
	sec, ok := bcd(r[0]&0x7F, 0, 59)
	if !ok {
		return bad("seconds", 0)
	}
	mins, ok := bcd(r[1]&0x7F, 0, 59)
	if !ok {
		return bad("minutes", 1)
	}
	var hour int
	if h := r[2]; h&bit12Hour != 0 {
		h12, ok := bcd(h&0x1F, 1, 12)
		if !ok {
			return bad("hours", 2)
		}
		hour = h12 % 12
		if h&bitPM != 0 {
			hour += 12
		}
	} else if hour, ok = bcd(h&0x3F, 0, 23); !ok {
		return bad("hours", 2)
	}
	date, ok := bcd(r[4]&0x3F, 1, 31)
	if !ok {
		return bad("date", 4)
	}
	month, ok := bcd(r[5]&0x1F, 1, 12)
	if !ok {
		return bad("month", 5)
	}
	year, ok := bcd(r[6], 0, 99)
	if !ok {
		return bad("year", 6)
	}
	year += 2000
	if r[5]&bitCent != 0 {
		year += 100
	}
	t.Time = time.Date(year, time.Month(month), date, hour, mins, sec, 0, time.UTC)
	if t.Day() != date {
		// February 30th and the like.
		t.Time = time.Time{}
		return bad("date", 4)
	}
	return t, nil
}

// bcd decodes a two-digit BCD byte and checks it is within [lo, hi].
func bcd(b byte, lo, hi int) (int, bool) {
	if b&0x0F > 9 || b>>4 > 9 {
		return 0, false
	}
	v := int(b>>4)*10 + int(b&0x0F)
	return v, v >= lo && v <= hi
}
