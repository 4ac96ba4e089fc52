package simdisplay_test

import (
	"fmt"

	"github.com/zeitnot/zeitnot/drivers/display"
	"github.com/zeitnot/zeitnot/drivers/display/simdisplay"
)

func ExampleNewPixel() {
	oled := simdisplay.NewPixel("sim-oled 128x32 (left)", 128, 32)
	f := display.NewFrame(oled.Bounds())
	f.Set(3, 4, display.On)
	if err := oled.Draw(f); err != nil {
		fmt.Println(err)
	}
	fmt.Println(oled, oled.Snapshot().BitAt(3, 4))
	// Output: sim-oled 128x32 (left) On
}

func ExampleNewText() {
	lcd := simdisplay.NewText("sim-lcd 16x2 (both)", 16, 2)
	_ = lcd.Show("WHITE    BLACK\n1:29:05  1:30:00")
	fmt.Println(lcd.Text())
	// Output:
	// WHITE    BLACK
	// 1:29:05  1:30:00
}
