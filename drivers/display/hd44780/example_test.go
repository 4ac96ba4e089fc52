package hd44780_test

import (
	"fmt"
	"log"

	"github.com/zeitnot/zeitnot/drivers/display/hd44780"
	"periph.io/x/conn/v3/i2c/i2ctest"
)

func Example() {
	// On a Pi: host.Init(), then b, err := i2creg.Open("").
	b := &i2ctest.Record{}
	dev, err := hd44780.NewPCF8574(b, nil)
	if err != nil {
		log.Fatal(err)
	}
	if err := dev.Show("WHITE  1:29:05\nBLACK  0:09.7"); err != nil {
		log.Fatal(err)
	}
	cols, lines := dev.Size()
	fmt.Printf("%s, %dx%d\n", dev, cols, lines)
	// Output: hd44780 on record@0x27, 16x2
}
