package oledsim

import (
	"fmt"
	"sync"

	"periph.io/x/conn/v3/conntest"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"
	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/conn/v3/spi/spitest"
)

// ReplayI2C feeds the chip every write to addr among ops, in order.
func (c *Chip) ReplayI2C(ops []i2ctest.IO, addr uint16) error {
	for i, op := range ops {
		if op.Addr != addr {
			continue
		}
		if len(op.R) != 0 {
			return fmt.Errorf("oledsim: %s: op %d reads from a write-only chip", c.Name, i)
		}
		if err := c.I2C(op.W); err != nil {
			return fmt.Errorf("op %d: %w", i, err)
		}
	}
	return nil
}

// DCPin is a D/C line that notes, each time it is set, how many writes Rec
// holds, so ReplaySPI knows which writes were commands and which data.
type DCPin struct {
	gpiotest.Pin
	Rec *spitest.Record

	mu      sync.Mutex
	changes []dcChange
}

type dcChange struct {
	op int
	l  gpio.Level
}

// Out implements gpio.PinOut.
func (p *DCPin) Out(l gpio.Level) error {
	p.Rec.Lock()
	n := len(p.Rec.Ops)
	p.Rec.Unlock()
	p.mu.Lock()
	p.changes = append(p.changes, dcChange{n, l})
	p.mu.Unlock()
	return p.Pin.Out(l)
}

// ReplaySPI feeds the chip every write recorded in rec, as commands when dc
// was low and as data when it was high.
func (c *Chip) ReplaySPI(rec *spitest.Record, dc *DCPin) error {
	rec.Lock()
	ops := append([]conntest.IO(nil), rec.Ops...)
	rec.Unlock()
	dc.mu.Lock()
	changes := append([]dcChange(nil), dc.changes...)
	dc.mu.Unlock()
	level := gpio.Low
	for i, op := range ops {
		for len(changes) > 0 && changes[0].op <= i {
			level = changes[0].l
			changes = changes[1:]
		}
		var err error
		if level == gpio.High {
			err = c.Data(op.W)
		} else {
			err = c.Command(op.W...)
		}
		if err != nil {
			return fmt.Errorf("op %d: %w", i, err)
		}
	}
	return nil
}
