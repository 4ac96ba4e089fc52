// Package sdnotify tells systemd about the daemon's state: READY=1 once the
// devices are open, WATCHDOG=1 from the event loop, STATUS= with one line
// of state. Outside systemd (no NOTIFY_SOCKET) every call does nothing.
package sdnotify

import (
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"time"
)

// Notifier sends notifications to the socket systemd named.
type Notifier struct {
	conn *net.UnixConn
}

// New connects to $NOTIFY_SOCKET. With no socket it returns a Notifier that
// does nothing, and no error.
func New() (*Notifier, error) {
	name := os.Getenv("NOTIFY_SOCKET")
	if name == "" {
		return &Notifier{}, nil
	}
	if strings.HasPrefix(name, "@") {
		name = "\x00" + name[1:]
	}
	conn, err := net.DialUnix("unixgram", nil, &net.UnixAddr{Name: name, Net: "unixgram"})
	if err != nil {
		return &Notifier{}, fmt.Errorf("sdnotify: %s: %w", os.Getenv("NOTIFY_SOCKET"), err)
	}
	return &Notifier{conn: conn}, nil
}

// Enabled reports whether notifications go anywhere.
func (n *Notifier) Enabled() bool { return n != nil && n.conn != nil }

func (n *Notifier) send(msg string) error {
	if !n.Enabled() {
		return nil
	}
	if _, err := n.conn.Write([]byte(msg)); err != nil {
		return fmt.Errorf("sdnotify: %w", err)
	}
	return nil
}

// Ready says the service is up.
func (n *Notifier) Ready() error { return n.send("READY=1") }

// Watchdog feeds the service watchdog.
func (n *Notifier) Watchdog() error { return n.send("WATCHDOG=1") }

// Stopping says the service is shutting down.
func (n *Notifier) Stopping() error { return n.send("STOPPING=1") }

// Status sets the one-line status systemctl shows.
func (n *Notifier) Status(line string) error {
	return n.send("STATUS=" + strings.ReplaceAll(line, "\n", " "))
}

// WatchdogInterval returns how often to feed the watchdog: half of
// $WATCHDOG_USEC, if that is set for this process, else 0.
func WatchdogInterval() time.Duration {
	us, err := strconv.ParseInt(os.Getenv("WATCHDOG_USEC"), 10, 64)
	if err != nil || us <= 0 {
		return 0
	}
	if pid := os.Getenv("WATCHDOG_PID"); pid != "" && pid != strconv.Itoa(os.Getpid()) {
		return 0
	}
	return time.Duration(us) * time.Microsecond / 2
}

// Close closes the socket.
func (n *Notifier) Close() error {
	if !n.Enabled() {
		return nil
	}
	return n.conn.Close()
}
