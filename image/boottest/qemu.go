package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"time"
)

// stream collects everything read from r (a serial port), appends it to a log
// file, and lets callers wait, with a deadline, for a pattern to appear.
type stream struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	closed bool
	err    error
	notify chan struct{} // closed and replaced on every change
	log    io.Writer
}

func newStream(r io.Reader, log io.Writer) *stream {
	s := &stream{notify: make(chan struct{}), log: log}
	go s.pump(r)
	return s
}

func (s *stream) pump(r io.Reader) {
	b := make([]byte, 4096)
	for {
		n, err := r.Read(b)
		s.mu.Lock()
		if n > 0 {
			chunk := bytes.ReplaceAll(b[:n], []byte("\r"), nil)
			s.buf.Write(chunk)
			if s.log != nil {
				s.log.Write(chunk)
			}
		}
		if err != nil {
			s.closed, s.err = true, err
		}
		close(s.notify)
		s.notify = make(chan struct{})
		s.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// snapshot returns the text so far, whether the stream has ended, and a
// channel that is closed on the next change.
func (s *stream) snapshot() (string, bool, <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String(), s.closed, s.notify
}

// waitFor waits until re matches the text from offset from on, and returns
// the match's submatches and the offset just past it.
func (s *stream) waitFor(ctx context.Context, re *regexp.Regexp, from int, timeout time.Duration) ([]string, int, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	for {
		text, closed, changed := s.snapshot()
		if from > len(text) {
			from = len(text)
		}
		if loc := re.FindStringSubmatchIndex(text[from:]); loc != nil {
			sub := make([]string, len(loc)/2)
			for i := range sub {
				if loc[2*i] >= 0 {
					sub[i] = text[from+loc[2*i] : from+loc[2*i+1]]
				}
			}
			return sub, from + loc[1], nil
		}
		if closed {
			return nil, len(text), fmt.Errorf("waiting for %q: the stream ended", re)
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return nil, len(text), fmt.Errorf("waiting for %q: no match after %s", re, timeout)
		}
	}
}

// lastLines returns the last n lines of the text so far.
func (s *stream) lastLines(n int) string {
	text, _, _ := s.snapshot()
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func (s *stream) len() int {
	text, _, _ := s.snapshot()
	return len(text)
}

// vm is one QEMU process with its serial console.
type vm struct {
	cmd     *exec.Cmd
	serial  *stream
	done    chan struct{}
	waitErr error
}

// startVM starts QEMU with the serial console on its standard output.
func startVM(args []string, serialLog io.Writer) (*vm, error) {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin = nil
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	v := &vm{cmd: cmd, serial: newStream(out, serialLog), done: make(chan struct{})}
	go func() {
		v.waitErr = cmd.Wait()
		close(v.done)
	}()
	return v, nil
}

// stop ends QEMU: it is a test machine, so no shutdown is waited for.
func (v *vm) stop() {
	if v == nil || v.cmd.Process == nil {
		return
	}
	select {
	case <-v.done:
		return
	default:
	}
	v.cmd.Process.Kill()
	select {
	case <-v.done:
	case <-time.After(10 * time.Second):
	}
}

// shell is a root shell on a second console (systemd's debug shell on
// /dev/hvc0), reached through QEMU's UNIX socket.
type shell struct {
	conn net.Conn
	out  *stream
	n    int
}

func dialShell(ctx context.Context, path string, timeout time.Duration, log io.Writer, qemuDone <-chan struct{}) (*shell, error) {
	deadline := time.Now().Add(timeout)
	for {
		conn, err := net.DialTimeout("unix", path, time.Second)
		if err == nil {
			return &shell{conn: conn, out: newStream(conn, log)}, nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("connecting to %s: %v", path, err)
		}
		select {
		case <-qemuDone:
			return nil, errors.New("QEMU exited before its shell socket could be reached")
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// send writes a line to the shell as it is (for settings of the shell itself).
func (sh *shell) send(line string) error {
	sh.conn.SetWriteDeadline(time.Now().Add(5 * time.Second))
	_, err := io.WriteString(sh.conn, line+"\n")
	return err
}

// run runs a command in a subshell and returns its output (stdout and stderr)
// and exit status. The markers around the output are printed with shell
// quoting so that an echoed command line never matches them.
func (sh *shell) run(ctx context.Context, command string, timeout time.Duration) (string, int, error) {
	sh.n++
	n := sh.n
	begin := regexp.MustCompile(fmt.Sprintf(`@@B%d@@\n`, n))
	end := regexp.MustCompile(fmt.Sprintf(`@@E%d (\d+)@@`, n))
	from := sh.out.len()
	line := fmt.Sprintf("echo \"@@B\"%d\"@@\"; ( %s\n) </dev/null 2>&1; echo \"@@E\"%d\" $?@@\"\n", n, command, n)
	sh.conn.SetWriteDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.WriteString(sh.conn, line); err != nil {
		return "", -1, fmt.Errorf("writing to the shell: %v", err)
	}
	_, start, err := sh.out.waitFor(ctx, begin, from, timeout)
	if err != nil {
		return "", -1, fmt.Errorf("%s: %v", command, err)
	}
	sub, _, err := sh.out.waitFor(ctx, end, start, timeout)
	text, _, _ := sh.out.snapshot()
	if err != nil {
		return strings.TrimSpace(text[start:]), -1, fmt.Errorf("%s: %v", command, err)
	}
	idx := end.FindStringIndex(text[start:])
	output := text[start : start+idx[0]]
	var code int
	fmt.Sscanf(sub[1], "%d", &code)
	return strings.TrimRight(output, "\n"), code, nil
}

func (sh *shell) close() {
	if sh != nil {
		sh.conn.Close()
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
