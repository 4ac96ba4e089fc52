package link

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/zeitnot/zeitnot/protocol"
)

// The daemon's side of the protocol: the control-socket requests the link
// makes beyond status and watch, and their answers. docs/hall-protocol.md
// specifies them; linktest.Clock implements them.

// maxAnswer bounds what the link reads of any answer line.
const maxAnswer = protocol.MaxAnswer

// ClockError is an "error: ..." answer of the daemon.
type ClockError struct {
	Request string
	Msg     string
}

func (e *ClockError) Error() string {
	cmd, _, _ := strings.Cut(e.Request, " ")
	if cmd == "watch" {
		return "the clock ended the watch: " + e.Msg
	}
	return fmt.Sprintf("the clock refused %s: %s", cmd, e.Msg)
}

// unknownCommand reports a daemon that does not know the request at all
// (an older zeitnot run).
func unknownCommand(err error) bool {
	var ce *ClockError
	return errors.As(err, &ce) && strings.HasPrefix(ce.Msg, "unknown command")
}

// clockClient talks to the daemon over its control socket: one request a
// connection, as appliance/control serves them.
type clockClient struct {
	socket  string
	timeout time.Duration
}

func (c clockClient) dial(ctx context.Context) (net.Conn, error) {
	d := net.Dialer{Timeout: c.timeout}
	conn, err := d.DialContext(ctx, "unix", c.socket)
	if err != nil {
		return nil, fmt.Errorf("cannot reach the clock at %s: %w (is zeitnot run running?)", c.socket, unwrapOp(err))
	}
	return conn, nil
}

// call sends one request and returns the answer line; "error: ..." comes
// back as a *ClockError.
func (c clockClient) call(ctx context.Context, request string) (string, error) {
	conn, err := c.dial(ctx)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	deadline := time.Now().Add(2 * c.timeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	conn.SetDeadline(deadline)
	stop := context.AfterFunc(ctx, func() { conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	if _, err := io.WriteString(conn, request+"\n"); err != nil {
		return "", fmt.Errorf("control %s: %w", c.socket, unwrapOp(err))
	}
	r := bufio.NewReader(io.LimitReader(conn, maxAnswer))
	answer, err := r.ReadString('\n')
	if err != nil {
		if err == io.EOF && answer != "" {
			return "", fmt.Errorf("control %s: answer to %s longer than %d bytes", c.socket, strings.Fields(request)[0], maxAnswer)
		}
		return "", fmt.Errorf("control %s: no answer to %s: %w", c.socket, strings.Fields(request)[0], unwrapOp(err))
	}
	answer = strings.TrimRight(answer, "\r\n")
	if msg, ok := strings.CutPrefix(answer, "error: "); ok {
		return "", &ClockError{Request: request, Msg: msg}
	}
	return answer, nil
}

// watch follows the daemon's "watch" stream, giving every line to f, until
// the stream ends, f fails or ctx is done. A "error: ..." line ends it
// with a *ClockError.
func (c clockClient) watch(ctx context.Context, f func(line string) error) error {
	conn, err := c.dial(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	conn.SetWriteDeadline(time.Now().Add(c.timeout))
	if _, err := io.WriteString(conn, "watch\n"); err != nil {
		return fmt.Errorf("control %s: %w", c.socket, unwrapOp(err))
	}
	// The first line is the state, which the daemon answers within its
	// timeout; after it, lines come when something happens.
	conn.SetReadDeadline(time.Now().Add(2 * c.timeout))
	sc := bufio.NewScanner(conn)
	sc.Buffer(make([]byte, 64<<10), maxAnswer)
	first := true
	for sc.Scan() {
		if first {
			conn.SetReadDeadline(time.Time{})
			first = false
		}
		line := sc.Text()
		if msg, ok := strings.CutPrefix(line, "error: "); ok {
			return &ClockError{Request: "watch", Msg: msg}
		}
		if err := f(line); err != nil {
			return err
		}
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("control %s: watch: %w", c.socket, unwrapOp(err))
	}
	return fmt.Errorf("control %s: the clock ended the watch", c.socket)
}

func unwrapOp(err error) error {
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Err != nil {
		return oe.Err
	}
	return err
}

// logInfo asks for the current game.
func (c clockClient) logInfo(ctx context.Context) (protocol.LogInfo, error) {
	a, err := c.call(ctx, "log")
	if err != nil {
		return protocol.LogInfo{}, err
	}
	var li protocol.LogInfo
	if err := readJSON(a, &li); err != nil {
		return protocol.LogInfo{}, fmt.Errorf("control %s: log: %w", c.socket, err)
	}
	if err := protocol.CheckGame(li.Game); err != nil {
		return protocol.LogInfo{}, fmt.Errorf("control %s: log: %w", c.socket, err)
	}
	return li, nil
}

// logLines asks for game's lines from number from on.
func (c clockClient) logLines(ctx context.Context, game string, from int64) (protocol.LogLines, error) {
	req := "log " + game + " " + strconv.FormatInt(from, 10)
	a, err := c.call(ctx, req)
	if err != nil {
		return protocol.LogLines{}, err
	}
	var ll protocol.LogLines
	if err := readJSON(a, &ll); err != nil {
		return protocol.LogLines{}, fmt.Errorf("control %s: %s: %w", c.socket, req, err)
	}
	if err := ll.Check(game, from); err != nil {
		return protocol.LogLines{}, fmt.Errorf("control %s: %s: %w", c.socket, req, err)
	}
	return ll, nil
}

func readJSON(s string, v any) error {
	// Fields a newer daemon adds are ignored.
	dec := json.NewDecoder(strings.NewReader(s))
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("cannot read the answer: %v", err)
	}
	if dec.More() {
		return errors.New("cannot read the answer: more after the JSON object")
	}
	return nil
}
