package hall

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/hall/limit"
	"github.com/zeitnot/zeitnot/internal/wait"
)

// smallLimits are the pages' limits made small for the attacks below,
// loopback counted like any address.
func smallLimits() *HTTPLimits {
	return &HTTPLimits{
		Conns:  limit.ListenerOpts{PerAddr: 20, Total: 100},
		Header: 5 * time.Second, Read: 2 * time.Second, Write: 10 * time.Second, Idle: 2 * time.Second,
		MaxStreams: 20, MaxStreamsPerAddr: 3,
	}
}

// quickLimits are smallLimits with the timeouts cut to fractions of a
// second, for the tests that wait for a connection to be closed: net/http
// times a connection on the kernel's clock, which no fake clock drives.
func quickLimits() *HTTPLimits {
	l := smallLimits()
	l.Header, l.Read, l.Idle = 500*time.Millisecond, 200*time.Millisecond, 200*time.Millisecond
	return l
}

func startLimited(t *testing.T) *Hall {
	t.Helper()
	return startWith(t, smallLimits())
}

func startWith(t *testing.T, l *HTTPLimits) *Hall {
	t.Helper()
	cfg := DefaultConfig()
	cfg.HTTP, cfg.MQTT, cfg.MQTTS, cfg.Data, cfg.Hall = "127.0.0.1:0", "127.0.0.1:0", "127.0.0.1:0", t.TempDir(), "test"
	h, err := Start(cfg, Opts{Logf: func(string, ...any) {}, HTTP: l})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

func dialFrom(t *testing.T, from, addr string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 10 * time.Second}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// getOn sends one keep-alive GET on c and reads its answer; 0 if the
// connection is gone.
func getOn(c net.Conn, path string) int {
	c.SetDeadline(time.Now().Add(10 * time.Second))
	defer c.SetDeadline(time.Time{})
	if _, err := fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: hall\r\n\r\n", path); err != nil {
		return 0
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

// closedWithin reports whether the server closes c within d.
func closedWithin(c net.Conn, d time.Duration) bool {
	c.SetReadDeadline(time.Now().Add(d))
	buf := make([]byte, 4096)
	for {
		if _, err := c.Read(buf); err != nil {
			ne, ok := err.(net.Error)
			return !(ok && ne.Timeout())
		}
	}
}

// 20,500 idle connections after one GET took every fd, 5,000 keep-alive
// connections were all open after 60 s. Now one address holds PerAddr,
// everyone Total (the oldest stranger's closed for a newcomer), and an
// idle keep-alive connection is closed after Idle.
func TestHTTPIdleConnections(t *testing.T) {
	h := startLimited(t)
	for i := range 240 { // 30 from each of 8 addresses
		dialFrom(t, "127.0.0."+strconv.Itoa(10+i%8), h.HTTPAddr())
	}
	wait.For(t, 10*time.Second, "every connection accepted or refused", func() bool { _, refused, _ := h.HTTPConns(); return h.httpLn.Accepted()+refused == 240 })
	open, refused, evicted := h.HTTPConns()
	t.Logf("240 connections from 8 addresses: %d open, %d refused at once, %d closed for newer", open, refused, evicted)
	if open != 100 || refused+evicted != 140 {
		t.Errorf("%d open, %d refused and %d closed for newer; want 100 open, 140 turned away", open, refused, evicted)
	}
	// One address alone gets 20.
	for range 30 {
		dialFrom(t, "127.0.0.40", h.HTTPAddr())
	}
	wait.For(t, 10*time.Second, "10 of one address refused", func() bool { _, r, _ := h.HTTPConns(); return r == refused+10 })
	// A spectator arriving now is served.
	if code := getOn(dialFrom(t, "127.0.0.50", h.HTTPAddr()), "/"); code != http.StatusOK {
		t.Errorf("a new spectator: %d", code)
	}
	// The closing, on a hall whose timeouts are fractions of a second:
	// keep-alive connections after one GET each are closed after Idle, and
	// connections that never send a request after Header.
	q := startWith(t, quickLimits())
	var kept []net.Conn
	for range 10 {
		c := dialFrom(t, "127.0.0.51", q.HTTPAddr())
		if code := getOn(c, "/api/boards"); code != http.StatusOK {
			t.Fatalf("GET: %d", code)
		}
		kept = append(kept, c)
	}
	for i := range 10 {
		kept = append(kept, dialFrom(t, "127.0.0."+strconv.Itoa(60+i), q.HTTPAddr()))
	}
	start := time.Now()
	for i, c := range kept {
		if !closedWithin(c, 10*time.Second) {
			t.Fatalf("connection %d still open %v on", i, time.Since(start))
		}
	}
	t.Logf("all closed %v after the last GET (Idle 200 ms, Header 500 ms)", time.Since(start).Round(10*time.Millisecond))
}

// A request body dribbled byte by byte stayed open after 75 s; now the
// request has Read to arrive.
func TestHTTPSlowBody(t *testing.T) {
	h := startWith(t, quickLimits())
	c := dialFrom(t, "127.0.0.20", h.HTTPAddr())
	fmt.Fprintf(c, "POST /login HTTP/1.1\r\nHost: hall\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\n")
	start := time.Now()
	closed := false
	for i := 0; i < 100 && !closed; i++ { // at most 10 s; Read is 200 ms
		c.SetWriteDeadline(time.Now().Add(time.Second))
		if _, err := c.Write([]byte("u")); err != nil {
			closed = true
			break
		}
		closed = closedWithin(c, 100*time.Millisecond)
	}
	if !closed {
		t.Fatalf("a body dribbled for %v is still open", time.Since(start))
	}
	t.Logf("a dribbled body: closed after %v", time.Since(start).Round(10*time.Millisecond))
	// A header dribbled the same way: closed after Header.
	c = dialFrom(t, "127.0.0.21", h.HTTPAddr())
	start = time.Now()
	closed = false
	for i := 0; i < 200 && !closed; i++ { // at most 20 s; Header is 500 ms
		c.SetWriteDeadline(time.Now().Add(time.Second))
		if _, err := c.Write([]byte("G")); err != nil {
			closed = true // the hall closed it: the write finds it gone
			break
		}
		closed = closedWithin(c, 100*time.Millisecond)
	}
	if !closed {
		t.Fatalf("a header dribbled for %v is still open", time.Since(start))
	}
}

// 3,000 /events streams cost 210 MB with no cap. Now MaxStreamsPerAddr
// from one address, MaxStreams in all; the arbiter's page always gets its
// stream.
func TestStreamCaps(t *testing.T) {
	h := startLimited(t)
	stream := func(from string, cookie string) int {
		c := dialFrom(t, from, h.HTTPAddr())
		c.SetDeadline(time.Now().Add(10 * time.Second))
		fmt.Fprintf(c, "GET /events HTTP/1.1\r\nHost: hall\r\n%s\r\n", cookie)
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		c.SetDeadline(time.Time{})
		if err != nil {
			return 0
		}
		if resp.StatusCode != http.StatusOK {
			resp.Body.Close()
		}
		return resp.StatusCode
	}
	ok := 0
	for range 6 {
		if stream("127.0.0.30", "") == http.StatusOK {
			ok++
		}
	}
	if ok != 3 {
		t.Errorf("%d of 6 streams from one address, want 3", ok)
	}
	for i := range 30 {
		if stream("127.0.0."+strconv.Itoa(31+i%10), "") == http.StatusOK {
			ok++
		}
	}
	if ok != 20 || h.web.Clients() != 20 {
		t.Errorf("%d streams open (%d at the hub), want 20", ok, h.web.Clients())
	}
	pw, err := ReadPassword(h.cfg.Data + "/" + ArbiterPasswordFile)
	if err != nil {
		t.Fatal(err)
	}
	f := newLoginForm(t, h, "127.0.0.60")
	if code := f.post("arbiter", string(pw)); code != http.StatusSeeOther {
		t.Fatalf("arbiter login: %d", code)
	}
	var cookie string
	for _, c := range f.c.Jar.Cookies(mustURL(t, f.base)) {
		if c.Name == "zeitnot_hall" {
			cookie = "Cookie: zeitnot_hall=" + c.Value + "\r\n"
		}
	}
	if code := stream("127.0.0.60", cookie); code != http.StatusOK {
		t.Errorf("the arbiter's stream with every place taken: %d", code)
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
