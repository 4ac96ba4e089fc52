// Package ds3231 reads the time of a Maxim (Analog Devices) DS3231
// real-time clock over I²C, to tell whether the chip is there and whether
// its time can be trusted.
//
// The clock itself does not need the wall-clock time to keep a game: its
// times come from the monotonic clock. A DS3231 gives the system a correct
// date after a boot with no network, for the journal's timestamps. On the
// clock's image the kernel's own driver (rtc-ds1307, built into Debian's
// arm64 kernel) owns the chip as rtc0 and sets the system time from it at
// boot; this package only reads, for `zeitnot hardware check`.
//
// # Registers
//
// One read from register 0x00 gets the time (0x00 to 0x06), the control
// and status registers (0x0E, 0x0F) and the temperature (0x11, 0x12). The
// chip copies the time into a buffer at the start of the read, so the
// fields belong together. Time fields are BCD: seconds, minutes, hours
// (bit 6 set for 12-hour mode, then bit 5 for PM), day of week (1 to 7),
// date, month (bit 7 the century bit) and year (00 to 99). Read takes the
// time as UTC, as the kernel keeps it, and the years 2000 to 2099 (2100 to
// 2199 with the century bit).
//
// # Oscillator stop flag
//
// Bit 7 of the status register (OSF) is set whenever the oscillator has
// stopped (first power-up, a flat or missing coin cell) and stays set
// until software clears it: the time is then not to be trusted.
// Time.Valid reports it. This package never writes the chip. Versions of
// the kernel's driver differ here: some clear the flag when they find the
// chip (logging "SET TIME!"), and the check then no longer sees it; newer
// ones leave it set.
//
// # Datasheet
//
// https://www.analog.com/media/en/technical-documentation/data-sheets/DS3231.pdf
package ds3231
