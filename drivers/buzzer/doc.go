// Package buzzer sounds short patterns on an active (on/off) or passive (PWM)
// buzzer without blocking the caller.
//
// # Buzzers
//
// An active buzzer has its own oscillator and sounds while it is powered: a
// GPIO switches it, usually through an NPN transistor (or the transistor on
// a buzzer module). NewActive takes any periph gpio.PinOut; OpenActive finds
// the line by name. Modules marked "low level trigger" sound when the line
// is low: set Opts.ActiveLow.
//
// A passive buzzer (a bare piezo disc or magnetic transducer) needs a square
// wave. OpenPWM drives it from the kernel PWM interface in /sys/class/pwm,
// because periph's PWM on the Raspberry Pi needs /dev/mem and root and does
// not work on a Pi 5. Enable a hardware PWM channel in config.txt, e.g.
//
//	dtoverlay=pwm,pin=18,func=2
//
// which on a Pi 3 or 4 gives /sys/class/pwm/pwmchip0 with GPIO18 (header
// pin 12) on channel 0. On a Pi 5 the same line works but the PWM is the
// RP1's, where GPIO18 is channel 2 and the chip number may differ: look in
// /sys/class/pwm and set the profile's chip and channel to match. The user
// needs write access to the channel's files;
// Raspberry Pi OS's udev rules give it to the gpio group shortly after the
// channel is exported, and OpenPWM waits for that.
//
// # Patterns
//
// The tones of every pattern are in one table (see Pattern.Tones). Play
// switches the first tone on before it returns and times the rest in the
// background; a new Play cuts the pattern in progress short and starts its
// own from the beginning. SetMuted(true) silences at once and makes Play do
// nothing until unmuted. Close silences and releases the device.
//
// Errors name the device and what failed, e.g.
// "buzzer: pwmchip0/pwm0: write duty_cycle: permission denied".
//
// The package simbuzzer has the simulator's silent Buzzer; buzzertest has
// one for tests that records everything it was asked to play.
package buzzer
