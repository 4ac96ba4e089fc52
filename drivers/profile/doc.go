// Package profile describes a hardware build of the clock in a TOML file,
// checks it, and opens its devices.
//
// A profile names each display (its chip, bus or pins, address, size and
// role), each button (name to GPIO line) and the buzzer (active on a GPIO,
// passive on a kernel PWM channel, or none):
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
// and, optionally, LEDs lit on the side whose clock runs, a battery gauge,
// a power-loss input, a real-time clock, and what the build draws (the
// figure its parts list sizes the battery from: Supply.Pack):
//
//	[led.left]                # role left or right; gpio or sim
//	pin = "GPIO12"
//
//	[battery]
//	type = "ina219"           # see BatteryTypes
//	bus = "/dev/i2c-1"
//	address = 0x42
//	shunt_ohms = 0.1
//	low_percent = 20
//
//	[power_loss]
//	pin = "GPIO26"
//
//	[rtc]
//	type = "ds3231"           # see RTCTypes
//	bus = "/dev/i2c-1"
//
//	[supply]
//	current_ma = 650          # at 5.1 V while a clock runs
//	basis = "measured with a USB meter"
//
// Parse and Load reject a bad profile with every problem found, each an
// Error (a tomldoc.FileError, as every config file's) with its file, line
// and key: a value of the wrong kind (the file's tables are tomldoc
// Schemas, schema.go), no display at all, unknown type or key, missing
// required field, address out of range or taken, duplicate pin in a
// device, pin used by two devices (including the pins of the I²C and SPI
// buses it uses). Load reads regular files only, of at most MaxFileSize
// bytes, and never blocks on a FIFO or a device.
//
// What the roles and button names mean is the clock's business: a profile
// records them (a display named left, right or both has that role unless
// it says otherwise) and the clock (appliance/daemon) checks that it has a
// display per side or one for both, and its two levers.
//
// # Display types
//
// Each display type is one row of a registry (types.go): its family
// (display.Pixels, Segments or Characters), how it may be connected (I²C,
// SPI, GPIO lines or simulated), its pins, addresses and sizes, and the
// function that opens it. Parse checks a display against its row, Open
// calls the row's open function, and Display.Family tells the clock how to
// lay a face out on it. Adding a chip adds a row. The simulated types
// (sim-oled, sim-segment, sim-lcd), "sim:<key>" buttons and the "sim"
// buzzer open the simulator's devices: simdisplay, simbutton and
// simbuzzer.
//
// Builtin returns the profiles shipped with the clock: "sim" and
// "sim-segment" for the simulator, and the reference builds with their
// wiring tables (see README.md): "two-ssd1306-i2c", "two-tm1637",
// "one-ssd1306-spi" and its 1.3" SH1106 variant "one-sh1106-spi"; and
// "qemu-virt" for the SD image's boot test (buttons on QEMU's PL061 GPIO).
//
// Open opens everything and keeps going when a device is missing, so the
// clock runs with what it has; Check opens, reports and closes, for
// `zeitnot hardware check`:
//
//	display "left": ok: ssd1306 128x64 on I2C1@0x3c
//	display "right": no I2C device answers at 0x3D on /dev/i2c-1
//	button "left": no GPIO line named GPIO17 on this machine
//	buzzer: ok: active buzzer on GPIO18
//	led "left": ok: led left on GPIO12
//	battery: ok: ina219 on I2C1@0x42: 78% 4.008V -125.009mA (low at 20%)
//	rtc: ok: ds3231 on I2C1@0x68: 2026-03-14 23:59:05 UTC, time valid, 25°C
//
// The battery gauges and real-time clocks are rows of small registries
// (power.go) like the displays'. Open opens the LEDs (Devices.LEDs),
// the gauge (Devices.Battery, read once for the check's line) and the
// power-loss input (Devices.PowerLoss); the real-time clock is only read,
// since the kernel owns it.
package profile
