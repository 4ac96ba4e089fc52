package usb_test

import (
	"fmt"

	"github.com/zeitnot/zeitnot/appliance/usb"
)

// What a clock reads of a folder's exported.txt: the games it saved
// before; a line it could not have written is left out and counted.
func ExampleParseManifest() {
	m, bad := usb.ParseManifest([]byte(`# zeitnot: the finished games in this folder
zeitnot-3fa2 0123456789abcdef 0012-2026-03-14
zeitnot-3fa2 fedcba9876543210 0013-2026-03-14
zeitnot-3fa2 xyz ../../etc/passwd
`))
	name, ok := m.Has("zeitnot-3fa2", "fedcba9876543210")
	fmt.Println(len(m), bad, name, ok)
	// Output:
	// 2 1 0013-2026-03-14 true
}

// The message of an export, as the displays show it, '/' between lines.
func ExampleResult_Message() {
	r := &usb.Result{Saved: 11, Current: true, Config: usb.ConfigRefused}
	fmt.Println(r.Message())
	// Output:
	// 12 GAMES SAVED/CONFIG REFUSED: SEE STICK/PULL THE STICK
}
