// Package ina219 reads a battery through a Texas Instruments INA219 current
// and voltage monitor over I²C, as found on Raspberry Pi UPS boards that
// carry Li-ion cells.
//
// The INA219 measures the voltage across a shunt resistor (the current)
// and the voltage of its IN- pin against ground (the bus voltage). On a
// UPS board the shunt sits between the cells and the boost converter, so
// the bus voltage is the cells' voltage less the small drop across the
// shunt. The chip knows nothing of charge: Read estimates the state of
// charge from the voltage per cell with a power.Curve (power.LiIon unless
// Opts.Curve says otherwise), Opts.Cells being the number of cells in
// series.
//
// # Calibration
//
// The current register counts in units of Current_LSB = MaxCurrent/2¹⁵,
// set through the calibration register: Cal = trunc(0.04096 / (Current_LSB
// × R_shunt)), the datasheet's equation 1. New writes it from Opts.Shunt
// and Opts.MaxCurrent, and reports the current from the Cal actually
// written, so the truncation costs no accuracy. The shunt range used is
// the widest, ±320 mV (PGA /8): Shunt × MaxCurrent may not exceed it. The
// bus range is 32 V, both converters average 32 samples of 12 bits (17 ms
// each), continuously.
//
// # Quirks
//
//   - The registers are 16 bits, most significant byte first; a register
//     is read by writing its address and then reading two bytes.
//   - The bus voltage register holds the voltage in bits 15 to 3 (4 mV
//     each); bit 0 (OVF) says the current or power overflowed: the current
//     is then reported as an error.
//   - Bit 0 of the calibration register is not used (always 0), so Cal is
//     kept even.
//   - After a power-on reset, as after a brown-out, the calibration
//     register is 0 and the current register stays 0. Read checks the
//     configuration register first and writes configuration and
//     calibration again when it finds the reset value.
//   - The current's sign is the chip's: positive from IN+ to IN-. Which
//     sign means charging depends on how the board is wired.
//   - Addresses 0x40 to 0x4F, chosen with the A0 and A1 pins. UPS boards
//     often move it away from 0x40 (check the board's documentation, or
//     i2cdetect).
//
// # Datasheet
//
// https://www.ti.com/lit/ds/symlink/ina219.pdf
package ina219
