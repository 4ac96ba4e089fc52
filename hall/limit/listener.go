package limit

import (
	"container/list"
	"errors"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// ListenerOpts configure a Listener.
type ListenerOpts struct {
	// PerAddr is how many connections one address (Key) may hold open.
	PerAddr int
	// ExemptLoopback lets loopback clients past PerAddr: they are of the
	// hall's own machine (the arbiter's laptop, make hall-bench's
	// thousands of clocks). A test of the limit from 127.0.0.x leaves it
	// false.
	ExemptLoopback bool
	// Total is how many connections everyone together may hold open.
	// When Total are open, a new connection closes the oldest one the
	// server has not marked Known (a clock through CONNECT, the arbiter's
	// session), so that strangers holding every place cannot keep the
	// clocks and the arbiter out; if every open one is known, the new one
	// is closed.
	Total int
	// Handshake, if not 0, is the read deadline set on a new connection:
	// the time the client has for its first request (an MQTT CONNECT);
	// the server sets its own deadlines after that.
	Handshake time.Duration
}

// Listener wraps a net.Listener with ListenerOpts: a connection past a
// limit is closed as soon as it is accepted.
type Listener struct {
	net.Listener
	o ListenerOpts

	mu       sync.Mutex
	perAddr  map[string]int
	open     int
	all      map[*Conn]struct{} // the open connections
	unknown  list.List          // the open connections not Known, oldest first
	refused  atomic.Int64
	evicted  atomic.Int64
	accepted atomic.Int64
}

// NewListener returns ln limited by o.
func NewListener(ln net.Listener, o ListenerOpts) *Listener {
	return &Listener{Listener: ln, o: o, perAddr: map[string]int{}, all: map[*Conn]struct{}{}}
}

// Conn is a connection a Listener accepted.
type Conn struct {
	net.Conn
	l    *Listener
	key  string
	elem *list.Element // in l.unknown; nil once Known or closed
	once sync.Once
}

// Close closes the connection and frees its place.
func (c *Conn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.l.release(c) })
	return err
}

// Known marks the connection a known client's: it is never closed to make
// room for a new one.
func (c *Conn) Known() {
	c.l.mu.Lock()
	defer c.l.mu.Unlock()
	if c.elem != nil {
		c.l.unknown.Remove(c.elem)
		c.elem = nil
	}
}

// ConnOf returns the *Conn under c (through TLS), or nil.
func ConnOf(c net.Conn) *Conn {
	for range 4 {
		switch x := c.(type) {
		case *Conn:
			return x
		case interface{ NetConn() net.Conn }: // *tls.Conn, the broker's flow wrapper
			c = x.NetConn()
		default:
			return nil
		}
	}
	return nil
}

// Accept returns the next connection within the limits. Errors other
// than the listener's end (too many open files) are waited out, so that a
// server whose Accept loop stops at an error keeps serving.
func (l *Listener) Accept() (net.Conn, error) {
	backoff := 5 * time.Millisecond
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return nil, err
			}
			time.Sleep(backoff)
			backoff = min(2*backoff, time.Second)
			continue
		}
		backoff = 5 * time.Millisecond
		key := Key(c.RemoteAddr().String())
		var evict *Conn
		l.mu.Lock()
		ok := l.o.PerAddr <= 0 || l.perAddr[key] < l.o.PerAddr || l.o.ExemptLoopback && isLoopback(c.RemoteAddr())
		if ok && l.o.Total > 0 && l.open >= l.o.Total {
			if e := l.unknown.Front(); e != nil {
				evict = e.Value.(*Conn)
				l.unknown.Remove(e)
				evict.elem = nil
			} else {
				ok = false
			}
		}
		var lc *Conn
		if ok {
			l.perAddr[key]++
			l.open++
			lc = &Conn{Conn: c, l: l, key: key}
			lc.elem = l.unknown.PushBack(lc)
			l.all[lc] = struct{}{}
		}
		l.mu.Unlock()
		if evict != nil {
			// Counted once closed, so that a count read after it
			// finds the evicted connection's place given back.
			evict.Close()
			l.evicted.Add(1)
		}
		if !ok {
			l.refused.Add(1)
			c.Close()
			continue
		}
		l.accepted.Add(1)
		if l.o.Handshake > 0 {
			c.SetReadDeadline(time.Now().Add(l.o.Handshake))
		}
		return lc, nil
	}
}

func isLoopback(a net.Addr) bool {
	t, ok := a.(*net.TCPAddr)
	return ok && t.IP.IsLoopback()
}

func (l *Listener) release(c *Conn) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if c.elem != nil {
		l.unknown.Remove(c.elem)
		c.elem = nil
	}
	l.open--
	delete(l.all, c)
	if l.perAddr[c.key]--; l.perAddr[c.key] <= 0 {
		delete(l.perAddr, c.key)
	}
}

// CloseConns closes every connection still open, known or not, and
// returns how many: what a server that stops does with clients that did
// not leave when asked.
func (l *Listener) CloseConns() int {
	l.mu.Lock()
	open := make([]*Conn, 0, len(l.all))
	for c := range l.all {
		open = append(open, c)
	}
	l.mu.Unlock()
	for _, c := range open {
		c.Close()
	}
	return len(open)
}

// Open is how many connections are open.
func (l *Listener) Open() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.open
}

// Refused is how many connections were closed at once for a limit, and
// Evicted how many older ones were closed to make room.
func (l *Listener) Refused() int64 { return l.refused.Load() }

// Accepted is how many connections Accept returned.
func (l *Listener) Accepted() int64 { return l.accepted.Load() }

// Evicted is how many connections were closed to make room for newer.
func (l *Listener) Evicted() int64 { return l.evicted.Load() }
