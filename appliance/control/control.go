// Package control is the daemon's local control socket: a Unix stream
// socket, owned by the service and never on the network, that answers one
// request per connection.
//
// A request is one line, COMMAND [ARG]; the answer is one line: a JSON
// object for status, "ok" for commands that act, or "error: TEXT".
// Requests are handed to the daemon's event loop through Requests, so the
// loop alone touches the clock.
//
// "watch" is the one request that streams: its first answer line is the
// loop's reply, and then every line the loop sends through the request's
// Watch, until the client goes or falls too far behind (then the last line
// is "error: ...", and the client reads from the start again).
package control

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/zeitnot/zeitnot/protocol"
)

// DefaultSocket is where the daemon listens under systemd
// (RuntimeDirectory=zeitnot).
const DefaultSocket = "/run/zeitnot/control.sock"

// Request is one command waiting for the event loop.
type Request struct {
	Cmd   string
	Arg   string
	Watch *Watch // for "watch": where the loop sends the stream's lines
	reply chan string
}

// WatchBuffer is how many lines a watcher may fall behind before it is
// dropped: the loop never waits for a client.
const WatchBuffer = 256

// Watch is the stream of one watching client. The event loop sends lines
// with Send, which never blocks.
type Watch struct {
	lines chan string
	gone  chan struct{}
	once  sync.Once
	slow  bool
}

func newWatch() *Watch {
	return &Watch{lines: make(chan string, WatchBuffer), gone: make(chan struct{})}
}

// Send queues one line (without newline) for the client. It reports false
// once the client is gone or was dropped for falling WatchBuffer lines
// behind; the loop then forgets the watch.
func (w *Watch) Send(line string) bool {
	select {
	case <-w.gone:
		return false
	default:
	}
	select {
	case w.lines <- line:
		return true
	default:
		w.slow = true
		w.close()
		return false
	}
}

func (w *Watch) close() { w.once.Do(func() { close(w.gone) }) }

// NewWatch returns a watch that no socket serves, for a loop driven
// without one (tests): its lines are read back with Queued.
func NewWatch() *Watch { return newWatch() }

// Queued returns the lines sent and not yet streamed, and takes them.
func (w *Watch) Queued() []string {
	var out []string
	for {
		select {
		case l := <-w.lines:
			out = append(out, l)
		default:
			return out
		}
	}
}

// Reply answers the request; body is one line without newline.
func (r Request) Reply(body string) {
	select {
	case r.reply <- body:
	default:
	}
}

// Server accepts connections and queues their requests.
type Server struct {
	l        net.Listener
	Requests chan Request
	done     chan struct{}
	once     sync.Once
}

// Timeout bounds how long one connection may take, so a stuck client can
// never hold the socket.
const Timeout = 5 * time.Second

// Listen creates the socket at path (removing a stale one) with mode 0660.
func Listen(path string) (*Server, error) {
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&os.ModeSocket != 0 {
		os.Remove(path)
	}
	l, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("control: listen on %s: %w", path, err)
	}
	if err := os.Chmod(path, 0o660); err != nil {
		l.Close()
		return nil, fmt.Errorf("control: %w", err)
	}
	s := &Server{l: l, Requests: make(chan Request), done: make(chan struct{})}
	go s.serve()
	return s, nil
}

func (s *Server) serve() {
	for {
		conn, err := s.l.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			continue
		}
		go s.handle(conn)
	}
}

func (s *Server) handle(conn net.Conn) {
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(Timeout))
	line, err := bufio.NewReader(io.LimitReader(conn, 512)).ReadString('\n')
	if err != nil && line == "" {
		return
	}
	cmd, arg, _ := strings.Cut(strings.TrimSpace(line), " ")
	req := Request{Cmd: cmd, Arg: strings.TrimSpace(arg), reply: make(chan string, 1)}
	if cmd == protocol.ReqWatch {
		req.Watch = newWatch()
		defer req.Watch.close()
	}
	answer := "error: daemon busy"
	select {
	case s.Requests <- req:
		select {
		case answer = <-req.reply:
		case <-time.After(Timeout):
		case <-s.done:
		}
	case <-time.After(Timeout):
	case <-s.done:
		answer = "error: daemon stopping"
	}
	fmt.Fprintln(conn, answer)
	if req.Watch != nil && !strings.HasPrefix(answer, "error: ") {
		s.stream(conn, req.Watch)
	}
}

// stream writes a watch's lines to its client until either side ends it.
// A client that stops reading for Timeout is dropped.
func (s *Server) stream(conn net.Conn, w *Watch) {
	ended := make(chan struct{})
	go func() {
		// The client sends nothing more; its end of the stream (or
		// anything it writes) ends the watch.
		conn.SetReadDeadline(time.Time{})
		io.Copy(io.Discard, io.LimitReader(conn, 1))
		close(ended)
	}()
	for {
		select {
		case line := <-w.lines:
			conn.SetWriteDeadline(time.Now().Add(Timeout))
			if _, err := fmt.Fprintln(conn, line); err != nil {
				return
			}
		case <-w.gone:
			// Lines queued before the drop still go out, then why.
			for n := len(w.lines); n > 0; n-- {
				conn.SetWriteDeadline(time.Now().Add(Timeout))
				if _, err := fmt.Fprintln(conn, <-w.lines); err != nil {
					return
				}
			}
			if w.slow {
				fmt.Fprintf(conn, "error: watcher fell %d lines behind and was dropped\n", WatchBuffer)
			}
			return
		case <-ended:
			return
		case <-s.done:
			return
		}
	}
}

// Close stops listening and removes the socket.
func (s *Server) Close() error {
	var err error
	s.once.Do(func() {
		close(s.done)
		err = s.l.Close()
	})
	return err
}

// Call sends one request to the socket at path and returns the answer line.
// An "error: TEXT" answer is returned as an error saying TEXT.
func Call(path, cmd string, args ...string) (string, error) {
	answer, err := Client{Socket: path}.Call(context.Background(), strings.Join(append([]string{cmd}, args...), " "))
	var ce *Error
	if errors.As(err, &ce) {
		return "", errors.New(ce.Msg)
	}
	return answer, err
}

// WatchLines sends "watch" to the socket at path and gives each line of the
// stream to f until the daemon ends it (nil), f returns an error, or the
// stream says "error: TEXT" (an error saying TEXT).
func WatchLines(path string, f func(line string) error) error {
	err := Client{Socket: path}.Watch(context.Background(), f)
	var ce *Error
	switch {
	case errors.Is(err, ErrWatchEnded):
		return nil
	case errors.As(err, &ce):
		return errors.New(ce.Msg)
	}
	return err
}
