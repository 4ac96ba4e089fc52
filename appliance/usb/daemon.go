package usb

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/zeitnot/zeitnot/appliance/control"
	"github.com/zeitnot/zeitnot/protocol"
)

// Daemon is what the exporter asks of the clock's daemon. ControlDaemon
// asks it through the control socket, with the requests below; tests use
// a fake, or appliance/control's server.
type Daemon interface {
	// Show puts text on the displays: "usb-message TEXT". An empty text
	// takes the message away: "usb-message".
	Show(text string) error
	// Import hands over the config file at path to be imported as the
	// boot partition's is: "import PATH". changed says whether the
	// imported config differs from the one before.
	Import(path string) (changed bool, err error)
	// Status is the clock's state as JSON: "status".
	Status() (string, error)
	// OfferUpdate offers a bundle copied into the update spool:
	// "update-offer ARG".
	OfferUpdate(protocol.UpdateOffer) error
}

// The control-socket requests the exporter sends (see appliance/control
// for the protocol: one request line, one answer line, "error: TEXT" for
// a refusal):
//
//	usb-message TEXT
//	    Show TEXT on the displays as a message about the stick, until the
//	    next usb-message, and for at most 10 minutes; "usb-message" alone
//	    takes it away. TEXT is at most MaxMessage bytes of printable
//	    ASCII, in capitals; '/' separates the lines a display should
//	    show ("12 GAMES SAVED/CONFIG IMPORTED/PULL THE STICK"). A
//	    display with too little room shows the lines in turn, or the
//	    first. The message never hides a running clock's times, never
//	    changes the clock, and takes no button. Answer: "ok".
//	import PATH
//	    Import the config file at PATH exactly as zeitnot-import.service
//	    imports the boot partition's: config.Import(PATH, STATE_DIR).
//	    Answer "imported" (the file differs from the config before and
//	    is now the club config), "unchanged" (it is the config already
//	    in use), "locked" (the settings lock is on and the arbiter has
//	    not opened the menu with the PIN: nothing is read, the config
//	    is kept; ErrLocked), or "error: refused: PROBLEM" with the first
//	    problem (all of them written to import-errors.txt, as at boot)
//	    and the old config kept. An imported config takes effect as it
//	    would after a restart, except that a game under way keeps its
//	    control and options, which lever plays White and the lock, even
//	    across a restart: the new ones apply from the next game. PATH is a
//	    file in the exporter's runtime directory (group zeitnot, mode
//	    0640), removed when the exporter ends: the daemon reads it before
//	    it answers.
//	status
//	    As today: the clock's state as JSON, copied into status.txt.
//	update-offer ARG
//	    A bundle copied from the stick into the update spool
//	    (protocol.UpdateOffer, source usb; bundle.go). Answer "ok": the
//	    daemon has the installer check it and asks at the clock.
//
// The protocol package has their limits and answers.
const MaxMessage = protocol.MaxUSBMessage

// ControlDaemon is the daemon behind the control socket at its path.
type ControlDaemon string

// Show sends "usb-message TEXT".
func (d ControlDaemon) Show(text string) error {
	if text == "" {
		_, err := control.Call(string(d), protocol.ReqUSBMessage)
		return err
	}
	_, err := control.Call(string(d), protocol.ReqUSBMessage, text)
	return err
}

// ErrLocked is the daemon's refusal of an import while the clock is
// locked (else a stick could lift the lock and swap the levers).
var ErrLocked = errors.New("the clock is locked: the arbiter opens its menu with the PIN (hold ok), then puts the stick in again while the menu is open")

// Import sends "import PATH".
func (d ControlDaemon) Import(path string) (bool, error) {
	answer, err := control.Call(string(d), protocol.ReqImport, path)
	if err != nil {
		return false, err
	}
	switch strings.TrimSpace(answer) {
	case protocol.ImportChanged, "ok":
		return true, nil
	case protocol.ImportUnchanged:
		return false, nil
	case "locked":
		return false, ErrLocked
	}
	return false, fmt.Errorf("unexpected answer %q to import", answer)
}

// OfferUpdate sends "update-offer ARG".
func (d ControlDaemon) OfferUpdate(o protocol.UpdateOffer) error {
	b, err := json.Marshal(o)
	if err != nil {
		return err
	}
	answer, err := control.Call(string(d), protocol.ReqUpdateOffer, string(b))
	if err == nil && answer != "ok" {
		err = fmt.Errorf("unexpected answer %q to update-offer", answer)
	}
	return err
}

// Status sends "status".
func (d ControlDaemon) Status() (string, error) {
	return control.Call(string(d), protocol.ReqStatus)
}

// message makes text fit a usb-message: printable ASCII in capitals, at
// most MaxMessage bytes.
func message(text string) string {
	b := make([]byte, 0, len(text))
	for i := 0; i < len(text) && len(b) < MaxMessage; i++ {
		c := text[i]
		switch {
		case c >= 'a' && c <= 'z':
			c -= 'a' - 'A'
		case c < 0x20 || c >= 0x7f:
			c = ' '
		}
		b = append(b, c)
	}
	return strings.TrimSpace(string(b))
}
