package profile

// The real-time clock of a profile: its table in the file, the registry of
// the chips it may name, the check of the table and the hardware check.

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"periph.io/x/conn/v3/i2c"

	"github.com/zeitnot/zeitnot/drivers/rtc/ds3231"
)

// RTC is the real-time clock of a profile.
type RTC struct {
	Type    string // ds3231, or none
	Bus     string // /dev/i2c-N
	Address uint16
	Line    int // line of [rtc] in the file, 0 if absent
}

type fileRTC struct {
	Type    string
	Bus     string
	Address *int64
}

// rtcType is one row of the real-time clock registry.
type rtcType struct {
	addrs   [][2]uint16
	defAddr uint16
	check   func(b i2c.Bus, r *RTC) (string, error) // what the chip says, for the check
}

// rtcTypes is every real-time clock a profile may name.
var rtcTypes = map[string]rtcType{
	"ds3231": {addrs: [][2]uint16{{0x68, 0x68}}, defAddr: 0x68, check: checkDS3231},
}

// RTCTypes returns the real-time clocks a profile may name.
func RTCTypes() []string { return slices.Sorted(maps.Keys(rtcTypes)) }

func (c *checker) rtc(p *Profile, f *file, users map[string]string) {
	p.RTC = RTC{Type: "none"}
	fr := f.RTC
	if fr == nil {
		return
	}
	line := c.line("rtc")
	if fr.Type == "" {
		c.errAt(line, "rtc: missing required field type (%s)", strings.Join(RTCTypes(), ", "))
		return
	}
	t, ok := rtcTypes[fr.Type]
	if !ok {
		c.errAt(c.line("rtc", "type"), "rtc: unknown type %q (%s)", fr.Type, strings.Join(RTCTypes(), ", "))
		return
	}
	bus, addr, ok := c.i2cDevice("rtc", "rtc", fr.Bus, fr.Address, t.addrs, t.defAddr, users)
	if !ok {
		return
	}
	p.RTC = RTC{Type: fr.Type, Bus: bus, Address: addr, Line: line}
}

func (o *opener) rtc(p *Profile) {
	rc := p.RTC
	t, ok := rtcTypes[rc.Type]
	if !ok {
		return
	}
	r := Result{Kind: "rtc"}
	bus, err := o.i2cAt(rc.Bus)
	if err == nil {
		r.Device, err = t.check(bus, &rc)
	}
	if err != nil {
		r.Err = fmt.Errorf("rtc: %w", noAnswerAt(rc.Bus, rc.Address, err))
	}
	o.devs.Results = append(o.devs.Results, r)
}

// checkDS3231 reads the chip's time: found, and whether the time can be
// trusted.
func checkDS3231(bus i2c.Bus, rc *RTC) (string, error) {
	d, err := ds3231.New(bus, &ds3231.Opts{Addr: rc.Address})
	if err != nil {
		return "", err
	}
	t, err := d.Read()
	switch {
	case errors.Is(err, ds3231.ErrNoTime):
		return fmt.Sprintf("%s: time NOT valid, %s; set the time", d, strings.TrimPrefix(err.Error(), d.String()+": ")), nil
	case err != nil:
		return "", err
	case !t.Valid():
		return fmt.Sprintf("%s: %s, time NOT valid: the oscillator stopped (a flat or missing coin cell?); set the time", d, t.Format(time.DateTime+" UTC")), nil
	}
	return fmt.Sprintf("%s: %s, time valid, %s", d, t.Format(time.DateTime+" UTC"), t.Temperature), nil
}
