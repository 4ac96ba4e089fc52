package wiring

import (
	"fmt"
	"strings"

	"github.com/zeitnot/zeitnot/drivers/profile"
)

// modPin is one pin of a display module and what it is wired to.
type modPin struct {
	name   string // as printed on the module
	fn     string // "GND", "3V3" or "5V"; a bus line ("SDA", "SCL", "MOSI", "SCLK", "CS"); or "pin:dc", a line of the profile's pins
	signal Signal
	unset  string // an optional "pin:" the profile leaves out is tied to this supply; "" leaves it unwired
}

// module is what the wiring knows of one display type: the part to buy and
// its pins on each kind of connection.
type module struct {
	chip string                          // "SSD1306"
	kind func(d *profile.Display) string // the module as sold: `0.96" SSD1306 OLED module, 128x64, I²C (4 pins)`
	spec func(d *profile.Display) string // ratings and what to look for
	i2c  []modPin                        // on an I²C bus
	spi  []modPin                        // on an SPI port
	gpio []modPin                        // on GPIO lines
}

var (
	pGND  = modPin{name: "GND", fn: "GND", signal: Ground}
	pVCC  = modPin{name: "VCC", fn: "3V3", signal: Supply3V3}
	pVCC5 = modPin{name: "VCC", fn: "5V", signal: Supply5V}
	pSDA  = modPin{name: "SDA", fn: "SDA", signal: I2CData}
	pSCL  = modPin{name: "SCL", fn: "SCL", signal: I2CClock}
)

// oledI2C and oledSPI are the pins of the common 4-pin I²C and 7-pin SPI
// OLED modules, in their order on the board.
var (
	oledI2C = []modPin{pGND, pVCC, pSCL, pSDA}
	oledSPI = []modPin{pGND, pVCC,
		{name: "D0", fn: "SCLK", signal: SPIBus},
		{name: "D1", fn: "MOSI", signal: SPIBus},
		{name: "RES", fn: "pin:reset", signal: Control, unset: "3V3"},
		{name: "DC", fn: "pin:dc", signal: Control},
		{name: "CS", fn: "CS", signal: SPIBus}}
)

// modules is every display type the wiring can draw, by profile type.
var modules = map[string]module{
	"ssd1306": {chip: "SSD1306", kind: oledKind("SSD1306"), spec: oledSpec, i2c: oledI2C, spi: oledSPI},
	"sh1106":  {chip: "SH1106", kind: oledKind("SH1106"), spec: oledSpec, i2c: oledI2C, spi: oledSPI},
	"tm1637": {chip: "TM1637", kind: digitsKind("TM1637", "7-segment module with colon"),
		spec: fixed("4 pins: CLK DIO VCC GND; power it from 3.3 V: its data lines are pulled up to VCC, and 5 V on a GPIO line harms the Pi"),
		gpio: []modPin{{name: "CLK", fn: "pin:clk", signal: Control}, {name: "DIO", fn: "pin:dio", signal: Control}, pVCC, pGND}},
	"max7219": {chip: "MAX7219", kind: digitsKind("MAX7219", "7-segment module"),
		spec: fixed("5 pins: VCC GND DIN CS CLK; VCC 5 V; its inputs are specified for 3.5 V, so add a 74AHCT125 level shifter if it misreads"),
		spi:  []modPin{pVCC5, pGND, {name: "DIN", fn: "MOSI", signal: SPIBus}, {name: "CS", fn: "CS", signal: SPIBus}, {name: "CLK", fn: "SCLK", signal: SPIBus}}},
	"ht16k33": {chip: "HT16K33", kind: digitsKind("HT16K33", "7-segment display with I²C backpack"),
		spec: i2cSpec("3.3–5 V, wire it to 3.3 V"),
		i2c:  []modPin{pVCC, pGND, pSDA, pSCL}},
	"hd44780": {chip: "HD44780", kind: lcdKind(""),
		spec: fixed("5 V; V0 to the wiper of a 10 kΩ contrast potentiometer between 5 V and GND; RW to GND, so the LCD never drives the Pi's lines"),
		gpio: []modPin{{name: "VSS", fn: "GND", signal: Ground}, {name: "VDD", fn: "5V", signal: Supply5V},
			{name: "RS", fn: "pin:rs", signal: Control}, {name: "RW", fn: "GND", signal: Ground}, {name: "E", fn: "pin:e", signal: Control},
			{name: "D4", fn: "pin:d4", signal: Control}, {name: "D5", fn: "pin:d5", signal: Control},
			{name: "D6", fn: "pin:d6", signal: Control}, {name: "D7", fn: "pin:d7", signal: Control},
			{name: "A", fn: "pin:backlight", signal: Control, unset: "5V"}, {name: "K", fn: "GND", signal: Ground}}},
	"hd44780-pcf8574": {chip: "HD44780", kind: lcdKind(" with PCF8574 I²C backpack"),
		spec: i2cSpec("VCC 5 V; make sure the backpack does not pull SDA and SCL up to 5 V (remove its pull-ups, the Pi has its own)"),
		i2c:  []modPin{pGND, pVCC5, pSDA, pSCL}},
}

func fixed(s string) func(*profile.Display) string { return func(*profile.Display) string { return s } }

func i2cSpec(s string) func(*profile.Display) string {
	return func(d *profile.Display) string { return fmt.Sprintf("I²C address 0x%02X; %s", d.Address, s) }
}

func oledKind(chip string) func(*profile.Display) string {
	return func(d *profile.Display) string {
		s := fmt.Sprintf("%s OLED module, %s", chip, d.Size)
		if g := d.Diagonal(); g > 0 {
			s = fmt.Sprintf("%.2g\" %s", g, s)
		}
		if strings.HasPrefix(d.Bus, "/dev/spidev") {
			return s + ", SPI (7 pins)"
		}
		return s + ", I²C (4 pins)"
	}
}

func oledSpec(d *profile.Display) string {
	if strings.HasPrefix(d.Bus, "/dev/spidev") {
		return "pins GND VCC D0 D1 RES DC CS; 3.3–5 V, wired to 3.3 V"
	}
	s := fmt.Sprintf("pins GND VCC SCL SDA; 3.3–5 V, wired to 3.3 V; I²C address 0x%02X", d.Address)
	if d.Address == 0x3D {
		s += " (move the address resistor to the position marked 0x7A)"
	}
	return s
}

func digitsKind(chip, what string) func(*profile.Display) string {
	return func(d *profile.Display) string { return fmt.Sprintf("%s %d-digit %s", chip, d.Size.W, what) }
}

func lcdKind(suffix string) func(*profile.Display) string {
	return func(d *profile.Display) string {
		return fmt.Sprintf("%dx%d character LCD (HD44780)%s", d.Size.W, d.Size.H, suffix)
	}
}

// short is the display's part as the diagram names it.
func (m module) short(d *profile.Display) string {
	s := m.chip
	if g := d.Diagonal(); g > 0 {
		s = fmt.Sprintf("%.2g\" %s", g, s)
	}
	switch {
	case strings.HasPrefix(d.Bus, "/dev/i2c-"):
		return fmt.Sprintf("%s, I²C 0x%02X", s, d.Address)
	case strings.HasPrefix(d.Bus, "/dev/spidev"):
		return fmt.Sprintf("%s, SPI %s", s, strings.TrimPrefix(d.Bus, "/dev/"))
	}
	return s + ", GPIO"
}
