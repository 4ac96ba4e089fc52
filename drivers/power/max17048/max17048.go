package max17048

import (
	"fmt"
	"sync"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"

	"github.com/zeitnot/zeitnot/drivers/power"
)

// Registers.
const (
	regVCell   = 0x02
	regSOC     = 0x04
	regVersion = 0x08
)

// vcellLSB is one count of VCELL: 78.125 µV.
const vcellLSB = 78125 * physic.NanoVolt

// Opts configures a gauge.
type Opts struct {
	// Addr is the I²C address; the chip's is 0x36.
	Addr uint16
}

// DefaultOpts is the chip's address.
var DefaultOpts = Opts{Addr: 0x36}

// Dev is an open MAX17048. It implements power.Gauge and is safe for
// concurrent use.
type Dev struct {
	name    string
	dev     i2c.Dev
	version uint16

	mu  sync.Mutex
	buf [3]byte
}

var _ power.Gauge = (*Dev)(nil)

// New opens the MAX17048 on b (nil opts means DefaultOpts): it reads the
// chip's VERSION register, and fails if nothing acknowledges.
func New(b i2c.Bus, opts *Opts) (*Dev, error) {
	if opts == nil {
		opts = &DefaultOpts
	}
	if opts.Addr == 0 || opts.Addr > 0x7F {
		return nil, fmt.Errorf("max17048: I²C address %#02x is not a 7-bit address", opts.Addr)
	}
	d := &Dev{
		name: fmt.Sprintf("max17048 on %s@%#02x", b, opts.Addr),
		dev:  i2c.Dev{Bus: b, Addr: opts.Addr},
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	v, err := d.read(regVersion)
	if err != nil {
		return nil, err
	}
	d.version = v
	return d, nil
}

// String implements power.Gauge, e.g. "max17048 on I2C1@0x36".
func (d *Dev) String() string { return d.name }

// Version returns the chip's VERSION register, read by New.
func (d *Dev) Version() uint16 { return d.version }

func (d *Dev) read(reg byte) (uint16, error) {
	d.buf[0] = reg
	if err := d.dev.Tx(d.buf[:1], d.buf[1:3]); err != nil {
		return 0, fmt.Errorf("%s: read register %#02x: %w", d.name, reg, err)
	}
	return uint16(d.buf[1])<<8 | uint16(d.buf[2]), nil
}

// Read implements power.Gauge: the cell's voltage and the chip's state of
// charge. The chip measures no current.
func (d *Dev) Read() (power.Reading, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	v, err := d.read(regVCell)
	if err != nil {
		return power.Reading{}, err
	}
	soc, err := d.read(regSOC)
	if err != nil {
		return power.Reading{}, err
	}
	return power.Reading{
		Voltage: physic.ElectricPotential(v) * vcellLSB,
		Percent: min(float64(soc)/256, 100),
	}, nil
}
