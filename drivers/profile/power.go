package profile

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"

	"github.com/zeitnot/zeitnot/drivers/led"
	"github.com/zeitnot/zeitnot/drivers/led/simled"
	"github.com/zeitnot/zeitnot/drivers/power"
	"github.com/zeitnot/zeitnot/drivers/power/ina219"
	"github.com/zeitnot/zeitnot/drivers/power/max17048"
)

// LED is an indicator LED of a profile, lit on the side whose clock runs.
type LED struct {
	Name      string // its key in the file: [led.<name>]
	Role      string // left or right; the name when it is left or right and no role is given
	Type      string // gpio (a GPIO line) or sim (the simulator's)
	Pin       string // gpio: the GPIO line
	ActiveLow bool   // gpio: lit when the line is low
	Line      int    // line of [led.<name>] in the file
}

// Simulated reports whether l is the simulator's LED, which needs no
// hardware.
func (l *LED) Simulated() bool { return l.Type == "sim" }

// Battery is the battery gauge of a profile.
type Battery struct {
	Type       string                    // ina219, max17048, or none
	Bus        string                    // /dev/i2c-N
	Address    uint16                    // I²C address
	Shunt      physic.ElectricResistance // ina219: the shunt resistor
	MaxCurrent physic.ElectricCurrent    // ina219: the largest current measured
	Cells      int                       // ina219: cells in series
	Curve      power.Curve               // ina219: voltage of one cell to charge; nil means power.LiIon
	LowPercent float64                   // the clock warns at or below this state of charge
	Line       int                       // line of [battery] in the file, 0 if absent
}

// PowerLoss is the power-loss input of a profile: a GPIO line a UPS board
// drives when the external supply fails.
type PowerLoss struct {
	Pin       string    // the GPIO line; "" when the profile has none
	ActiveLow bool      // the line is low while the supply is lost
	Pull      gpio.Pull // the bias asked of the line
	Line      int       // line of [power_loss] in the file, 0 if absent
}

// DefaultLowPercent is the low-battery threshold of a [battery] that gives
// no low_percent.
const DefaultLowPercent = 20

// The shape of the power sections of a profile file. Pointers tell a key
// left out from a zero.
type fileLED struct {
	Type      string
	Pin       string
	ActiveLow bool
	Role      string
}

type fileBattery struct {
	Type       string
	Bus        string
	Address    *int64
	ShuntOhms  *float64
	MaxAmps    *float64
	Cells      *int64
	Curve      [][]float64
	LowPercent *float64
}

type filePowerLoss struct {
	Pin       string
	ActiveLow *bool
	Pull      string
}

// batteryType is one row of the battery gauge registry.
type batteryType struct {
	addrs   [][2]uint16
	defAddr uint16
	shunt   bool // takes shunt_ohms, max_amps, cells and curve
	open    func(b i2c.Bus, bt *Battery) (power.Gauge, error)
}

// batteryTypes is every battery gauge a profile may name.
var batteryTypes = map[string]batteryType{
	"ina219":   {addrs: [][2]uint16{{0x40, 0x4F}}, defAddr: 0x40, shunt: true, open: openINA219},
	"max17048": {addrs: [][2]uint16{{0x36, 0x36}}, defAddr: 0x36, open: openMAX17048},
}

// BatteryTypes returns the battery gauges a profile may name.
func BatteryTypes() []string { return slices.Sorted(maps.Keys(batteryTypes)) }

// ina219Opts are the driver's options for b.
func (b *Battery) ina219Opts() ina219.Opts {
	return ina219.Opts{Addr: b.Address, Shunt: b.Shunt, MaxCurrent: b.MaxCurrent, Cells: b.Cells, Curve: b.Curve}
}

// power checks the LEDs, the battery, the power-loss input and the
// real-time clock. It runs after the displays, buttons and buzzer, whose
// pins and I²C addresses it must not take again.
func (c *checker) power(p *Profile, f *file) {
	c.leds(p, f)
	i2cUsers := map[string]string{} // "bus@addr" to who
	for _, d := range p.Displays {
		if strings.HasPrefix(d.Bus, "/dev/i2c-") {
			i2cUsers[fmt.Sprintf("%s@%#x", d.Bus, d.Address)] = fmt.Sprintf("display %q", d.Name)
		}
	}
	c.battery(p, f, i2cUsers)
	c.powerLoss(p, f)
	c.rtc(p, f, i2cUsers)
}

func (c *checker) leds(p *Profile, f *file) {
	names := slices.SortedFunc(maps.Keys(f.LED), func(a, b string) int {
		if d := c.line("led", a) - c.line("led", b); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	roles := map[string]string{}
	for _, name := range names {
		fl := f.LED[name]
		line := c.line("led", name)
		at := func(key string) int { return c.line("led", name, key) }
		who := fmt.Sprintf("led %q", name)
		l := LED{Name: name, Role: fl.Role, Type: fl.Type, Pin: fl.Pin, ActiveLow: fl.ActiveLow, Line: line}
		if l.Role == "" && (name == "left" || name == "right") {
			l.Role = name
		}
		switch l.Role {
		case "left", "right":
			if other, ok := roles[l.Role]; ok {
				c.errAt(at("role"), "%s: role %s is already taken by led %q", who, l.Role, other)
			}
			roles[l.Role] = name
		case "":
			c.errAt(line, "%s: missing required field role (left or right: the side whose running clock lights it)", who)
		default:
			c.errAt(at("role"), "%s: role %q is not left or right", who, l.Role)
		}
		switch l.Type {
		case "", "gpio":
			l.Type = "gpio"
			if l.Pin == "" {
				c.errAt(line, "%s: missing required field pin (a GPIO line such as \"GPIO12\")", who)
				continue
			}
			c.take(l.Pin, who, "", at("pin"))
		case "sim":
			if l.Pin != "" || l.ActiveLow {
				c.errAt(at("pin"), "%s: a simulated LED takes no pin", who)
			}
		default:
			c.errAt(at("type"), "%s: unknown type %q (gpio or sim)", who, l.Type)
			continue
		}
		p.LEDs = append(p.LEDs, l)
	}
}

// i2cDevice checks the bus and address of a battery gauge or real-time
// clock, and returns them.
func (c *checker) i2cDevice(who, section, bus string, addr *int64, addrs [][2]uint16, defAddr uint16, users map[string]string) (string, uint16, bool) {
	line := c.line(section)
	if bus == "" {
		c.errAt(line, "%s: missing required field bus (an I²C bus such as \"/dev/i2c-1\")", who)
		return "", 0, false
	}
	b, kind := normalBus(bus)
	if kind != connI2C {
		c.errAt(c.line(section, "bus"), "%s: bus %q is not an I²C bus such as \"/dev/i2c-1\"", who, bus)
		return "", 0, false
	}
	a := defAddr
	if addr != nil {
		if !inRanges(*addr, addrs) {
			c.errAt(c.line(section, "address"), "%s: address %#x out of range (%s)", who, *addr, addrHelp(addrs))
			return "", 0, false
		}
		a = uint16(*addr)
	}
	k := fmt.Sprintf("%s@%#x", b, a)
	if other, ok := users[k]; ok {
		c.errAt(c.line(section, "address"), "%s: address %#x on %s is already used by %s", who, a, b, other)
	}
	users[k] = who
	for _, pin := range busPins(b) {
		c.take(pin, "bus "+b, b, c.line(section, "bus"))
	}
	return b, a, true
}

func addrHelp(r [][2]uint16) string {
	if len(r) == 1 && r[0][0] == r[0][1] {
		return fmt.Sprintf("%#x only", r[0][0])
	}
	return rangesHelp(r)
}

func (c *checker) battery(p *Profile, f *file, users map[string]string) {
	p.Battery = Battery{Type: "none", LowPercent: DefaultLowPercent}
	fb := f.Battery
	if fb == nil {
		return
	}
	line := c.line("battery")
	at := func(key string) int { return c.line("battery", key) }
	b := Battery{Type: fb.Type, LowPercent: DefaultLowPercent, Line: line}
	if fb.Type == "" {
		c.errAt(line, "battery: missing required field type (%s)", strings.Join(BatteryTypes(), ", "))
		return
	}
	t, ok := batteryTypes[fb.Type]
	if !ok {
		c.errAt(at("type"), "battery: unknown type %q (%s)", fb.Type, strings.Join(BatteryTypes(), ", "))
		return
	}
	bus, addr, ok := c.i2cDevice("battery", "battery", fb.Bus, fb.Address, t.addrs, t.defAddr, users)
	if !ok {
		return
	}
	b.Bus, b.Address = bus, addr
	if fb.LowPercent != nil {
		if v := *fb.LowPercent; v < 0 || v > 100 || math.IsNaN(v) {
			c.errAt(at("low_percent"), "battery: low_percent %g is not between 0 and 100", v)
		} else {
			b.LowPercent = v
		}
	}
	if !t.shunt {
		for key, given := range map[string]bool{"shunt_ohms": fb.ShuntOhms != nil, "max_amps": fb.MaxAmps != nil, "cells": fb.Cells != nil, "curve": fb.Curve != nil} {
			if given {
				c.errAt(at(key), "battery: %s is for the ina219, not the %s", key, fb.Type)
			}
		}
		p.Battery = b
		return
	}
	d := ina219.DefaultOpts
	b.Shunt, b.MaxCurrent, b.Cells = d.Shunt, d.MaxCurrent, d.Cells
	good := true
	if v := fb.ShuntOhms; v != nil {
		if *v <= 0 || *v > 100 || math.IsNaN(*v) {
			c.errAt(at("shunt_ohms"), "battery: shunt_ohms %g is not above 0 and at most 100", *v)
			good = false
		} else {
			b.Shunt = physic.ElectricResistance(math.Round(*v * float64(physic.Ohm)))
		}
	}
	if v := fb.MaxAmps; v != nil {
		if *v <= 0 || *v > 1000 || math.IsNaN(*v) {
			c.errAt(at("max_amps"), "battery: max_amps %g is not above 0 and at most 1000", *v)
			good = false
		} else {
			b.MaxCurrent = physic.ElectricCurrent(math.Round(*v * float64(physic.Ampere)))
		}
	}
	if v := fb.Cells; v != nil {
		if *v < 1 || *v > 16 {
			c.errAt(at("cells"), "battery: cells %d is not between 1 and 16", *v)
			good = false
		} else {
			b.Cells = int(*v)
		}
	}
	if fb.Curve != nil {
		for i, pt := range fb.Curve {
			if len(pt) != 2 || pt[0] <= 0 || pt[0] > 100 || math.IsNaN(pt[0]) || math.IsNaN(pt[1]) {
				c.errAt(at("curve"), "battery: curve point %d: want [volts of one cell, percent], e.g. [3.7, 20]", i+1)
				good = false
				break
			}
			b.Curve = append(b.Curve, power.CurvePoint{V: physic.ElectricPotential(math.Round(pt[0] * float64(physic.Volt))), Percent: pt[1]})
		}
		if good {
			if err := b.Curve.Check(); err != nil {
				c.errAt(at("curve"), "battery: curve: %v", err)
				good = false
			}
		}
	}
	if good {
		o := b.ina219Opts()
		if err := o.Check(); err != nil {
			c.errAt(line, "battery: %s", strings.TrimPrefix(err.Error(), "ina219: "))
		}
	}
	p.Battery = b
}

func (c *checker) powerLoss(p *Profile, f *file) {
	fp := f.PowerLoss
	if fp == nil {
		return
	}
	line := c.line("power_loss")
	pl := PowerLoss{Pin: fp.Pin, ActiveLow: power.DefaultLossOpts.ActiveLow, Pull: power.DefaultLossOpts.Pull, Line: line}
	if fp.ActiveLow != nil {
		pl.ActiveLow = *fp.ActiveLow
	}
	if fp.Pull != "" {
		if v, ok := pull(fp.Pull); ok {
			pl.Pull = v
		} else {
			c.errAt(c.line("power_loss", "pull"), "power_loss: pull %q is not up, down, none or keep", fp.Pull)
		}
	}
	if fp.Pin == "" {
		c.errAt(line, "power_loss: missing required field pin (the GPIO line the UPS board drives)")
		return
	}
	c.take(fp.Pin, "the power-loss input", "", c.line("power_loss", "pin"))
	p.PowerLoss = pl
}

// OpenLED is an open LED.
type OpenLED struct {
	LED
	Dev led.LED
}

// LED returns the open LED with role (left or right), if any.
func (d *Devices) LED(role string) (OpenLED, bool) {
	for _, l := range d.LEDs {
		if l.Role == role {
			return l, true
		}
	}
	return OpenLED{}, false
}

// openLoss watches a power-loss line; replaced by tests.
var openLoss = func(pin string, o *power.LossOpts) (power.LossInput, error) {
	l, err := power.OpenLoss(pin, o)
	if err != nil {
		return nil, err
	}
	return l, nil
}

func (o *opener) leds(p *Profile) {
	for _, l := range p.LEDs {
		r := Result{Kind: "led", Name: l.Name}
		var dev led.LED
		var err error
		if l.Simulated() {
			dev = &simled.LED{Name: l.Name}
		} else if err = o.host(); err != nil {
			err = fmt.Errorf("initializing periph: %w", err)
		} else if pin := pinByName(l.Pin); pin == nil {
			err = fmt.Errorf("no GPIO line named %s on this machine", l.Pin)
		} else {
			dev, err = led.New(pin, &led.Opts{Name: l.Name, ActiveLow: l.ActiveLow})
		}
		if err != nil {
			r.Err = fmt.Errorf("led %q: %w", l.Name, err)
		} else {
			r.Device = dev.String()
			o.devs.LEDs = append(o.devs.LEDs, OpenLED{LED: l, Dev: dev})
		}
		o.devs.Results = append(o.devs.Results, r)
	}
}

// i2cAt opens the bus of an I²C device and explains a failure to reach it.
func (o *opener) i2cAt(bus string) (i2c.Bus, error) {
	if err := o.host(); err != nil {
		return nil, fmt.Errorf("initializing periph: %w", err)
	}
	return o.i2cBus(bus)
}

func noAnswerAt(bus string, addr uint16, err error) error {
	if noAnswer(err) {
		return fmt.Errorf("no I2C device answers at 0x%02X on %s", addr, bus)
	}
	return err
}

func (o *opener) battery(p *Profile) {
	b := p.Battery
	t, ok := batteryTypes[b.Type]
	if !ok {
		return
	}
	r := Result{Kind: "battery"}
	g, err := func() (power.Gauge, error) {
		bus, err := o.i2cAt(b.Bus)
		if err != nil {
			return nil, err
		}
		g, err := t.open(bus, &b)
		if err != nil {
			return nil, noAnswerAt(b.Bus, b.Address, err)
		}
		return g, nil
	}()
	if err == nil {
		var rd power.Reading
		if rd, err = g.Read(); err == nil {
			r.Device = fmt.Sprintf("%s: %s (low at %g%%)", g, rd, b.LowPercent)
			o.devs.Battery = g
		}
	}
	if err != nil {
		r.Err = fmt.Errorf("battery: %w", err)
	}
	o.devs.Results = append(o.devs.Results, r)
}

func openINA219(bus i2c.Bus, b *Battery) (power.Gauge, error) {
	opts := b.ina219Opts()
	return ina219.New(bus, &opts)
}

func openMAX17048(bus i2c.Bus, b *Battery) (power.Gauge, error) {
	return max17048.New(bus, &max17048.Opts{Addr: b.Address})
}

func (o *opener) powerLoss(p *Profile) {
	pl := p.PowerLoss
	if pl.Pin == "" {
		return
	}
	r := Result{Kind: "power-loss"}
	in, err := openLoss(pl.Pin, &power.LossOpts{ActiveLow: pl.ActiveLow, Pull: pl.Pull, Debounce: power.DefaultLossOpts.Debounce})
	if err != nil {
		r.Err = err
	} else {
		r.Device = in.String()
		o.devs.PowerLoss = in
	}
	o.devs.Results = append(o.devs.Results, r)
}
