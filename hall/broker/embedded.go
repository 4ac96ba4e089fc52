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
	"crypto/subtle"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	mqtt "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"
	"golang.org/x/crypto/bcrypt"

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
	Addr string // host:port to listen on
	Hall string // the topic namespace
	// Users are the clocks' accounts, by user name. A client that gives
	// no user name is accepted only with Anonymous.
	Users map[string]User
	// Anonymous lets clients in without a user name (a loopback broker):
	// a client whose id is the link's (zeitnot-{hall}-{board}) may
	// publish that board's topics, any other only read.
	Anonymous bool
	// TLS, if not nil, makes the listener TLS.
	TLS *tls.Config
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
}

// Message is one MQTT message.
type Message struct {
	Topic   string
	Payload []byte
}

// Embedded is the hall's own MQTT broker.
type Embedded struct {
	srv  *mqtt.Server
	addr string
	hook *hook
}

// StartEmbedded starts the broker listening on o.Addr.
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
	h := &hook{o: o, prefix: protocol.HallTopic(o.Hall) + "/", boards: map[string]conn{}, okCache: map[string][32]byte{}}
	if err := srv.AddHook(h, nil); err != nil {
		return nil, fmt.Errorf("broker: %w", err)
	}
	if err := srv.AddHook(&flowHook{logf: o.Logf}, nil); err != nil {
		return nil, fmt.Errorf("broker: %w", err)
	}
	lst, addr, err := listen(o.Addr, o.TLS, o.Logf)
	if err != nil {
		return nil, fmt.Errorf("broker: %w", err)
	}
	if err := srv.AddListener(lst); err != nil {
		return nil, fmt.Errorf("broker: %w", err)
	}
	// The listener is bound; it accepts once the broker serves, after
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
	return &Embedded{srv: srv, addr: addr, hook: h}, nil
}

// Addr is the address the broker listens on.
func (e *Embedded) Addr() string { return e.addr }

// Publish sends a command (QoS 1, not retained) to the clocks subscribed
// to topic.
func (e *Embedded) Publish(topic string, payload []byte) error {
	return e.srv.Publish(topic, payload, false, 1)
}

// Clients is how many clients are connected.
func (e *Embedded) Clients() int { return int(e.srv.Info.ClientsConnected) }

// Close stops the broker; clients are disconnected (their wills go out).
func (e *Embedded) Close() error { return e.srv.Close() }

// hook is the broker's authentication, permissions and the hall's intake.
type hook struct {
	mqtt.HookBase
	o      Opts
	prefix string // zeitnot/v1/{hall}/

	mu      sync.Mutex
	boards  map[string]conn     // client id -> what it may publish
	okCache map[string][32]byte // user -> sha256 of a password bcrypt accepted
	lastLog time.Time
}

func (h *hook) ID() string { return "zeitnot-hall" }

func (h *hook) Provides(b byte) bool {
	return bytes.Contains([]byte{mqtt.OnConnectAuthenticate, mqtt.OnACLCheck, mqtt.OnPublish, mqtt.OnWillSent, mqtt.OnDisconnect}, []byte{b})
}

func (h *hook) logf(format string, a ...any) {
	if h.o.Logf != nil {
		h.o.Logf(format, a...)
	}
}

// throttled logs at most one line a second.
func (h *hook) throttled(format string, a ...any) {
	h.mu.Lock()
	now := time.Now()
	if now.Sub(h.lastLog) < time.Second {
		h.mu.Unlock()
		return
	}
	h.lastLog = now
	h.mu.Unlock()
	h.logf(format, a...)
}

func remote(cl *mqtt.Client) string { return cl.Net.Remote }

func (h *hook) OnConnectAuthenticate(cl *mqtt.Client, pk packets.Packet) bool {
	user := string(pk.Connect.Username)
	board := 0
	switch {
	case user == "" && !h.o.Anonymous:
		h.throttled("broker: refused %s from %s: no user name (this broker is not on loopback: every client needs a user of the hall config)", cl.ID, remote(cl))
		return false
	case user == "":
		board = h.boardOfClientID(cl.ID)
	default:
		u, ok := h.o.Users[user]
		if !ok || !h.checkPassword(user, u.Hash, pk.Connect.Password) {
			h.throttled("broker: refused %s from %s: user %q unknown or wrong password", cl.ID, remote(cl), user)
			return false
		}
		board = u.Board
	}
	if pk.Connect.WillFlag && !h.mayWrite(board, pk.Connect.WillTopic) {
		h.throttled("broker: refused %s from %s: a will on %s, which it may not publish", cl.ID, remote(cl), pk.Connect.WillTopic)
		return false
	}
	h.mu.Lock()
	h.boards[cl.ID] = conn{cl, board}
	h.mu.Unlock()
	return true
}

// conn is a connected client and the board whose topics it may publish
// (0: none).
type conn struct {
	cl    *mqtt.Client
	board int
}

func (h *hook) OnDisconnect(cl *mqtt.Client, err error, expire bool) {
	h.mu.Lock()
	if c, ok := h.boards[cl.ID]; ok && c.cl == cl {
		delete(h.boards, cl.ID)
	}
	h.mu.Unlock()
}

// boardOfClientID reads the board of a link's client id
// zeitnot-{hall}-{board}.
func (h *hook) boardOfClientID(id string) int {
	rest, ok := strings.CutPrefix(id, "zeitnot-"+h.o.Hall+"-")
	if !ok {
		return 0
	}
	n, err := strconv.Atoi(rest)
	if err != nil || n < 1 || n > protocol.MaxBoard || strconv.Itoa(n) != rest {
		return 0
	}
	return n
}

func (h *hook) checkPassword(user, hash string, pw []byte) bool {
	if hx, ok := strings.CutPrefix(hash, "sha256:"); ok {
		want, err := hex.DecodeString(hx)
		got := sha256.Sum256(pw)
		return err == nil && subtle.ConstantTimeCompare(want, got[:]) == 1
	}
	sum := sha256.Sum256(pw)
	h.mu.Lock()
	c, ok := h.okCache[user]
	h.mu.Unlock()
	if ok && subtle.ConstantTimeCompare(c[:], sum[:]) == 1 {
		return true
	}
	if bcrypt.CompareHashAndPassword([]byte(hash), pw) != nil {
		return false
	}
	h.mu.Lock()
	h.okCache[user] = sum
	h.mu.Unlock()
	return true
}

// mayWrite: a clock publishes its own board's state, log, online and
// reply; nobody else publishes anything (the hall's commands come from
// inside).
func (h *hook) mayWrite(board int, topic string) bool {
	if board == 0 {
		return false
	}
	rest, ok := strings.CutPrefix(topic, h.prefix+"board/"+strconv.Itoa(board)+"/")
	if !ok {
		return false
	}
	switch rest {
	case "state", "log", "online", "reply":
		return true
	}
	return false
}

func (h *hook) OnACLCheck(cl *mqtt.Client, topic string, write bool) bool {
	if !write {
		// Everyone may read the hall's topics: they are public.
		return strings.HasPrefix(topic, h.prefix)
	}
	h.mu.Lock()
	c := h.boards[cl.ID]
	h.mu.Unlock()
	board := 0
	if c.cl == cl {
		board = c.board
	}
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
