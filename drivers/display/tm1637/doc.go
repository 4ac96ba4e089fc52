// Package tm1637 drives 7-segment LED modules on a Titan Micro TM1637: the
// common 0.36" and 0.56" 4-digit "clock" modules with a colon, and 6-digit
// ones, on two GPIO lines (CLK and DIO).
//
// The TM1637 speaks a two-wire protocol that looks like I²C but is not: no
// address, bytes sent least significant bit first, start and stop
// conditions as in I²C. It cannot share an I²C bus; each module needs its
// own two lines (or its own DIO and a shared CLK), and the driver bit-bangs
// them.
//
// # Quirks
//
// On 4-digit clock modules the colon is wired to the decimal point segment of
// the second digit: Show lights it for a ':' between digits 2 and 3, and a
// ':' elsewhere lights the decimal point before it (see sevenseg.FoldColons).
// Modules with decimal points have no colon; set Opts.Colons to 0.
//
// The chip acknowledges each byte by pulling DIO low from the falling edge
// of the eighth clock to the end of the ninth; the driver checks it, so a
// module that is not wired or not powered gives an error instead of
// silence. The module's own pull-ups (10 kΩ on most) keep DIO high when
// released. The driver lets go of DIO before the chip pulls it (see
// writeByte), so the two never fight: a push-pull high against the chip's
// acknowledge, as naive drivers do after a byte ending in a 1 bit, shorts
// the line for a moment at each such byte.
//
// Brightness has 8 steps of pulse width (1/16 to 14/16).
//
// Most 6-digit modules wire their digits out of order (3,2,1,6,5,4); set
// Opts.Order for those.
//
// # Datasheet
//
// https://www.mcielectronics.cl/website_MCI/static/documents/Datasheet_TM1637.pdf
package tm1637
