// Package broker connects the hall to its clocks' MQTT messages: an MQTT
// broker embedded in the hall (mochi-mqtt), with the clocks' users and
// per-board permissions, or a client of an outside broker (Mosquitto) for
// a hall too big for one process.
//
// Either way every message on the clocks' topics goes to one function
// (Opts.Receive), synchronously: the embedded broker calls it before it
// acknowledges the message to the clock, the client before it
// acknowledges it to the outside broker, so a message the clock was told
// arrived is in the hall's store. Commands go out with Publish.
package broker

import (
	"bytes"
	"crypto/sha256"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	mqtt "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/listeners"
	"github.com/mochi-mqtt/server/v2/packets"
	"golang.org/x/crypto/bcrypt"

	"github.com/zeitnot/zeitnot/hall/limit"
	"github.com/zeitnot/zeitnot/internal/wallclock"
	"github.com/zeitnot/zeitnot/protocol"
)

// User is one clock's account on the embedded broker.
type User struct {
	Board int // the board whose topics the user may publish
	// Hash is the password's hash: "sha256:HEX" (for long random
	// passwords, checked in microseconds) or a bcrypt hash ("$2a$...").
	Hash string
}

// CheckHash reports whether hash is a password hash User takes.
func CheckHash(hash string) error {
	if h, ok := strings.CutPrefix(hash, "sha256:"); ok {
		if b, err := hex.DecodeString(h); err != nil || len(b) != sha256.Size {
			return errors.New("want sha256: and 64 hex digits")
		}
		return nil
	}
	if _, err := bcrypt.Cost([]byte(hash)); err != nil {
		return fmt.Errorf("neither sha256:HEX nor a bcrypt hash: %v", err)
	}
	return nil
}

// HashSHA256 returns the sha256:HEX hash of password.
func HashSHA256(password string) string {
	s := sha256.Sum256([]byte(password))
	return "sha256:" + hex.EncodeToString(s[:])
}

// Opts configure the embedded broker.
type Opts struct {
	// Addr is the host:port of the plain MQTT listener; "" for none.
	Addr string
	// TLSAddr is the host:port of the TLS listener (mqtts), with TLS its
	// configuration; "" for none. One of Addr and TLSAddr is needed.
	TLSAddr string
	TLS     *tls.Config
	Hall    string // the topic namespace
	// Users are the clocks' accounts, by user name. A client that gives
	// no user name is accepted only with Anonymous.
	Users map[string]User
	// Anonymous lets clients in without a user name on a listener bound
	// to loopback (never on another): a client whose id is the link's
	// (zeitnot-{hall}-{board}) may publish that board's topics, any
	// other only read.
	Anonymous bool
	// Receive gets every message published on the hall's topics, and
	// every will, before it is acknowledged; an error refuses the
	// message (MQTT 5 reason 0x99, payload format invalid) and it goes
	// to nobody.
	Receive func(topic string, payload []byte) error
	// Logf, if set, gets what the broker has to say: refused clients,
	// refused messages (at most one line a second).
	Logf func(format string, a ...any)
	// Retained are messages the broker holds retained from the start,
	// before any client connects: what the hall kept of the clocks'
	// retained topics, so that a spare clock taking over a board whose
	// clock died finds its state after the hall restarted.
	Retained []Message
	// MaxPacket is the largest packet accepted, in bytes (default 64 KiB);
	// a larger one disconnects the client.
	MaxPacket uint32
	// Limits are the connection and login limits; nil: DefaultLimits.
	Limits *Limits
	// Clock is the time of the login limits, of how long a client id
	// stays its account's and of the log's throttle (nil:
	// wallclock.Real). The waits for connections to end are real time.
	Clock wallclock.Clock
}

// Message is one MQTT message.
type Message struct {
	Topic   string
	Payload []byte
}

// Embedded is the hall's own MQTT broker.
type Embedded struct {
	srv     *mqtt.Server
	addr    string // the plain listener's, "" for none
	tlsAddr string // the TLS listener's, "" for none
	hook    *hook
	lns     []*limit.Listener
}

// StartEmbedded starts the broker listening on o.Addr (plain MQTT) and
// o.TLSAddr (TLS), each given.
func StartEmbedded(o Opts) (*Embedded, error) {
	if o.MaxPacket == 0 {
		o.MaxPacket = 64 << 10
	}
	caps := mqtt.NewDefaultServerCapabilities()
	caps.MaximumPacketSize = o.MaxPacket
	caps.MaximumSessionExpiryInterval = 24 * 3600
	tuneDelivery(caps) // delivery.go
	srv := mqtt.New(&mqtt.Options{
		InlineClient: true,
		Capabilities: caps,
		Logger:       slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	lim := DefaultLimits()
	if o.Limits != nil {
		lim = *o.Limits
	}
	o.Clock = wallclock.Or(o.Clock)
	if lim.Logins.Clock == nil {
		lim.Logins.Clock = o.Clock
	}
	h := &hook{o: o, srv: srv, limits: lim, logins: limit.NewLogins(lim.Logins), prefix: protocol.HallTopic(o.Hall) + "/", owners: map[string]owner{}, anon: map[string]bool{}, live: map[string]*mqtt.Client{}, ended: map[string]ended{}, okCache: map[string][32]byte{}}
	if err := srv.AddHook(h, nil); err != nil {
		return nil, fmt.Errorf("broker: %w", err)
	}
	if err := srv.AddHook(&flowHook{logf: o.Logf}, nil); err != nil {
		return nil, fmt.Errorf("broker: %w", err)
	}
	// The connections: capped (guard.go), then TLS, then each client's
	// own delivery queue (delivery.go).
	e := &Embedded{srv: srv, hook: h}
	if o.Addr == "" && o.TLSAddr == "" {
		return nil, errors.New("broker: no address to listen on")
	}
	if o.TLSAddr != "" && o.TLS == nil {
		return nil, errors.New("broker: a TLS listener needs its TLS configuration")
	}
	for _, l := range []struct {
		id, addr string
		tls      *tls.Config
		bound    *string
	}{{listenerID, o.Addr, nil, &e.addr}, {tlsListenerID, o.TLSAddr, o.TLS, &e.tlsAddr}} {
		if l.addr == "" {
			continue
		}
		lln, err := listen(l.addr, lim)
		if err != nil {
			e.closeListeners()
			return nil, fmt.Errorf("broker: %w", err)
		}
		e.lns = append(e.lns, lln)
		*l.bound = lln.Addr().String()
		h.anon[l.id] = o.Anonymous && isLoopbackAddr(lln.Addr())
		var ln net.Listener = lln
		if l.tls != nil {
			ln = tls.NewListener(lln, l.tls)
		}
		if err := srv.AddListener(listeners.NewNet(l.id, flowListener{ln, o.Logf})); err != nil {
			e.closeListeners()
			return nil, fmt.Errorf("broker: %w", err)
		}
	}
	// The listeners are bound; they accept once the broker serves, after
	// the retained messages are in.
	for _, m := range o.Retained {
		if err := srv.Publish(m.Topic, m.Payload, true, 1); err != nil {
			srv.Close()
			return nil, fmt.Errorf("broker: retained %s: %w", m.Topic, err)
		}
	}
	if err := srv.Serve(); err != nil {
		return nil, fmt.Errorf("broker: %w", err)
	}
	return e, nil
}

// Addr is the address of the plain MQTT listener, "" for none.
func (e *Embedded) Addr() string { return e.addr }

// TLSAddr is the address of the TLS listener, "" for none.
func (e *Embedded) TLSAddr() string { return e.tlsAddr }

func (e *Embedded) closeListeners() {
	for _, l := range e.lns {
		l.Close()
	}
}

// isLoopbackAddr reports whether a bound address is a loopback one.
func isLoopbackAddr(a net.Addr) bool {
	t, ok := a.(*net.TCPAddr)
	return ok && t.IP.IsLoopback()
}

// Publish sends a command (QoS 1, not retained) to the clocks subscribed
// to topic.
func (e *Embedded) Publish(topic string, payload []byte) error {
	return e.srv.Publish(topic, payload, false, 1)
}

// Clients is how many clients are connected.
func (e *Embedded) Clients() int { return int(atomic.LoadInt64(&e.srv.Info.ClientsConnected)) }

// Conns is how many connections the listeners hold open (connected
// clients and those not yet through CONNECT), and how many it closed at
// once for a limit.
func (e *Embedded) Conns() (open int, refused int64) {
	for _, l := range e.lns {
		open += l.Open()
		refused += l.Refused()
	}
	return open, refused
}

// open is how many connections the listeners hold open.
func (e *Embedded) open() int {
	n, _ := e.Conns()
	return n
}

// Close stops the broker; clients are disconnected (their wills go out).
//
// mochi-mqtt v2.7.9's Close can hang for ever (its issue #488, the fix
// not released): it lists the clients under a read lock and takes the
// read lock again inside, so a client leaving at that moment (its
// removal waits for the write lock) blocks both. A clean clone's
// `go test -race -short` hung so in TestUsers. So the broker takes no
// new connection, disconnects every client itself and waits (at most
// closeWait) for them to be gone before mochi's Close lists them.
func (e *Embedded) Close() error {
	e.drain()
	return e.srv.Close()
}

// drain takes no new connection and disconnects every client, waiting at
// most closeWait for each round of them to be gone; then it closes every
// connection still open (one mochi no longer lists, such as one whose
// session another connection took over while mochi's goodbye to it
// waited), so that mochi's Close, which waits for every connection's
// reader, cannot wait for ever.
func (e *Embedded) drain() {
	e.closeListeners()
	done := false
	for range 2 { // a connection accepted at the close is seen the second time
		for _, cl := range e.srv.Clients.GetAll() {
			if (cl.Net.Listener == listenerID || cl.Net.Listener == tlsListenerID) && !cl.Closed() {
				_ = e.srv.DisconnectClient(cl, packets.ErrServerShuttingDown)
			}
		}
		done = e.waitConns(closeWait)
	}
	if !done {
		n := 0
		for _, l := range e.lns {
			n += l.CloseConns()
		}
		if n > 0 && e.hook.o.Logf != nil {
			e.hook.o.Logf("broker: closed %d connection(s) still open after the clients were disconnected", n)
		}
		e.waitConns(closeWait)
	}
	// Every connection is closed; mochi's readers end and remove their
	// clients. Waiting on mochi's WaitGroup only now, not while a
	// connection may still be starting (mochi adds to it in the
	// connection's goroutine: a Wait beside that Add is a race).
	waitGroup(&e.srv.Listeners.ClientsWg, closeWait)
}

// waitConns waits, at most d, until the listener holds no connection
// open; it reports whether none is.
func (e *Embedded) waitConns(d time.Duration) bool {
	deadline := time.Now().Add(d)
	for e.open() > 0 {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
	return true
}

// listenerID and tlsListenerID are the broker's listeners', plain and
// TLS, as mochi names them.
const (
	listenerID    = "mqtt"
	tlsListenerID = "mqtts"
)

// closeWait is how long Close waits for the clients it disconnected (a
// variable for the tests).
var closeWait = 5 * time.Second

// waitGroup waits for wg, at most d.
func waitGroup(wg *sync.WaitGroup, d time.Duration) {
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
	}
}

// hook is the broker's authentication, permissions and the hall's intake.
type hook struct {
	mqtt.HookBase
	o      Opts
	srv    *mqtt.Server
	limits Limits
	logins *limit.Logins
	checks atomic.Int64 // passwords checked
	prefix string       // zeitnot/v1/{hall}/

	anon map[string]bool // listener id -> anonymous clients accepted there (set before Serve)

	mu      sync.Mutex
	owners  map[string]owner        // client id -> the account that holds it
	live    map[string]*mqtt.Client // client id -> its connection through CONNECT, until it ends
	ended   map[string]ended        // client id -> its last connection that ended
	okCache map[string][32]byte     // user -> sha256 of a password bcrypt accepted
	lastLog time.Time
}

func (h *hook) ID() string { return "zeitnot-hall" }

func (h *hook) Provides(b byte) bool {
	return bytes.Contains([]byte{mqtt.OnConnect, mqtt.OnConnectAuthenticate, mqtt.OnSessionEstablished, mqtt.OnDisconnect, mqtt.OnACLCheck, mqtt.OnPublish, mqtt.OnWillSent}, []byte{b})
}

func (h *hook) logf(format string, a ...any) {
	if h.o.Logf != nil {
		h.o.Logf(format, a...)
	}
}

// throttled logs at most one line a second.
func (h *hook) throttled(format string, a ...any) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.throttledLocked(h.o.Clock.Now(), format, a...)
}

// throttledLocked is throttled with h.mu held.
func (h *hook) throttledLocked(now time.Time, format string, a ...any) {
	if now.Sub(h.lastLog) < time.Second {
		return
	}
	h.lastLog = now
	h.logf(format, a...)
}

func remote(cl *mqtt.Client) string { return cl.Net.Remote }

// boardOfClientID reads the board of a link's client id
// zeitnot-{hall}-{board}; 0 for another id.
func (h *hook) boardOfClientID(id string) int {
	n, _ := protocol.ParseClientID(h.o.Hall, id)
	return n
}

// mayWrite: a clock publishes its own board's state, log, online and
// reply; nobody else publishes anything (the hall's commands come from
// inside).
func (h *hook) mayWrite(board int, topic string) bool {
	t, ok := protocol.ParseTopic(topic)
	return board != 0 && ok && t.Hall == h.o.Hall && t.Board == board && t.FromClock()
}

func (h *hook) OnACLCheck(cl *mqtt.Client, topic string, write bool) bool {
	if !write {
		// Everyone may read the hall's topics: they are public.
		return strings.HasPrefix(topic, h.prefix)
	}
	board := h.boardOf(cl)
	if !h.mayWrite(board, topic) {
		h.throttled("broker: refused a message of %s (%s) on %s: it may publish only board %d's state, log, online and reply", cl.ID, remote(cl), topic, board)
		return false
	}
	return true
}

func (h *hook) OnPublish(cl *mqtt.Client, pk packets.Packet) (packets.Packet, error) {
	if cl.Net.Inline || h.o.Receive == nil {
		return pk, nil
	}
	if err := h.o.Receive(pk.TopicName, pk.Payload); err != nil {
		h.throttled("broker: refused a message of %s on %s: %v", cl.ID, pk.TopicName, err)
		if cl.Properties.ProtocolVersion == 5 && pk.FixedHeader.Qos > 0 {
			return pk, packets.ErrPayloadFormatInvalid // a PUBACK that says so
		}
		return pk, packets.ErrRejectPacket
	}
	return pk, nil
}

func (h *hook) OnWillSent(cl *mqtt.Client, pk packets.Packet) {
	if h.o.Receive == nil {
		return
	}
	if err := h.o.Receive(pk.TopicName, pk.Payload); err != nil {
		h.throttled("broker: the will of %s on %s: %v", cl.ID, pk.TopicName, err)
	}
}
