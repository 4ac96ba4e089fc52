package ds3231_test

import (
	"fmt"
	"log"

	"periph.io/x/conn/v3/i2c/i2ctest"

	"github.com/zeitnot/zeitnot/drivers/rtc/ds3231"
)

func Example() {
	// On a Pi: host.Init(), then b, err := i2creg.Open("/dev/i2c-1").
	regs := make([]byte, 0x13)
	copy(regs, []byte{0x05, 0x59, 0x23, 0x07, 0x14, 0x03, 0x26}) // 2026-03-14 23:59:05
	regs[0x11] = 0x19                                            // 25 °C
	b := &i2ctest.Playback{Ops: []i2ctest.IO{
		{Addr: 0x68, W: []byte{0x0F}, R: []byte{0x00}},
		{Addr: 0x68, W: []byte{0x00}, R: regs},
	}}
	dev, err := ds3231.New(b, nil)
	if err != nil {
		log.Fatal(err)
	}
	t, err := dev.Read()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(dev, t.Format("2006-01-02 15:04:05"), "valid:", t.Valid())
	// Output: ds3231 on playback@0x68 2026-03-14 23:59:05 valid: true
}
