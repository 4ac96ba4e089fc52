package daemon

import (
	"fmt"
	"strings"
	"time"

	"github.com/zeitnot/zeitnot/appliance/config"
)

// stickShown is the longest a USB stick's message stays on the displays.
const stickShown = 10 * time.Minute

// stickRequest answers the requests of zeitnot usb, the stick's exporter
// (appliance/usb): "usb-message [TEXT]" puts its message on the displays
// or takes it away, "import PATH" imports a config file from the stick as
// the boot partition's is imported, unless the clock is locked (answer
// "locked": core.Core.Locked, the arbiter's PIN opens it). handled is
// false for other commands.
func (m *Machine) stickRequest(cmd, arg string, now time.Duration) (answer string, handled bool) {
	switch cmd {
	case "usb-message":
		if strings.ContainsFunc(arg, func(r rune) bool { return r < 0x20 || r > 0x7e }) {
			return "error: usb-message: printable ASCII only", true
		}
		if len(arg) > 120 {
			return "error: usb-message: at most 120 bytes", true
		}
		// Lines separated by '/' read as one banner line.
		m.Core.SetStickMessage(strings.ReplaceAll(arg, "/", " - "), now, stickShown)
		if arg != "" {
			m.log("usb: display: " + arg)
		}
		return "ok", true
	case "import":
		if m.StateDir == "" {
			return "error: import: the clock has no state directory", true
		}
		if m.Core.Locked() {
			// Issue 22: a stick is no arbiter. The config stays as it is;
			// the stick's exporter says so on the displays and the stick.
			m.log("usb: config " + arg + " not imported: the clock is locked")
			m.Core.Session().Note("config on a USB stick not imported: the clock is locked")
			return "locked", true
		}
		problems, changed, err := config.Import(arg, m.StateDir)
		switch {
		case len(problems) > 0:
			m.log(fmt.Sprintf("usb: config %s refused: %v", arg, problems[0]))
			return "error: refused: " + problems[0].Error(), true
		case err != nil:
			return "error: import: " + err.Error(), true
		case !changed:
			return "unchanged", true
		}
		m.log("usb: config imported from the stick; it applies from the next start of the clock")
		m.Core.Session().Note("config imported from a USB stick")
		return "imported", true
	}
	return "", false
}
