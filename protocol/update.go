package protocol

import (
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strings"
)

// Updates (docs/hall-protocol.md, "Updates"). A helper that has a
// bundle, the stick's exporter (appliance/usb) or the link (the hall's
// update command), puts it in UpdateSpool and hands it to the daemon
// with "update-offer ARG", ARG an UpdateOffer's compact JSON. The daemon
// never reads the bundle: the privileged installer checks its signature
// with RAUC before anything is written, and installs it only when the
// daemon asks, with no game running. The status's update member says
// how it goes.

// UpdateSpool is the directory the helpers put bundles in, one file a
// bundle, and the daemon and the installer read them from.
const UpdateSpool = "/var/lib/zeitnot-update/spool"

// Update sources: where an offered bundle came from.
const (
	UpdateFromUSB  = "usb"
	UpdateFromHall = "hall"
)

// UpdateOffer is the argument of "update-offer": one bundle in the spool.
type UpdateOffer struct {
	Source string `json:"source"` // UpdateFromUSB or UpdateFromHall
	// File is the bundle's name in UpdateSpool: no directory, ends in .raucb.
	File string `json:"file"`
	// SHA256 is the bundle's SHA-256, 64 lowercase hex digits, as the
	// helper computed it while writing the file; the installer checks it
	// again before it hands the bundle to RAUC.
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"` // the bundle's bytes
	// Auto: install without a confirmation at the clock, as soon as no
	// game runs. Only the hall's update command sets it (the arbiter
	// chose the update on /arbiter); a stick's bundle always asks.
	Auto bool `json:"auto,omitempty"`
}

// MaxBundle is the largest bundle a helper takes, in bytes.
const MaxBundle = 512 << 20

// Check checks an offer: a known source, a plain bundle name, a hash and
// a size in range; Auto only from the hall.
func (o UpdateOffer) Check() error {
	switch {
	case o.Source != UpdateFromUSB && o.Source != UpdateFromHall:
		return fmt.Errorf("source %q: want %s or %s", short(o.Source), UpdateFromUSB, UpdateFromHall)
	case o.Auto && o.Source != UpdateFromHall:
		return errors.New("auto: only the hall's update installs without a confirmation")
	case o.Size <= 0 || o.Size > MaxBundle:
		return fmt.Errorf("size %d: want 1 to %d bytes", o.Size, MaxBundle)
	case len(o.SHA256) != 64 || strings.Trim(o.SHA256, "0123456789abcdef") != "":
		return errors.New("sha256: want 64 lowercase hex digits")
	}
	return CheckBundleName(o.File)
}

// CheckBundleName checks a bundle's file name in the spool: 1 to 64
// bytes of letters, digits, '.', '_' and '-', not starting with '.',
// ending in ".raucb".
func CheckBundleName(name string) error {
	switch {
	case len(name) == 0 || len(name) > 64:
		return fmt.Errorf("file %q: want 1 to 64 bytes", short(name))
	case name[0] == '.' || path.Base(name) != name:
		return fmt.Errorf("file %q: a name in the spool, not a path", short(name))
	case !strings.HasSuffix(name, ".raucb"):
		return fmt.Errorf("file %q: a bundle's name ends in .raucb", short(name))
	case strings.ContainsFunc(name, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-')
	}):
		return fmt.Errorf("file %q: letters, digits, '.', '_' and '-' only", short(name))
	}
	return nil
}

// Update states, the status's update.state.
const (
	UpdateIdle       = ""           // no bundle offered
	UpdateChecking   = "checking"   // the installer checks the offered bundle
	UpdateOffered    = "offered"    // checked; waits for the confirmation (a stick's) or for the game to end
	UpdateInstalling = "installing" // RAUC writes the other slot
	UpdateRestarting = "restarting" // installed: the clock restarts into it on trial
	UpdateRefused    = "refused"    // the bundle was refused; message says why
	UpdateFailed     = "failed"     // the install failed; the running slot is unchanged
)

// UpdateStatus is the status's update member: the running system and
// the update under way, if any.
type UpdateStatus struct {
	Version string `json:"version"`        // the running system's version
	Slot    string `json:"slot,omitempty"` // the running slot, A or B; "" on a system without slots (the simulator)
	State   string `json:"state,omitempty"`
	Source  string `json:"source,omitempty"`  // the offer's source
	Offer   string `json:"offer,omitempty"`   // the offered bundle's version, once checked
	Percent int    `json:"percent,omitempty"` // while installing, 0 to 100
	Message string `json:"message,omitempty"` // a refusal's or failure's reason, for people
}

// UpdateReport is the argument of "update-report": the installer's word
// on the bundle the daemon asked it about (its request file names one
// bundle and what to do with it, check or install). State is one of
// UpdateOffered (checked: signature, compatible and SHA-256 good;
// Version is the manifest's), UpdateInstalling (Percent done),
// UpdateRestarting (installed; the reboot into the trial is under way),
// UpdateRefused or UpdateFailed (Message says why, in one line).
type UpdateReport struct {
	File    string `json:"file"`
	State   string `json:"state"`
	Version string `json:"version,omitempty"`
	Percent int    `json:"percent,omitempty"`
	Message string `json:"message,omitempty"`
}

// MaxUpdateMessage is the longest message a report carries, in bytes.
const MaxUpdateMessage = 300

// Check checks a report: a bundle name, a state the installer reports,
// a percent in range, a version and a message of one printable line.
func (r UpdateReport) Check() error {
	switch r.State {
	case UpdateOffered, UpdateInstalling, UpdateRestarting, UpdateRefused, UpdateFailed:
	default:
		return fmt.Errorf("state %q: want %s, %s, %s, %s or %s", short(r.State),
			UpdateOffered, UpdateInstalling, UpdateRestarting, UpdateRefused, UpdateFailed)
	}
	switch {
	case r.Percent < 0 || r.Percent > 100:
		return fmt.Errorf("percent %d: want 0 to 100", r.Percent)
	case len(r.Version) > 64 || !printable(r.Version):
		return fmt.Errorf("version %q: want at most 64 printable bytes", short(r.Version))
	case len(r.Message) > MaxUpdateMessage || !printable(r.Message):
		return fmt.Errorf("message: want one line of at most %d printable bytes", MaxUpdateMessage)
	}
	return CheckBundleName(r.File)
}

// printable reports whether s is printable ASCII, no control characters.
func printable(s string) bool {
	for i := range len(s) {
		if s[i] < ' ' || s[i] > '~' {
			return false
		}
	}
	return true
}

// ParseUpdateOffer reads and checks the argument of "update-offer".
func ParseUpdateOffer(arg string) (UpdateOffer, error) {
	var o UpdateOffer
	if err := decodeStrict(arg, &o); err != nil {
		return UpdateOffer{}, err
	}
	return o, o.Check()
}

// ParseUpdateReport reads and checks the argument of "update-report".
func ParseUpdateReport(arg string) (UpdateReport, error) {
	var r UpdateReport
	if err := decodeStrict(arg, &r); err != nil {
		return UpdateReport{}, err
	}
	return r, r.Check()
}

// decodeStrict decodes one JSON object into v: no unknown member, nothing
// after it.
func decodeStrict(arg string, v any) error {
	dec := json.NewDecoder(strings.NewReader(arg))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("bad JSON: %v", err)
	}
	if dec.More() {
		return errors.New("bad JSON: more after the object")
	}
	return nil
}

// What the daemon asks of the installer, UpdateRequest's Op.
const (
	UpdateCheck   = "check"   // check the bundle: hash, signature, compatible; report its version
	UpdateInstall = "install" // install it into the other slot and restart into it on trial
	UpdateDiscard = "discard" // remove it from the spool (cancelled)
)

// UpdateRequest is the daemon's request to the installer, the JSON of
// its request file (/run/zeitnot/update-request): what to do with which
// bundle in the spool. The installer answers with "update-report".
type UpdateRequest struct {
	Op     string `json:"op"`
	File   string `json:"file"`
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
}

// Check checks a request: a known op and an offer's bundle.
func (r UpdateRequest) Check() error {
	switch r.Op {
	case UpdateCheck, UpdateInstall, UpdateDiscard:
	default:
		return fmt.Errorf("op %q: want %s, %s or %s", short(r.Op), UpdateCheck, UpdateInstall, UpdateDiscard)
	}
	return UpdateOffer{Source: UpdateFromUSB, File: r.File, SHA256: r.SHA256, Size: r.Size}.Check()
}

// ParseUpdateRequest reads and checks a request file's contents.
func ParseUpdateRequest(data []byte) (UpdateRequest, error) {
	var r UpdateRequest
	if err := decodeStrict(string(data), &r); err != nil {
		return UpdateRequest{}, err
	}
	return r, r.Check()
}
