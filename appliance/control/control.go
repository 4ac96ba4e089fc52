// Package control is the daemon's local control socket: a Unix stream
// socket, owned by the service and never on the network, that answers one
// request per connection.
//
// A request is one line, COMMAND [ARG]; the answer is one line: a JSON
// object for status, "ok" for commands that act, or "error: TEXT".
// Requests are handed to the daemon's event loop through Requests, so the
// loop alone touches the clock.
package control

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"time"
)

// DefaultSocket is where the daemon listens under systemd
// (RuntimeDirectory=zeitnot).
const DefaultSocket = "/run/zeitnot/control.sock"

// Request is one command waiting for the event loop.
type Request struct {
	Cmd   string
	Arg   string
	reply chan string
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
// An "error: ..." answer is returned as an error.
func Call(path, cmd string, args ...string) (string, error) {
	conn, err := net.DialTimeout("unix", path, Timeout)
	if err != nil {
		return "", fmt.Errorf("cannot reach the clock at %s: %w (is zeitnot running?)", path, err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(2 * Timeout))
	line := strings.Join(append([]string{cmd}, args...), " ")
	if _, err := fmt.Fprintln(conn, line); err != nil {
		return "", fmt.Errorf("control %s: %w", path, err)
	}
	answer, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil && answer == "" {
		return "", fmt.Errorf("control %s: no answer: %w", path, err)
	}
	answer = strings.TrimSpace(answer)
	if msg, ok := strings.CutPrefix(answer, "error: "); ok {
		return "", errors.New(msg)
	}
	return answer, nil
}
