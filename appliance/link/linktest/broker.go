package linktest

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/eclipse/paho.golang/autopaho"
	"github.com/eclipse/paho.golang/paho"
)

// Mosquitto returns the path of the mosquitto broker, or skips the test
// with how to install it.
func Mosquitto(t testing.TB) string {
	t.Helper()
	if p, err := exec.LookPath("mosquitto"); err == nil {
		return p
	}
	for _, p := range []string{"/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Skip("mosquitto is not installed (Debian: apt-get install -y mosquitto); the tests against a real broker are skipped")
	return ""
}

// BrokerOpts say how to set up a test broker.
type BrokerOpts struct {
	// Users are the accepted user names and passwords; none: anonymous
	// clients are allowed.
	Users map[string]string
	// CertFile and KeyFile make the listener TLS.
	CertFile, KeyFile string
	// ClientCAFile, with TLS, makes the broker require a client
	// certificate signed by this CA; its common name is the user name.
	ClientCAFile string
	// ACLFile, if set, is the broker's acl_file, and client ids are the
	// user names (use_username_as_clientid).
	ACLFile string
}

// Broker is a mosquitto process on a free loopback port, with
// persistence, so that it keeps sessions and retained messages over Stop
// and Start.
type Broker struct {
	t    testing.TB
	bin  string
	dir  string
	conf string
	Port int
	TLS  bool

	mu  sync.Mutex
	cmd *exec.Cmd
	log bytes.Buffer
}

// StartBroker starts mosquitto for the test; it is stopped when the test
// ends.
func StartBroker(t testing.TB, o BrokerOpts) *Broker {
	t.Helper()
	b := &Broker{t: t, bin: Mosquitto(t), dir: t.TempDir(), TLS: o.CertFile != ""}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	b.Port = l.Addr().(*net.TCPAddr).Port
	l.Close()
	var conf bytes.Buffer
	fmt.Fprintf(&conf, "listener %d 127.0.0.1\n", b.Port)
	if u, err := user.Current(); err == nil {
		// As root mosquitto would become user mosquitto, who cannot
		// read the test's files.
		fmt.Fprintf(&conf, "user %s\n", u.Username)
	}
	fmt.Fprintf(&conf, "persistence true\npersistence_location %s/\n", b.dir)
	fmt.Fprintf(&conf, "max_queued_messages 10000\n")
	if len(o.Users) > 0 {
		pw := filepath.Join(b.dir, "passwd")
		if err := os.WriteFile(pw, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		tool, err := exec.LookPath("mosquitto_passwd")
		if err != nil {
			t.Skip("mosquitto_passwd is not installed (Debian: apt-get install -y mosquitto)")
		}
		for name, pass := range o.Users {
			if out, err := exec.Command(tool, "-b", pw, name, pass).CombinedOutput(); err != nil {
				t.Fatalf("mosquitto_passwd: %v: %s", err, out)
			}
		}
		fmt.Fprintf(&conf, "allow_anonymous false\npassword_file %s\n", pw)
	} else {
		fmt.Fprintf(&conf, "allow_anonymous true\n")
	}
	if o.ACLFile != "" {
		fmt.Fprintf(&conf, "acl_file %s\nuse_username_as_clientid true\n", o.ACLFile)
	}
	if b.TLS {
		fmt.Fprintf(&conf, "certfile %s\nkeyfile %s\n", o.CertFile, o.KeyFile)
		if o.ClientCAFile != "" {
			fmt.Fprintf(&conf, "cafile %s\nrequire_certificate true\nuse_identity_as_username true\n", o.ClientCAFile)
		}
	}
	b.conf = filepath.Join(b.dir, "mosquitto.conf")
	if err := os.WriteFile(b.conf, conf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	b.Start()
	t.Cleanup(b.Stop)
	return b
}

// URL is the broker's address for the [hall] table.
func (b *Broker) URL() string {
	scheme := "mqtt"
	if b.TLS {
		scheme = "mqtts"
	}
	return fmt.Sprintf("%s://127.0.0.1:%d", scheme, b.Port)
}

// Start starts the broker (again), waiting until it accepts connections.
func (b *Broker) Start() {
	b.t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.cmd != nil {
		return
	}
	b.log.Reset()
	cmd := exec.Command(b.bin, "-c", b.conf)
	cmd.Stdout, cmd.Stderr = &b.log, &b.log
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		b.t.Fatalf("mosquitto: %v", err)
	}
	b.cmd = cmd
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", b.Port), time.Second)
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("mosquitto does not listen on port %d: %v\n%s", b.Port, err, b.log.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Stop stops the broker as systemd would (SIGTERM); it saves its
// sessions and retained messages.
func (b *Broker) Stop() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.cmd == nil {
		return
	}
	b.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { b.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		b.cmd.Process.Kill()
		<-done
	}
	b.cmd = nil
}

// Msg is one message the hall received.
type Msg struct {
	Topic   string
	Payload []byte
	Retain  bool
	Corr    []byte
}

// Hall is the hall's side: an MQTT client that keeps its session over
// broker restarts and records every message on zeitnot/#.
type Hall struct {
	t  testing.TB
	cm *autopaho.ConnectionManager

	mu   sync.Mutex
	msgs []Msg
	seen chan struct{}
}

// HallOpts say how the hall client connects.
type HallOpts struct {
	ClientID           string // default "hall-test"
	Username, Password string
	Filter             string // default "zeitnot/#"
}

// NewHall connects a hall client to broker url and waits until it is
// subscribed.
func NewHall(t testing.TB, brokerURL string, o HallOpts) *Hall {
	t.Helper()
	if o.ClientID == "" {
		o.ClientID = "hall-test"
	}
	if o.Filter == "" {
		o.Filter = "zeitnot/#"
	}
	u, err := url.Parse(brokerURL)
	if err != nil {
		t.Fatal(err)
	}
	h := &Hall{t: t, seen: make(chan struct{}, 1)}
	subscribed := make(chan error, 1)
	cfg := autopaho.ClientConfig{
		ServerUrls:                    []*url.URL{u},
		KeepAlive:                     30,
		CleanStartOnInitialConnection: true,
		SessionExpiryInterval:         3600,
		ReconnectBackoff:              autopaho.NewConstantBackoff(50 * time.Millisecond),
		ConnectUsername:               o.Username,
		ConnectPassword:               []byte(o.Password),
		OnConnectionUp: func(cm *autopaho.ConnectionManager, ca *paho.Connack) {
			if ca.SessionPresent {
				return
			}
			go func() {
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer cancel()
				_, err := cm.Subscribe(ctx, &paho.Subscribe{Subscriptions: []paho.SubscribeOptions{{Topic: o.Filter, QoS: 1}}})
				select {
				case subscribed <- err:
				default:
				}
			}()
		},
		ClientConfig: paho.ClientConfig{
			ClientID: o.ClientID,
			OnPublishReceived: []func(paho.PublishReceived) (bool, error){func(pr paho.PublishReceived) (bool, error) {
				m := Msg{Topic: pr.Packet.Topic, Payload: append([]byte(nil), pr.Packet.Payload...), Retain: pr.Packet.Retain}
				if pr.Packet.Properties != nil {
					m.Corr = pr.Packet.Properties.CorrelationData
				}
				h.mu.Lock()
				h.msgs = append(h.msgs, m)
				h.mu.Unlock()
				select {
				case h.seen <- struct{}{}:
				default:
				}
				return true, nil
			}},
		},
	}
	ctx, cancel := context.WithCancel(context.Background())
	cm, err := autopaho.NewConnection(ctx, cfg)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	h.cm = cm
	t.Cleanup(func() {
		dctx, dcancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer dcancel()
		cm.Disconnect(dctx)
		cancel()
	})
	select {
	case err := <-subscribed:
		if err != nil {
			t.Fatalf("hall: subscribe: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("hall: not subscribed within 10 s")
	}
	return h
}

// Publish publishes payload on topic (QoS 1) with correlation data corr
// (may be nil).
func (h *Hall) Publish(topic string, payload []byte, retain bool, corr []byte) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := h.cm.AwaitConnection(ctx); err != nil {
		return err
	}
	p := &paho.Publish{Topic: topic, Payload: payload, QoS: 1, Retain: retain}
	if corr != nil {
		p.Properties = &paho.PublishProperties{CorrelationData: corr}
	}
	_, err := h.cm.Publish(ctx, p)
	return err
}

// Messages returns the messages received on topic so far ("" for all).
func (h *Hall) Messages(topic string) []Msg {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []Msg
	for _, m := range h.msgs {
		if topic == "" || m.Topic == topic {
			out = append(out, m)
		}
	}
	return out
}

// Wait waits until ok holds for the messages received so far, and
// fails the test after timeout, saying what it waited for.
func (h *Hall) Wait(timeout time.Duration, what string, ok func(h *Hall) bool) {
	h.t.Helper()
	deadline := time.After(timeout)
	for !ok(h) {
		select {
		case <-h.seen:
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			h.t.Fatalf("hall: waited %s for %s", timeout, what)
		}
	}
}

// Last returns the last message on topic, or false.
func (h *Hall) Last(topic string) (Msg, bool) {
	m := h.Messages(topic)
	if len(m) == 0 {
		return Msg{}, false
	}
	return m[len(m)-1], true
}
