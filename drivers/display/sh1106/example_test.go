package sh1106_test

import (
	"fmt"
	"log"

	"github.com/zeitnot/zeitnot/drivers/display/bitfont"
	"github.com/zeitnot/zeitnot/drivers/display/sh1106"
	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/devices/v3/ssd1306/image1bit"
)

func Example() {
	// On a Pi: host.Init(), then b, err := i2creg.Open("").
	b := &i2ctest.Record{}
	dev, err := sh1106.NewI2C(b, nil)
	if err != nil {
		log.Fatal(err)
	}
	frame := image1bit.NewVerticalLSB(dev.Bounds())
	bitfont.Draw(frame, 4, 24, "FLAG", 4)
	if err := dev.Draw(frame); err != nil {
		log.Fatal(err)
	}
	fmt.Println(dev)
	// Output: sh1106 128x64 on record@0x3c
}
