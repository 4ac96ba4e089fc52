package buzzer_test

import (
	"fmt"
	"log"

	"periph.io/x/conn/v3/gpio/gpiotest"

	"github.com/zeitnot/zeitnot/drivers/buzzer"
)

func ExampleOpenActive() {
	b, err := buzzer.OpenActive("GPIO18", &buzzer.DefaultOpts)
	if err != nil {
		log.Fatal(err)
	}
	defer b.Close()
	// Returns at once; the beeps play in the background.
	if err := b.Play(buzzer.DoubleBeep); err != nil {
		log.Print(err)
	}
}

func ExampleOpenPWM() {
	// A passive buzzer on GPIO18 with dtoverlay=pwm,pin=18,func=2.
	b, err := buzzer.OpenPWM(0, 0, &buzzer.DefaultOpts)
	if err != nil {
		log.Fatal(err)
	}
	defer b.Close()
	b.Play(buzzer.Alarm)
}

func ExampleNewActive() {
	pin := &gpiotest.Pin{N: "GPIO18"}
	b, err := buzzer.NewActive(pin, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer b.Close()
	fmt.Println(b)
	b.Play(buzzer.Beep)
	fmt.Println("sounding:", pin.L)
	// Output:
	// active buzzer on GPIO18
	// sounding: High
}

func ExamplePattern_Tones() {
	for _, p := range []buzzer.Pattern{buzzer.Beep, buzzer.DoubleBeep, buzzer.Alarm} {
		fmt.Println(p, p.Tones(), p.Duration())
	}
	// Output:
	// beep [{60ms 0s}] 60ms
	// double-beep [{80ms 80ms} {80ms 0s}] 240ms
	// alarm [{300ms 150ms} {300ms 150ms} {300ms 150ms} {900ms 0s}] 2.25s
}
