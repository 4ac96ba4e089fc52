// Package power reads the clock's supply: a battery gauge (how full the
// battery is) and a power-loss input (the external supply has failed and
// the clock runs on its battery or capacitor).
//
// FIDE's standards for electronic clocks, as summarised in the project's
// reference (shared/reference/clock-rules.md): "Battery level shown;
// low-battery warning, then at least 10 hours of correct running." This
// package measures; the clock decides what to show and when to warn.
//
// # Gauges
//
// A Gauge gives a Reading: the battery's voltage, its current where the
// chip measures one, and an estimate of its state of charge in percent.
// Debian's kernel has no driver for the chips on the usual Raspberry Pi UPS
// boards (no INA2xx, no MAX1704x), so the gauges are read from user space
// over /dev/i2c-N:
//
//   - ina219: a current and voltage monitor on a shunt resistor, as on
//     UPS boards that carry 18650 cells. It knows no state of charge; the
//     package estimates it from the voltage with a Curve.
//   - max17048: a fuel gauge for one Li-ion cell that computes the state
//     of charge itself (ModelGauge).
//
// # State of charge from voltage
//
// A Curve maps the voltage of one cell to a state of charge, interpolating
// linearly between its points. LiIon is a typical curve for one Li-ion or
// Li-polymer cell (4.2 V full, 3.0 V empty) under a light load such as a
// Raspberry Pi's (well under 0.5 C for 18650 cells). It is an estimate:
// the voltage sags under load and differs between cells and with
// temperature, so expect it to be off by 10 points or so in the flat middle
// of the curve, and better near empty, where it matters. A board with cells
// of another chemistry, or whose maker publishes a curve, is given its own.
//
// # Power loss
//
// Some UPS boards signal on a GPIO line that the external supply has
// failed. OpenLoss watches such a line with the button package's edge
// watcher (no polling, each edge stamped with its instant) and turns its
// changes into LossEvents. The line's level when it is opened gives no
// event: a clock started on battery hears of it when the supply comes back.
//
// The package powertest has a Gauge and a LossInput for tests.
package power
