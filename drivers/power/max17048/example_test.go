package max17048_test

import (
	"fmt"
	"log"

	"periph.io/x/conn/v3/i2c/i2ctest"

	"github.com/zeitnot/zeitnot/drivers/power/max17048"
)

func Example() {
	// On a Pi: host.Init(), then b, err := i2creg.Open("/dev/i2c-1").
	b := &i2ctest.Playback{Ops: []i2ctest.IO{
		{Addr: 0x36, W: []byte{0x08}, R: []byte{0x00, 0x12}},
		{Addr: 0x36, W: []byte{0x02}, R: []byte{0xC3, 0x50}},
		{Addr: 0x36, W: []byte{0x04}, R: []byte{0x3A, 0x80}},
	}}
	dev, err := max17048.New(b, nil)
	if err != nil {
		log.Fatal(err)
	}
	r, err := dev.Read()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(dev, r)
	// Output: max17048 on playback@0x36 58% 3.906V
}
