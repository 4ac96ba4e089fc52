// Package ssd1306 drives monochrome OLED panels on a Solomon Systech SSD1306
// controller: the common 0.96" 128x64 and 0.91" 128x32 modules, over I²C or
// 4-wire SPI.
//
// The driver keeps what the panel shows and sends only what changed: either
// the changed columns of each changed page (a band of 8 rows) in page
// addressing mode, or windows of columns and pages in horizontal addressing
// mode, whichever costs the fewest bytes for that frame. A window written
// again needs no addressing at all, since the controller's address pointer
// wraps back to its start, so a clock counting down on a 128x64 panel costs
// under 5% of full frames, which matters on I²C at 100 or 400 kHz.
//
// A full 128x64 frame is one I²C write of 1025 bytes (Linux takes up to
// 8192). After
// a failed write the next command write starts with two 0xA4, which complete
// any command the failure cut short, and sets the addressing mode again.
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
