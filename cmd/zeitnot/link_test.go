package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/link/linktest"
	"github.com/zeitnot/zeitnot/internal/wait"
	"github.com/zeitnot/zeitnot/protocol"
)

func TestLinkNothingToDo(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "zeitnot.toml")
	os.WriteFile(cfg, []byte("profile = \"sim\"\n"), 0o644)
	code, _, errOut := prog.Run("link", "--config", cfg, "--state-dir", dir, "--socket", filepath.Join(dir, "none.sock"))
	if code != 0 || errOut != "zeitnot link: "+cfg+": no [hall] table: the clock is not linked to a hall; nothing to do\n" {
		t.Errorf("exit %d: %q", code, errOut)
	}
	// The imported config in the state directory is the one read.
	os.WriteFile(filepath.Join(dir, "zeitnot.toml"), []byte("[hall]\nbroker = \"mqtt://h\"\nhall = \"club\"\nboard = \"twelve\"\n"), 0o644)
	state := filepath.Join(dir, "state")
	os.Mkdir(state, 0o755)
	os.WriteFile(filepath.Join(state, "zeitnot.toml"), []byte("profile = \"sim\"\n"), 0o644)
	code, _, errOut = prog.Run("link", "--config", cfg, "--state-dir", state)
	if code != 0 || !strings.Contains(errOut, state+"/zeitnot.toml: no [hall] table") {
		t.Errorf("imported config: exit %d: %q", code, errOut)
	}
}

func TestLinkBadConfig(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "zeitnot.toml")
	os.WriteFile(cfg, []byte("profile = \"sim\"\n[hall]\nbroker = \"mqtts://hall.example\"\nhall = \"club\"\nboard = \"twelve\"\npasword = \"x\"\n"), 0o644)
	code, _, errOut := prog.Run("link", "--config", cfg, "--state-dir", "")
	want := "zeitnot link: " + cfg + ":5: hall.board: want a whole number from 1 to 9999, got \"twelve\"\n" +
		"zeitnot link: " + cfg + ":6: hall.pasword: unknown key (did you mean password?)\n"
	if code != exitConfig || errOut != want {
		t.Errorf("exit %d:\n%s\nwant exit %d:\n%s", code, errOut, exitConfig, want)
	}
	os.WriteFile(cfg, []byte("[hall]\nbroker = \"mqtts://hall.example\"\nhall = \"club\"\nboard = 1\nca_file = \"missing.pem\"\n"), 0o644)
	code, _, errOut = prog.Run("link", "--config", cfg, "--state-dir", "")
	if code != exitConfig || errOut != "zeitnot link: "+cfg+": hall.ca_file: open "+dir+"/missing.pem: no such file or directory\n" {
		t.Errorf("exit %d: %q", code, errOut)
	}
	if code, _, _ := prog.Run("link", "extra"); code != 2 {
		t.Errorf("an argument: exit %d", code)
	}
}

// linkProc is a zeitnot link process.
type linkProc struct {
	cmd  *exec.Cmd
	done chan struct{}
	log  string
}

func startLink(t *testing.T, dir, cfg, sock string, env ...string) *linkProc {
	t.Helper()
	linkDir := filepath.Join(dir, "link")
	os.MkdirAll(linkDir, 0o700)
	args := strings.Join([]string{"link", "--config", cfg, "--state-dir", "", "--socket", sock}, "\x1f")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "ZEITNOT_TEST_ARGS="+args, "STATE_DIRECTORY="+linkDir)
	cmd.Env = append(cmd.Env, env...)
	p := &linkProc{cmd: cmd, done: make(chan struct{}), log: filepath.Join(dir, "link.log")}
	logf, _ := os.Create(p.log)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { cmd.Wait(); logf.Close(); close(p.done) }()
	t.Cleanup(func() { cmd.Process.Kill(); <-p.done })
	return p
}

func (p *linkProc) output() string {
	b, _ := os.ReadFile(p.log)
	return string(b)
}

// TestLinkWithTheDaemon runs the daemon and zeitnot link as processes: the
// hall sees the presses; the link stops cleanly on SIGTERM, and when it
// is killed the broker publishes its will.
func TestLinkWithTheDaemon(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real daemon and link processes and a broker: not with -short")
	}
	linktest.Mosquitto(t)
	dir := t.TempDir()
	broker := linktest.StartBroker(t, linktest.BrokerOpts{})
	cfg := filepath.Join(dir, "zeitnot.toml")
	os.WriteFile(cfg, []byte(fmt.Sprintf("profile = \"sim\"\n[game]\ncontrol = \"300+2\"\n\n[hall]\nbroker = %q\nhall = \"club\"\nboard = 12\n", broker.URL())), 0o644)
	d := startDaemon(t, dir)
	hall := linktest.NewHall(t, broker.URL(), linktest.HallOpts{})
	topics := protocol.TopicsFor("club", 12)

	lp := startLink(t, dir, cfg, d.sock)
	online := func(want string) {
		t.Helper()
		hall.Wait(10*time.Second, "online "+want, func(h *linktest.Hall) bool {
			m, ok := h.Last(topics.Online)
			return ok && strings.Contains(string(m.Payload), want)
		})
	}
	online(`"online":true,"clock":true`)
	t.Logf("link RSS %d kB", rss(lp.cmd.Process.Pid))
	d.press("right")
	d.pressMove("left")
	hall.Wait(10*time.Second, "the state after White's move", func(h *linktest.Hall) bool {
		m, ok := h.Last(topics.State)
		if !ok {
			return false
		}
		sm, err := protocol.ParseStateMsg(m.Payload)
		st := sm.State
		return err == nil && st.Running == "black" && st.White.Moves == 1
	})
	m, _ := hall.Last(topics.Online)
	var om protocol.OnlineMsg
	json.Unmarshal(m.Payload, &om)
	if om.Log == "ok" {
		// A daemon that serves "log": the journal reaches the hall.
		hall.Wait(10*time.Second, "the press in the log", func(h *linktest.Hall) bool {
			for _, m := range h.Messages(topics.Log) {
				if strings.Contains(string(m.Payload), " press white") {
					return true
				}
			}
			return false
		})
	} else if !strings.Contains(om.Log, "needs a newer zeitnot run") {
		t.Errorf("online message %s", m.Payload)
	}

	// SIGTERM: a clean stop marks the board offline.
	lp.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-lp.done:
	case <-time.After(10 * time.Second):
		t.Fatalf("the link did not stop on SIGTERM; log:\n%s", lp.output())
	}
	if code := lp.cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("exit %d after SIGTERM; log:\n%s", code, lp.output())
	}
	online(`{"online":false,"reason":"stopped"}`)

	// SIGKILL: the broker publishes the will.
	lp = startLink(t, dir, cfg, d.sock)
	online(`"online":true,"clock":true`)
	lp.cmd.Process.Kill()
	<-lp.done
	online(`{"online":false}`)
	if m, _ := hall.Last(topics.Online); string(m.Payload) != `{"online":false}` {
		t.Errorf("will %s", m.Payload)
	}
	viewer := linktest.NewHall(t, broker.URL(), linktest.HallOpts{ClientID: "viewer"})
	viewer.Wait(5*time.Second, "the will, retained", func(h *linktest.Hall) bool {
		m, ok := h.Last(topics.Online)
		return ok && m.Retain && string(m.Payload) == `{"online":false}`
	})
}

// TestLinkRefusedKeepsTrying: a broker that refuses the password does not
// stop the link; it says why in its log and in systemd's STATUS=, tries
// again with backoff, and still stops cleanly.
func TestLinkRefusedKeepsTrying(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a link process and a broker: not with -short")
	}
	linktest.Mosquitto(t)
	dir := t.TempDir()
	broker := linktest.StartBroker(t, linktest.BrokerOpts{Users: map[string]string{"board12": "right"}})
	os.WriteFile(filepath.Join(dir, "pw"), []byte("wrong\n"), 0o600)
	cfg := filepath.Join(dir, "zeitnot.toml")
	os.WriteFile(cfg, []byte(fmt.Sprintf("[hall]\nbroker = %q\nhall = \"club\"\nboard = 12\nusername = \"board12\"\npassword_file = \"pw\"\n", broker.URL())), 0o644)
	notifyPath := filepath.Join(dir, "notify")
	n := listenNotify(t, notifyPath)
	lp := startLink(t, dir, cfg, filepath.Join(dir, "none.sock"), "NOTIFY_SOCKET="+notifyPath)
	wait.Until(t, 15*time.Second, func() string {
		if out := lp.output(); !strings.Contains(out, "attempt 2 failed") {
			return "no second attempt; log:\n" + out
		}
		return ""
	})
	select {
	case <-lp.done:
		t.Fatalf("the link exited; log:\n%s", lp.output())
	default:
	}
	if !strings.Contains(lp.output(), "the broker refused the connection: not authorized (MQTT reason 0x87) (check hall.username \"board12\" and the password in "+cfg) {
		t.Errorf("log:\n%s", lp.output())
	}
	if n.count("STATUS=broker not connected: the broker refused the connection") == 0 {
		n.mu.Lock()
		t.Errorf("no STATUS= with the refusal in %q", n.msgs)
		n.mu.Unlock()
	}
	lp.cmd.Process.Signal(syscall.SIGTERM)
	<-lp.done
	if code := lp.cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("exit %d after SIGTERM; log:\n%s", code, lp.output())
	}
}
