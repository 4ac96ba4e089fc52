package broker

// Delivery to subscribers: the embedded broker's flow control.
//
// mochi-mqtt v2.7.9 loses QoS 1 messages to subscribers in two ways:
//
//   - A client's Receive Maximum (MQTT 5; mosquitto_sub -V mqttv5 asks
//     for 20): once that many messages are unacknowledged, mochi parks
//     each further message as "send later". On each packet the client
//     sends it writes one parked message, but takes it out of its
//     inflight table, so that message's PUBACK frees no quota; it picks
//     the parked messages by their creation second (map order within a
//     second: out of order). After a burst of a little more than the
//     Receive Maximum the quota is gone for good and the subscriber gets
//     nothing more while its connection stays up. Parked messages are
//     only sent again when the client reconnects (mochi-mqtt issues #86,
//     #340).
//   - Its outbound queue (Capabilities.MaximumClientWritesPending): a
//     message that finds the queue full is dropped without a word
//     (MQTT 3.1.1 and 5 alike): a subscriber slower than a burst loses
//     the overflow.
//
// The broker keeps both out of play and does the flow control itself, in
// the connection (flowConn, below mochi's writes):
//   - mochi is told every client takes any number of unacknowledged
//     messages, so it parks none;
//   - its writes never wait: a PUBLISH mochi writes goes to the
//     connection's own queue, every other packet (PUBACK, SUBACK,
//     PINGRESP, ...) straight to the network. So mochi's outbound queue
//     empties as fast as it fills;
//   - a goroutine per connection, while it has something to send, sends
//     the queued PUBLISHes in order, never more than the client's Receive
//     Maximum (MQTT 5; at most maxWindow) or maxWindow (3.1.1) of them
//     unacknowledged; the client's PUBACKs (PUBCOMPs at QoS 2) are read
//     as they pass in;
//   - a QoS 1 or 2 message waits for room in mochi's outbound queue
//     (admit) rather than be dropped when a burst outruns mochi's writer;
//     a client whose queue stays full for admitWait (its connection is
//     stuck: it reads nothing) is disconnected, so that it holds up a
//     publisher once, for admitWait at most;
//   - a client that falls more than maxQueued messages or maxQueuedBytes
//     behind is disconnected and told so in the log: it is never
//     silently skipped. With a session (clean session false / a session
//     expiry) mochi keeps what it had not acknowledged and sends it
//     again when it reconnects.
//
// Message expiry: mochi gives every message without an expiry its
// Capabilities.MaximumMessageExpiryInterval (default 86,400 s), which an
// MQTT 5 subscriber then sees as a Message Expiry Interval and which
// deletes a retained message a day after it was published. The broker
// sets no maximum: a message carries the expiry its publisher gave it, or
// none, as through Mosquitto.

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	mqtt "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"
)

const (
	// maxWindow is the most unacknowledged QoS 1 and 2 messages a client
	// has at a time: its Receive Maximum if smaller (MQTT 5), this for
	// an MQTT 3.1.1 client, which has none.
	maxWindow = 256
	// maxQueued and maxQueuedBytes are how far a client may fall behind
	// (messages waiting in its connection's queue) before it is
	// disconnected. maxQueued + maxWindow stays below mochi's limit of
	// messages in flight per client (65,535, the packet ids).
	maxQueued      = 60000
	maxQueuedBytes = 64 << 20
	// writesPending is the size of mochi's outbound queue per client;
	// flowConn empties it without waiting for the network. A QoS 1 or 2
	// message waits (in the publisher's goroutine, at most admitWait)
	// while admitted of them are in it, so that a burst faster than
	// mochi's writer cannot overflow it: mochi drops what finds it full.
	// The rest of the room is for QoS 0.
	writesPending = 256 // as before this file: 2 KiB a client
	admitted      = writesPending * 3 / 4
	admitWait     = 2 * time.Second
)

// tuneDelivery sets the capabilities the broker's delivery needs (see
// above).
func tuneDelivery(caps *mqtt.Capabilities) {
	caps.MaximumMessageExpiryInterval = 0 // no expiry the publisher did not set
	caps.MaximumInflight = 65535
	caps.MaximumClientWritesPending = writesPending
}

// flowListener gives every connection it accepts its own delivery queue
// (flowConn).
type flowListener struct {
	net.Listener
	logf func(string, ...any)
}

func (l flowListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return newFlowConn(c, l.logf), nil
}

// flowHook gives each connection its client's Receive Maximum and keeps
// mochi's own flow control off.
type flowHook struct {
	mqtt.HookBase
	logf func(string, ...any)
}

func (h *flowHook) ID() string { return "zeitnot-delivery" }

func (h *flowHook) Provides(b byte) bool {
	return b == mqtt.OnConnect || b == mqtt.OnQosPublish || b == mqtt.OnPublishDropped || b == mqtt.OnPacketIDExhausted
}

// OnQosPublish runs just before mochi puts a QoS 1 or 2 message into the
// client's outbound queue (or writes it again on a reconnection).
func (h *flowHook) OnQosPublish(cl *mqtt.Client, pk packets.Packet, sent int64, resends int) {
	if pk.FixedHeader.Type != packets.Publish {
		return // the acknowledgement of a client's own message
	}
	if fc, ok := cl.Net.Conn.(*flowConn); ok {
		fc.admit()
	}
}

// OnConnect runs after mochi read the client's CONNECT and before it
// answers.
func (h *flowHook) OnConnect(cl *mqtt.Client, pk packets.Packet) error {
	fc, ok := cl.Net.Conn.(*flowConn)
	if !ok {
		return nil // the inline client, or a connection of another listener
	}
	window := maxWindow
	if rm := int(cl.Properties.Props.ReceiveMaximum); cl.Properties.ProtocolVersion == 5 && rm > 0 && rm < window {
		window = rm
	}
	fc.setClient(cl.ID, window)
	// No quota for mochi: it then parks nothing. ReceiveMaximum 0 also
	// keeps it off when mochi hands this client a taken-over session.
	cl.Properties.Props.ReceiveMaximum = 0
	cl.State.Inflight.ResetSendQuota(0)
	return nil
}

// OnPublishDropped: mochi's outbound queue was full (mochi's writer did
// not take a message for admitWait, or a burst of QoS 0). A QoS 1 or 2
// message is lost to this connection: the client is disconnected so that
// it knows.
func (h *flowHook) OnPublishDropped(cl *mqtt.Client, pk packets.Packet) {
	if pk.FixedHeader.Qos == 0 {
		return // QoS 0 may be lost
	}
	h.drop(cl, fmt.Errorf("the broker's queue to it is full (%d messages): a message on %s was dropped", writesPending, pk.TopicName))
}

// OnPacketIDExhausted: the client has 65,535 messages unacknowledged.
func (h *flowHook) OnPacketIDExhausted(cl *mqtt.Client, pk packets.Packet) {
	h.drop(cl, fmt.Errorf("65,535 messages unacknowledged: a message on %s was dropped", pk.TopicName))
}

func (h *flowHook) drop(cl *mqtt.Client, err error) {
	fc, ok := cl.Net.Conn.(*flowConn)
	if ok {
		fc.mu.Lock()
		gone := fc.err != nil
		fc.mu.Unlock()
		if gone {
			return // disconnected already, and said why
		}
	}
	if h.logf != nil {
		h.logf("broker: disconnecting %s (%s): %v", cl.ID, cl.Net.Remote, err)
	}
	if ok {
		fc.fail(err)
	}
}

// queued is one PUBLISH waiting in a flowConn.
type queued struct {
	b   []byte
	qos byte
	id  uint16
}

// flowConn is a client's connection: what mochi writes and what the
// client sends pass through it (see the top of this file).
type flowConn struct {
	net.Conn
	logf func(string, ...any)

	omu    sync.Mutex
	out    []byte    // Write: the start of a packet mochi has not finished writing
	direct []byte    // Write: the packets that go out at once
	in     inScanner // Read: the client's packets, for the acknowledgements

	wmu sync.Mutex // one writer at a time on Conn

	maxQueued, maxBytes int // how far the client may fall behind

	slots chan struct{} // QoS 1/2 messages in mochi's outbound queue (admit)
	done  chan struct{} // closed by fail

	mu      sync.Mutex
	sending bool   // a goroutine runs send
	id      string // the client id, once connected
	window  int
	unacked map[uint16]bool // QoS 1/2 PUBLISHes sent and not yet acknowledged
	queue   []queued
	head    int // queue[head:] wait
	bytes   int // in queue[head:]
	err     error
}

func newFlowConn(c net.Conn, logf func(string, ...any)) *flowConn {
	return &flowConn{Conn: c, logf: logf, maxQueued: maxQueued, maxBytes: maxQueuedBytes, window: maxWindow, unacked: map[uint16]bool{},
		slots: make(chan struct{}, admitted), done: make(chan struct{})}
}

// admit waits (at most admitWait) for room for a QoS 1 or 2 message in
// mochi's outbound queue; Write frees it.
func (c *flowConn) admit() {
	select {
	case c.slots <- struct{}{}:
		return
	default:
	}
	t := time.NewTimer(admitWait)
	defer t.Stop()
	select {
	case c.slots <- struct{}{}:
	case <-t.C:
		c.mu.Lock()
		id := c.id
		c.mu.Unlock()
		err := fmt.Errorf("nothing written to it for %v", admitWait)
		if c.logf != nil {
			c.logf("broker: disconnecting %s (%s): %v", id, c.RemoteAddr(), err)
		}
		c.fail(err)
	case <-c.done:
	}
}

// NetConn is the connection underneath (a *tls.Conn with TLS).
func (c *flowConn) NetConn() net.Conn { return c.Conn }

func (c *flowConn) setClient(id string, window int) {
	c.mu.Lock()
	c.id, c.window = id, window
	c.kick()
	c.mu.Unlock()
}

var errFlowClosed = errors.New("connection closed")

// fail closes the connection for err (the first error counts).
func (c *flowConn) fail(err error) {
	c.mu.Lock()
	if c.err == nil {
		c.err = err
		close(c.done)
	}
	c.queue, c.head, c.bytes = nil, 0, 0
	c.mu.Unlock()
	c.Conn.SetWriteDeadline(time.Now()) // a write waiting for the client ends now
	c.Conn.Close()
}

func (c *flowConn) Close() error {
	c.fail(errFlowClosed)
	return nil
}

// Write takes whole packets from mochi: PUBLISHes join the queue, the
// others go out now. It never waits for the client.
func (c *flowConn) Write(b []byte) (int, error) {
	c.omu.Lock()
	defer c.omu.Unlock()
	src := b
	if len(c.out) > 0 {
		c.out = append(c.out, b...)
		src = c.out
	}
	direct := c.direct[:0]
	for {
		n, ok := packetLen(src)
		if !ok {
			break
		}
		p := src[:n]
		src = src[n:]
		if p[0]>>4 != packets.Publish {
			direct = append(direct, p...)
			continue
		}
		if (p[0]>>1)&3 > 0 {
			select {
			case <-c.slots:
			default:
			}
		}
		if err := c.enqueue(p); err != nil {
			c.out = c.out[:0]
			return 0, err
		}
	}
	c.out = append(c.out[:0], src...)
	c.direct = direct
	if len(direct) > 0 {
		c.wmu.Lock()
		_, err := c.Conn.Write(direct)
		c.wmu.Unlock()
		if err != nil {
			c.fail(err)
			return 0, err
		}
	}
	return len(b), nil
}

// packetLen is the length of the packet at the start of b, if b holds
// all of it.
func packetLen(b []byte) (int, bool) {
	h := headerLen(b)
	if h == 0 {
		return 0, false
	}
	n, mult := 0, 1
	for _, d := range b[1:h] {
		n += int(d&0x7f) * mult
		mult *= 128
	}
	return h + n, h+n <= len(b)
}

// headerLen is the length of the fixed header at the start of b (0: b
// does not hold all of it).
func headerLen(b []byte) int {
	for i := 1; i < len(b) && i <= 4; i++ {
		if b[i]&0x80 == 0 {
			return i + 1
		}
	}
	return 0
}

func (c *flowConn) enqueue(p []byte) error {
	q := queued{b: append([]byte(nil), p...), qos: (p[0] >> 1) & 3}
	if q.qos > 0 {
		body := p[headerLen(p):]
		if len(body) < 2 || len(body) < 4+int(binary.BigEndian.Uint16(body)) {
			return errors.New("broker: a malformed PUBLISH from mochi")
		}
		q.id = binary.BigEndian.Uint16(body[2+int(binary.BigEndian.Uint16(body)):])
	}
	c.mu.Lock()
	if c.err != nil {
		err := c.err
		c.mu.Unlock()
		return err
	}
	if len(c.queue)-c.head >= c.maxQueued || c.bytes+len(q.b) > c.maxBytes {
		err := fmt.Errorf("it fell %d messages (%d bytes) behind", len(c.queue)-c.head, c.bytes)
		id := c.id
		c.mu.Unlock()
		if c.logf != nil {
			c.logf("broker: disconnecting %s (%s): %v", id, c.RemoteAddr(), err)
		}
		c.fail(err)
		return err
	}
	if c.head > 0 && c.head >= len(c.queue)/2 {
		c.queue = append(c.queue[:0], c.queue[c.head:]...)
		c.head = 0
	}
	c.queue = append(c.queue, q)
	c.bytes += len(q.b)
	c.kick()
	c.mu.Unlock()
	return nil
}

// ready: the next PUBLISH may go (with c.mu held).
func (c *flowConn) ready() bool {
	if c.head == len(c.queue) {
		return false
	}
	return c.queue[c.head].qos == 0 || len(c.unacked) < c.window
}

// kick starts send if there is something to send (with c.mu held). No
// goroutine waits while nothing can go: a clock, which gets a command now
// and then, costs none.
func (c *flowConn) kick() {
	if !c.sending && c.err == nil && c.ready() {
		c.sending = true
		go c.send()
	}
}

// send writes the queued PUBLISHes, in order, as the window allows, until
// it allows no more.
func (c *flowConn) send() {
	var buf []byte
	for {
		c.mu.Lock()
		if c.err != nil || !c.ready() {
			c.sending = false
			c.mu.Unlock()
			return
		}
		buf = buf[:0]
		for c.ready() && len(buf) < 64<<10 {
			q := c.queue[c.head]
			c.queue[c.head] = queued{}
			c.head++
			c.bytes -= len(q.b)
			if q.qos > 0 {
				c.unacked[q.id] = true
			}
			buf = append(buf, q.b...)
		}
		c.mu.Unlock()
		c.wmu.Lock()
		_, err := c.Conn.Write(buf)
		c.wmu.Unlock()
		if err != nil {
			c.fail(err)
			return
		}
	}
}

// Read passes the client's bytes to mochi, noting the acknowledgements.
func (c *flowConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	if n > 0 {
		c.in.scan(b[:n], c.acked)
	}
	return n, err
}

// acked is called for each PUBACK, PUBREC and PUBCOMP the client sends.
func (c *flowConn) acked(typ byte, id uint16, reason byte) {
	if typ == packets.Pubrec && reason < 0x80 {
		return // QoS 2 goes on: the slot is free at PUBCOMP
	}
	c.mu.Lock()
	if c.unacked[id] {
		delete(c.unacked, id)
		c.kick()
	}
	c.mu.Unlock()
}

// inScanner follows the packets in a byte stream, keeping the first
// three bytes of each body (packet id and reason code of an
// acknowledgement).
type inScanner struct {
	state  int // 0: fixed header, 1: remaining length, 2: body
	typ    byte
	n      int // remaining length, then bytes of it left
	mult   int
	lenLen int
	head   [3]byte
	got    int // of head
}

func (s *inScanner) scan(b []byte, ack func(typ byte, id uint16, reason byte)) {
	for len(b) > 0 {
		switch s.state {
		case 0:
			s.typ, s.n, s.mult, s.lenLen, s.got = b[0]>>4, 0, 1, 0, 0
			s.state = 1
			b = b[1:]
		case 1:
			d := b[0]
			b = b[1:]
			s.n += int(d&0x7f) * s.mult
			s.mult *= 128
			s.lenLen++
			if d&0x80 != 0 && s.lenLen < 4 {
				continue
			}
			s.state = 2
			if s.n == 0 {
				s.done(ack)
			}
		case 2:
			k := min(len(b), s.n)
			for i := 0; i < k && s.got < len(s.head); i++ {
				s.head[s.got] = b[i]
				s.got++
			}
			s.n -= k
			b = b[k:]
			if s.n == 0 {
				s.done(ack)
			}
		}
	}
}

func (s *inScanner) done(ack func(typ byte, id uint16, reason byte)) {
	s.state = 0
	switch s.typ {
	case packets.Puback, packets.Pubrec, packets.Pubcomp:
	default:
		return
	}
	if s.got < 2 {
		return
	}
	var reason byte // absent: success
	if s.got > 2 {
		reason = s.head[2]
	}
	ack(s.typ, binary.BigEndian.Uint16(s.head[:2]), reason)
}
