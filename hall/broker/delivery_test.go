package broker

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eclipse/paho.golang/paho"

	"github.com/zeitnot/zeitnot/appliance/link"
)

// idle is how long a subscriber may go without a message before the
// delivery tests call it stalled.
const idle = 5 * time.Second

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
	topic := link.TopicsFor("test", 1).Log
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
		if err := c.subscribe(link.TopicsFor("test", 1).Log); err != nil {
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
		if _, err := c.Subscribe(ctx, &paho.Subscribe{Subscriptions: []paho.SubscribeOptions{{Topic: link.TopicsFor("test", 1).Log, QoS: 1}}}); err != nil {
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
		bin, err := exec.LookPath("mosquitto_sub")
		if err != nil {
			t.Skip("no mosquitto_sub (apt-get install mosquitto-clients)")
		}
		host, port, _ := net.SplitHostPort(addr)
		ctx, cancel := context.WithCancel(context.Background())
		cmd := exec.CommandContext(ctx, bin, "-h", host, "-p", port, "-V", version, "-q", "1", "-i", "sub-mosquitto-"+version,
			"-t", link.TopicsFor("test", 1).Log)
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
	_, ok := b.srv.Topics.Subscribers(link.TopicsFor("test", 1).Log).Subscriptions[id]
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
// Receive Maximum 20 (issue 23 items 7 and 8).
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
// published still gets all of it, in order (issue 23 item 8: 2,642 of
// about 43,000 were lost).
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
