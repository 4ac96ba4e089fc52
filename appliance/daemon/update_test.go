package daemon

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/journal"
	"github.com/zeitnot/zeitnot/appliance/screen"
	"github.com/zeitnot/zeitnot/appliance/ui"
	"github.com/zeitnot/zeitnot/drivers/button"
	"github.com/zeitnot/zeitnot/protocol"
)

// updateMachine is a machine on the simulated profile whose installer
// requests are kept in *reqs; club is the club config's text.
func updateMachine(t *testing.T, club string) (*Machine, *[]protocol.UpdateRequest, *[]string) {
	t.Helper()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "zeitnot.toml")
	os.WriteFile(cfg, []byte(club), 0o644)
	var logs []string
	m, devs := Setup(Opts{StateDir: dir, ConfigPath: cfg, Profile: "sim", FallbackProfile: "sim", Now: func() time.Duration { return 0 }},
		func(s string) { logs = append(logs, s) })
	t.Cleanup(func() { m.Core.Close(); devs.Close() })
	m.Log = func(s string) { logs = append(logs, s) }
	var reqs []protocol.UpdateRequest
	m.UpdateRequest = func(r protocol.UpdateRequest) error {
		reqs = append(reqs, r)
		return nil
	}
	m.Step(0)
	return m, &reqs, &logs
}

const bundle = "zeitnot-1.4.0-arm64.raucb"

func offerArg(source string, auto bool) string {
	o := protocol.UpdateOffer{Source: source, File: bundle, SHA256: strings.Repeat("ab", 32), Size: 1000, Auto: auto}
	b, _ := jsonOf(o)
	return b
}

func report(m *Machine, state string, pct int, msg string, now time.Duration) string {
	r := protocol.UpdateReport{File: bundle, State: state, Version: "1.4.0", Percent: pct, Message: msg}
	b, _ := jsonOf(r)
	a, _ := m.updateRequest("update-report", b, now)
	return a
}

func click(m *Machine, name string, at time.Duration) {
	m.Input(button.Event{Button: name, Kind: button.Press, At: at}, at)
	m.Input(button.Event{Button: name, Kind: button.Release, At: at + time.Millisecond}, at+time.Millisecond)
}

// enterPIN enters a PIN of digits in the ui's PIN form: the right lever
// adds 5, plus 1, ok takes the digit.
func enterPIN(m *Machine, pin string, at time.Duration) time.Duration {
	for _, d := range pin {
		n := int(d - '0')
		for ; n >= 5; n -= 5 {
			click(m, ui.Right, at)
			at += 10 * time.Millisecond
		}
		for ; n > 0; n-- {
			click(m, ui.Plus, at)
			at += 10 * time.Millisecond
		}
		click(m, ui.OK, at)
		at += 10 * time.Millisecond
	}
	return at
}

func ops(reqs []protocol.UpdateRequest) string {
	var s []string
	for _, r := range reqs {
		s = append(s, r.Op)
	}
	return strings.Join(s, " ")
}

// TestUpdateOffer: an offered bundle's way through the daemon, from the
// stick and from the hall: checked first, then asked at the clock (a
// stick's, with the PIN on a locked clock) or installed at once (the
// hall's), never while a game runs or is paused; the installer's reports
// shown on the displays and in the status; each step in the journal.
func TestUpdateOffer(t *testing.T) {
	const locked = "[lock]\nlocked = true\npin = \"4711\"\n"
	for _, c := range []struct {
		name   string
		club   string
		source string
		auto   bool
		game   string                             // "", "running", "paused": the game when the check comes back
		do     func(m *Machine, at time.Duration) // the people at the clock
		report string                             // the installer's last word, "" none
		msg    string
		// wantOps are the installer's requests; wantState the update's
		// state at the end; wantBanner a part of the banner.
		wantOps, wantState, wantBanner string
	}{
		{name: "stick, ok", source: "usb", do: func(m *Machine, at time.Duration) { click(m, ui.OK, at) },
			report: protocol.UpdateRestarting, wantOps: "check install", wantState: protocol.UpdateRestarting, wantBanner: "UPDATED, RESTARTING"},
		{name: "stick, cancelled", source: "usb", do: func(m *Machine, at time.Duration) { click(m, ui.Pause, at) },
			wantOps: "check discard", wantState: "", wantBanner: "UPDATE CANCELLED"},
		{name: "stick, no answer", source: "usb",
			wantOps: "check", wantState: protocol.UpdateOffered},
		{name: "hall, auto", source: "hall", auto: true,
			report: protocol.UpdateRestarting, wantOps: "check install", wantState: protocol.UpdateRestarting, wantBanner: "UPDATED, RESTARTING"},
		{name: "hall, game running", source: "hall", auto: true, game: "running",
			wantOps: "check", wantState: protocol.UpdateOffered, wantBanner: "UPDATE 1.4.0 AFTER THE GAME"},
		{name: "stick, game paused", source: "usb", game: "paused", do: func(m *Machine, at time.Duration) { click(m, ui.OK, at) },
			wantOps: "check", wantState: protocol.UpdateOffered},
		{name: "stick, game running", source: "usb", game: "running",
			wantOps: "check", wantState: protocol.UpdateOffered, wantBanner: "AFTER THE GAME"},
		{name: "stick, locked, right PIN", club: locked, source: "usb",
			do: func(m *Machine, at time.Duration) {
				click(m, ui.OK, at)
				if m.update.st.State != protocol.UpdateOffered {
					panic("installed without the PIN")
				}
				enterPIN(m, "4711", at+time.Second)
			},
			report: protocol.UpdateRestarting, wantOps: "check install", wantState: protocol.UpdateRestarting},
		{name: "stick, locked, wrong PIN", club: locked, source: "usb",
			do: func(m *Machine, at time.Duration) {
				click(m, ui.OK, at)
				enterPIN(m, "1234", at+time.Second)
			},
			wantOps: "check discard", wantState: "", wantBanner: "WRONG PIN"},
		{name: "stick, locked, no PIN yet", club: locked, source: "usb",
			do:      func(m *Machine, at time.Duration) { click(m, ui.OK, at) },
			wantOps: "check", wantState: protocol.UpdateOffered},
		{name: "refused at the check", source: "usb", report: protocol.UpdateRefused, msg: "its signature is not from this clock's key",
			wantOps: "check", wantState: protocol.UpdateRefused},
		{name: "install failed", source: "hall", auto: true, report: protocol.UpdateFailed, msg: "rauc: no space left on device",
			wantOps: "check install", wantState: protocol.UpdateFailed},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, reqs, _ := updateMachine(t, c.club)
			at := time.Second
			if a, _ := m.updateRequest("update-offer", offerArg(c.source, c.auto), at); a != "ok" {
				t.Fatalf("update-offer: %q", a)
			}
			if s := m.Status(at).Update; s.State != protocol.UpdateChecking || s.Source != c.source {
				t.Fatalf("after the offer: %+v", s)
			}
			switch c.game {
			case "running", "paused":
				click(m, ui.Right, at)
				at += time.Second
				if c.game == "paused" {
					click(m, ui.Pause, at)
				}
			}
			at += time.Second
			if c.report == protocol.UpdateRefused {
				if a := report(m, c.report, 0, c.msg, at); a != "ok" {
					t.Fatalf("report: %q", a)
				}
			} else {
				if a := report(m, protocol.UpdateOffered, 0, "", at); a != "ok" {
					t.Fatalf("checked: %q", a)
				}
				m.Step(at)
				if c.source == "usb" && c.game == "" && !m.Core.UpdateQuestion() {
					t.Fatal("no question at the clock")
				}
				if c.game != "" && m.Core.UpdateQuestion() {
					t.Fatal("asked during a game")
				}
				at += time.Second
				if c.do != nil {
					c.do(m, at)
					at += 2 * time.Second
				}
				if m.update.st.State == protocol.UpdateInstalling {
					if a := report(m, protocol.UpdateInstalling, 40, "", at); a != "ok" {
						t.Fatalf("progress: %q", a)
					}
					if b := m.Core.View(at).Game.Banner; b != "UPDATING 40%" {
						t.Errorf("while installing: banner %q", b)
					}
					if s := m.Status(at).Update; s.Percent != 40 || s.Offer != "1.4.0" {
						t.Errorf("while installing: %+v", s)
					}
					if c.report != "" {
						if a := report(m, c.report, 0, c.msg, at); a != "ok" {
							t.Fatalf("report: %q", a)
						}
					}
				}
			}
			m.Step(at)
			if got := ops(*reqs); got != c.wantOps {
				t.Errorf("installer asked %q, want %q", got, c.wantOps)
			}
			s := m.Status(at).Update
			if s.State != c.wantState {
				t.Errorf("state %q, want %q (%+v)", s.State, c.wantState, s)
			}
			if c.msg != "" && s.Message != c.msg {
				t.Errorf("message %q, want %q", s.Message, c.msg)
			}
			if b := m.Core.View(at).Game.Banner; c.wantBanner != "" && !strings.Contains(b, c.wantBanner) {
				t.Errorf("banner %q, want %q", b, c.wantBanner)
			}
			if c.msg != "" {
				if v := m.Core.View(at); v.Kind != screen.KindMessage || !slices.Contains(v.Message, c.msg) {
					t.Errorf("the reason is not on the displays: %+v", v)
				}
			}
			if s.Version != m.Core.RunningVersion() || s.Slot != "" {
				t.Errorf("version/slot: %+v", s)
			}
		})
	}
}

// TestUpdateJournal: each step of an update is a note in the game's
// journal and a line of the daemon's log.
func TestUpdateJournal(t *testing.T) {
	m, _, logs := updateMachine(t, "")
	m.updateRequest("update-offer", offerArg("hall", true), time.Second)
	report(m, protocol.UpdateOffered, 0, "", 2*time.Second)
	report(m, protocol.UpdateInstalling, 40, "", 3*time.Second)
	report(m, protocol.UpdateFailed, 0, "rauc: write error", 4*time.Second)
	text := strings.Join(*logs, "\n")
	for _, want := range []string{"offered (hall, 1000 bytes): checking", "checked: version 1.4.0", "installing version 1.4.0", "installing " + bundle + ": 40%", "failed: rauc: write error"} {
		if !strings.Contains(text, want) {
			t.Errorf("log has no %q:\n%s", want, text)
		}
	}
	data, err := os.ReadFile(filepath.Join(m.StateDir, journal.File))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"update: " + bundle + " offered", "update: " + bundle + " failed: rauc: write error"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("journal has no %q:\n%s", want, data)
		}
	}
}

// TestUpdateRefusals: offers and reports the daemon does not take.
func TestUpdateRefusals(t *testing.T) {
	m, reqs, _ := updateMachine(t, "")
	if a, _ := m.updateRequest("update-offer", `{"source":"usb","file":"../x.raucb"}`, 0); !strings.HasPrefix(a, "error: update-offer: ") {
		t.Errorf("bad offer: %q", a)
	}
	if a := report(m, protocol.UpdateOffered, 0, "", 0); !strings.Contains(a, "not the bundle offered") {
		t.Errorf("report with no offer: %q", a)
	}
	m.updateRequest("update-offer", offerArg("usb", false), 0)
	if a := report(m, protocol.UpdateRestarting, 0, "", 0); !strings.Contains(a, "while the update is checking") {
		t.Errorf("restarting before installing: %q", a)
	}
	report(m, protocol.UpdateOffered, 0, "", 0)
	click(m, ui.OK, time.Second)
	if a, _ := m.updateRequest("update-offer", offerArg("usb", false), 2*time.Second); !strings.Contains(a, "being installed") {
		t.Errorf("an offer while installing: %q", a)
	}
	if len(*reqs) != 2 {
		t.Errorf("requests %q", ops(*reqs))
	}
	m.UpdateRequest = nil
	m.update = updater{}
	if a, _ := m.updateRequest("update-offer", offerArg("usb", false), 0); !strings.Contains(a, "no installer") {
		t.Errorf("no installer: %q", a)
	}
	m.UpdateRequest = func(protocol.UpdateRequest) error { return errors.New("read-only") }
	if a, _ := m.updateRequest("update-offer", offerArg("usb", false), 0); !strings.Contains(a, "read-only") {
		t.Errorf("request not written: %q", a)
	}
}

func TestUpdateSlot(t *testing.T) {
	for cmdline, want := range map[string]string{
		"console=tty1 root=/dev/mmcblk0p2 rauc.slot=B quiet": "B",
		"console=tty1":     "",
		"rauc.slot=A\n":    "A",
		"xrauc.slot=A foo": "",
	} {
		if got := UpdateSlot(cmdline); got != want {
			t.Errorf("%q: %q, want %q", cmdline, got, want)
		}
	}
}

func TestRequestFile(t *testing.T) {
	dir := t.TempDir()
	r := protocol.UpdateRequest{Op: protocol.UpdateCheck, File: bundle, SHA256: strings.Repeat("ab", 32), Size: 10}
	if err := RequestFile(dir)(r); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "update-request"))
	got, err := protocol.ParseUpdateRequest(data)
	if err != nil || got != r {
		t.Errorf("read back %+v, %v", got, err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("left in the directory: %v", ents)
	}
}

func jsonOf(v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}

// TestUpdateAfterTheGame: an update offered during a game waits for its
// end: then the hall's installs by itself, and the stick's is asked.
func TestUpdateAfterTheGame(t *testing.T) {
	for _, c := range []struct {
		source   string
		auto     bool
		wantOps  string
		question bool
	}{
		{"hall", true, "check install", false},
		{"usb", false, "check", true},
	} {
		t.Run(c.source, func(t *testing.T) {
			m, reqs, _ := updateMachine(t, "[game]\ncontrol = \"bullet-1\"\n")
			click(m, ui.Right, time.Second)
			m.updateRequest("update-offer", offerArg(c.source, c.auto), 2*time.Second)
			report(m, protocol.UpdateOffered, 0, "", 3*time.Second)
			m.Step(30 * time.Second)
			if ops(*reqs) != "check" || m.Core.UpdateQuestion() {
				t.Fatalf("during the game: %q, question %v", ops(*reqs), m.Core.UpdateQuestion())
			}
			m.Step(2 * time.Minute) // White's flag fell: the game is over
			if m.Core.GameUnderWay(2 * time.Minute) {
				t.Fatal("the game is still under way")
			}
			if got := ops(*reqs); got != c.wantOps {
				t.Errorf("after the game: %q, want %q", got, c.wantOps)
			}
			if m.Core.UpdateQuestion() != c.question {
				t.Errorf("question %v, want %v", m.Core.UpdateQuestion(), c.question)
			}
		})
	}
}

// TestUpdateInstallerSilent: an installer that never answers does not
// keep the clock from taking the next offer.
func TestUpdateInstallerSilent(t *testing.T) {
	m, _, _ := updateMachine(t, "")
	m.updateRequest("update-offer", offerArg("usb", false), time.Second)
	m.Step(time.Second + updateBusy - time.Millisecond)
	if s := m.Status(0).Update; s.State != protocol.UpdateChecking {
		t.Fatalf("before the limit: %+v", s)
	}
	at := time.Second + updateBusy
	if next, ok := m.Step(at - time.Millisecond); !ok || next > at {
		t.Errorf("the loop wakes at %v (%v), not at the limit %v", next, ok, at)
	}
	m.Step(at)
	if s := m.Status(at).Update; s.State != protocol.UpdateFailed || !strings.Contains(s.Message, "did not answer") {
		t.Errorf("after the limit: %+v", s)
	}
	if a, _ := m.updateRequest("update-offer", offerArg("usb", false), at); a != "ok" {
		t.Errorf("the next offer: %q", a)
	}
}

// TestUpdateQuestionClosed: a question closed unanswered (the menus
// closed from elsewhere) is asked again.
func TestUpdateQuestionClosed(t *testing.T) {
	m, _, _ := updateMachine(t, "")
	m.updateRequest("update-offer", offerArg("usb", false), time.Second)
	report(m, protocol.UpdateOffered, 0, "", time.Second)
	if !m.Core.UpdateQuestion() {
		t.Fatal("not asked")
	}
	m.Core.DropUpdateQuestion()
	m.Step(2 * time.Second)
	if !m.Core.UpdateQuestion() {
		t.Error("not asked again")
	}
}
