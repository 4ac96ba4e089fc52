package control

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"time"

	"github.com/zeitnot/zeitnot/protocol"
)

// The client side of the socket, for every program that asks the daemon
// something: zeitnot status, press and watch, the hall link, the USB
// exporter, the demo.

// MaxAnswer bounds what a client reads of one answer line.
const MaxAnswer = 1 << 20

// Client asks the daemon at Socket: one request a connection.
type Client struct {
	Socket string
	// Timeout bounds reaching the daemon; an answer may take twice as
	// long. 0: Timeout.
	Timeout time.Duration
}

// Error is an "error: TEXT" answer of the daemon.
type Error struct {
	Request string // the request line, without newline
	Msg     string // TEXT
}

func (e *Error) Error() string {
	cmd, _, _ := strings.Cut(e.Request, " ")
	if cmd == protocol.ReqWatch {
		return "the clock ended the watch: " + e.Msg
	}
	return fmt.Sprintf("the clock refused %s: %s", cmd, e.Msg)
}

// UnknownCommand reports an answer of a daemon that does not know the
// request at all (an older zeitnot run).
func UnknownCommand(err error) bool {
	var ce *Error
	return errors.As(err, &ce) && strings.HasPrefix(ce.Msg, "unknown command")
}

// ErrWatchEnded is Watch's error when the daemon ends the stream (it
// stopped).
var ErrWatchEnded = errors.New("the clock ended the watch")

func (c Client) timeout() time.Duration {
	if c.Timeout > 0 {
		return c.Timeout
	}
	return Timeout
}

func (c Client) dial(ctx context.Context) (net.Conn, error) {
	d := net.Dialer{Timeout: c.timeout()}
	conn, err := d.DialContext(ctx, "unix", c.Socket)
	if err != nil {
		return nil, fmt.Errorf("cannot reach the clock at %s: %w (is zeitnot running?)", c.Socket, unwrapOp(err))
	}
	return conn, nil
}

func unwrapOp(err error) error {
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Err != nil {
		return oe.Err
	}
	return err
}

// Call sends one request line and returns the answer line; "error: ..."
// comes back as an *Error.
func (c Client) Call(ctx context.Context, request string) (string, error) {
	conn, err := c.dial(ctx)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	deadline := time.Now().Add(2 * c.timeout())
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	conn.SetDeadline(deadline)
	stop := context.AfterFunc(ctx, func() { conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	cmd, _, _ := strings.Cut(request, " ")
	if _, err := io.WriteString(conn, request+"\n"); err != nil {
		return "", fmt.Errorf("control %s: %w", c.Socket, unwrapOp(err))
	}
	answer, err := bufio.NewReader(io.LimitReader(conn, MaxAnswer)).ReadString('\n')
	if err != nil {
		if err == io.EOF && len(answer) >= MaxAnswer {
			return "", fmt.Errorf("control %s: answer to %s longer than %d bytes", c.Socket, cmd, MaxAnswer)
		}
		return "", fmt.Errorf("control %s: no answer to %s: %w", c.Socket, cmd, unwrapOp(err))
	}
	answer = strings.TrimRight(answer, "\r\n")
	if msg, ok := strings.CutPrefix(answer, "error: "); ok {
		return "", &Error{Request: request, Msg: msg}
	}
	return answer, nil
}

// Watch follows the daemon's "watch" stream, giving every line to f, until
// the stream ends (ErrWatchEnded), f fails, or ctx is done. An "error:
// ..." line ends it with an *Error.
func (c Client) Watch(ctx context.Context, f func(line string) error) error {
	conn, err := c.dial(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	conn.SetWriteDeadline(time.Now().Add(c.timeout()))
	if _, err := io.WriteString(conn, "watch\n"); err != nil {
		return fmt.Errorf("control %s: %w", c.Socket, unwrapOp(err))
	}
	// The first line is the state, which the daemon answers within its
	// timeout; after it, lines come when something happens.
	conn.SetReadDeadline(time.Now().Add(2 * c.timeout()))
	sc := bufio.NewScanner(conn)
	sc.Buffer(make([]byte, 64<<10), MaxAnswer)
	first := true
	for sc.Scan() {
		if first {
			conn.SetReadDeadline(time.Time{})
			first = false
		}
		line := sc.Text()
		if msg, ok := strings.CutPrefix(line, "error: "); ok {
			return &Error{Request: protocol.ReqWatch, Msg: msg}
		}
		if err := f(line); err != nil {
			return err
		}
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("control %s: watch: %w", c.Socket, unwrapOp(err))
	}
	return fmt.Errorf("control %s: %w", c.Socket, ErrWatchEnded)
}
