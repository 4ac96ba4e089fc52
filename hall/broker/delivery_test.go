package broker

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eclipse/paho.golang/paho"

	"github.com/zeitnot/zeitnot/internal/needtool"
	"github.com/zeitnot/zeitnot/protocol"
)

// idle is how long a subscriber may go without a message before the
// delivery tests call it stalled. It is long: under make test, packages
// test side by side on two cores and a busy machine can hold a healthy
// delivery back for seconds (5 s once cut a 43,000 burst short at 4,641).
// A delivery that really stalls fails all the same, a minute later.
const idle = 60 * time.Second

// startTestBroker starts an anonymous loopback broker for hall "test".
func startTestBroker(t *testing.T) *Embedded {
	t.Helper()
	b, err := StartEmbedded(Opts{Addr: "127.0.0.1:0", Hall: "test", Anonymous: true, Logf: t.Logf,
		Receive: func(string, []byte) error { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// logLine is burst message i: a log line like the link's, numbered.
func logLine(i int) []byte {
	return fmt.Appendf(nil, `{"seq":%d,"t":"2026-12-01T20:00:00.000Z","ev":"press","side":"white","white_ms":5399871,"black_ms":5400000}`, i)
}

// seqOf reads the number back from a log line.
func seqOf(payload []byte) int {
	s, ok := strings.CutPrefix(string(payload), `{"seq":`)
	if !ok {
		return -1
	}
	s, _, _ = strings.Cut(s, ",")
	n, err := strconv.Atoi(s)
	if err != nil {
		return -1
	}
	return n
}

// publishBurst has board 1's clock publish n QoS 1 log lines at once
// (all written before any PUBACK is read) and waits for every PUBACK.
func publishBurst(t *testing.T, addr string, n int) {
	t.Helper()
	pub, err := dialRaw(addr, "zeitnot-test-1", 4, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer pub.close()
	acked := make(chan error, 1)
	go func() {
		for got := 0; got < n; {
			p, err := pub.read(30 * time.Second)
			if err != nil {
				acked <- fmt.Errorf("publisher: %d of %d PUBACKs: %w", got, n, err)
				return
			}
			if p.typ == 4 {
				got++
			}
		}
		acked <- nil
	}()
	topic := protocol.TopicsFor("test", 1).Log
	w := bufio.NewWriterSize(pub.c, 64<<10)
	for i := range n {
		if _, err := w.Write(pub.publishQoS1(topic, logLine(i))); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := <-acked; err != nil {
		t.Fatal(err)
	}
}

// tally is what a subscriber got of a burst of n.
type tally struct {
	n, received, outOfOrder, missing, dups int
}

func (r tally) String() string {
	return fmt.Sprintf("%d of %d received, %d out of order, %d missing, %d twice", r.received, r.n, r.outOfOrder, r.missing, r.dups)
}

func (r tally) ok() bool {
	return r.received == r.n && r.outOfOrder == 0 && r.missing == 0 && r.dups == 0
}

// collect reads sequence numbers from seqs until n arrived, seqs closed,
// or none came for idle.
func collect(seqs <-chan int, n int) tally {
	r := tally{n: n}
	seen := make(map[int]bool, n)
	last := -1
	timer := time.NewTimer(idle)
	defer timer.Stop()
	for r.received < n {
		select {
		case s, ok := <-seqs:
			if !ok {
				return r.finish(seen)
			}
			if seen[s] {
				r.dups++
				continue
			}
			seen[s] = true
			r.received++
			if s < last {
				r.outOfOrder++
			}
			last = max(last, s)
			timer.Reset(idle)
		case <-timer.C:
			return r.finish(seen)
		}
	}
	return r.finish(seen)
}

func (r tally) finish(seen map[int]bool) tally {
	for i := range r.n {
		if !seen[i] {
			r.missing++
		}
	}
	return r
}

// A subscriber connects, subscribes to board 1's log at QoS 1 and sends
// the sequence numbers it gets on the channel, acknowledging each
// message (after stall is closed, if stall is not nil: a subscriber that
// reads nothing while the burst is published).
type subscriber func(t *testing.T, b *Embedded, stall <-chan struct{}) <-chan int

// rawSubscriber is a minimal client of protocol version (4: 3.1.1, 5)
// with the given Receive Maximum.
func rawSubscriber(version byte, receiveMax uint16) subscriber {
	return func(t *testing.T, b *Embedded, stall <-chan struct{}) <-chan int {
		t.Helper()
		addr := b.Addr()
		c, err := dialRaw(addr, fmt.Sprintf("sub-raw-%d-%d", version, receiveMax), version, receiveMax)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.close)
		if err := c.subscribe(protocol.TopicsFor("test", 1).Log); err != nil {
			t.Fatal(err)
		}
		seqs := make(chan int, 1024)
		go func() {
			defer close(seqs)
			if stall != nil {
				<-stall
			}
			for {
				p, err := c.read(2 * idle)
				if err != nil {
					return
				}
				if p.typ != 3 {
					continue
				}
				if (p.flags>>1)&3 != 1 {
					t.Errorf("a message at QoS %d", (p.flags>>1)&3)
				}
				if err := c.puback(p.id); err != nil {
					return
				}
				seqs <- seqOf(p.payload)
			}
		}()
		return seqs
	}
}

// pahoSubscriber is a paho.golang client (MQTT 5) with the given Receive
// Maximum.
func pahoSubscriber(receiveMax uint16) subscriber {
	return func(t *testing.T, b *Embedded, stall <-chan struct{}) <-chan int {
		t.Helper()
		addr := b.Addr()
		conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		seqs := make(chan int, 1024)
		var once sync.Once
		done := make(chan struct{})
		t.Cleanup(func() { once.Do(func() { close(done) }) })
		c := paho.NewClient(paho.ClientConfig{Conn: conn, OnPublishReceived: []func(paho.PublishReceived) (bool, error){
			func(pr paho.PublishReceived) (bool, error) {
				if stall != nil {
					<-stall
				}
				select {
				case seqs <- seqOf(pr.Packet.Payload):
				case <-done:
				}
				return true, nil
			}}})
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		rm := receiveMax
		if _, err := c.Connect(ctx, &paho.Connect{ClientID: fmt.Sprintf("sub-paho-%d", receiveMax), CleanStart: true, KeepAlive: 60,
			Properties: &paho.ConnectProperties{ReceiveMaximum: &rm}}); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Disconnect(&paho.Disconnect{}) })
		if _, err := c.Subscribe(ctx, &paho.Subscribe{Subscriptions: []paho.SubscribeOptions{{Topic: protocol.TopicsFor("test", 1).Log, QoS: 1}}}); err != nil {
			t.Fatal(err)
		}
		return seqs
	}
}

// mosquittoSubscriber runs mosquitto_sub -V version -q 1 (mosquitto_sub
// at MQTT 5 asks for Receive Maximum 20).
func mosquittoSubscriber(version string) subscriber {
	return func(t *testing.T, b *Embedded, stall <-chan struct{}) <-chan int {
		t.Helper()
		addr := b.Addr()
		bin := needtool.Path(t, "apt-get install mosquitto-clients", "mosquitto_sub")
		host, port, _ := net.SplitHostPort(addr)
		ctx, cancel := context.WithCancel(context.Background())
		cmd := exec.CommandContext(ctx, bin, "-h", host, "-p", port, "-V", version, "-q", "1", "-i", "sub-mosquitto-"+version,
			"-t", protocol.TopicsFor("test", 1).Log)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cancel(); cmd.Wait() })
		// mosquitto_sub says nothing when it has subscribed: wait until
		// the broker has its subscription.
		deadline := time.Now().Add(5 * time.Second)
		for !subscribed(b, "sub-mosquitto-"+version) {
			if time.Now().After(deadline) {
				t.Fatal("mosquitto_sub did not subscribe")
			}
			time.Sleep(10 * time.Millisecond)
		}
		if version == "mqttv5" {
			// What the test is about: mosquitto_sub's Receive Maximum.
			cl, ok := b.srv.Clients.Get("sub-mosquitto-" + version)
			if !ok {
				t.Fatal("no client sub-mosquitto-" + version)
			}
			fc := cl.Net.Conn.(*flowConn)
			fc.mu.Lock()
			w := fc.window
			fc.mu.Unlock()
			if w != 20 {
				t.Fatalf("mosquitto_sub -V mqttv5: window %d, want its Receive Maximum 20", w)
			}
		}
		seqs := make(chan int, 1024)
		go func() {
			defer close(seqs)
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				seqs <- seqOf(sc.Bytes())
			}
		}()
		return seqs
	}
}

// subscribed reports whether client id has subscribed to board 1's log.
func subscribed(b *Embedded, id string) bool {
	_, ok := b.srv.Topics.Subscribers(protocol.TopicsFor("test", 1).Log).Subscriptions[id]
	return ok
}

var subscribers = []struct {
	name string
	sub  subscriber
}{
	{"raw-3.1.1", rawSubscriber(4, 0)},
	{"raw-5-rm20", rawSubscriber(5, 20)},
	{"paho-5-rm20", pahoSubscriber(20)},
	{"mosquitto_sub-3.1.1", mosquittoSubscriber("mqttv311")},
	{"mosquitto_sub-5", mosquittoSubscriber("mqttv5")},
}

// Every subscriber gets every message of a burst, in order: 3.1.1 and 5,
// Receive Maximum 20.
func TestBurstDelivery(t *testing.T) {
	for _, n := range []int{20, 300, 2000} {
		for _, s := range subscribers {
			t.Run(fmt.Sprintf("%s/%d", s.name, n), func(t *testing.T) {
				b := startTestBroker(t)
				seqs := s.sub(t, b, nil)
				publishBurst(t, b.Addr(), n)
				if r := collect(seqs, n); !r.ok() {
					t.Errorf("%v", r)
				} else {
					t.Logf("%v", r)
				}
			})
		}
	}
}

// A 3.1.1 QoS 1 subscriber that reads nothing while a big burst is
// published still gets all of it, in order (2,642 of about 43,000 were
// lost).
func TestBurstDeliveryStalledSubscriber(t *testing.T) {
	n := 5000
	if !testing.Short() {
		n = 43000
	}
	for _, s := range subscribers[:3] {
		t.Run(fmt.Sprintf("%s/%d", s.name, n), func(t *testing.T) {
			b := startTestBroker(t)
			stall := make(chan struct{})
			seqs := s.sub(t, b, stall)
			publishBurst(t, b.Addr(), n)
			close(stall)
			if r := collect(seqs, n); !r.ok() {
				t.Errorf("%v", r)
			} else {
				t.Logf("%v", r)
			}
		})
	}
}

// flowPipe is a flowConn on one end of a pipe whose other end is a raw
// 3.1.1 client; the client's bytes pass through the flowConn's Read, as
// mochi reads them.
func flowPipe(t *testing.T, window int) (*flowConn, *rawClient) {
	t.Helper()
	server, client := net.Pipe()
	fc := newFlowConn(server, t.Logf)
	t.Cleanup(func() { fc.Close(); client.Close() })
	fc.setClient("x", window)
	go func() {
		b := make([]byte, 7) // small reads: packets cut anywhere
		for {
			if _, err := fc.Read(b); err != nil {
				return
			}
		}
	}()
	return fc, &rawClient{c: client, r: bufio.NewReader(client), version: 4}
}

// flowCounts is how many messages wait unacknowledged and queued.
func flowCounts(fc *flowConn) (unacked, queued int) {
	fc.mu.Lock()
	defer fc.mu.Unlock()
	return len(fc.unacked), len(fc.queue) - fc.head
}

func readSeq(t *testing.T, rc *rawClient) (int, uint16) {
	t.Helper()
	p, err := rc.read(5 * time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if p.typ != 3 {
		t.Fatalf("packet type %d, want a PUBLISH", p.typ)
	}
	return seqOf(p.payload), p.id
}

// No more than the window unacknowledged; other packets do not wait
// behind the queue; an acknowledgement frees one slot, a repeated or
// unknown one none.
func TestFlowConnWindow(t *testing.T) {
	fc, rc := flowPipe(t, 2)
	pub := &rawClient{version: 4}
	var burst []byte
	for i := range 5 {
		burst = append(burst, pub.publishQoS1("t", logLine(i))...)
	}
	// The write returns at once, though the client reads nothing yet.
	if n, err := fc.Write(burst); err != nil || n != len(burst) {
		t.Fatalf("Write = %d, %v", n, err)
	}
	for want := range 2 {
		if seq, _ := readSeq(t, rc); seq != want {
			t.Fatalf("got %d, want %d", seq, want)
		}
	}
	if u, q := flowCounts(fc); u != 2 || q != 3 {
		t.Fatalf("%d unacknowledged, %d queued; want 2, 3", u, q)
	}
	// A PINGRESP goes out ahead of the queue (a pipe has no buffer: the
	// write waits for the read).
	wrote := make(chan error, 1)
	go func() { _, err := fc.Write(packet(0xd0, nil)); wrote <- err }()
	p, err := rc.read(5 * time.Second)
	if err := <-wrote; err != nil {
		t.Fatal(err)
	}
	if err != nil || p.typ != 13 {
		t.Fatalf("packet type %d, %v; want the PINGRESP", p.typ, err)
	}
	// An unknown id and then id 1: one slot, message 2.
	if _, err := rc.c.Write(append(packet(0x40, []byte{0, 99}), packet(0x40, []byte{0, 1})...)); err != nil {
		t.Fatal(err)
	}
	if seq, _ := readSeq(t, rc); seq != 2 {
		t.Fatalf("got %d, want 2", seq)
	}
	// id 1 again and id 2: one slot, message 3.
	if _, err := rc.c.Write(append(packet(0x40, []byte{0, 1}), packet(0x40, []byte{0, 2})...)); err != nil {
		t.Fatal(err)
	}
	if seq, _ := readSeq(t, rc); seq != 3 {
		t.Fatalf("got %d, want 3", seq)
	}
	if u, q := flowCounts(fc); u != 2 || q != 1 {
		t.Fatalf("%d unacknowledged, %d queued; want 2, 1", u, q)
	}
	// A failed PUBREC (MQTT 5, reason 0x80) ends a QoS 2 flow: a slot.
	if _, err := rc.c.Write(packet(0x50, []byte{0, 3, 0x80})); err != nil {
		t.Fatal(err)
	}
	if seq, _ := readSeq(t, rc); seq != 4 {
		t.Fatalf("got %d, want 4", seq)
	}
}

// A client that falls too far behind is disconnected, not skipped.
func TestFlowConnQueueLimit(t *testing.T) {
	fc, rc := flowPipe(t, 1)
	fc.maxQueued = 3
	pub := &rawClient{version: 4}
	var err error
	for i := 0; i < 5 && err == nil; i++ {
		_, err = fc.Write(pub.publishQoS1("t", logLine(i)))
	}
	if err == nil {
		t.Fatal("5 messages queued with room for 3 and 1 unacknowledged")
	}
	for {
		if _, err := rc.read(5 * time.Second); err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				t.Fatal("the connection is still open")
			}
			break
		}
	}
	if _, err := fc.Write(packet(0xd0, nil)); err == nil {
		t.Error("a write after the disconnection succeeded")
	}
}

// Whatever the client sends and however the reads cut it, the scanner
// finds the same acknowledgements, and never panics.
func FuzzInScanner(f *testing.F) {
	f.Add([]byte{0x40, 2, 0, 1, 0x50, 3, 0, 2, 0x80, 0x70, 2, 0, 3, 0xc0, 0}, 3)
	f.Add(append(append([]byte{0x32}, appendVarint(nil, 300)...), make([]byte, 300)...), 2)
	f.Add([]byte{0x40, 0xff, 0xff, 0xff, 0xff, 0x7f}, 1)
	f.Fuzz(func(t *testing.T, b []byte, cut int) {
		type ack struct {
			typ    byte
			id     uint16
			reason byte
		}
		var whole, parts []ack
		var s inScanner
		s.scan(b, func(typ byte, id uint16, reason byte) { whole = append(whole, ack{typ, id, reason}) })
		if cut < 0 {
			cut = -cut
		}
		if len(b) > 0 {
			cut %= len(b) + 1
		} else {
			cut = 0
		}
		var s2 inScanner
		rec := func(typ byte, id uint16, reason byte) { parts = append(parts, ack{typ, id, reason}) }
		s2.scan(b[:cut], rec)
		s2.scan(b[cut:], rec)
		if fmt.Sprint(whole) != fmt.Sprint(parts) {
			t.Errorf("whole: %v, cut at %d: %v", whole, cut, parts)
		}
	})
}

// The acknowledgements of a stream of packets, cut anywhere.
func TestInScanner(t *testing.T) {
	pub := &rawClient{version: 5}
	stream := pub.publishQoS1("t", logLine(1))                      // the client's own PUBLISH: not an ack
	stream = append(stream, packet(0x40, []byte{0x12, 0x34})...)    // PUBACK, no reason
	stream = append(stream, packet(0x50, []byte{0, 7, 0x10, 0})...) // PUBREC, reason 0x10, properties
	stream = append(stream, packet(0xc0, nil)...)                   // PINGREQ
	stream = append(stream, packet(0x70, []byte{0, 8, 0x92})...)    // PUBCOMP, reason 0x92
	want := "[{4 4660 0} {5 7 16} {7 8 146}]"
	for cut := 1; cut <= len(stream); cut++ {
		var got []string
		var s inScanner
		for b := stream; len(b) > 0; {
			k := min(cut, len(b))
			s.scan(b[:k], func(typ byte, id uint16, reason byte) { got = append(got, fmt.Sprintf("{%d %d %d}", typ, id, reason)) })
			b = b[k:]
		}
		if g := "[" + strings.Join(got, " ") + "]"; g != want {
			t.Fatalf("reads of %d bytes: %s, want %s", cut, g, want)
		}
	}
}

// Messages carry the expiry their publisher gave them, or none: not
// mochi's default maximum of 86,400 s. A retained state, a command of the
// hall's, and a log line with an expiry of 30 s.
func TestMessageExpiry(t *testing.T) {
	b := startTestBroker(t)
	tp := protocol.TopicsFor("test", 1)
	clock, err := dialRaw(b.Addr(), "zeitnot-test-1", 5, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer clock.close()
	if _, err := clock.c.Write(clock.publish(tp.State, []byte(`{"hall":"test","board":1}`), true, nil)); err != nil {
		t.Fatal(err)
	}
	if p, err := clock.read(5 * time.Second); err != nil || p.typ != 4 {
		t.Fatalf("no PUBACK: %d, %v", p.typ, err)
	}
	// mochi acknowledges a PUBLISH before it hands it to the subscribers:
	// a subscriber quick enough would get the state twice, retained and
	// live (1 run in 15). The PUBACK of a second message, which mochi
	// reads after it has handed the first on, says the first is done.
	if _, err := clock.c.Write(clock.publish(tp.Online, []byte(`{"online":true}`), false, nil)); err != nil {
		t.Fatal(err)
	}
	if p, err := clock.read(5 * time.Second); err != nil || p.typ != 4 {
		t.Fatalf("no PUBACK of the second message: %d, %v", p.typ, err)
	}
	sub, err := dialRaw(b.Addr(), "viewer", 5, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.close()
	if err := sub.subscribe(tp.State); err != nil {
		t.Fatal(err)
	}
	expiry := func(what string, wantSet bool, max uint32) {
		t.Helper()
		p, err := sub.read(5 * time.Second)
		if err != nil || p.typ != 3 {
			t.Fatalf("%s: packet type %d, %v", what, p.typ, err)
		}
		sub.puback(p.id)
		e, set, err := messageExpiry(p.props)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if set != wantSet || e > max {
			t.Errorf("%s: message expiry %d (set: %v)", what, e, set)
		}
	}
	expiry("the retained state", false, 0)
	if err := sub.subscribe(tp.Cmd); err != nil {
		t.Fatal(err)
	}
	if err := b.Publish(tp.Cmd, []byte(`{"cmd":"pause","id":"p1"}`)); err != nil {
		t.Fatal(err)
	}
	expiry("a command", false, 0)
	if err := sub.subscribe(tp.Log); err != nil {
		t.Fatal(err)
	}
	if _, err := clock.c.Write(clock.publish(tp.Log, logLine(1), false, []byte{0x02, 0, 0, 0, 30})); err != nil {
		t.Fatal(err)
	}
	expiry("a log line with an expiry of 30 s", true, 30)
}

// Everyone may read the hall's topics and nothing else (as
// docs/hall-protocol.md says).
func TestSubscriptionsOutsideTheHallRefused(t *testing.T) {
	b := startTestBroker(t)
	for _, v := range []struct {
		version byte
		refused byte
	}{{4, 0x80}, {5, 0x87}} {
		c, err := dialRaw(b.Addr(), fmt.Sprintf("viewer-%d", v.version), v.version, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer c.close()
		for filter, ok := range map[string]bool{
			"zeitnot/v1/test/#": true, "zeitnot/v1/test/board/+/state": true, "zeitnot/v1/test/all/cmd": true,
			"#": false, "zeitnot/#": false, "zeitnot/v1/other/#": false, "$SYS/#": false, "+/v1/test/#": false,
		} {
			code, err := c.subscribeCode(filter)
			if err != nil {
				t.Fatal(err)
			}
			if want := map[bool]byte{true: 1, false: v.refused}[ok]; code != want {
				t.Errorf("MQTT %d, %s: reason 0x%02x, want 0x%02x", v.version, filter, code, want)
			}
		}
	}
}
