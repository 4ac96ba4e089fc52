package ina219_test

import (
	"fmt"
	"log"

	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/conn/v3/physic"

	"github.com/zeitnot/zeitnot/drivers/power/ina219"
)

func Example() {
	// On a Pi: host.Init(), then b, err := i2creg.Open("/dev/i2c-1").
	// Here the bus plays back what a UPS board's INA219 at 0x42 answers.
	b := &i2ctest.Playback{Ops: []i2ctest.IO{
		{Addr: 0x42, W: []byte{0x00, 0x3E, 0xEF}},
		{Addr: 0x42, W: []byte{0x05, 0x10, 0x62}},
		{Addr: 0x42, W: []byte{0x00}, R: []byte{0x3E, 0xEF}},
		{Addr: 0x42, W: []byte{0x02}, R: []byte{0x20, 0x02}}, // 4.096 V
		{Addr: 0x42, W: []byte{0x04}, R: []byte{0xEB, 0x86}}, // -5242 counts
	}}
	opts := ina219.DefaultOpts
	opts.Addr = 0x42
	opts.Shunt = 100 * physic.MilliOhm
	dev, err := ina219.New(b, &opts)
	if err != nil {
		log.Fatal(err)
	}
	r, err := dev.Read()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(dev)
	fmt.Printf("%s, %.0f mA, %.0f%%\n", r.Voltage, float64(r.Current)/float64(physic.MilliAmpere), r.Percent)
	// Output:
	// ina219 on playback@0x42
	// 4.096V, -512 mA, 90%
}
