// Package sh1106 drives monochrome OLED panels on a Sino Wealth SH1106
// controller: the 1.3" 128x64 modules common in kits, over I²C (or 4-wire
// SPI on the modules that bring it out).
//
// It sends only the changed columns of the changed pages, like package
// ssd1306, and looks much like it from outside, but the chip differs:
//
//   - Its RAM is 132 columns wide and the 128-column panel is centred on it,
//     so visible column 0 is RAM column 2 (Opts.ColOffset). A driver written
//     for the SSD1306 shows the picture shifted by two columns with a stripe
//     of noise at one edge.
//   - It has page addressing only: no horizontal addressing mode, no
//     column or page window (SSD1306 commands 0x20, 0x21, 0x22 mean nothing
//     to it), so every span is addressed with a page command and two column
//     nibbles.
//   - It has a DC-DC converter (0xAD, 0x8B) instead of the SSD1306's charge
//     pump command (0x8D), and a pump voltage command (0x30 to 0x33).
//   - Its 4-wire SPI is slower than the SSD1306's (10 MHz): NewSPI clocks
//     it at 4 MHz (MaxSpeed) unless Opts.Speed asks for less. At the
//     SSD1306's 8 MHz some modules garble bytes. u8g2 drives the SH1106 at
//     4 MHz where it drives the SSD1306 at 8 MHz, and the Linux fbtft
//     driver's commit says "SPI frequency limited to 2 MHz according to the
//     datasheet": set a lower Opts.Speed (a profile's speed_hz) if a panel
//     on long wires shows noise.
//   - Like the SSD1306 it is write-only on I²C: an absent panel shows up as a
//     write that is not acknowledged.
//
// The display stays off after New until the first Draw.
//
// # Datasheet
//
// https://www.pololu.com/file/0J1813/SH1106.pdf
package sh1106
