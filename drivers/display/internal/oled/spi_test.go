package oled

import (
	"errors"
	"testing"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/conn/v3/spi/spitest"
)

// port records how it was connected, or fails to connect.
type port struct {
	spitest.Record
	speed physic.Frequency
	mode  spi.Mode
	bits  int
	err   error
}

func (p *port) Connect(f physic.Frequency, mode spi.Mode, bits int) (spi.Conn, error) {
	if p.err != nil {
		return nil, p.err
	}
	p.speed, p.mode, p.bits = f, mode, bits
	return p.Record.Connect(f, mode, bits)
}

// badPin is a D/C line that cannot be driven.
type badPin struct{ gpiotest.Pin }

func (*badPin) Out(gpio.Level) error { return errors.New("line busy") }

func TestNewSPI(t *testing.T) {
	for _, tt := range []struct{ speed, want physic.Frequency }{
		{4 * physic.MegaHertz, 4 * physic.MegaHertz},
		{physic.MegaHertz, physic.MegaHertz},
	} {
		p := &port{}
		dc := &gpiotest.Pin{N: "GPIO25", L: gpio.High}
		if _, err := NewSPI(p, dc, tt.speed); err != nil {
			t.Fatal(err)
		}
		if p.speed != tt.want || p.mode != spi.Mode0 || p.bits != 8 {
			t.Errorf("speed %v: connected at %v, mode %v, %d bits; want %v, mode 0, 8 bits", tt.speed, p.speed, p.mode, p.bits, tt.want)
		}
		if dc.Read() != gpio.Low {
			t.Error("D/C line not set low")
		}
	}
	// The chip packages choose the speed: none given is a mistake.
	if _, err := NewSPI(&port{}, &gpiotest.Pin{}, 0); err == nil || err.Error() != "SPI clock 0Hz is not a speed" {
		t.Errorf("NewSPI with no speed = %v", err)
	}
	if _, err := NewSPI(&port{}, &badPin{}, physic.MegaHertz); err == nil || err.Error() != "D/C line: line busy" {
		t.Errorf("NewSPI with a D/C line that fails = %v", err)
	}
	if _, err := NewSPI(&port{err: errors.New("no such port")}, &gpiotest.Pin{}, physic.MegaHertz); err == nil || err.Error() != "no such port" {
		t.Errorf("NewSPI on a port that fails = %v", err)
	}
}
