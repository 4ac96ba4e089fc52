package broker

// The embedded broker's guard: who may connect, as which board, how often
// one may fail, and how many connections it holds. Kept apart from the
// hook's intake (embedded.go).

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"net"
	"strings"
	"sync/atomic"
	"time"

	mqtt "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"
	"golang.org/x/crypto/bcrypt"

	"github.com/zeitnot/zeitnot/hall/limit"
)

// Limits are the embedded broker's limits against a hostile network.
type Limits struct {
	// Conns are each listener's connection limits (plain and TLS count
	// apart). Default: 16 per
	// address (loopback exempt), 10,000 in all (past which a new
	// connection closes the oldest one not through CONNECT), CONNECT
	// within 5 s.
	Conns limit.ListenerOpts
	// Logins limit failed CONNECTs per address and per user, before any
	// password is hashed (limit.LoginOpts' defaults).
	Logins limit.LoginOpts
	// MaxKeepAlive is the longest keep-alive a client may ask for, and the
	// one a client asking for none (0) gets: a silent connection is closed
	// after 1.5 times it (default 120 s).
	MaxKeepAlive uint16
}

// DefaultLimits are the limits StartEmbedded takes for a zero Limits.
func DefaultLimits() Limits {
	return Limits{
		Conns:        limit.ListenerOpts{PerAddr: 16, ExemptLoopback: true, Total: 10000, Handshake: 5 * time.Second},
		MaxKeepAlive: 120,
	}
}

// listen opens the broker's limited listener on addr.
func listen(addr string, l Limits) (*limit.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	return limit.NewListener(ln, l.Conns), nil
}

// OnConnect caps the keep-alive: a client that asks for none or for hours
// gets MaxKeepAlive, so that no silent connection stays for good.
func (h *hook) OnConnect(cl *mqtt.Client, pk packets.Packet) error {
	if k := h.limits.MaxKeepAlive; k > 0 && (cl.State.Keepalive == 0 || cl.State.Keepalive > k) {
		cl.State.Keepalive = k
		cl.State.ServerKeepalive = true
	}
	return nil
}

// OnConnectAuthenticate admits a client: within the failure limits
// (checked before any hash), with its user's password, with a client id
// that is its own (a link's id zeitnot-{hall}-{board} is that board's, and
// an id in use is its account's), and a will it may publish. It records
// nothing about the client: what a client may publish is read off the
// client itself (boardOf), so no other connection's coming or going can
// change it.
func (h *hook) OnConnectAuthenticate(cl *mqtt.Client, pk packets.Packet) bool {
	user := string(pk.Connect.Username)
	board := 0
	switch {
	case user == "" && !h.anon[cl.Net.Listener]:
		h.throttled("broker: refused %s from %s: no user name (this listener is not on loopback: every client needs a user of the hall config)", cl.ID, remote(cl))
		return false
	case user == "":
		board = h.boardOfClientID(cl.ID)
	default:
		u, known := h.o.Users[user]
		account := ""
		if known {
			account = user
		}
		if wait := h.logins.Attempt(remote(cl), account); wait > 0 {
			h.throttled("broker: refused %s from %s: too many failed logins from there; next try in %v", cl.ID, remote(cl), wait.Round(time.Second))
			return false
		}
		if !known || !h.checkPassword(user, u.Hash, pk.Connect.Password) {
			h.throttled("broker: refused %s from %s: user %q unknown or wrong password", cl.ID, remote(cl), user)
			return false
		}
		h.logins.Succeeded(remote(cl))
		board = u.Board
		if n := h.boardOfClientID(cl.ID); n != 0 && n != board {
			h.throttled("broker: refused %s from %s: that client id is board %d's, user %q is board %d's", cl.ID, remote(cl), n, user, board)
			return false
		}
	}
	if !h.claim(cl, user) {
		return false
	}
	if pk.Connect.WillFlag && !h.mayWrite(board, pk.Connect.WillTopic) {
		h.throttled("broker: refused %s from %s: a will on %s, which it may not publish", cl.ID, remote(cl), pk.Connect.WillTopic)
		return false
	}
	if c := limit.ConnOf(cl.Net.Conn); c != nil {
		c.Known() // a clock: never closed to make room for a stranger
	}
	return true
}

// owner is the account that last connected with a client id.
type owner struct {
	user string
	at   time.Time
}

// ownerHold is how long a client id stays its account's after its last
// connect even when the broker holds no session for it: the time two
// connects may race.
const ownerHold = 30 * time.Second

// claim makes cl's id user's, unless another account holds it: a session
// on the broker (online or kept for later), or a connect in the last
// ownerHold.
func (h *hook) claim(cl *mqtt.Client, user string) bool {
	ok, stale := h.claimLocked(cl, user)
	if ok {
		h.endEarlier(cl, stale)
	}
	return ok
}

// takeoverWait bounds how long a connect waits for the connection of its
// id before it to end.
const takeoverWait = 2 * time.Second

// endEarlier ends the earlier connection of cl's id, if one is up, and
// waits until mochi is done with it, before mochi lists cl.
//
// mochi-mqtt v2.7.9 takes a session over by disconnecting the old
// connection first and marking it taken over after; an old connection
// whose reader ends in between counts as not taken over, and its end
// deletes the id's listing and subscriptions, by then the new
// connection's (seen under -race in TestSameAccountReconnects: the new
// one got no more commands, and the next connect found nothing to take
// over and left it up). So the old connection is ended here, while the
// new one is still in CONNECT, and mochi finds it gone, or closed for
// good. stale is a live connection mochi no longer lists for the id (such
// a late end deleted its listing): listed again for the while, so that
// its end too is seen.
func (h *hook) endEarlier(cl, stale *mqtt.Client) {
	if h.srv == nil {
		return
	}
	old, _ := h.srv.Clients.Get(cl.ID)
	if old == nil && stale != nil {
		h.logf("broker: %s from %s: ending its earlier connection from %s, which the broker no longer listed", cl.ID, remote(cl), remote(stale))
		h.srv.Clients.Add(stale)
		old = stale
	}
	if old == nil || old == cl {
		return
	}
	if !old.Closed() {
		_ = h.srv.DisconnectClient(old, packets.ErrSessionTakenOver)
	}
	deadline := time.Now().Add(takeoverWait)
	for {
		cur, _ := h.srv.Clients.Get(cl.ID)
		h.mu.Lock()
		e := h.ended[cl.ID]
		h.mu.Unlock()
		// Gone from the listing (its end deleted it), or ended keeping
		// its session (mochi takes that over itself).
		if cur != old || e.cl == old && !e.expire {
			return
		}
		if time.Now().After(deadline) {
			h.logf("broker: %s from %s: its earlier connection from %s did not end within %v", cl.ID, remote(cl), remote(old), takeoverWait)
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// claimLocked is claim's bookkeeping; stale is a live connection of the
// id that mochi no longer lists, for claim to end.
func (h *hook) claimLocked(cl *mqtt.Client, user string) (accepted bool, stale *mqtt.Client) {
	now := h.o.Clock.Now()
	var existing *mqtt.Client
	if h.srv != nil {
		existing, _ = h.srv.Clients.Get(cl.ID)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	o, ok := h.owners[cl.ID]
	held := existing != nil && string(existing.Properties.Username) != user ||
		ok && o.user != user && now.Sub(o.at) < ownerHold
	if held {
		h.throttledLocked(now, "broker: refused %s from %s: that client id is another account's", cl.ID, remote(cl))
		return false, nil
	}
	if l := h.live[cl.ID]; l != nil && l != existing && !l.Closed() && h.srv != nil {
		stale = l
	}
	if existing != nil && !existing.Closed() && host(remote(existing)) != host(remote(cl)) {
		h.throttledLocked(now, "broker: %s connected from %s and takes over from %s: two clocks set to one board?", cl.ID, remote(cl), remote(existing))
	}
	if len(h.owners) > 2*int(atomic.LoadInt64(&h.srv.Info.ClientsConnected))+1000 {
		for id, o := range h.owners {
			if _, ok := h.srv.Clients.Get(id); !ok && now.Sub(o.at) >= ownerHold {
				delete(h.owners, id)
			}
		}
		for id := range h.ended {
			if _, ok := h.owners[id]; !ok {
				delete(h.ended, id)
			}
		}
	}
	h.owners[cl.ID] = owner{user, now}
	return true, stale
}

// OnSessionEstablished records cl as its id's live connection.
func (h *hook) OnSessionEstablished(cl *mqtt.Client, _ packets.Packet) {
	if cl.Net.Inline {
		return
	}
	h.mu.Lock()
	h.live[cl.ID] = cl
	h.mu.Unlock()
}

// OnDisconnect forgets cl as its id's live connection, and records its
// end for endEarlier.
func (h *hook) OnDisconnect(cl *mqtt.Client, _ error, expire bool) {
	h.mu.Lock()
	if h.live[cl.ID] == cl {
		delete(h.live, cl.ID)
	}
	h.ended[cl.ID] = ended{cl, expire}
	h.mu.Unlock()
}

// ended is the last connection of a client id that ended, and whether
// its session ended with it.
type ended struct {
	cl     *mqtt.Client
	expire bool
}

func host(addr string) string {
	if h, _, err := net.SplitHostPort(addr); err == nil {
		return h
	}
	return addr
}

// boardOf is the board whose topics cl may publish: its user's, or on a
// loopback broker an anonymous link's by its client id; 0 for none.
func (h *hook) boardOf(cl *mqtt.Client) int {
	if cl.Net.Inline {
		return 0
	}
	user := string(cl.Properties.Username)
	if user == "" {
		if h.anon[cl.Net.Listener] {
			return h.boardOfClientID(cl.ID)
		}
		return 0
	}
	return h.o.Users[user].Board
}

// checkPassword checks pw against the user's hash. A sha256: hash is for
// a long random password (the clocks'): a fast hash is enough there, as
// guesses are limited per address before they get here. A bcrypt hash
// costs its work once per run of the hall: the password it accepted is
// remembered by its sha256, so a hall restart's reconnecting clocks cost
// one bcrypt each.
func (h *hook) checkPassword(user, hash string, pw []byte) bool {
	h.checks.Add(1)
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
