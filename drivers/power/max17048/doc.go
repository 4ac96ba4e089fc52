// Package max17048 reads a battery through a Maxim (Analog Devices)
// MAX17048 fuel gauge over I²C: the voltage of one Li-ion cell and the
// state of charge the chip computes itself (ModelGauge), with no shunt.
//
// Only the two measurement registers are used: VCELL (0x02), 78.125 µV a
// count, and SOC (0x04), whose high byte is whole percent and low byte
// 1/256 %. The chip's quick-start, hibernation, alert and compensation
// settings are left at their power-on values.
//
// # Quirks
//
//   - The address is fixed at 0x36.
//   - Registers are 16 bits, most significant byte first.
//   - For a few seconds after the cell is connected (power-on reset) the
//     state of charge is a first guess from the voltage; ModelGauge
//     settles on its own.
//   - The SOC register can read a little above 100% on a full cell; Read
//     reports at most 100.
//   - The MAX17049 is the two-cell variant: its VCELL is per cell, so this
//     package would report half the pack's voltage. It is not supported.
//
// # Datasheet
//
// https://www.analog.com/media/en/technical-documentation/data-sheets/MAX17048-MAX17049.pdf
package max17048
