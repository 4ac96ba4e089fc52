package link_test

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/link/linktest"
	"github.com/zeitnot/zeitnot/internal/wait"
)

// holdProxy sits between the link and the broker and holds back every
// SUBSCRIBE the link sends until release is closed, passing everything
// else (CONNECT, PUBLISH, PINGREQ) through at once. The broker thus
// sees the link connected and publishing while its subscription to the
// command topics is still on the way, as on a slow network.
type holdProxy struct {
	l       net.Listener
	broker  string
	release chan struct{}

	mu   sync.Mutex
	held int
}

func newHoldProxy(t *testing.T, broker string) *holdProxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &holdProxy{l: l, broker: broker, release: make(chan struct{})}
	t.Cleanup(func() { l.Close() })
	go p.serve()
	return p
}

func (p *holdProxy) url() *url.URL {
	return &url.URL{Scheme: "mqtt", Host: p.l.Addr().String()}
}

func (p *holdProxy) heldCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.held
}

func (p *holdProxy) serve() {
	for {
		c, err := p.l.Accept()
		if err != nil {
			return
		}
		b, err := net.Dial("tcp", p.broker)
		if err != nil {
			c.Close()
			continue
		}
		go func() { io.Copy(c, b); c.Close() }()
		go p.forward(c, b)
	}
}

// forward copies the client's packets to the broker, one whole packet
// at a time, holding SUBSCRIBE packets back until release.
func (p *holdProxy) forward(c, b net.Conn) {
	defer b.Close()
	r := bufio.NewReader(c)
	var mu sync.Mutex // one packet at a time on b
	for {
		pkt, err := readPacket(r)
		if err != nil {
			return
		}
		if pkt[0]>>4 == 8 { // SUBSCRIBE
			p.mu.Lock()
			p.held++
			p.mu.Unlock()
			go func() {
				<-p.release
				mu.Lock()
				b.Write(pkt)
				mu.Unlock()
			}()
			continue
		}
		mu.Lock()
		_, err = b.Write(pkt)
		mu.Unlock()
		if err != nil {
			return
		}
	}
}

// readPacket reads one MQTT control packet: the fixed header's byte,
// the remaining length (a variable byte integer) and the rest.
func readPacket(r *bufio.Reader) ([]byte, error) {
	first, err := r.ReadByte()
	if err != nil {
		return nil, err
	}
	pkt := []byte{first}
	n, shift := 0, 0
	for i := 0; ; i++ {
		if i == 4 {
			return nil, errors.New("remaining length longer than 4 bytes")
		}
		c, err := r.ReadByte()
		if err != nil {
			return nil, err
		}
		pkt = append(pkt, c)
		n |= int(c&0x7f) << shift
		shift += 7
		if c&0x80 == 0 {
			break
		}
	}
	rest := make([]byte, n)
	if _, err := io.ReadFull(r, rest); err != nil {
		return nil, err
	}
	return append(pkt, rest...), nil
}

// The board is online for the hall only once it can take the hall's
// commands. A hall that sends a command the moment it sees a board come
// online (the boot test's update from the hall did) lost it when the
// link announced itself before the broker had acknowledged its
// subscription: QoS 1 keeps nothing for a subscription that does not
// exist yet.
func TestOnlineOnlyOnceSubscribed(t *testing.T) {
	r := newRig(t, linktest.BrokerOpts{})
	r.hall = linktest.NewHall(t, r.broker.URL(), linktest.HallOpts{})
	proxy := newHoldProxy(t, fmt.Sprintf("127.0.0.1:%d", r.broker.Port))
	cfg := r.config()
	cfg.Broker = proxy.url()
	r.start(cfg, testOpts())

	// The link is connected and has published the clock's state, while
	// its subscription is held back.
	wait.For(t, 10*time.Second, "the link's SUBSCRIBE held at the proxy", func() bool { return proxy.heldCount() > 0 })
	r.hall.Wait(10*time.Second, "the clock's state, published while the subscription is held", func(h *linktest.Hall) bool {
		_, ok := h.Last(r.topics.State)
		return ok
	})
	if m, ok := r.hall.Last(r.topics.Online); ok && strings.Contains(string(m.Payload), `"online":true`) {
		t.Errorf("the board said %s before the broker acknowledged its subscription to the command topics", m.Payload)
	}
	close(proxy.release)

	// A command sent the moment the board is online gets its reply.
	r.hall.Wait(10*time.Second, "the link online once subscribed", func(h *linktest.Hall) bool {
		m, ok := h.Last(r.topics.Online)
		return ok && strings.Contains(string(m.Payload), `"online":true`)
	})
	n := len(r.hall.Messages(r.topics.Reply))
	if err := r.hall.Publish(r.topics.Cmd, []byte(`{"id":"first","cmd":"pause"}`), false, nil); err != nil {
		t.Fatal(err)
	}
	r.hall.Wait(10*time.Second, "the reply to the command sent as the board came online", func(h *linktest.Hall) bool {
		return len(h.Messages(r.topics.Reply)) > n
	})
	if rep := replies(t, r.hall, r.topics.Reply)[n]; rep.ID != "first" {
		t.Errorf("reply %+v, want the one to id first", rep)
	}
}
