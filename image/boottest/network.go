package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/eclipse/paho.golang/autopaho"
	"github.com/eclipse/paho.golang/paho"
)

// The -M virt boot's network: QEMU's user-mode network (the guest gets
// 10.0.2.15 by DHCP, and 10.0.2.2 is the host's loopback), a mosquitto
// broker on the host's loopback that the test starts, and a zeitnot.toml
// whose [network] table turns Ethernet on and whose [hall] table points the
// link at that broker. The test subscribes to the board's topics and checks
// that a press reaches the broker as state and as a log line.
const (
	netHall  = "boottest"
	netBoard = 7
	// hostFromGuest is the host's loopback as QEMU's user-mode network
	// shows it to the guest.
	hostFromGuest = "10.0.2.2"
)

// netConfig is the zeitnot.toml of the network boot.
func netConfig(brokerPort int) string {
	return simConfig + fmt.Sprintf(`
[network]
ethernet = true
ntp = "%s"

[hall]
broker = "mqtt://%s:%d"
hall = "%s"
board = %d
`, hostFromGuest, hostFromGuest, brokerPort, netHall, netBoard)
}

// hostBroker is mosquitto on a free port of the host's loopback.
type hostBroker struct {
	cmd  *exec.Cmd
	port int
	log  bytes.Buffer
	done chan struct{}
}

func startHostBroker(work string) (*hostBroker, error) {
	bin, err := exec.LookPath("mosquitto")
	if err != nil {
		bin = "/usr/sbin/mosquitto"
		if _, serr := os.Stat(bin); serr != nil {
			return nil, errors.New("mosquitto is not installed: run 'make image-deps'")
		}
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	conf := fmt.Sprintf("listener %d 127.0.0.1\nallow_anonymous true\npersistence false\n", port)
	if u, err := user.Current(); err == nil {
		conf += "user " + u.Username + "\n"
	}
	path := filepath.Join(work, "mosquitto.conf")
	if err := os.WriteFile(path, []byte(conf), 0o600); err != nil {
		return nil, err
	}
	b := &hostBroker{port: port, done: make(chan struct{})}
	b.cmd = exec.Command(bin, "-c", path)
	b.cmd.Stdout, b.cmd.Stderr = &b.log, &b.log
	if err := b.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting mosquitto: %v", err)
	}
	go func() { b.cmd.Wait(); close(b.done) }()
	for deadline := time.Now().Add(10 * time.Second); ; {
		c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second)
		if err == nil {
			c.Close()
			return b, nil
		}
		select {
		case <-b.done:
			return nil, fmt.Errorf("mosquitto exited: %s", strings.TrimSpace(b.log.String()))
		default:
		}
		if time.Now().After(deadline) {
			b.stop()
			return nil, fmt.Errorf("mosquitto does not accept connections on port %d: %v", port, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (b *hostBroker) stop() {
	if b == nil || b.cmd.Process == nil {
		return
	}
	b.cmd.Process.Kill()
	<-b.done
}

// hallMsg is one message the test's subscriber got.
type hallMsg struct {
	topic   string
	payload []byte
	retain  bool
	at      time.Time
}

// hallWatch is the hall's side: a client subscribed to the board's topics.
type hallWatch struct {
	cm     *autopaho.ConnectionManager
	cancel context.CancelFunc
	mu     sync.Mutex
	msgs   []hallMsg
	seen   chan struct{}
}

func watchHall(port int) (*hallWatch, error) {
	u, _ := url.Parse(fmt.Sprintf("mqtt://127.0.0.1:%d", port))
	w := &hallWatch{seen: make(chan struct{}, 1)}
	filter := fmt.Sprintf("zeitnot/v1/%s/board/%d/#", netHall, netBoard)
	subscribed := make(chan error, 1)
	ctx, cancel := context.WithCancel(context.Background())
	w.cancel = cancel
	cm, err := autopaho.NewConnection(ctx, autopaho.ClientConfig{
		ServerUrls:                    []*url.URL{u},
		KeepAlive:                     30,
		CleanStartOnInitialConnection: true,
		ReconnectBackoff:              autopaho.NewConstantBackoff(200 * time.Millisecond),
		OnConnectionUp: func(cm *autopaho.ConnectionManager, _ *paho.Connack) {
			go func() {
				sctx, scancel := context.WithTimeout(ctx, 5*time.Second)
				defer scancel()
				_, err := cm.Subscribe(sctx, &paho.Subscribe{Subscriptions: []paho.SubscribeOptions{{Topic: filter, QoS: 1}}})
				select {
				case subscribed <- err:
				default:
				}
			}()
		},
		ClientConfig: paho.ClientConfig{
			ClientID: "zeitnot-boottest-hall",
			OnPublishReceived: []func(paho.PublishReceived) (bool, error){func(pr paho.PublishReceived) (bool, error) {
				w.mu.Lock()
				w.msgs = append(w.msgs, hallMsg{topic: pr.Packet.Topic, payload: append([]byte(nil), pr.Packet.Payload...), retain: pr.Packet.Retain, at: time.Now()})
				w.mu.Unlock()
				select {
				case w.seen <- struct{}{}:
				default:
				}
				return true, nil
			}},
		},
	})
	if err != nil {
		cancel()
		return nil, err
	}
	w.cm = cm
	select {
	case err := <-subscribed:
		if err != nil {
			w.close()
			return nil, fmt.Errorf("subscribing to %s: %v", filter, err)
		}
	case <-time.After(15 * time.Second):
		w.close()
		return nil, fmt.Errorf("not subscribed to %s within 15 s", filter)
	}
	return w, nil
}

func (w *hallWatch) close() {
	if w == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	w.cm.Disconnect(ctx)
	w.cancel()
}

// waitFor waits until ok holds for the messages on the board's topic sub
// ("state", "log", "online") received after since, and returns them.
func (w *hallWatch) waitFor(sub string, since time.Time, timeout time.Duration, ok func([]hallMsg) bool) ([]hallMsg, bool) {
	topic := fmt.Sprintf("zeitnot/v1/%s/board/%d/%s", netHall, netBoard, sub)
	deadline := time.After(timeout)
	for {
		w.mu.Lock()
		var got []hallMsg
		for _, m := range w.msgs {
			if m.topic == topic && !m.at.Before(since) {
				got = append(got, m)
			}
		}
		w.mu.Unlock()
		if ok(got) {
			return got, true
		}
		select {
		case <-w.seen:
		case <-deadline:
			return got, false
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// boardState is the part of the state message the test reads.
type boardState struct {
	Game  string     `json:"game"`
	State clockState `json:"state"`
}

type logLine struct {
	Game string `json:"game"`
	Seq  int    `json:"seq"`
	Line string `json:"line"`
}

// networkCheck: the [network] table gave the guest its address by DHCP,
// NTP's server from the table, the link on the broker, and nothing that
// listens.
func networkCheck(rep *report, run runFunc, w *hallWatch, ntp *ntpServer) {
	out, _ := run("systemctl show -p ActiveState,Result zeitnot-network.service | xargs; ls /run/systemd/network/; journalctl -b -o cat --no-pager -u zeitnot-network.service | grep '^network'", 15*time.Second)
	rep.check("zeitnot-network.service wrote the networkd file", strings.Contains(out, "ActiveState=active") && strings.Contains(out, "Result=success") && strings.Contains(out, "50-zeitnot-ethernet.network") &&
		strings.Contains(out, "network: Ethernet (DHCP), NTP "+hostFromGuest),
		"%s", strings.Join(strings.Fields(out), " "))
	out, _ = run("for i in $(seq 1 120); do ip -color=never -4 -o addr show | grep -q ' 10\\.0\\.2\\.15/' && break; sleep 0.5; done; ip -color=never -4 -o addr show scope global; SYSTEMD_COLORS=0 networkctl list --no-legend --no-pager 2>&1", 90*time.Second)
	fmt.Println(indent(out))
	rep.check("Ethernet address by DHCP (systemd-networkd)", strings.Contains(out, " 10.0.2.15/"), "%s", firstLine(out))
	out, _ = run("systemctl is-active systemd-timesyncd.service; cat /run/systemd/timesyncd.conf.d/*.conf 2>&1 | grep '^NTP='", 15*time.Second)
	rep.check("systemd-timesyncd running with the NTP server from [network]", strings.Contains(out, "active") && strings.Contains(out, "NTP="+hostFromGuest),
		"%s", strings.Join(strings.Fields(out), " "))
	if ntp != nil {
		// timesyncd's flag file, then the daemon's time of day from NTP
		// (it looks at the flag at most every few seconds).
		out, code := run("for i in $(seq 1 90); do test -e /run/systemd/timesync/synchronized && break; sleep 1; done; "+
			"for i in $(seq 1 30); do zeitnot status | grep -q '\"time_source\":\"ntp\"' && break; sleep 1; done; "+
			"ls /run/systemd/timesync/; zeitnot status | grep -o '\"time_source\":\"[a-z]*\"'", 150*time.Second)
		rep.check("systemd-timesyncd synchronized with [network]'s server, the daemon's time of day is NTP's", code == 0 &&
			strings.Contains(out, "synchronized") && strings.Contains(out, `"time_source":"ntp"`), "%s", strings.Join(strings.Fields(out), " "))
	}
	out, _ = run("systemctl is-active zeitnot-link.service; systemctl show -p SubState,NRestarts zeitnot-link.service | xargs", 15*time.Second)
	rep.check("zeitnot-link.service running", strings.HasPrefix(strings.TrimSpace(out), "active") && strings.Contains(out, "SubState=running"), "%s", strings.Join(strings.Fields(out), " "))
	if w != nil {
		_, ok := w.waitFor("online", time.Time{}, 90*time.Second, func(ms []hallMsg) bool {
			for _, m := range ms {
				var o struct {
					Online bool `json:"online"`
					Clock  bool `json:"clock"`
				}
				if json.Unmarshal(m.payload, &o) == nil && o.Online && o.Clock {
					return true
				}
			}
			return false
		})
		rep.check("the link is online on the host's broker, following the clock", ok, "zeitnot/v1/%s/board/%d/online", netHall, netBoard)
	}
	out, code := run("ss -tulpn", 10*time.Second)
	fmt.Println(indent("$ ss -tulpn (with the network)\n" + out))
	var odd []string
	for i, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if i == 0 || l == "" {
			continue
		}
		// What the network needs and is not a server: the DHCP client's
		// socket (networkd, port 68) and the NTP client's (timesyncd).
		if strings.HasPrefix(l, "udp") && (strings.Contains(l, "systemd-network") || strings.Contains(l, "systemd-timesyn")) {
			continue
		}
		// systemd-resolved: its stub on the loopback, and the port multicast
		// DNS answers come back to (it answers for no name itself).
		if strings.Contains(l, "systemd-resolve") && (regexp.MustCompile(` 127\.0\.0\.5[34](%lo)?:53 `).MatchString(l) || (strings.HasPrefix(l, "udp") && strings.Contains(l, ":5353 "))) {
			continue
		}
		odd = append(odd, l)
	}
	rep.check("nothing listens on the network (DHCP, NTP and mDNS clients, the resolver on the loopback)", code == 0 && len(odd) == 0, "%d other line(s) %q", len(odd), odd)
	out, _ = run("systemd-analyze security --no-pager zeitnot-link.service | tail -n 1", 60*time.Second)
	score := regexp.MustCompile(`level for \S+: ([0-9.]+)`).FindStringSubmatch(out)
	v := 99.0
	if score != nil {
		v, _ = strconv.ParseFloat(score[1], 64)
	}
	rep.check("systemd-analyze security zeitnot-link.service in the image at most 2.0", v <= 2.0, "%s", strings.TrimSpace(out))
}

// hallPressCheck: a press on the clock reaches the host's broker as a
// state in which the other side runs and as the game's log line.
func hallPressCheck(rep *report, w *hallWatch, before time.Time, after clockState) {
	if w == nil {
		return
	}
	states, ok := w.waitFor("state", before, 30*time.Second, func(ms []hallMsg) bool {
		for _, m := range ms {
			var s boardState
			if json.Unmarshal(m.payload, &s) == nil && s.State.Running == after.Running && s.State.White.Moves == after.White.Moves && s.State.Black.Moves == after.Black.Moves {
				return true
			}
		}
		return false
	})
	last := ""
	if len(states) > 0 {
		last = string(states[len(states)-1].payload)
		if len(last) > 160 {
			last = last[:160] + "…"
		}
	}
	rep.check("the press reached the broker as state", ok, "running=%s after the press; %d state message(s), last %s", after.Running, len(states), last)
	logs, ok := w.waitFor("log", time.Time{}, 30*time.Second, func(ms []hallMsg) bool {
		for _, m := range ms {
			var l logLine
			if json.Unmarshal(m.payload, &l) == nil && pressLine.MatchString(l.Line) {
				return true
			}
		}
		return false
	})
	var lines []string
	for _, m := range logs {
		var l logLine
		if json.Unmarshal(m.payload, &l) == nil {
			lines = append(lines, fmt.Sprintf("%d:%s", l.Seq, l.Line))
		}
	}
	tail := lines
	if len(tail) > 4 {
		tail = tail[len(tail)-4:]
	}
	rep.check("the press reached the broker as a log line", ok, "%d log message(s), last %q", len(logs), tail)
}

// pressLine is the journal's line of a press (the first one starts the
// clock: its line is a start).
var pressLine = regexp.MustCompile(`^\d+ (press|start)\b`)

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func portOf(b *hostBroker) int {
	if b == nil {
		return 0
	}
	return b.port
}
