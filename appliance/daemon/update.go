package daemon

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/zeitnot/zeitnot/protocol"
)

// Updates (docs/hall-protocol.md, "Updates"). A helper puts a bundle in
// the spool and offers it: "update-offer ARG". The daemon never reads the
// bundle and holds no privilege: it writes a request for the installer
// (zeitnot installer, root, started by zeitnot-installer.path), which
// checks the bundle and installs it, and reports back with
// "update-report ARG". The daemon decides when: a stick's bundle after
// ok at the clock (and the arbiter's PIN on a locked clock), a hall's as
// soon as no game runs; never while a game runs or is paused.

// updateShown is how long a refusal, a failure or a cancellation stays
// on the displays; updateBusy bounds the messages of an update under
// way, each report renewing it.
const (
	updateShown = 2 * time.Minute
	updateBusy  = 30 * time.Minute
)

// updater is the machine's update under way.
type updater struct {
	st        protocol.UpdateStatus
	offer     protocol.UpdateOffer // the bundle offered; File "" none
	asked     bool                 // the question is on the displays
	confirmed bool                 // ok at the clock: install when no game runs
	waitNoted bool                 // the wait for the game's end was said
	since     time.Duration        // the installer was last asked or heard from
}

// UpdateSlot reads the running slot from the kernel's command line
// (rauc.slot=A): "" when it has none, the simulator's or a system
// without slots.
func UpdateSlot(cmdline string) string {
	for _, f := range strings.Fields(cmdline) {
		if v, ok := strings.CutPrefix(f, "rauc.slot="); ok {
			return v
		}
	}
	return ""
}

// RequestFile writes the installer's request as dir/update-request, whole
// or not at all (a temporary file renamed): zeitnot-installer.path starts
// the installer when it appears.
func RequestFile(dir string) func(protocol.UpdateRequest) error {
	return func(r protocol.UpdateRequest) error {
		b, err := json.Marshal(r)
		if err != nil {
			return err
		}
		tmp, err := os.CreateTemp(dir, ".update-request-")
		if err != nil {
			return err
		}
		_, err = tmp.Write(append(b, '\n'))
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Chmod(tmp.Name(), 0o640)
		}
		if err == nil {
			err = os.Rename(tmp.Name(), filepath.Join(dir, "update-request"))
		}
		if err != nil {
			os.Remove(tmp.Name())
		}
		return err
	}
}

// UpdateStatus is the status's update member now.
func (m *Machine) UpdateStatus() protocol.UpdateStatus {
	s := m.update.st
	s.Version = m.Core.RunningVersion()
	s.Slot = m.Slot
	return s
}

// updateRequest answers "update-offer ARG" and "update-report ARG";
// handled is false for other commands.
func (m *Machine) updateRequest(cmd, arg string, now time.Duration) (answer string, handled bool) {
	switch cmd {
	case protocol.ReqUpdateOffer:
		o, err := protocol.ParseUpdateOffer(arg)
		if err != nil {
			return "error: update-offer: " + err.Error(), true
		}
		return m.offerUpdate(o, now), true
	case protocol.ReqUpdateReport:
		r, err := protocol.ParseUpdateReport(arg)
		if err != nil {
			return "error: update-report: " + err.Error(), true
		}
		return m.reportUpdate(r, now), true
	}
	return "", false
}

func (m *Machine) offerUpdate(o protocol.UpdateOffer, now time.Duration) string {
	u := &m.update
	switch {
	case m.UpdateRequest == nil:
		return "error: update-offer: this clock has no installer"
	case u.st.State == protocol.UpdateInstalling || u.st.State == protocol.UpdateRestarting:
		return "error: update-offer: an update is being installed"
	}
	if u.offer.File != "" && u.offer.File != o.File {
		// At most one bundle offered: the newer offer replaces it, and the
		// installer removes the other bundles from the spool.
		m.updateNote("%s replaced by %s (%s)", u.offer.File, o.File, o.Source)
	}
	if err := m.UpdateRequest(protocol.UpdateRequest{Op: protocol.UpdateCheck, File: o.File, SHA256: o.SHA256, Size: o.Size}); err != nil {
		m.updateNote("%s: cannot ask the installer: %v", o.File, err)
		return "error: update-offer: cannot ask the installer: " + err.Error()
	}
	m.Core.DropUpdateQuestion()
	*u = updater{offer: o, st: protocol.UpdateStatus{State: protocol.UpdateChecking, Source: o.Source}, since: now}
	m.updateNote("%s offered (%s, %d bytes): checking", o.File, o.Source, o.Size)
	m.Core.SetUpdateMessage("UPDATE: CHECKING", now, updateBusy)
	return "ok"
}

func (m *Machine) reportUpdate(r protocol.UpdateReport, now time.Duration) string {
	u := &m.update
	if u.offer.File == "" || r.File != u.offer.File {
		return "error: update-report: " + r.File + " is not the bundle offered"
	}
	want := map[string][]string{
		protocol.UpdateOffered:    {protocol.UpdateChecking},
		protocol.UpdateInstalling: {protocol.UpdateInstalling},
		protocol.UpdateRestarting: {protocol.UpdateInstalling},
		protocol.UpdateRefused:    {protocol.UpdateChecking, protocol.UpdateInstalling},
		protocol.UpdateFailed:     {protocol.UpdateChecking, protocol.UpdateInstalling, protocol.UpdateRestarting},
	}[r.State]
	if !contains(want, u.st.State) {
		return fmt.Sprintf("error: update-report: %s while the update is %s", r.State, cmpState(u.st.State))
	}
	u.since = now
	switch r.State {
	case protocol.UpdateOffered:
		u.st.State, u.st.Offer = protocol.UpdateOffered, r.Version
		m.updateNote("%s checked: version %s", r.File, r.Version)
		m.Core.SetUpdateMessage("", now, 0)
		m.updateTick(now)
	case protocol.UpdateInstalling:
		if r.Percent != u.st.Percent {
			u.st.Percent = r.Percent
			m.log(fmt.Sprintf("update: installing %s: %d%%", r.File, r.Percent))
		}
		m.Core.SetUpdateMessage(fmt.Sprintf("UPDATING %d%%", r.Percent), now, updateBusy)
	case protocol.UpdateRestarting:
		u.st.State, u.st.Percent = protocol.UpdateRestarting, 100
		m.updateNote("%s: version %s installed, restarting into it", r.File, u.st.Offer)
		m.Core.SetUpdateMessage("UPDATED, RESTARTING", now, updateBusy)
	case protocol.UpdateRefused, protocol.UpdateFailed:
		m.Core.DropUpdateQuestion()
		src, ver := u.st.Source, u.st.Offer
		*u = updater{st: protocol.UpdateStatus{State: r.State, Source: src, Offer: ver, Message: r.Message}}
		m.updateNote("%s %s: %s", r.File, r.State, r.Message)
		// The banner is short; the reason goes on a message screen
		// when no game is under way.
		m.Core.SetUpdateMessage("UPDATE "+strings.ToUpper(r.State), now, updateShown)
		m.Core.ShowUpdateProblem([]string{"Update " + r.State + ":", r.Message}, now, updateShown)
	}
	return "ok"
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func cmpState(s string) string {
	if s == "" {
		return "idle"
	}
	return s
}

// updateTick moves an offered update on, at every Step: the question at
// the clock for a stick's bundle, the install when no game runs and it is
// confirmed (or the hall's).
func (m *Machine) updateTick(now time.Duration) {
	u := &m.update
	if (u.st.State == protocol.UpdateChecking || u.st.State == protocol.UpdateInstalling) && now-u.since >= updateBusy {
		// The installer died without a word: the offer goes, so that
		// the next one is taken.
		m.reportUpdate(protocol.UpdateReport{File: u.offer.File, State: protocol.UpdateFailed,
			Message: fmt.Sprintf("the installer did not answer for %v", updateBusy)}, now)
		return
	}
	if u.st.State != protocol.UpdateOffered {
		return
	}
	if m.Core.GameUnderWay(now) {
		if u.asked {
			m.Core.DropUpdateQuestion()
			u.asked = false
		}
		if !u.waitNoted {
			u.waitNoted = true
			m.updateNote("%s (version %s) waits for the game's end", u.offer.File, u.st.Offer)
			m.Core.SetUpdateMessage("UPDATE "+u.st.Offer+" AFTER THE GAME", now, bannerWait)
		}
		return
	}
	if u.offer.Auto || u.confirmed {
		m.installUpdate(now)
		return
	}
	if u.asked && !m.Core.UpdateQuestion() {
		// Closed unanswered (the menus closed by a command of the
		// hall's): asked again.
		u.asked = false
	}
	if !u.asked {
		u.asked = true
		m.Core.AskUpdate(u.st.Offer, m.answerUpdate)
	}
}

// bannerWait is how long the notice that an update waits for the game's
// end stays.
const bannerWait = 10 * time.Second

// answerUpdate is the arbiter's answer to the question at the clock.
func (m *Machine) answerUpdate(at time.Duration, yes bool) {
	u := &m.update
	u.asked = false
	if u.st.State != protocol.UpdateOffered {
		return
	}
	switch {
	case !yes:
		m.discardUpdate(at, "cancelled at the clock")
	case m.Core.GameUnderWay(at):
		// Not reached from the question (it goes when a game starts),
		// but never installed during a game: asked again at its end.
		m.Core.SetUpdateMessage("NO UPDATE DURING A GAME", at, bannerWait)
	default:
		u.confirmed = true
		m.updateNote("%s (version %s) confirmed at the clock", u.offer.File, u.st.Offer)
		m.installUpdate(at)
	}
}

func (m *Machine) installUpdate(now time.Duration) {
	u := &m.update
	o := u.offer
	if err := m.UpdateRequest(protocol.UpdateRequest{Op: protocol.UpdateInstall, File: o.File, SHA256: o.SHA256, Size: o.Size}); err != nil {
		*u = updater{st: protocol.UpdateStatus{State: protocol.UpdateFailed, Source: o.Source, Offer: u.st.Offer, Message: "cannot ask the installer: " + err.Error()}}
		m.updateNote("%s failed: cannot ask the installer: %v", o.File, err)
		m.Core.SetUpdateMessage("UPDATE FAILED", now, updateShown)
		return
	}
	u.st.State, u.st.Percent, u.since = protocol.UpdateInstalling, 0, now
	m.updateNote("%s: installing version %s", o.File, u.st.Offer)
	m.Core.SetUpdateMessage("UPDATING 0%", now, updateBusy)
}

func (m *Machine) discardUpdate(now time.Duration, why string) {
	u := &m.update
	o := u.offer
	if err := m.UpdateRequest(protocol.UpdateRequest{Op: protocol.UpdateDiscard, File: o.File, SHA256: o.SHA256, Size: o.Size}); err != nil {
		m.log(fmt.Sprintf("update: %s: cannot ask the installer to remove it: %v", o.File, err))
	}
	*u = updater{}
	m.updateNote("%s %s", o.File, why)
	m.Core.SetUpdateMessage("UPDATE CANCELLED", now, bannerWait)
}

// updateNote logs an update's step and notes it in the journal.
func (m *Machine) updateNote(format string, a ...any) {
	s := fmt.Sprintf(format, a...)
	m.log("update: " + s)
	m.Core.Session().Note("update: " + s)
}
