package profile_test

import (
	"fmt"
	"log"

	"github.com/zeitnot/zeitnot/drivers/profile"
)

func ExampleParse() {
	_, err := profile.Parse("club.toml", []byte(`
[display.left]
type = "ssd1306"
bus = "/dev/i2c-1"
address = 0x3C

[display.right]
type = "ssd1306"
bus = "/dev/i2c-1"
address = 0x3C

[buttons]
left = "GPIO17"
right = "GPIO17"
`))
	fmt.Println(err)
	// Output:
	// club.toml:10: display "right": address 0x3c on /dev/i2c-1 is already used by display "left"
	// club.toml:14: GPIO17 is used by button "left" and by button "right"
}

func ExampleCheck() {
	p, err := profile.Builtin("sim")
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range profile.Check(p) {
		fmt.Println(r)
	}
	// Output:
	// display "left": ok: sim-oled 128x64 (left)
	// display "right": ok: sim-oled 128x64 (right)
	// buttons: ok: simulated: left sim:z, right sim:m, pause sim:space, plus sim:+, minus sim:-, ok sim:enter, announce-left sim:x, announce-right sim:n
	// buzzer: ok: simulated buzzer
	// led "left": ok: simulated led left
	// led "right": ok: simulated led right
}

func ExampleOpen() {
	p, err := profile.Lookup("two-ssd1306-i2c")
	if err != nil {
		log.Fatal(err)
	}
	devs, err := profile.Open(p)
	if err != nil {
		log.Print(err) // run with what opened
	}
	defer devs.Close()
	if left, ok := devs.Display("left"); ok {
		fmt.Println(left.Pixel)
	}
}
