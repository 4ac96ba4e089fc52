// Package wiring works out how the parts of a hardware profile are wired
// to the Raspberry Pi's 40-pin header, and draws and lists it for the
// people who build the clock: a wiring diagram (SVG), a bill of materials
// and a table of wires.
//
// Everything comes from the profile the daemon opens (package profile):
// the GPIO lines of the buttons, displays, buzzer and LEDs, and the buses'
// lines. What the profile does not say is chosen here and the same every
// time: each device's supply and ground pins are the header pins of that
// kind nearest its signal pins, on the same row of the header when there
// is one, so that a device's wires leave the header on one side.
//
// Header is the header's pin map (physical pin, BCM GPIO name, the
// function the clock or the Pi gives it). New makes a Wiring of a profile;
// its SVG, BOM and Markdown methods write the diagram, the parts and the
// build's page. Builds names the built-in profiles of real parts. `zeitnot-docs wiring PROFILE` prints the diagram and `make
// wiring` writes hardware/wiring-NAME.svg and hardware/bom-NAME.md for
// every built-in profile of real parts; a test holds those files to what
// this package makes of the profiles.
package wiring
