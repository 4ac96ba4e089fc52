// Package ht16k33 drives 4-digit 7-segment LED backpacks on a Holtek HT16K33
// over I²C, laid out as Adafruit's 0.56" and 1.2" backpacks are.
//
// # Layout
//
// The HT16K33 is a 16x8 LED matrix driver; the backpack wires each digit to
// one row of display RAM, two bytes per row: digit 1 at row 0, digit 2 at row
// 1, the colon at row 2 (bit 1), digit 3 at row 3 and digit 4 at row 4.
// Segment bits are A to G in bits 0 to 6 and the decimal point in bit 7.
// So the colon sits between the second and third digit; a ':' elsewhere in
// the text lights the decimal point before it.
//
// # Quirks
//
// The I²C address is 0x70 plus the address jumpers (A0 to A2), so 0x70 to
// 0x77: eight backpacks on one bus. The oscillator must be started (0x21)
// before the display turns on. The display RAM powers up with random
// contents; New clears all 16 bytes of it before the display is turned on. Brightness has 16 steps. A backpack that is
// absent does not acknowledge its address, so New fails.
//
// # Datasheet
//
// https://cdn-shop.adafruit.com/datasheets/ht16K33v110.pdf
package ht16k33
