package daemon

import (
	"fmt"
	"strings"
	"time"

	"github.com/zeitnot/zeitnot/appliance/config"
	"github.com/zeitnot/zeitnot/protocol"
)

// stickShown is the longest a USB stick's message stays on the displays.
const stickShown = 10 * time.Minute

// stickRequest answers "usb-message [TEXT]" of zeitnot usb, the stick's
// exporter (appliance/usb): it puts its message on the displays or takes
// it away. handled is false for other commands. "import PATH" is
// StartImport's.
func (m *Machine) stickRequest(cmd, arg string, now time.Duration) (answer string, handled bool) {
	switch cmd {
	case protocol.ReqUSBMessage:
		if err := protocol.CheckUSBMessage(arg); err != nil {
			return "error: usb-message: " + err.Error(), true
		}
		// Lines separated by '/' read as one banner line.
		m.Core.SetStickMessage(strings.ReplaceAll(arg, "/", " - "), now, stickShown)
		if arg != "" {
			m.log("usb: display: " + arg)
		}
		return "ok", true
	}
	return "", false
}

// ImportDone is the result of an "import PATH", done beside the event
// loop: the loop gives it to FinishImport.
type ImportDone struct {
	path     string
	reply    func(answer string)
	problems []error
	changed  bool
	err      error
}

// StartImport begins "import PATH": a config file from the stick, imported
// as the boot partition's is (config.Import). The import reads, checks and
// writes the club config, with its fsync, in a goroutine of its own, so
// that the loop that keeps time never waits for the disk; its result
// comes back on Imports, and FinishImport answers with reply. One import
// at a time: another is refused while one is under way.
func (m *Machine) StartImport(path string, reply func(answer string)) {
	switch {
	case m.StateDir == "":
		reply("error: import: the clock has no state directory")
		return
	case m.importing:
		reply("error: import: another import is under way")
		return
	case m.Core.Locked():
		// A stick is no arbiter: on a locked clock anyone could put
		// one in, to swap the levers or lift the lock. The config stays as it is;
		// the stick's exporter says so on the displays and the stick
		// (ui.Core.Locked: the arbiter's PIN opens it).
		m.log("usb: config " + path + " not imported: the clock is locked")
		m.Core.Session().Note("config on a USB stick not imported: the clock is locked")
		reply("locked")
		return
	}
	if m.imports == nil {
		m.imports = make(chan ImportDone, 1)
	}
	m.importing = true
	imp, dir, done := m.importFile, m.StateDir, m.imports
	if imp == nil {
		imp = config.Import
	}
	go func() {
		problems, changed, err := imp(path, dir)
		done <- ImportDone{path: path, reply: reply, problems: problems, changed: changed, err: err}
	}()
}

// Imports delivers the imports StartImport began, as they end; nil before
// the first.
func (m *Machine) Imports() <-chan ImportDone { return m.imports }

// FinishImport answers an import that ended, in the event loop at now:
// the log, the journal's note, the answer.
func (m *Machine) FinishImport(d ImportDone, now time.Duration) (next time.Duration, wake bool) {
	m.importing = false
	var answer string
	switch {
	case len(d.problems) > 0:
		m.log(fmt.Sprintf("usb: config %s refused: %v", d.path, d.problems[0]))
		answer = "error: refused: " + d.problems[0].Error()
	case d.err != nil:
		answer = "error: import: " + d.err.Error()
	case !d.changed:
		answer = protocol.ImportUnchanged
	default:
		m.log("usb: config imported from the stick; it applies from the next start of the clock")
		m.Core.Session().Note("config imported from a USB stick")
		answer = protocol.ImportChanged
	}
	d.reply(answer)
	return m.Step(now)
}
