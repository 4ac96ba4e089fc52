package hall

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/link"
	"github.com/zeitnot/zeitnot/appliance/link/linktest"
	"github.com/zeitnot/zeitnot/devtools/fakeclock"
	"github.com/zeitnot/zeitnot/hall/broker"
	"github.com/zeitnot/zeitnot/hall/tlsca"
	"github.com/zeitnot/zeitnot/internal/wait"
	"github.com/zeitnot/zeitnot/protocol"
)

// sniffer is a TCP proxy on loopback that records every byte that
// passes, both ways, as someone on the club's Wi-Fi would see them. Its
// target may change (a hall that restarted on another port).
type sniffer struct {
	ln     net.Listener
	target atomic.Value // string
	mu     sync.Mutex
	seen   bytes.Buffer
}

func startSniffer(t *testing.T, target string) *sniffer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &sniffer{ln: ln}
	s.target.Store(target)
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go s.relay(c)
		}
	}()
	return s
}

func (s *sniffer) relay(c net.Conn) {
	defer c.Close()
	u, err := net.Dial("tcp", s.target.Load().(string))
	if err != nil {
		return
	}
	defer u.Close()
	done := make(chan struct{}, 2)
	pipe := func(dst, src net.Conn) {
		io.Copy(io.MultiWriter(dst, s), src)
		dst.Close()
		src.Close()
		done <- struct{}{}
	}
	go pipe(u, c)
	go pipe(c, u)
	<-done
	<-done
}

func (s *sniffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seen.Write(p)
}

func (s *sniffer) bytes() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return bytes.Clone(s.seen.Bytes())
}

func (s *sniffer) addr() string { return s.ln.Addr().String() }

// linkOpts are a link's options for a test: quick retries.
func linkOpts(sock, dir string) *link.Opts {
	return &link.Opts{
		Socket:      sock,
		Dir:         dir,
		StateEvery:  10 * time.Second,
		Backoff:     link.ExponentialBackoff(50*time.Millisecond, 400*time.Millisecond),
		ClockRetry:  50 * time.Millisecond,
		SaveEvery:   50 * time.Millisecond,
		Timeout:     2 * time.Second,
		CommandRate: 1, CommandBurst: 5,
	}
}

// runLink runs a real link (appliance/link) with a test daemon's socket
// until the test ends.
func runLink(t *testing.T, cfg link.Config, sock string) *link.Link {
	t.Helper()
	dir := t.TempDir()
	o := linkOpts(sock, dir)
	o.Log = func(s string) { t.Log("link: " + s) }
	l, err := link.New(cfg, o)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- l.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			t.Error("the link did not stop within 15 s")
		}
	})
	return l
}

const boardPassword = "board12-very-secret-password"

// A real link reaches the hall's embedded broker over TLS, pinning the
// hall's CA by its fingerprint: it publishes the clock's log, and
// someone on the network between them sees neither the password nor the
// user name. The hall restarts on another port: its CA is the same, the
// fingerprint too, and the link, with the pin it had, connects again.
func TestLinkOverTLS(t *testing.T) {
	data := t.TempDir()
	clocks := map[string]broker.User{"board12": {Board: 12, Hash: broker.HashSHA256(boardPassword)}}
	start := func() *Hall {
		return startHall(t, func(c *Config) { c.Data, c.Clocks = data, clocks })
	}
	h := start()
	fp, ok := h.Fingerprint()
	if !ok {
		t.Fatal("the hall has no TLS listener")
	}
	ca, err := os.ReadFile(filepath.Join(data, TLSDir, tlsca.CAFile))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := arbiterClient(t, h).Get("http://" + h.HTTPAddr() + "/arbiter")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if want := `<code id="fingerprint">` + fp.String() + `</code>`; !strings.Contains(string(page), want) || !strings.Contains(string(page), "mqtts://"+h.MQTTSAddr()) {
		t.Errorf("/arbiter does not show %s and mqtts://%s", want, h.MQTTSAddr())
	}
	spy := startSniffer(t, h.MQTTSAddr())
	sock := filepath.Join(t.TempDir(), "control.sock")
	clock := linktest.StartClock(t, sock, "300+2")
	u := &url.URL{Scheme: "mqtts", Host: spy.addr()}
	l := runLink(t, link.Config{File: "zeitnot.toml", Broker: u, Hall: "test", Board: 12, Username: "board12", Password: []byte(boardPassword), Fingerprint: &fp}, sock)
	wait.For(t, 10*time.Second, "the link connected over TLS", func() bool { return l.Status().BrokerUp })
	if err := clock.Press(0, "black"); err != nil {
		t.Fatal(err)
	}
	if err := clock.Press(3000, "white"); err != nil {
		t.Fatal(err)
	}
	want := len(clock.Lines(clock.Game()))
	wait.For(t, 10*time.Second, "the clock's log at the hall", func() bool {
		lines, _ := h.Store().Lines(12, clock.Game())
		return len(lines) == want
	})
	seen := spy.bytes()
	if len(seen) < 1000 {
		t.Fatalf("the sniffer saw %d bytes: it saw nothing of the link", len(seen))
	}
	for _, secret := range []string{boardPassword, "board12", protocol.TopicsFor("test", 12).Log} {
		if bytes.Contains(seen, []byte(secret)) {
			t.Errorf("%q crossed the network in clear", secret)
		}
	}

	// The hall restarts on another port; the CA stays.
	h.Close()
	h = start()
	if again, _ := h.Fingerprint(); again != fp {
		t.Errorf("fingerprint %s after the restart, was %s", again, fp)
	}
	if b, _ := os.ReadFile(filepath.Join(data, TLSDir, tlsca.CAFile)); !bytes.Equal(b, ca) {
		t.Error("the CA's certificate changed over the restart")
	}
	spy.target.Store(h.MQTTSAddr())
	wait.For(t, 15*time.Second, "the link connected to the restarted hall", func() bool { return l.Status().BrokerUp && h.emb.Clients() > 0 })
	if err := clock.Press(2000, "black"); err != nil {
		t.Fatal(err)
	}
	want = len(clock.Lines(clock.Game()))
	wait.For(t, 10*time.Second, "the move after the restart at the hall", func() bool {
		lines, _ := h.Store().Lines(12, clock.Game())
		return len(lines) == want
	})
}

// The sniffer does see a password sent over plain MQTT: the test above
// would catch one in clear.
func TestSnifferSeesPlainMQTT(t *testing.T) {
	clocks := map[string]broker.User{"board12": {Board: 12, Hash: broker.HashSHA256(boardPassword)}}
	h := startHall(t, func(c *Config) { c.Clocks = clocks })
	spy := startSniffer(t, h.MQTTAddr())
	dialClock(t, &url.URL{Scheme: "mqtt", Host: spy.addr()}, 12, func(o *fakeclock.Opts) { o.Username, o.Password = "board12", boardPassword })
	wait.For(t, 5*time.Second, "the password seen", func() bool { return bytes.Contains(spy.bytes(), []byte(boardPassword)) })
}

// A link pinned to another fingerprint does not connect, and says which
// fingerprint it saw and which it wants; it never tries plain MQTT.
func TestLinkWrongFingerprint(t *testing.T) {
	clocks := map[string]broker.User{"board12": {Board: 12, Hash: broker.HashSHA256(boardPassword)}}
	h := startHall(t, func(c *Config) { c.Clocks = clocks })
	got, _ := h.Fingerprint()
	want := protocol.FingerprintOf([]byte("another hall's CA"))
	spy := startSniffer(t, h.MQTTSAddr())
	sock := filepath.Join(t.TempDir(), "control.sock")
	linktest.StartClock(t, sock, "300+2")
	l := runLink(t, link.Config{File: "zeitnot.toml", Broker: &url.URL{Scheme: "mqtts", Host: spy.addr()}, Hall: "test", Board: 12, Username: "board12", Password: []byte(boardPassword), Fingerprint: &want}, sock)
	wait.For(t, 10*time.Second, "two failed attempts", func() bool { return l.Status().Attempts >= 2 })
	st := l.Status()
	msg := "TLS: the broker's certificate has fingerprint " + got.String() + ", hall.fingerprint wants " + want.String() + ": "
	if st.BrokerUp || st.BrokerErr == nil || !strings.HasPrefix(st.BrokerErr.Error(), msg) {
		t.Errorf("status: %v\nwant %s", st, msg)
	}
	if h.emb.Clients() != 0 {
		t.Errorf("%d clients connected", h.emb.Clients())
	}
	if bytes.Contains(spy.bytes(), []byte(boardPassword)) {
		t.Error("the password went to a broker whose certificate the link refused")
	}
}

// A damaged CA key stops the hall with a message naming the file; the
// hall makes no new CA over it.
func TestDamagedCAKey(t *testing.T) {
	data := t.TempDir()
	h := startHall(t, func(c *Config) { c.Data = data })
	h.Close()
	key := filepath.Join(data, TLSDir, tlsca.CAKeyFile)
	if err := os.WriteFile(key, []byte("-----BEGIN PRIVATE KEY-----\nAAAA\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.HTTP, cfg.MQTT, cfg.MQTTS, cfg.Data, cfg.Hall = "127.0.0.1:0", "127.0.0.1:0", "127.0.0.1:0", data, "test"
	h, err := Start(cfg, Opts{Logf: t.Logf})
	if err == nil {
		h.Close()
		t.Fatal("the hall started with a damaged CA key")
	}
	if want := "tls: " + key + ": no PEM private key in it"; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("%v, want %s", err, want)
	}
}

// A big hall's Mosquitto serves the hall's own CA (zeitnot-hall tls
// writes its certificate and key): a link pins the same fingerprint, and
// the hall reaches the broker trusting its CA file.
func TestMosquittoWithTheHallsCA(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a mosquitto broker: not with -short")
	}
	linktest.Mosquitto(t)
	cfg := Config{Data: t.TempDir(), Hall: "test"}
	ca, err := CA(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ca.Server(tlsca.Hosts(), time.Now()); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(cfg.Data, TLSDir)
	b := linktest.StartBroker(t, linktest.BrokerOpts{CertFile: filepath.Join(dir, tlsca.ServerFile), KeyFile: filepath.Join(dir, tlsca.ServerKey)})
	h := startHall(t, func(c *Config) {
		c.Data, c.Broker, c.CAFile, c.BrokerWithoutACL = cfg.Data, b.URL(), filepath.Join(dir, tlsca.CAFile), true
	})
	u, _ := url.Parse(b.URL())
	fp := ca.Fingerprint()
	sock := filepath.Join(t.TempDir(), "control.sock")
	clock := linktest.StartClock(t, sock, "300+2")
	l := runLink(t, link.Config{File: "zeitnot.toml", Broker: u, Hall: "test", Board: 12, Fingerprint: &fp}, sock)
	wait.For(t, 10*time.Second, "the link connected to Mosquitto", func() bool { return l.Status().BrokerUp })
	if err := clock.Press(0, "black"); err != nil {
		t.Fatal(err)
	}
	want := len(clock.Lines(clock.Game()))
	wait.For(t, 10*time.Second, "the clock's log at the hall", func() bool {
		lines, _ := h.Store().Lines(12, clock.Game())
		return len(lines) == want
	})
}
