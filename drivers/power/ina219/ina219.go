package ina219

import (
	"fmt"
	"math"
	"sync"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"

	"github.com/zeitnot/zeitnot/drivers/power"
)

// Registers.
const (
	regConfig      = 0x00
	regBus         = 0x02
	regCurrent     = 0x04
	regCalibration = 0x05
)

// config: bus range 32 V (BRNG), PGA /8 (±320 mV), bus and shunt ADC 12
// bits with 32 samples averaged, shunt and bus continuous.
const (
	config      = 1<<13 | 3<<11 | 0xD<<7 | 0xD<<3 | 7 // 0x3EEF
	configReset = 0x399F                              // the power-on value
)

// maxShuntVoltage is the widest shunt range, PGA /8.
const maxShuntVoltage = 320 * physic.MilliVolt

// Opts configures a monitor.
type Opts struct {
	// Addr is the I²C address, 0x40 to 0x4F.
	Addr uint16
	// Shunt is the shunt resistor's value.
	Shunt physic.ElectricResistance
	// MaxCurrent is the largest current to measure; it sets the current's
	// resolution, MaxCurrent/32768. Shunt × MaxCurrent is at most 320 mV.
	MaxCurrent physic.ElectricCurrent
	// Cells is the number of cells in series; 0 means 1.
	Cells int
	// Curve gives the state of charge of one cell from its voltage; nil
	// means power.LiIon.
	Curve power.Curve
}

// DefaultOpts: address 0x40, a 0.1 Ω shunt, up to 3.2 A (320 mV across
// it), one Li-ion cell.
var DefaultOpts = Opts{
	Addr:       0x40,
	Shunt:      100 * physic.MilliOhm,
	MaxCurrent: 3200 * physic.MilliAmpere,
	Cells:      1,
}

// Dev is an open INA219. It implements power.Gauge and is safe for
// concurrent use.
type Dev struct {
	name  string
	dev   i2c.Dev
	cal   uint16
	lsb   float64 // amperes per count of the current register
	cells int
	curve power.Curve

	mu  sync.Mutex
	buf [3]byte
}

var _ power.Gauge = (*Dev)(nil)

// New configures the INA219 on b (nil opts means DefaultOpts) and writes
// its calibration. It fails if the options are out of range or the chip
// does not acknowledge.
func New(b i2c.Bus, opts *Opts) (*Dev, error) {
	if opts == nil {
		opts = &DefaultOpts
	}
	c, err := opts.calibration()
	if err != nil {
		return nil, err
	}
	r := float64(opts.Shunt) / float64(physic.Ohm)
	cells := max(opts.Cells, 1)
	curve := opts.Curve
	if curve == nil {
		curve = power.LiIon
	}
	d := &Dev{
		name:  fmt.Sprintf("ina219 on %s@%#02x", b, opts.Addr),
		dev:   i2c.Dev{Bus: b, Addr: opts.Addr},
		cal:   c,
		lsb:   0.04096 / (float64(c) * r),
		cells: cells,
		curve: curve,
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.setup(); err != nil {
		return nil, err
	}
	return d, nil
}

// Check reports what is wrong with the options, as New would: an address
// out of range, a shunt and max current the chip cannot measure or
// calibrate, a bad curve.
func (o *Opts) Check() error {
	_, err := o.calibration()
	return err
}

// calibration checks o and returns the calibration register's value.
func (o *Opts) calibration() (uint16, error) {
	if o.Addr < 0x40 || o.Addr > 0x4F {
		return 0, fmt.Errorf("ina219: I²C address %#02x is not between 0x40 and 0x4f", o.Addr)
	}
	if o.Shunt <= 0 || o.MaxCurrent <= 0 {
		return 0, fmt.Errorf("ina219: shunt %s and max current %s must both be above zero", o.Shunt, o.MaxCurrent)
	}
	if o.Cells < 0 {
		return 0, fmt.Errorf("ina219: %d cells", o.Cells)
	}
	if o.Curve != nil {
		if err := o.Curve.Check(); err != nil {
			return 0, fmt.Errorf("ina219: curve: %w", err)
		}
	}
	r := float64(o.Shunt) / float64(physic.Ohm)
	maxA := float64(o.MaxCurrent) / float64(physic.Ampere)
	if v := maxA * r; v > float64(maxShuntVoltage)/float64(physic.Volt)*(1+1e-9) {
		return 0, fmt.Errorf("ina219: %s through the %s shunt is %.0f mV, more than the 320 mV the chip measures: lower the max current", o.MaxCurrent, o.Shunt, v*1000)
	}
	cal := math.Trunc(0.04096 / (maxA / 32768 * r))
	if cal > 0xFFFE {
		return 0, fmt.Errorf("ina219: a %s shunt for at most %s needs calibration %.0f, above the chip's 65534: raise the max current", o.Shunt, o.MaxCurrent, cal)
	}
	c := uint16(cal) &^ 1
	if c == 0 {
		return 0, fmt.Errorf("ina219: a %s shunt for at most %s gives calibration 0: lower the max current", o.Shunt, o.MaxCurrent)
	}
	return c, nil
}

// String implements power.Gauge, e.g. "ina219 on I2C1@0x42".
func (d *Dev) String() string { return d.name }

// Calibration returns the value written to the calibration register.
func (d *Dev) Calibration() uint16 { return d.cal }

// setup writes the configuration and calibration; d.mu is held.
func (d *Dev) setup() error {
	if err := d.write(regConfig, config); err != nil {
		return err
	}
	return d.write(regCalibration, d.cal)
}

func (d *Dev) write(reg byte, v uint16) error {
	d.buf = [3]byte{reg, byte(v >> 8), byte(v)}
	if err := d.dev.Tx(d.buf[:], nil); err != nil {
		return fmt.Errorf("%s: write register %#02x: %w", d.name, reg, err)
	}
	return nil
}

func (d *Dev) read(reg byte) (uint16, error) {
	d.buf[0] = reg
	if err := d.dev.Tx(d.buf[:1], d.buf[1:3]); err != nil {
		return 0, fmt.Errorf("%s: read register %#02x: %w", d.name, reg, err)
	}
	return uint16(d.buf[1])<<8 | uint16(d.buf[2]), nil
}

// Read implements power.Gauge: the bus voltage, the current and the state
// of charge estimated from the voltage per cell. It reads three registers
// (configuration, bus voltage, current), and configures the chip again
// first if it finds it reset.
func (d *Dev) Read() (power.Reading, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	cfg, err := d.read(regConfig)
	if err != nil {
		return power.Reading{}, err
	}
	if cfg != config {
		// A reset (brown-out): the calibration is gone too.
		if err := d.setup(); err != nil {
			return power.Reading{}, err
		}
	}
	bus, err := d.read(regBus)
	if err != nil {
		return power.Reading{}, err
	}
	if bus&1 != 0 {
		return power.Reading{}, fmt.Errorf("%s: the current overflowed (OVF): more than the max current through the shunt?", d.name)
	}
	cur, err := d.read(regCurrent)
	if err != nil {
		return power.Reading{}, err
	}
	v := physic.ElectricPotential(bus>>3) * 4 * physic.MilliVolt
	amps := float64(int16(cur)) * d.lsb
	return power.Reading{
		Voltage:    v,
		Current:    physic.ElectricCurrent(math.Round(amps * float64(physic.Ampere))),
		HasCurrent: true,
		Percent:    d.curve.Percent(v / physic.ElectricPotential(d.cells)),
	}, nil
}
