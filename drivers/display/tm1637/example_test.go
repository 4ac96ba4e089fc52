package tm1637_test

import (
	"fmt"
	"log"

	"github.com/zeitnot/zeitnot/drivers/display/tm1637"
	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"
)

// ackPin is a DIO line with a chip on it: it reads low (acknowledge) while
// released.
type ackPin struct{ gpiotest.Pin }

func (p *ackPin) Read() gpio.Level { return gpio.Low }

func Example() {
	// On a Pi: host.Init(), then gpioreg.ByName("GPIO23") and ("GPIO24").
	clk := &gpiotest.Pin{N: "GPIO23"}
	dio := &ackPin{gpiotest.Pin{N: "GPIO24"}}
	dev, err := tm1637.New(clk, dio, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range []string{"12:34", "0:09.7", "FLAG"} {
		if err := dev.Show(s); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Println(dev)
	// Output: tm1637 on GPIO23/GPIO24
}
