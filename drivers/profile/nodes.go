package profile

import (
	"fmt"
	"slices"
	"strings"
)

// GPIOChip is the GPIO character device that holds the header's lines on
// every supported Pi (the SoC's own controller, registered first).
const GPIOChip = "/dev/gpiochip0"

// Nodes returns the files Open needs before it can open p's devices: the
// device nodes of its I²C buses, SPI ports and GPIO chip, and the sysfs
// file that switches a PWM buzzer's channel on, each once, sorted. A simulated
// profile needs none.
//
// At boot these appear as udev works through the coldplug: a bus's node
// once udev has loaded its controller's module, an SPI node once the
// device is handed to spidev, a PWM channel once it is exported, and
// each opens for the clock only once udev's rule has given it its group.
// The daemon waits for exactly these (drivers/coldplug), not for udev's
// whole queue.
func (p *Profile) Nodes() []string {
	var n []string
	gpio := false
	pin := func(name string) {
		if name != "" && !strings.HasPrefix(name, "sim:") {
			gpio = true
		}
	}
	for i := range p.Displays {
		d := &p.Displays[i]
		if d.Simulated() {
			continue
		}
		if d.Bus != "" {
			n = append(n, d.Bus)
		}
		for _, name := range d.Pins {
			pin(name)
		}
	}
	for _, b := range p.Buttons {
		pin(b.Line)
	}
	for i := range p.LEDs {
		if !p.LEDs[i].Simulated() {
			pin(p.LEDs[i].Pin)
		}
	}
	switch p.Buzzer.Type {
	case "active":
		pin(p.Buzzer.Pin)
	case "pwm":
		n = append(n, fmt.Sprintf("/sys/class/pwm/pwmchip%d/pwm%d/enable", p.Buzzer.Chip, p.Buzzer.Channel))
	}
	pin(p.PowerLoss.Pin)
	for _, t := range []struct{ typ, bus string }{{p.Battery.Type, p.Battery.Bus}, {p.RTC.Type, p.RTC.Bus}} {
		if t.typ != "" && t.typ != "none" && t.bus != "" {
			n = append(n, t.bus)
		}
	}
	if gpio {
		n = append(n, GPIOChip)
	}
	slices.Sort(n)
	return slices.Compact(n)
}
