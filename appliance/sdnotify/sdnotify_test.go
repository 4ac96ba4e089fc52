package sdnotify

import (
	"net"
	"path/filepath"
	"testing"
	"time"
)

func TestNotify(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "notify")
	l, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: sock, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	t.Setenv("NOTIFY_SOCKET", sock)
	n, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	n.Ready()
	n.Status("white 1:29:05 running\nx")
	n.Watchdog()
	buf := make([]byte, 256)
	for _, want := range []string{"READY=1", "STATUS=white 1:29:05 running x", "WATCHDOG=1"} {
		l.SetReadDeadline(time.Now().Add(2 * time.Second))
		k, err := l.Read(buf)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(buf[:k]); got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}

func TestNoSocket(t *testing.T) {
	t.Setenv("NOTIFY_SOCKET", "")
	n, err := New()
	if err != nil || n.Enabled() {
		t.Fatalf("no socket: %v %v", err, n.Enabled())
	}
	if err := n.Ready(); err != nil {
		t.Error(err)
	}
}

func TestWatchdogInterval(t *testing.T) {
	t.Setenv("WATCHDOG_USEC", "4000000")
	t.Setenv("WATCHDOG_PID", "")
	if got := WatchdogInterval(); got != 2*time.Second {
		t.Errorf("interval %v", got)
	}
	t.Setenv("WATCHDOG_PID", "1")
	if got := WatchdogInterval(); got != 0 {
		t.Errorf("watchdog for another pid: %v", got)
	}
}
