// Package ssd1306 drives monochrome OLED panels on a Solomon Systech SSD1306
// controller: the common 0.96" 128x64 and 0.91" 128x32 modules, over I²C or
// 4-wire SPI.
//
// The driver keeps what the panel shows and sends only the changed columns of
// the changed pages (bands of 8 rows), each addressed with page addressing
// commands; when a clock counts down that is a few percent of a full frame,
// which matters on I²C at 100 or 400 kHz.
//
// # Quirks
//
// The I²C address is 0x3C, or 0x3D when the module's address jumper (often
// marked "0x78"/"0x7A", the 8-bit forms) is moved; two panels on one bus need
// different addresses. Modules sold as I²C-only tie D/C to the address
// select line.
//
// The controller is write-only: nothing can be read back, so a panel that is
// unplugged shows up only as a bus error (on I²C the write is not
// acknowledged; on SPI nothing at all is noticed).
//
// 128x64 panels wire COM pins in the "alternative" configuration and 128x32
// panels in the "sequential" one; a panel showing every other row, or half
// the picture stretched, needs Opts.COMPins.
//
// Most modules are mounted so that the remapped segment and COM scan order
// (the default here) shows the picture upright; MirrorHorizontal and
// MirrorVertical flip it, both together turn it by 180°.
//
// The display stays off after New until the first Draw, so the panel never
// shows the random RAM contents of power-up.
//
// # Datasheet
//
// https://cdn-shop.adafruit.com/datasheets/SSD1306.pdf
package ssd1306
