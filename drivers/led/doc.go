// Package led switches indicator lamps on GPIO lines: the LED inside an
// arcade button used as a lever, or a panel LED beside each display, lit on
// the side whose clock runs. FIDE's standards for electronic clocks ask
// that which clock is running be visible from 10 m; a lit lever is.
//
// # Wiring
//
// A Raspberry Pi's GPIO line gives 3.3 V and should not source more than
// about 16 mA, so a small LED takes a series resistor (330 Ω to 1 kΩ) from
// the line to the LED's anode, the cathode to ground: lit when the line is
// high. The LED in a 12 V or 5 V arcade button needs more than a GPIO line
// gives: switch it through an NPN transistor (2N2222, 1 kΩ to the base) or
// a logic-level MOSFET, again lit when the line is high. Modules that light
// when the line is low (an LED from 3.3 V to the line, or a PNP stage) take
// Opts.ActiveLow.
//
// # Writes
//
// Set writes the line only when the state changes, so a caller may set the
// state at every turn of its loop. After a failed write the state is
// unknown and the next Set writes again.
//
// Errors name the LED and its line, e.g. "led left on GPIO12: ...".
//
// The package ledtest has an LED for tests that records every change;
// simled has the simulator's LEDs.
package led
