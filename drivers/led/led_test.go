package led

import (
	"errors"
	"strings"
	"testing"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"
)

// countPin counts the writes to a gpiotest.Pin and can fail them.
type countPin struct {
	gpiotest.Pin
	writes int
	fail   error
}

func (p *countPin) Out(l gpio.Level) error {
	if p.fail != nil {
		return p.fail
	}
	p.writes++
	return p.Pin.Out(l)
}

func TestSetWritesOnChange(t *testing.T) {
	for _, activeLow := range []bool{false, true} {
		p := &countPin{Pin: gpiotest.Pin{N: "GPIO12"}}
		d, err := New(p, &Opts{Name: "left", ActiveLow: activeLow})
		if err != nil {
			t.Fatal(err)
		}
		lit := gpio.Level(!activeLow)
		if p.writes != 1 || p.L == lit {
			t.Fatalf("active low %v: New left the line %v after %d writes; want it off", activeLow, p.L, p.writes)
		}
		for i, on := range []bool{true, true, true, false, false, true} {
			if err := d.Set(on); err != nil {
				t.Fatal(err)
			}
			if (p.L == lit) != on {
				t.Fatalf("active low %v, step %d: line %v for on=%v", activeLow, i, p.L, on)
			}
		}
		if p.writes != 4 {
			t.Errorf("active low %v: %d writes for 3 changes after the first", activeLow, p.writes)
		}
		if err := d.Close(); err != nil || p.L == lit {
			t.Errorf("Close: %v, line %v", err, p.L)
		}
		if err := d.Set(true); err == nil || !strings.Contains(err.Error(), "closed") {
			t.Errorf("Set after Close: %v", err)
		}
		if err := d.Close(); err != nil {
			t.Errorf("second Close: %v", err)
		}
	}
}

func TestFailedWriteIsRetried(t *testing.T) {
	p := &countPin{Pin: gpiotest.Pin{N: "GPIO16"}}
	d, err := New(p, &Opts{Name: "right"})
	if err != nil {
		t.Fatal(err)
	}
	p.fail = errors.New("gpioioctl: no such device")
	err = d.Set(true)
	if err == nil || err.Error() != "led right on GPIO16: gpioioctl: no such device" {
		t.Fatalf("error %q does not name the LED and its line", err)
	}
	p.fail = nil
	// The state is unknown after the failure: off is written although it
	// was the last state known.
	n := p.writes
	if err := d.Set(false); err != nil || p.writes != n+1 {
		t.Fatalf("Set(false) after a failure: %v, %d writes", err, p.writes-n)
	}
}

func TestNewErrors(t *testing.T) {
	if _, err := New(nil, &Opts{Name: "left"}); err == nil || err.Error() != "led: left: no pin" {
		t.Errorf("nil pin: %v", err)
	}
	p := &countPin{Pin: gpiotest.Pin{N: "GPIO5"}, fail: errors.New("busy")}
	if _, err := New(p, nil); err == nil || err.Error() != "led GPIO5: busy" {
		t.Errorf("failing pin: %v", err)
	}
}
