package ssd1306_test

import (
	"fmt"
	"log"

	"github.com/zeitnot/zeitnot/drivers/display/bitfont"
	"github.com/zeitnot/zeitnot/drivers/display/ssd1306"
	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/devices/v3/ssd1306/image1bit"
)

func Example() {
	// On a Pi: host.Init(), then b, err := i2creg.Open("") for /dev/i2c-1.
	// A recording bus stands in for it here.
	b := &i2ctest.Record{}
	opts := ssd1306.DefaultOpts
	opts.Addr = 0x3D // the right player's panel, address jumper moved
	dev, err := ssd1306.NewI2C(b, &opts)
	if err != nil {
		log.Fatal(err)
	}
	frame := image1bit.NewVerticalLSB(dev.Bounds())
	for _, t := range []string{"1:29", "1:28", "1:28"} {
		clear(frame.Pix)
		bitfont.Draw(frame, 10, 20, t, 4)
		before := len(b.Ops)
		if err := dev.Draw(frame); err != nil {
			log.Fatal(err)
		}
		sent := 0
		for _, op := range b.Ops[before:] {
			sent += len(op.W)
		}
		fmt.Printf("%s %s: %d bytes\n", dev, t, sent)
	}
	// Output:
	// ssd1306 128x64 on record@0x3d 1:29: 1027 bytes
	// ssd1306 128x64 on record@0x3d 1:28: 37 bytes
	// ssd1306 128x64 on record@0x3d 1:28: 0 bytes
}
