package wiring_test

import (
	"fmt"
	"log"
	"os"

	"github.com/zeitnot/zeitnot/docgen/wiring"
	"github.com/zeitnot/zeitnot/drivers/profile"
)

// The wires of a small build: one I²C OLED and two levers. Supply and
// ground come from the header pins nearest each part's lines.
func Example() {
	p, err := profile.Parse("club.toml", []byte(`
[display.both]
type = "ssd1306"
bus = "/dev/i2c-1"

[buttons]
left = "GPIO17"
right = "GPIO27"
`))
	if err != nil {
		log.Fatal(err)
	}
	w, err := wiring.New(p)
	if err != nil {
		log.Fatal(err)
	}
	for _, d := range w.Devices {
		for _, pin := range d.Pins {
			fmt.Printf("%-12s %-3s  pin %2d  %s\n", d.Title, pin.Name, pin.Header, wiring.Header[pin.Header-1].Name)
		}
	}
	// Output:
	// display (both clocks) GND  pin  9  GND
	// display (both clocks) VCC  pin  1  3V3
	// display (both clocks) SCL  pin  5  GPIO3
	// display (both clocks) SDA  pin  3  GPIO2
	// left lever   NO   pin 11  GPIO17
	// left lever   COM  pin  9  GND
	// right lever  NO   pin 13  GPIO27
	// right lever  COM  pin  9  GND
}

func ExampleWiring_SVG() {
	p, err := profile.Builtin("two-ssd1306-i2c")
	if err != nil {
		log.Fatal(err)
	}
	w, err := wiring.New(p)
	if err != nil {
		log.Fatal(err)
	}
	w.SVG(os.Stdout) // the diagram of build A, as `zeitnot-docs wiring two-ssd1306-i2c` writes it
}
