// Package max7219 drives 8-digit 7-segment LED modules on a Maxim MAX7219
// (or MAX7221) over SPI.
//
// The chip is used in no-decode mode, with the segment font of package
// sevenseg, so it shows letters as well as digits. It has decimal points
// but no colon: a ':' lights the point of the digit before it.
//
// # Quirks
//
// Each write is a 16-bit word, register then data, latched when CS rises;
// the driver sends one word per SPI transfer.
//
// On the common red 8-digit modules digit 0 of the chip (register 1) is the
// rightmost; Opts.LeftFirst is for modules wired the other way.
//
// The MAX7219 runs on 5 V and wants at least 3.5 V for a logic high, more
// than a Pi's 3.3 V; most modules work anyway, a level shifter (or a
// MAX7221, or powering the module from 3.3 V at lower brightness) makes it
// reliable. The chip cannot be read, so an absent module goes unnoticed.
//
// Brightness has 16 steps.
//
// # Datasheet
//
// https://www.analog.com/media/en/technical-documentation/data-sheets/MAX7219-MAX7221.pdf
package max7219
