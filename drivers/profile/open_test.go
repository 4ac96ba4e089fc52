package profile

import (
	"errors"
	"strings"
	"syscall"
	"testing"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/conn/v3/spi/spitest"

	"github.com/zeitnot/zeitnot/drivers/button/simbutton"
	"github.com/zeitnot/zeitnot/drivers/buzzer/simbuzzer"
	"github.com/zeitnot/zeitnot/drivers/display/simdisplay"
)

func TestOpenSim(t *testing.T) {
	for _, name := range []string{"sim", "sim-segment"} {
		p, err := Builtin(name)
		if err != nil {
			t.Fatal(err)
		}
		devs, err := Open(p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		results := map[string]int{"sim": 6, "sim-segment": 4}[name] // sim has two LEDs
		if len(devs.Displays) != 2 || len(devs.Results) != results {
			t.Fatalf("%s: %+v", name, devs)
		}
		left, ok := devs.Display("left")
		if !ok {
			t.Fatal("no left display")
		}
		if name == "sim" {
			px, ok := left.Pixel.(*simdisplay.Pixel)
			if !ok || px.Bounds().Dx() != 128 || px.Bounds().Dy() != 64 {
				t.Fatalf("left: %#v", left.Pixel)
			}
		} else {
			tx, ok := left.Text.(*simdisplay.Text)
			if c, l := tx.Size(); !ok || c != 4 || l != 1 {
				t.Fatalf("left: %#v", left.Text)
			}
		}
		if _, ok := devs.Buttons.(*simbutton.Source); !ok {
			t.Fatalf("buttons: %T", devs.Buttons)
		}
		if _, ok := devs.Buzzer.(*simbuzzer.Buzzer); !ok {
			t.Fatalf("buzzer: %T", devs.Buzzer)
		}
		for _, r := range devs.Results {
			if !r.OK() || !strings.Contains(r.String(), ": ok: ") {
				t.Fatalf("%s", r)
			}
		}
		if err := devs.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// nackBus answers at the addresses in ok (recording what is written) and
// fails like the kernel on a NACK elsewhere.
type nackBus struct {
	i2ctest.Record
	ok     map[uint16]bool
	closed bool
}

func (b *nackBus) Tx(addr uint16, w, r []byte) error {
	if !b.ok[addr] {
		return errors.New("sysfs-i2c: remote I/O error")
	}
	return b.Record.Tx(addr, w, r)
}

func (b *nackBus) Close() error { b.closed = true; return nil }

func (b *nackBus) String() string { return "I2C1" }

func fakeHardware(t *testing.T) {
	oldInit, oldI2C, oldSPI, oldPin := hostInit, openI2C, openSPI, pinByName
	t.Cleanup(func() { hostInit, openI2C, openSPI, pinByName = oldInit, oldI2C, oldSPI, oldPin })
	hostInit = func() error { return nil }
	openI2C = func(name string) (i2c.BusCloser, error) {
		return nil, errors.New("i2creg: unknown bus \"" + name + "\"")
	}
	openSPI = func(name string) (spi.PortCloser, error) {
		return nil, errors.New("spireg: unknown port \"" + name + "\"")
	}
	pinByName = func(string) gpio.PinIO { return nil }
}

func TestOpenI2CNoAnswer(t *testing.T) {
	fakeHardware(t)
	bus := &nackBus{ok: map[uint16]bool{0x3C: true}}
	opened := 0
	openI2C = func(name string) (i2c.BusCloser, error) {
		if name != "/dev/i2c-1" {
			t.Fatalf("opened %s", name)
		}
		opened++
		return bus, nil
	}
	p, err := Builtin("two-ssd1306-i2c")
	if err != nil {
		t.Fatal(err)
	}
	devs, err := Open(p)
	if err == nil {
		t.Fatal("no error")
	}
	if opened != 1 {
		t.Fatalf("bus opened %d times, want once for both displays", opened)
	}
	if len(devs.Displays) != 1 || devs.Displays[0].Name != "left" || devs.Displays[0].Pixel == nil {
		t.Fatalf("displays: %+v", devs.Displays)
	}
	r := devs.Results
	if !r[0].OK() || r[0].String() != `display "left": ok: ssd1306 128x64 on I2C1@0x3c` {
		t.Fatalf("left: %s", r[0])
	}
	if r[1].String() != `display "right": no I2C device answers at 0x3D on /dev/i2c-1` {
		t.Fatalf("right: %s", r[1])
	}
	if len(bus.Ops) == 0 || bus.Ops[0].Addr != 0x3C {
		t.Fatalf("nothing sent to the left panel: %v", bus.Ops)
	}
	if !strings.Contains(err.Error(), `display "right": no I2C device answers at 0x3D on /dev/i2c-1`) {
		t.Fatalf("joined error: %v", err)
	}
	devs.Close()
	if !bus.closed {
		t.Fatal("bus not closed")
	}
}

func TestCheckNoHardware(t *testing.T) {
	fakeHardware(t)
	p, err := Builtin("two-ssd1306-i2c")
	if err != nil {
		t.Fatal(err)
	}
	res := Check(p)
	if len(res) != 6 {
		t.Fatalf("%v", res)
	}
	want := []string{
		`display "left": no I2C bus /dev/i2c-1 on this machine (enable it with dtparam=i2c_arm=on)`,
		`display "right": no I2C bus /dev/i2c-1 on this machine (enable it with dtparam=i2c_arm=on)`,
	}
	for i, w := range want {
		if res[i].String() != w {
			t.Errorf("result %d: %s\nwant %s", i, res[i], w)
		}
	}
	// The buttons and the buzzer go to the real periph: this machine may or
	// may not have GPIO, but whatever happens the errors name the device.
	if !res[2].OK() && !strings.HasPrefix(res[2].String(), `button "left": `) {
		t.Errorf("buttons: %s", res[2])
	}
	if !res[3].OK() && !strings.HasPrefix(res[3].String(), `buzzer: `) {
		t.Errorf("buzzer: %s", res[3])
	}
	for i, w := range []string{`led "left": no GPIO line named GPIO12 on this machine`, `led "right": no GPIO line named GPIO16 on this machine`} {
		if res[4+i].String() != w {
			t.Errorf("result %d: %s\nwant %s", 4+i, res[4+i], w)
		}
	}
	tm, _ := Builtin("two-tm1637")
	res = Check(tm)
	if res[0].String() != `display "left": no GPIO line named GPIO5 on this machine (pin clk)` {
		t.Errorf("tm1637: %s", res[0])
	}
}

func TestOpenSPI(t *testing.T) {
	fakeHardware(t)
	dc := &gpiotest.Pin{N: "GPIO25"}
	rst := &gpiotest.Pin{N: "GPIO24", L: gpio.Low}
	pinByName = func(name string) gpio.PinIO {
		switch name {
		case "GPIO25":
			return dc
		case "GPIO24":
			return rst
		}
		return nil
	}
	port := &spitest.Record{}
	openSPI = func(name string) (spi.PortCloser, error) {
		if name != "/dev/spidev0.0" {
			t.Fatalf("opened %s", name)
		}
		return port, nil
	}
	p, err := Builtin("one-ssd1306-spi")
	if err != nil {
		t.Fatal(err)
	}
	devs, _ := Open(p)
	defer devs.Close()
	if !devs.Results[0].OK() {
		t.Fatalf("%s", devs.Results[0])
	}
	both, ok := devs.Display("both")
	if !ok || both.Pixel == nil {
		t.Fatal("no display with role both")
	}
	if rst.L != gpio.High {
		t.Fatal("reset left low")
	}
	if len(port.Ops) == 0 {
		t.Fatal("nothing sent on SPI")
	}
}

// speedPort is an SPI port that records the clock it was connected at.
type speedPort struct {
	spitest.Record
	speed physic.Frequency
}

func (p *speedPort) Connect(f physic.Frequency, mode spi.Mode, bits int) (spi.Conn, error) {
	p.speed = f
	return p.Record.Connect(f, mode, bits)
}

// TestOpenSPISpeed: an SPI display runs at its profile's speed_hz, and
// without one at its chip's default: 4 MHz for the SH1106, never the
// SSD1306's 8 MHz.
func TestOpenSPISpeed(t *testing.T) {
	for _, tt := range []struct {
		profile string
		speed   string // speed_hz line, if any
		want    physic.Frequency
	}{
		{"one-sh1106-spi", "", 4 * physic.MegaHertz},
		{"one-sh1106-spi", "speed_hz = 2000000", 2 * physic.MegaHertz},
		{"one-ssd1306-spi", "", 8 * physic.MegaHertz},
		{"one-ssd1306-spi", "speed_hz = 1000000", physic.MegaHertz},
	} {
		fakeHardware(t)
		pinByName = func(name string) gpio.PinIO { return &gpiotest.Pin{N: name} }
		port := &speedPort{}
		openSPI = func(string) (spi.PortCloser, error) { return port, nil }
		src, err := builtins.ReadFile("profiles/" + tt.profile + ".toml")
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Replace(string(src), "speed_hz = 4000000\n", "", 1)
		text = strings.Replace(text, "[buttons]", tt.speed+"\n\n[buttons]", 1)
		p, err := Parse(tt.profile+".toml", []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		devs, _ := Open(p)
		devs.Close()
		if !devs.Results[0].OK() || port.speed != tt.want {
			t.Errorf("%s %q: %s, connected at %v, want %v", tt.profile, tt.speed, devs.Results[0], port.speed, tt.want)
		}
	}
}

func TestOpenSPIMissingPin(t *testing.T) {
	fakeHardware(t)
	openSPI = func(name string) (spi.PortCloser, error) { return &spitest.Record{}, nil }
	p, _ := Builtin("one-ssd1306-spi")
	devs, err := Open(p)
	if err == nil {
		devs.Close()
		t.Fatal("Open with a missing pin: no error")
	}
	defer devs.Close()
	if devs.Results[0].String() != `display "both": no GPIO line named GPIO25 on this machine (pin dc)` {
		t.Fatalf("%s", devs.Results[0])
	}
}

func TestOpenMixedButtons(t *testing.T) {
	fakeHardware(t)
	p, err := Parse("m.toml", []byte(`
[display.both]
type = "sim-oled"
[buttons]
left = "sim:z"
right = "GPIO27"
`))
	if err != nil {
		t.Fatal(err)
	}
	res := Check(p)
	if len(res) != 2 || res[1].String() != "button: simulated (sim:) and GPIO buttons cannot be mixed" {
		t.Fatalf("%v", res)
	}
}

func TestOpenTextDisplays(t *testing.T) {
	fakeHardware(t)
	pins := map[string]*gpiotest.Pin{}
	pinByName = func(name string) gpio.PinIO {
		if pins[name] == nil {
			pins[name] = &gpiotest.Pin{N: name}
		}
		return pins[name]
	}
	bus := &nackBus{ok: map[uint16]bool{0x27: true, 0x70: true}}
	openI2C = func(string) (i2c.BusCloser, error) { return bus, nil }
	openSPI = func(string) (spi.PortCloser, error) { return &spitest.Record{}, nil }
	p := &Profile{Displays: []Display{
		{Name: "left", Type: "hd44780-pcf8574", Role: "left", Bus: "/dev/i2c-1", Address: 0x27, Size: Size{16, 2}},
		{Name: "right", Type: "ht16k33", Role: "right", Bus: "/dev/i2c-1", Address: 0x71, Size: Size{4, 1}},
		{Name: "lcd", Type: "hd44780", Role: "both", Size: Size{16, 2}, Pins: map[string]string{"rs": "GPIO7", "e": "GPIO8", "d4": "GPIO9", "d5": "GPIO10", "d6": "GPIO11", "d7": "GPIO12"}},
		{Name: "seg", Type: "max7219", Role: "both", Bus: "/dev/spidev1.0", Size: Size{8, 1}},
		{Name: "tm", Type: "tm1637", Role: "both", Size: Size{4, 1}, Pins: map[string]string{"clk": "GPIO5", "dio": "GPIO6"}},
	}}
	devs, _ := Open(p)
	defer devs.Close()
	want := []string{
		`display "left": ok: hd44780 on I2C1@0x27`,
		`display "right": no I2C device answers at 0x71 on /dev/i2c-1`,
		`display "lcd": ok: hd44780 on RS GPIO7 E GPIO8 D4-D7 GPIO9/GPIO10/GPIO11/GPIO12`,
	}
	for i, w := range want {
		if got := devs.Results[i].String(); got != w {
			t.Errorf("result %d: %s\nwant %s", i, got, w)
		}
	}
	if !devs.Results[3].OK() || !strings.HasPrefix(devs.Results[3].Device, "max7219") {
		t.Errorf("max7219: %s", devs.Results[3])
	}
	// The fake DIO line never pulls low: no acknowledge, and the error says so.
	if got := devs.Results[4].String(); got != `display "tm": tm1637 on GPIO5/GPIO6: no acknowledge for byte 0x80: is the module wired and powered?` {
		t.Errorf("tm1637: %s", got)
	}
	if len(devs.Displays) < 3 || devs.Displays[0].Text == nil {
		t.Fatalf("displays: %+v", devs.Displays)
	}
}

// TestI2CTimeoutIsNoAnswer: a controller that times out where another
// reports a missing acknowledge (QEMU's Pi 3) is told as a device that
// does not answer.
func TestI2CTimeoutIsNoAnswer(t *testing.T) {
	d := &Display{Address: 0x3C, Bus: "/dev/i2c-1"}
	for _, err := range []error{
		syscall.ETIMEDOUT,
		errors.New("sysfs-i2c: connection timed out"),
	} {
		if got := i2cErr(d, err).Error(); got != "no I2C device answers at 0x3C on /dev/i2c-1 (the transfer timed out)" {
			t.Errorf("%v: %s", err, got)
		}
	}
	if got := i2cErr(d, errors.New("bus busy")).Error(); got != "bus busy" {
		t.Errorf("other errors pass through: %s", got)
	}
}
