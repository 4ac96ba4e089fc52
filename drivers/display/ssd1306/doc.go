// Package ssd1306 drives monochrome OLED panels on a Solomon Systech SSD1306
// controller: the common 0.96" 128x64 and 0.91" 128x32 modules and the
// small 96x16, 72x40, 64x48 and 64x32 ones, over I²C or 4-wire SPI (at up
// to 10 MHz, 8 MHz by default).
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
// The controller has 128 segments and 64 COM lines; a smaller panel is
// wired to some of them, so each size needs its first RAM column and its
// COM pins configuration (command 0xDA). The driver knows these sizes, with
// the values u8g2 (u8x8_d_ssd1306_*.c) uses, and refuses others:
//
//	size    first RAM column        COM pins   modules
//	128x64  0                       0x12       0.96"
//	128x32  0                       0x02       0.91"
//	96x16   0 (32 when mirrored)    0x02       0.69"
//	72x40   28                      0x12       0.42"
//	64x48   32                      0x12       0.66"
//	64x32   32                      0x12       0.49"
//
// The 96x16 panel is wired to SEG32 to SEG127, so its first column moves
// with MirrorHorizontal; the others are centred. The multiplex ratio is the
// height minus one (u8g2 has a 64x32 variant with 0x2F; this is its "1f"
// one) and the display offset 0. A panel showing every other row, or half
// the picture stretched, needs Opts.COMPins.
//
// Many 1.3" 128x64 modules are not SSD1306 at all but SH1106 (package
// sh1106), which has no horizontal addressing mode: driven as an SSD1306
// they show garbage.
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
