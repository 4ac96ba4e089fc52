// Package hd44780 drives character LCDs on a Hitachi HD44780 or compatible
// controller (16x2 above all, also 8x1 to 40x2 and 20x4), in 4-bit mode on
// six GPIO lines or through the PCF8574 I²C backpack most modules carry.
//
// Show sends only the characters that changed, each run addressed with one
// command.
//
// # Wiring
//
// On GPIO: RS, E and D4 to D7; tie RW to ground (the driver never reads the
// busy flag and waits the documented times instead); D0 to D3 stay
// unconnected. A Pi's 3.3 V outputs drive a 5 V module fine since the
// controller is only written.
//
// On the backpack the PCF8574's outputs P0 to P7 are RS, RW, E, the
// backlight, then D4 to D7: the wiring of nearly every backpack sold. Its
// address is 0x27 (PCF8574) or 0x3F (PCF8574A) with no jumper closed, down
// to 0x20 or 0x38 with all three closed.
//
// # Quirks
//
// The controller powers up in an unknown interface mode; the driver uses
// the datasheet's "initialisation by instruction" (0x3 three times, then
// 0x2) so it starts cleanly whatever state a previous program left.
//
// The character ROM (code A00, the common one) puts ¥ at the backslash and
// arrows at '~' and DEL; the driver shows those as blank, and maps ° µ ä ö ü
// ß ñ ÷ → ← to the ROM. Other characters are blank.
//
// Brightness is the backlight: the backpack switches it on or off (level 0
// is off: the LCD stays readable in daylight), on GPIO an optional line
// does. Contrast is a potentiometer on the module.
//
// # Datasheet
//
// https://www.sparkfun.com/datasheets/LCD/HD44780.pdf
package hd44780
