package led_test

import (
	"fmt"
	"log"

	"periph.io/x/conn/v3/gpio/gpiotest"

	"github.com/zeitnot/zeitnot/drivers/led"
)

func ExampleOpen() {
	// The LED in the left lever, through a transistor on GPIO12.
	l, err := led.Open("GPIO12", &led.Opts{Name: "left"})
	if err != nil {
		log.Fatal(err)
	}
	defer l.Close()
	if err := l.Set(true); err != nil {
		log.Print(err)
	}
}

func ExampleNew() {
	pin := &gpiotest.Pin{N: "GPIO12"}
	l, err := led.New(pin, &led.Opts{Name: "left"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(l, pin.L)
	l.Set(true)
	fmt.Println("lit:", pin.L)
	l.Close()
	fmt.Println("closed:", pin.L)
	// Output:
	// led left on GPIO12 Low
	// lit: High
	// closed: Low
}
