package max7219_test

import (
	"fmt"
	"log"

	"github.com/zeitnot/zeitnot/drivers/display/max7219"
	"periph.io/x/conn/v3/spi/spitest"
)

func Example() {
	// On a Pi: host.Init(), then p, err := spireg.Open("SPI0.0").
	p := &spitest.Record{}
	dev, err := max7219.New(p, nil)
	if err != nil {
		log.Fatal(err)
	}
	// Both clocks on one module: four digits each.
	if err := dev.Show("1:29 0:42"); err != nil {
		log.Fatal(err)
	}
	if err := dev.SetBrightness(64); err != nil {
		log.Fatal(err)
	}
	fmt.Println(dev)
	// Output: max7219 on record
}
