package hall

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/link/linktest"
	"github.com/zeitnot/zeitnot/devtools/fakeclock"
	"github.com/zeitnot/zeitnot/devtools/sseclient"
	"github.com/zeitnot/zeitnot/hall/auth"
	"github.com/zeitnot/zeitnot/hall/web"
	"github.com/zeitnot/zeitnot/internal/wait"
	"github.com/zeitnot/zeitnot/internal/wallclock/wallclocktest"
	"github.com/zeitnot/zeitnot/protocol"
)

// checkComplete checks that the hall holds every clock's whole log and
// its last state.
func checkComplete(t *testing.T, h *Hall, clocks map[int]*fakeclock.Clock) {
	t.Helper()
	wait.For(t, 15*time.Second, "every line and state at the hall", func() bool {
		for n, c := range clocks {
			lines, _ := h.Store().Lines(n, c.Game())
			if len(lines) != len(c.Lines()) {
				return false
			}
		}
		return true
	})
	for n, c := range clocks {
		_, body := get(t, h, fmt.Sprintf("/api/boards/%d/log", n))
		if want := strings.Join(c.Lines(), "\n") + "\n"; body != want {
			t.Errorf("board %d's log:\n%s\nwant\n%s", n, body, want)
		}
	}
}

// lastMoves is the moves the hall's state of board n shows.
func lastMoves(h *Hall, n int) int {
	b, _ := h.Store().Board(n)
	if b.State == nil {
		return -1
	}
	s := b.State.State
	return s.White.Moves + s.Black.Moves
}

// With Mosquitto: the broker restarts mid-round, and the hall restarts
// while the clocks play on; nothing is lost, the pages pick up again.
func TestMosquittoOutages(t *testing.T) {
	b := linktest.StartBroker(t, linktest.BrokerOpts{})
	dir := t.TempDir()
	start := func() *Hall {
		return startHall(t, func(c *Config) { c.Broker = b.URL(); c.Data = dir; c.BrokerWithoutACL = true })
	}
	h := start()
	u, _ := url.Parse(b.URL())
	clocks := map[int]*fakeclock.Clock{}
	for n := 1; n <= 3; n++ {
		clocks[n] = dialClock(t, u, n, nil)
	}
	press := func(times int) {
		for i := 0; i < times; i++ {
			for _, c := range clocks {
				c.Press()
			}
			// The clocks press at a pace, as in play, not in one
			// burst; nothing is waited for here.
			time.Sleep(10 * time.Millisecond)
		}
	}
	press(5)
	checkComplete(t, h, clocks)

	// The broker restarts; the clocks press on while it is away.
	b.Stop()
	press(4)
	b.Start()
	press(3)
	checkComplete(t, h, clocks)
	if m := lastMoves(h, 2); m != 11 {
		t.Errorf("board 2 after the broker's restart: %d moves, want 11", m)
	}

	// The hall stops; the broker keeps its session and queues the lines.
	h.Close()
	press(4)
	waitIdle(t, clocks[1], clocks[2], clocks[3])
	h = start()
	checkComplete(t, h, clocks)
	wait.For(t, 5*time.Second, "board 3's last state", func() bool { return lastMoves(h, 3) == 15 })

	// A page that opens now sees every board as it is.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := sseclient.Dial(ctx, "http://"+h.HTTPAddr()+"/events", 100)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	seen := map[int]bool{}
	for ev := range s.C {
		if ev.Name == "ready" {
			break
		}
		var v web.View
		json.Unmarshal([]byte(ev.Data), &v)
		seen[v.Board] = v.Online && v.State != nil
	}
	if !seen[1] || !seen[2] || !seen[3] {
		t.Errorf("the snapshot after the restarts: %v", seen)
	}
}

// The embedded broker is the hall: when it restarts the clocks reconnect
// and send what it had not acknowledged; the live stream comes back.
func TestEmbeddedRestart(t *testing.T) {
	dir := t.TempDir()
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := l.Addr().String()
	l.Close()
	start := func() *Hall {
		return startHall(t, func(c *Config) { c.MQTT = addr; c.Data = dir })
	}
	h := start()
	c := dialClock(t, brokerURL(h), 4, nil)
	for i := 0; i < 5; i++ {
		c.Press()
	}
	waitIdle(t, c)
	h.Close()
	for i := 0; i < 5; i++ {
		c.Press()
	}
	h = start()
	checkComplete(t, h, map[int]*fakeclock.Clock{4: c})
	wait.For(t, 5*time.Second, "the last state", func() bool { return lastMoves(h, 4) == 9 })

	// A clock that dies, then the hall restarts: its state is still
	// retained for a spare clock's takeover, and it is offline.
	dead := dialClock(t, brokerURL(h), 5, nil)
	dead.Press()
	dead.Press()
	waitIdle(t, dead)
	dead.Close()
	h.Close()
	h = start()
	if b, _ := h.Store().Board(5); b.IsOnline() {
		t.Error("board 5 online after the restart")
	}
	spare := linktest.NewHall(t, "mqtt://"+addr, linktest.HallOpts{ClientID: "zeitnot-test-6", Filter: "zeitnot/v1/test/board/5/+"})
	tp := protocol.TopicsFor("test", 5)
	spare.Wait(5*time.Second, "board 5's retained state and online", func(x *linktest.Hall) bool {
		s, ok1 := x.Last(tp.State)
		o, ok2 := x.Last(tp.Online)
		return ok1 && ok2 && s.Retain && o.Retain && strings.Contains(string(o.Payload), `"online":false`)
	})
	if m, _ := spare.Last(tp.State); lastMovesOf(m.Payload) != 1 {
		t.Errorf("board 5's retained state: %s", m.Payload)
	}
}

func lastMovesOf(payload []byte) int {
	m, err := protocol.ParseStateMsg(payload)
	if err != nil {
		return -1
	}
	return m.State.White.Moves + m.State.Black.Moves
}

// loginForm is a browser at loopback address from (127.0.0.x) that loads
// the login form and posts it.
type loginForm struct {
	t    *testing.T
	base string
	c    *http.Client
	csrf string
}

func newLoginForm(t *testing.T, h *Hall, from string) *loginForm {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 5 * time.Second}
	c := &http.Client{Jar: jar, Timeout: 10 * time.Second, Transport: &http.Transport{DialContext: d.DialContext, DisableKeepAlives: true},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	f := &loginForm{t: t, base: "http://" + h.HTTPAddr(), c: c}
	resp, err := c.Get(f.base + "/login")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	m := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindSubmatch(body)
	if m == nil {
		t.Fatalf("no csrf field in the login form: %s", body)
	}
	f.csrf = string(m[1])
	return f
}

// post posts the form and returns the status code.
func (f *loginForm) post(user, pw string) int {
	f.t.Helper()
	resp, err := f.c.PostForm(f.base+"/login", url.Values{"user": {user}, "password": {pw}, "csrf": {f.csrf}})
	if err != nil {
		f.t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// Wrong passwords for arbiter every 0.5 s refused the real arbiter's
// correct login 7 of 8 times. The guesser gets 429s; the arbiter at
// another address logs in every time. The limit's clock stands still, so
// no wait runs out however long bcrypt takes.
func TestLoginRateLimit(t *testing.T) {
	stopped := time.Date(2026, 3, 7, 18, 0, 0, 0, time.UTC)
	h := startHallOpts(t, nil, Opts{Logf: t.Logf, Clock: wallclocktest.New(stopped)})
	pw, err := ReadPassword(filepath.Join(h.cfg.Data, ArbiterPasswordFile))
	if err != nil {
		t.Fatal(err)
	}
	guesser := newLoginForm(t, h, "127.0.0.2")
	codes := []int{}
	for i := 0; i < 7; i++ {
		codes = append(codes, guesser.post("arbiter", fmt.Sprint("guess", i)))
	}
	// Three free attempts, then waits (2 s, doubling): the exact
	// sequence is auth's test, on a virtual clock; here a slow machine
	// may let a wait pass between two attempts.
	n429 := 0
	for i, c := range codes {
		if i < 3 && c != http.StatusUnauthorized || c != http.StatusUnauthorized && c != http.StatusTooManyRequests {
			t.Fatalf("the guesser's answers %v", codes)
		}
		if c == http.StatusTooManyRequests {
			n429++
		}
	}
	if n429 < 2 {
		t.Errorf("the guesser's answers %v: want 429s after three", codes)
	}
	// ...never from the arbiter's.
	for i := range 8 {
		arbiter := newLoginForm(t, h, "127.0.0.3")
		if code := arbiter.post("arbiter", string(pw)); code != http.StatusSeeOther {
			t.Errorf("the arbiter's login %d: %d, want 303", i, code)
		}
		guesser.post("arbiter", "guess")
	}
	// A login form from elsewhere (no token, or another site's) is
	// refused before any password is checked.
	resp, err := http.PostForm("http://"+h.HTTPAddr()+"/login", url.Values{"user": {"arbiter"}, "password": {string(pw)}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("a login without the form's token: %d, want 403", resp.StatusCode)
	}
	other := newLoginForm(t, h, "127.0.0.4")
	req, _ := http.NewRequest("POST", other.base+"/login", strings.NewReader(url.Values{"user": {"arbiter"}, "password": {string(pw)}, "csrf": {other.csrf}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "http://evil.example")
	resp, err = other.c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("a login posted from another site: %d, want 403", resp.StatusCode)
	}
	// The session cookie is Secure behind a TLS proxy.
	req, _ = http.NewRequest("POST", other.base+"/login", strings.NewReader(url.Values{"user": {"arbiter"}, "password": {string(pw)}, "csrf": {other.csrf}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Forwarded-Proto", "https")
	resp, err = other.c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	var secure bool
	for _, c := range resp.Cookies() {
		if c.Name == auth.CookieName && c.Value != "" {
			secure = c.Secure
		}
	}
	if resp.StatusCode != http.StatusSeeOther || !secure {
		t.Errorf("login behind TLS: %d, Secure cookie %v", resp.StatusCode, secure)
	}
}
