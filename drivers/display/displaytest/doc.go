// Package displaytest has fake displays and golden-file helpers for tests.
//
// Pixel and Text are the simulator's displays (package simdisplay) with
// what tests look at: Pixel keeps the frames that changed it and counts the
// bytes an SSD1306 on I²C would have been sent for each change; Text keeps
// the history of the texts shown. Both are safe for concurrent use, and
// both can be told to fail their next call, to test how callers cope with
// a broken bus.
//
// Golden compares a frame with a PNG written by framepng (Render, SavePNG
// and LoadPNG are framepng's, under the names tests know), Diff counts the
// pixels two frames differ in, and TestCard draws a pattern that shows a
// mirrored or shifted panel at a glance.
//
// The product never links this package: the simulator uses simdisplay and
// framepng.
package displaytest
