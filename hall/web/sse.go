package web

import (
	"encoding/json"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/zeitnot/zeitnot/hall/limit"
	"github.com/zeitnot/zeitnot/hall/store"
)

func isLoopback(addr string) bool {
	h, _, err := net.SplitHostPort(addr)
	if err != nil {
		h = addr
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// hub turns the store's changes into live-stream frames, made once per
// change and handed to every stream that shows the board. A stream that
// falls more than its buffer behind is closed; the page reconnects and
// starts again from a snapshot, so nothing is lost to it, only skipped.
type hub struct {
	s *Server

	mu      sync.Mutex
	clients map[*client]struct{}
	perAddr map[string]int // open streams by limit.Key, the arbiter's not counted
	counted int            // open streams counted against MaxStreams
	sub     *store.Sub
	done    chan struct{}
	closed  bool
}

type client struct {
	board int    // 0: every board
	key   string // limit.Key of its address; "" for the arbiter's, not counted
	ch    chan []byte
	gone  bool
}

func newHub(s *Server) *hub {
	h := &hub{s: s, clients: map[*client]struct{}{}, perAddr: map[string]int{}, done: make(chan struct{})}
	h.sub = s.o.Store.Subscribe(65536)
	go h.run()
	return h
}

func (h *hub) run() {
	defer close(h.done)
	for {
		for ev := range h.sub.C {
			if ev.What != store.LogChange { // the views show no log lines but the moves
				h.send(ev.Snap)
			}
			if ev.What == store.StateChange {
				h.s.resendWaiting(ev.Snap.Board)
			}
			if ev.What == store.ReplyChange {
				h.s.resultReplied(ev.Snap)
			}
		}
		h.mu.Lock()
		if h.closed {
			h.mu.Unlock()
			return
		}
		// The hub itself fell behind: every stream starts over.
		h.s.o.Logf("web: the live streams fell behind the clocks; the pages reload their snapshot")
		for c := range h.clients {
			h.drop(c)
		}
		h.sub = h.s.o.Store.Subscribe(65536)
		h.mu.Unlock()
	}
}

// frame is one board's view as a Server-Sent Event.
func frame(v View) []byte {
	b, _ := json.Marshal(v)
	out := make([]byte, 0, len(b)+32)
	out = append(out, "event: board\ndata: "...)
	out = append(out, b...)
	out = append(out, "\n\n"...)
	return out
}

func (h *hub) send(b store.Board) {
	views := h.s.framesOf(b, h.s.o.Clock.Now())
	frames := make([][]byte, len(views))
	for i, v := range views {
		frames[i] = frame(v)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for c := range h.clients {
		for i, f := range frames {
			if c.board != 0 && c.board != views[i].Board {
				continue
			}
			select {
			case c.ch <- f:
			default:
				h.drop(c)
			}
			if c.gone {
				break
			}
		}
	}
}

// drop closes c's stream; h.mu held.
func (h *hub) drop(c *client) {
	if !c.gone {
		c.gone = true
		close(c.ch)
	}
	if _, ok := h.clients[c]; ok && c.key != "" {
		h.counted--
		if h.perAddr[c.key]--; h.perAddr[c.key] <= 0 {
			delete(h.perAddr, c.key)
		}
	}
	delete(h.clients, c)
}

// add opens a stream for the client at key (limit.Key; "" for the
// arbiter's, which no cap refuses); nil if a cap refuses it. loopback
// says the client is of this machine: no per-address cap.
func (h *hub) add(board int, key string, loopback bool) *client {
	c := &client{board: board, key: key, ch: make(chan []byte, h.s.o.ClientBuffer)}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		c.gone = true
		close(c.ch)
		return c
	}
	if key != "" {
		if h.counted >= h.s.o.MaxStreams || h.perAddr[key] >= h.s.o.MaxStreamsPerAddr && !(loopback && !h.s.o.StreamsLoopbackLimited) {
			return nil
		}
		h.counted++
		h.perAddr[key]++
	}
	h.clients[c] = struct{}{}
	return c
}

func (h *hub) remove(c *client) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.drop(c)
}

func (h *hub) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.clients)
}

func (h *hub) close() {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return
	}
	h.closed = true
	for c := range h.clients {
		h.drop(c)
	}
	h.mu.Unlock()
	h.s.o.Store.Unsubscribe(h.sub)
}

// events is the live stream: GET /events (every board) or
// /events?board=N. It starts with every board's view, then sends each
// change as it happens.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	board := 0
	if q := r.URL.Query().Get("board"); q != "" {
		n, err := strconv.Atoi(q)
		if err != nil || n < 1 {
			http.Error(w, "board: want a board number", http.StatusBadRequest)
			return
		}
		board = n
	}
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "no streaming here", http.StatusInternalServerError)
		return
	}
	key := limit.Key(r.RemoteAddr)
	if s.o.Auth.Session(r) != nil {
		key = "" // the arbiter's page: always room for it
	}
	c := s.hub.add(board, key, isLoopback(r.RemoteAddr))
	if c == nil {
		w.Header().Set("Retry-After", "10")
		http.Error(w, "too many live streams open; the page tries again", http.StatusServiceUnavailable)
		return
	}
	defer s.hub.remove(c)
	// A stream outlives the server's read and write timeouts: no read
	// deadline (the request has no body), and a write deadline per write.
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Time{})
	write := func(b []byte) error {
		rc.SetWriteDeadline(time.Now().Add(s.o.WriteTimeout))
		_, err := w.Write(b)
		return err
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	rc.SetWriteDeadline(time.Now().Add(s.o.WriteTimeout))
	w.WriteHeader(http.StatusOK)
	w.Write([]byte("retry: 1000\n\n"))
	if board != 0 {
		if b, ok := s.o.Store.Board(board); ok {
			for _, v := range s.framesOf(b, s.o.Clock.Now()) {
				if v.Board == board && v.Moved == 0 {
					w.Write(frame(v))
				}
			}
		}
	} else {
		for _, v := range s.views() {
			w.Write(frame(v))
		}
	}
	w.Write([]byte("event: ready\ndata: {}\n\n"))
	fl.Flush()
	keep := s.o.Clock.NewTicker(15 * time.Second)
	defer keep.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-keep.C():
			if err := write([]byte(": keep-alive\n\n")); err != nil {
				return
			}
			fl.Flush()
		case f, ok := <-c.ch:
			if !ok {
				return // fell behind, or the hall stops: the page reconnects
			}
			if err := write(f); err != nil {
				return
			}
		drain:
			for {
				select {
				case f, ok := <-c.ch:
					if !ok {
						fl.Flush()
						return
					}
					if err := write(f); err != nil {
						return
					}
				default:
					break drain
				}
			}
			fl.Flush()
		}
	}
}
