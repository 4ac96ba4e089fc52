package profile

import (
	"slices"
	"testing"
)

// TestNodes: the files the daemon waits for at boot before it opens a
// profile's devices, for every builtin and for a build with a battery,
// an RTC, a power-loss input and a PWM buzzer.
func TestNodes(t *testing.T) {
	pwm := `[display.left]
type = "sim-oled"
size = "128x64"
[buttons]
left = "sim:z"
[buzzer]
type = "pwm"
chip = 1
channel = 1
`
	battery := `[display.left]
type = "sim-oled"
size = "128x64"
[buttons]
left = "sim:z"
[battery]
type = "max17048"
bus = "/dev/i2c-3"
`
	for _, c := range []struct {
		name, file string // a builtin's name, or a file's text
		want       []string
	}{
		{"sim", "", nil},
		{"sim-segment", "", nil},
		{"qemu-virt", "", []string{GPIOChip}},
		{"two-ssd1306-i2c", "", []string{GPIOChip, "/dev/i2c-1"}},
		{"one-ssd1306-spi", "", []string{GPIOChip, "/dev/spidev0.0"}},
		{"one-sh1106-spi", "", []string{GPIOChip, "/dev/spidev0.0"}},
		{"two-tm1637", "", []string{GPIOChip}},
		{"ups.toml", withPower, []string{GPIOChip, "/dev/i2c-1"}},
		{"pwm.toml", pwm, []string{"/sys/class/pwm/pwmchip1/pwm1/enable"}},
		{"battery.toml", battery, []string{"/dev/i2c-3"}},
	} {
		var p *Profile
		var err error
		if c.file == "" {
			p, err = Builtin(c.name)
		} else {
			p, err = Parse(c.name, []byte(c.file))
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := p.Nodes(); !slices.Equal(got, c.want) {
			t.Errorf("%s: Nodes() = %q, want %q", c.name, got, c.want)
		}
		if p.Simulated() != (len(c.want) == 0) && c.name != "pwm.toml" {
			t.Errorf("%s: Simulated() = %v with nodes %q", c.name, p.Simulated(), c.want)
		}
	}
}
