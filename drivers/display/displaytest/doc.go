// Package displaytest has fake displays for tests and the terminal
// simulator, and helpers to turn 1-bit frames into PNG pictures.
//
// Pixel is a framebuffer that implements display.Pixel: it keeps the frame
// shown, the frames that changed it, and counts the bytes an SSD1306 on I²C
// would have been sent for each change. Text implements display.Text and
// records the text shown and its history. Both are safe for concurrent use,
// and both can be told to fail their next call, to test how callers cope
// with a broken bus.
//
// Render, SavePNG and LoadPNG turn a frame into an enlarged picture and back,
// for golden files and documentation.
package displaytest
