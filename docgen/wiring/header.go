package wiring

import (
	"fmt"
	"strconv"
	"strings"
)

// HeaderPin is one pin of the Raspberry Pi's 40-pin header.
type HeaderPin struct {
	Number int    // physical pin, 1 to 40: odd pins on the row toward the board, even pins on the edge
	Name   string // "GPIO17" as periph names the line, or "3V3", "5V", "GND"
	Alt    string // the function the clock or the Pi gives the line there ("SDA1", "SPI0 MOSI"), or ""
}

// Power reports whether the pin is a supply or ground pin rather than a
// GPIO line.
func (h HeaderPin) Power() bool { return !strings.HasPrefix(h.Name, "GPIO") }

// Header is the 40-pin header of every Raspberry Pi since the B+ (the 3, 4,
// 400, 5, Zero 2 W), by physical pin: Header[0] is pin 1. GPIO names are
// BCM numbers.
var Header = [40]HeaderPin{
	{1, "3V3", ""}, {2, "5V", ""},
	{3, "GPIO2", "SDA1"}, {4, "5V", ""},
	{5, "GPIO3", "SCL1"}, {6, "GND", ""},
	{7, "GPIO4", "GPCLK0"}, {8, "GPIO14", "TXD"},
	{9, "GND", ""}, {10, "GPIO15", "RXD"},
	{11, "GPIO17", ""}, {12, "GPIO18", "PWM0"},
	{13, "GPIO27", ""}, {14, "GND", ""},
	{15, "GPIO22", ""}, {16, "GPIO23", ""},
	{17, "3V3", ""}, {18, "GPIO24", ""},
	{19, "GPIO10", "SPI0 MOSI"}, {20, "GND", ""},
	{21, "GPIO9", "SPI0 MISO"}, {22, "GPIO25", ""},
	{23, "GPIO11", "SPI0 SCLK"}, {24, "GPIO8", "SPI0 CE0"},
	{25, "GND", ""}, {26, "GPIO7", "SPI0 CE1"},
	{27, "GPIO0", "ID_SD"}, {28, "GPIO1", "ID_SC"},
	{29, "GPIO5", ""}, {30, "GND", ""},
	{31, "GPIO6", ""}, {32, "GPIO12", "PWM0"},
	{33, "GPIO13", "PWM1"}, {34, "GND", ""},
	{35, "GPIO19", "PWM1"}, {36, "GPIO16", ""},
	{37, "GPIO26", ""}, {38, "GPIO20", ""},
	{39, "GND", ""}, {40, "GPIO21", ""},
}

// PinOf returns the physical header pin of a GPIO line named as a profile
// names it: "GPIO17", "17" (periph takes a bare number for the line) or
// "P1_11" (periph's name for the header pin itself).
func PinOf(line string) (int, error) {
	name := line
	if n, err := strconv.Atoi(line); err == nil && n >= 0 {
		name = "GPIO" + strconv.Itoa(n)
	}
	if rest, ok := strings.CutPrefix(line, "P1_"); ok {
		n, err := strconv.Atoi(rest)
		if err == nil && n >= 1 && n <= 40 && !Header[n-1].Power() {
			return n, nil
		}
	}
	for _, h := range Header {
		if h.Name == name && !h.Power() {
			return h.Number, nil
		}
	}
	return 0, fmt.Errorf("%q is not a GPIO line on the 40-pin header (GPIO0 to GPIO27)", line)
}

// pinsNamed returns the header pins called name ("GND", "3V3", "5V").
func pinsNamed(name string) []int {
	var pins []int
	for _, h := range Header {
		if h.Name == name {
			pins = append(pins, h.Number)
		}
	}
	return pins
}

// busLines returns the GPIO lines of a bus by function, for the buses of a
// Raspberry Pi's header that a profile may name.
func busLines(bus string) map[string]string {
	switch bus {
	case "/dev/i2c-0":
		return map[string]string{"SDA": "GPIO0", "SCL": "GPIO1"}
	case "/dev/i2c-1":
		return map[string]string{"SDA": "GPIO2", "SCL": "GPIO3"}
	case "/dev/spidev0.0":
		return map[string]string{"MOSI": "GPIO10", "SCLK": "GPIO11", "CS": "GPIO8"}
	case "/dev/spidev0.1":
		return map[string]string{"MOSI": "GPIO10", "SCLK": "GPIO11", "CS": "GPIO7"}
	case "/dev/spidev1.0":
		return map[string]string{"MOSI": "GPIO20", "SCLK": "GPIO21", "CS": "GPIO18"}
	case "/dev/spidev1.1":
		return map[string]string{"MOSI": "GPIO20", "SCLK": "GPIO21", "CS": "GPIO17"}
	case "/dev/spidev1.2":
		return map[string]string{"MOSI": "GPIO20", "SCLK": "GPIO21", "CS": "GPIO16"}
	}
	return nil
}
