package power_test

import (
	"fmt"

	"periph.io/x/conn/v3/physic"

	"github.com/zeitnot/zeitnot/drivers/power"
)

func ExampleCurve_Percent() {
	for _, mv := range []physic.ElectricPotential{4150, 3900, 3750, 3600} {
		fmt.Printf("%s: %.0f%%\n", mv*physic.MilliVolt, power.LiIon.Percent(mv*physic.MilliVolt))
	}
	// Output:
	// 4.150V: 95%
	// 3.900V: 63%
	// 3.750V: 23%
	// 3.600V: 8%
}
