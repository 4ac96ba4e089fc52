package broker

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/eclipse/paho.golang/paho"
	"golang.org/x/crypto/bcrypt"

	"github.com/zeitnot/zeitnot/hall/limit"
	"github.com/zeitnot/zeitnot/protocol"
)

// attackClient is one MQTT 5 connection with no reconnecting: what an
// attacker's tool does.
type attackClient struct {
	c    *paho.Client
	conn net.Conn
	down chan struct{}
	once sync.Once
}

// rawConnect connects from the loopback address from (127.0.0.x; "" for
// any) as user with id; it returns the CONNACK's reason code (0: in).
func rawConnect(t *testing.T, addr, from, user, pw, id string) (*attackClient, byte) {
	t.Helper()
	d := net.Dialer{Timeout: 10 * time.Second}
	if from != "" {
		d.LocalAddr = &net.TCPAddr{IP: net.ParseIP(from)}
	}
	conn, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatalf("dial %s from %s: %v", addr, from, err)
	}
	rc := &attackClient{conn: conn, down: make(chan struct{})}
	gone := func() { rc.once.Do(func() { close(rc.down) }) }
	rc.c = paho.NewClient(paho.ClientConfig{Conn: conn, ClientID: id, PacketTimeout: 10 * time.Second,
		OnServerDisconnect: func(*paho.Disconnect) { gone() }, OnClientError: func(error) { gone() }})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cp := &paho.Connect{ClientID: id, KeepAlive: 30, CleanStart: true}
	if user != "" {
		cp.Username, cp.UsernameFlag = user, true
		cp.Password, cp.PasswordFlag = []byte(pw), true
	}
	ca, err := rc.c.Connect(ctx, cp)
	if ca != nil && ca.ReasonCode != 0 {
		conn.Close()
		return nil, ca.ReasonCode
	}
	if err != nil {
		conn.Close()
		return nil, 0xff
	}
	t.Cleanup(rc.close)
	return rc, 0
}

// close says DISCONNECT (waiting at most a second) and closes.
func (rc *attackClient) close() {
	done := make(chan struct{})
	go func() {
		rc.c.Disconnect(&paho.Disconnect{})
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(time.Second):
	}
	rc.conn.Close()
}

// publish publishes QoS 1 and returns the PUBACK's reason (0: taken).
func (rc *attackClient) publish(t *testing.T, topic string, payload []byte) byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	pr, err := rc.c.Publish(ctx, &paho.Publish{Topic: topic, QoS: 1, Payload: payload})
	if err != nil {
		if pr != nil {
			return pr.ReasonCode
		}
		return 0xff
	}
	return pr.ReasonCode
}

func (rc *attackClient) isDown() bool {
	select {
	case <-rc.down:
		return true
	default:
		return false
	}
}

// offlines counts the online messages saying offline per board.
type offlines struct {
	mu sync.Mutex
	n  map[string]int
}

func (o *offlines) receive(topic string, payload []byte) error {
	var m protocol.OnlineMsg
	if json.Unmarshal(payload, &m) == nil && !m.Online {
		o.mu.Lock()
		o.n[topic]++
		o.mu.Unlock()
	}
	return nil
}

func (o *offlines) count(topic string) int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.n[topic]
}

// With board 12's credentials and the client id zeitnot-club-3 the broker
// took over board 3's session (13 offline flips in 20 s), and after a few
// such connections every publish of board 3's real link was refused as
// board 0's.
func TestClientIDBelongsToItsAccount(t *testing.T) {
	rec := &offlines{n: map[string]int{}}
	users := map[string]User{}
	for _, n := range []int{3, 12} {
		users["board"+strconv.Itoa(n)] = User{Board: n, Hash: HashSHA256("pw-" + strconv.Itoa(n))}
	}
	b, err := StartEmbedded(Opts{Addr: "127.0.0.1:0", Hall: "club", Receive: rec.receive, Logf: t.Logf, Users: users})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	t3 := protocol.TopicsFor("club", 3)
	id3 := protocol.ClientID("club", 3)
	will, _ := json.Marshal(protocol.OnlineMsg{Online: false})
	_ = will
	real3, code := rawConnect(t, b.Addr(), "", "board3", "pw-3", id3)
	if code != 0 {
		t.Fatalf("board 3's own connect refused: 0x%02x", code)
	}
	const attacks = 20
	accepted := 0
	for i := range attacks {
		if c, code := rawConnect(t, b.Addr(), "127.0.0.2", "board12", "pw-12", id3); code == 0 {
			accepted++
			c.close()
		}
		// The attack with another id of board 12's own is fine; board
		// 3's real link must not notice either.
		if c, code := rawConnect(t, b.Addr(), "127.0.0.2", "board12", "pw-12", "x"+strconv.Itoa(i)); code == 0 {
			c.close()
		}
	}
	t.Logf("%d connects with board 12's user and board 3's client id: %d accepted", attacks, accepted)
	if accepted > 0 {
		t.Errorf("%d of %d connects with board 12's user and board 3's client id accepted", accepted, attacks)
	}
	if real3.isDown() {
		t.Error("board 3's real connection was taken over")
	}
	if code := real3.publish(t, t3.State, []byte(`{}`)); code != 0 {
		t.Errorf("board 3's publish after the attack refused: 0x%02x", code)
	}
	t.Logf("board 3 offline %d times; its publishes accepted", rec.count(t3.Online))
	if n := rec.count(t3.Online); n != 0 {
		t.Errorf("board 3 went offline %d times", n)
	}
}

// Two clocks set to one board, and one flaky link reconnecting over its
// old connection: whichever connected last publishes, every time, and no
// leftover bookkeeping of an earlier connection refuses it.
func TestSameAccountReconnects(t *testing.T) {
	rec := &offlines{n: map[string]int{}}
	b, err := StartEmbedded(Opts{Addr: "127.0.0.1:0", Hall: "club", Receive: rec.receive, Logf: t.Logf,
		Users: map[string]User{"board3": {Board: 3, Hash: HashSHA256("pw-3")}}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	t3 := protocol.TopicsFor("club", 3)
	id3 := protocol.ClientID("club", 3)
	var prev *attackClient
	for i := range 20 {
		from := "127.0.0." + strconv.Itoa(2+i%2) // two clocks on two addresses, taking turns
		c, code := rawConnect(t, b.Addr(), from, "board3", "pw-3", id3)
		if code != 0 {
			t.Fatalf("connect %d from %s refused: 0x%02x", i, from, code)
		}
		if code := c.publish(t, t3.State, []byte(`{}`)); code != 0 {
			t.Fatalf("connect %d: publish refused: 0x%02x", i, code)
		}
		if prev != nil {
			select {
			case <-prev.down:
			case <-time.After(10 * time.Second):
				t.Fatalf("connect %d: the connection it took over from is still up", i)
			}
			prev.close() // the loser's late goodbye
		}
		prev = c
	}
	if code := prev.publish(t, t3.State, []byte(`{}`)); code != 0 {
		t.Fatalf("the last connection's publish refused: 0x%02x", code)
	}
}

// 662 wrong-password CONNECTs in 20 s cost 40 CPU-seconds; failed CONNECTs
// are now limited per address and per account before any hash, and never
// the right password from an address that has not failed.
func TestFailedConnectsLimited(t *testing.T) {
	bc, _ := bcrypt.GenerateFromPassword([]byte("right-pw"), bcrypt.MinCost)
	b, err := StartEmbedded(Opts{Addr: "127.0.0.1:0", Hall: "club", Logf: func(string, ...any) {},
		Users: map[string]User{"board5": {Board: 5, Hash: string(bc)}, "board6": {Board: 6, Hash: HashSHA256("right-6")}}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	const tries = 200
	for i := range tries {
		user := []string{"board5", "board6", "nobody"}[i%3]
		if _, code := rawConnect(t, b.Addr(), "127.0.0.2", user, "guess-"+strconv.Itoa(i), "g"+strconv.Itoa(i)); code == 0 {
			t.Fatal("a wrong password got in")
		}
	}
	checked := b.hook.checks.Load()
	t.Logf("%d wrong-password CONNECTs from one address: %d passwords checked", tries, checked)
	if checked > 5 {
		t.Errorf("%d of %d failed CONNECTs from one address had their password checked, want at most 5", checked, tries)
	}
	// Many addresses: each new one is checked once, then waits for the
	// account's and everyone's tokens.
	for a := 10; a < 60; a++ {
		for i := range 4 {
			rawConnect(t, b.Addr(), "127.0.0."+strconv.Itoa(a), "board5", "guess-"+strconv.Itoa(i), "m"+strconv.Itoa(a*10+i))
		}
	}
	many := b.hook.checks.Load() - checked
	t.Logf("200 wrong-password CONNECTs from 50 addresses: %d passwords checked", many)
	if many > 50+10+30 {
		t.Errorf("%d checks for 50 addresses", many)
	}
	// The clocks, from addresses that have not failed, get in at once.
	if _, code := rawConnect(t, b.Addr(), "127.0.0.3", "board5", "right-pw", protocol.ClientID("club", 5)); code != 0 {
		t.Errorf("board 5's right password refused during the attack: 0x%02x", code)
	}
	if _, code := rawConnect(t, b.Addr(), "127.0.0.4", "board6", "right-6", protocol.ClientID("club", 6)); code != 0 {
		t.Errorf("board 6's right password refused during the attack: 0x%02x", code)
	}
}

// Idle connections that never send CONNECT are closed within the
// handshake time, one address holds at most PerAddr, and a clock gets in
// while strangers hold every place.
func TestConnectionLimits(t *testing.T) {
	lim := DefaultLimits()
	lim.Conns = limit.ListenerOpts{PerAddr: 3, Total: 20, Handshake: 3 * time.Second}
	b, err := StartEmbedded(Opts{Addr: "127.0.0.1:0", Hall: "club", Logf: func(string, ...any) {}, Limits: &lim,
		Users: map[string]User{"board7": {Board: 7, Hash: HashSHA256("pw-7")}}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var conns []net.Conn
	dial := func(from string) {
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
		c, err := d.Dial("tcp", b.Addr())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		conns = append(conns, c)
	}
	// 10 idle connections from one address: 3 kept.
	for range 10 {
		dial("127.0.0.9")
	}
	waitFor(t, 2500*time.Millisecond, func() string {
		if _, refused := b.Conns(); refused != 7 {
			return fmt.Sprintf("%d refused, want 7", refused)
		}
		return ""
	})
	// 40 more from 8 addresses: at most 20 in all, the oldest closed for
	// the newest.
	for i := range 40 {
		dial("127.0.0." + strconv.Itoa(10+i%8))
	}
	// The listener counts an eviction a moment before the evicted
	// connection's place is given back: wait for both counts.
	waitFor(t, 2500*time.Millisecond, func() string {
		open, refused := b.Conns()
		if n := refused + b.ln.Evicted(); n != 30 || open != 20 {
			return fmt.Sprintf("%d open, want 20; %d refused or evicted, want 30", open, n)
		}
		return ""
	})
	// The clock's connection takes the place of the oldest stranger's.
	if _, code := rawConnect(t, b.Addr(), "127.0.0.30", "board7", "pw-7", protocol.ClientID("club", 7)); code != 0 {
		t.Errorf("board 7 refused while strangers hold the broker: 0x%02x", code)
	}
	start := time.Now()
	closed := 0
	buf := make([]byte, 1)
	for _, c := range conns {
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		if _, err := c.Read(buf); err != nil && !isTimeout(err) {
			closed++
		}
	}
	if closed != len(conns) {
		t.Errorf("%d of %d idle connections closed within 10 s", closed, len(conns))
	}
	t.Logf("50 idle connections: all closed after %v", time.Since(start).Round(time.Millisecond))
	// The client sees its connection closed a moment before the broker's
	// count of it goes down: wait for the count, then check it.
	waitFor(t, 2500*time.Millisecond, func() string {
		if open, _ := b.Conns(); open != 1 {
			return fmt.Sprintf("%d connections open after the idle ones closed, want board 7's", open)
		}
		return ""
	})
	_, refused := b.Conns()
	t.Logf("refused at once: %d", refused)
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

// waitFor polls wrong, at most d, until it returns "". wrong says what
// is not yet as wanted; its last word is the failure.
func waitFor(t *testing.T, d time.Duration, wrong func() string) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		w := wrong()
		if w == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %v: %s", d, w)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
