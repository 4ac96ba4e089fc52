// Package profile describes a hardware build of the clock in a TOML file,
// checks it, and opens its devices.
//
// A profile names each display (its chip, bus or pins, address, size and
// role: left, right or both), each button (name to GPIO line) and the buzzer
// (active on a GPIO, passive on a kernel PWM channel, or none):
//
//	[display.left]
//	type = "ssd1306"          # see Types
//	bus = "/dev/i2c-1"
//	address = 0x3C
//	size = "128x64"
//
//	[display.right]
//	type = "tm1637"
//	pins = { clk = "GPIO13", dio = "GPIO19" }
//
//	[buttons]                 # in this order for events at the same instant
//	left = "GPIO17"
//	right = "GPIO27"
//
//	[button_options]          # all optional
//	active_low = true
//	pull = "up"               # up, down, none or keep
//	debounce = "20ms"
//	hold_after = "1.5s"
//
//	[buzzer]
//	type = "active"           # active, pwm, sim or none
//	pin = "GPIO18"
//
// Parse and Load reject a bad profile with every problem found, each with
// its file and line: unknown type or key, missing required field, address
// out of range or taken, duplicate pin in a device, pin used by two devices
// (including the pins of the I²C and SPI buses it uses).
//
// Builtin returns the profiles shipped with the clock: "sim" and
// "sim-segment" for the simulator, and three reference builds with their
// wiring tables (see README.md): "two-ssd1306-i2c", "two-tm1637" and
// "one-ssd1306-spi".
//
// Open opens everything and keeps going when a device is missing, so the
// clock runs with what it has; Check opens, reports and closes, for
// `zeitnot hardware check`:
//
//	display "left": ok: ssd1306 128x64 on I2C1@0x3c
//	display "right": no I2C device answers at 0x3D on /dev/i2c-1
//	button "left": no GPIO line named GPIO17 on this machine
//	buzzer: ok: active buzzer on GPIO18
package profile
