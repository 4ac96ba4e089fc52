package ht16k33_test

import (
	"fmt"
	"log"

	"github.com/zeitnot/zeitnot/drivers/display/ht16k33"
	"periph.io/x/conn/v3/i2c/i2ctest"
)

func Example() {
	// On a Pi: host.Init(), then b, err := i2creg.Open("").
	b := &i2ctest.Record{}
	dev, err := ht16k33.New(b, &ht16k33.Opts{Addr: 0x71})
	if err != nil {
		log.Fatal(err)
	}
	if err := dev.Show("29:05"); err != nil {
		log.Fatal(err)
	}
	fmt.Println(dev)
	// Output: ht16k33 on record@0x71
}
