package broker

import (
	"fmt"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/internal/wait"
)

// Close returns while clients are leaving: mochi-mqtt v2.7.9's own Close
// can hang for ever when a client's removal comes between its two read
// locks (its issue #488; TestUsers hung so under -race). Each round
// connects clients, then drops their connections at the moment the broker
// closes.
func TestCloseWhileClientsLeave(t *testing.T) {
	rounds := 20
	if testing.Short() {
		rounds = 5
	}
	for round := range rounds {
		b, err := StartEmbedded(Opts{Addr: "127.0.0.1:0", Hall: "test", Anonymous: true, Logf: func(string, ...any) {},
			Receive: func(string, []byte) error { return nil }})
		if err != nil {
			t.Fatal(err)
		}
		var clients []*attackClient
		for i := range 8 {
			rc, code := rawConnect(t, b.Addr(), "", "", "", fmt.Sprintf("c%d-%d", round, i))
			if code != 0 {
				t.Fatalf("round %d: client %d refused: %#x", round, i, code)
			}
			clients = append(clients, rc)
		}
		var wg sync.WaitGroup
		for _, rc := range clients {
			wg.Go(func() { rc.conn.Close() })
		}
		closed := make(chan error, 1)
		go func() { closed <- b.Close() }()
		wg.Wait()
		select {
		case err := <-closed:
			if err != nil {
				t.Fatalf("round %d: Close: %v", round, err)
			}
		case <-time.After(2*closeWait + 20*time.Second):
			t.Fatalf("round %d: Close did not return while 8 clients left", round)
		}
	}
}

// Before mochi's Close lists the clients, the broker has disconnected
// every one of them and their connections are done: nothing is left to
// remove under mochi's locks.
func TestDrainLeavesNoClient(t *testing.T) {
	b := startTestBroker(t)
	for i := range 5 {
		if _, code := rawConnect(t, b.Addr(), "", "", "", fmt.Sprintf("d%d", i)); code != 0 {
			t.Fatalf("client %d refused: %#x", i, code)
		}
	}
	if n := open(b); n != 5 {
		t.Fatalf("%d clients open before the drain, want 5", n)
	}
	b.drain()
	if n := open(b); n != 0 {
		t.Errorf("%d clients still open after the drain", n)
	}
	done := make(chan struct{})
	go func() { b.srv.Listeners.ClientsWg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Second): // the wait group is already at zero: Wait returns at once
		t.Error("a client's connection is still being served after the drain")
	}
}

// open counts the broker's clients whose connections are open (not
// mochi's inline client, which has none).
func open(b *Embedded) int {
	n := 0
	for _, cl := range b.srv.Clients.GetAll() {
		if cl.Net.Listener == listenerID && !cl.Closed() {
			n++
		}
	}
	return n
}

// Close returns when a connection does not end when asked: one mochi does
// not list (here one that never sent CONNECT, with no handshake deadline;
// in TestSameAccountReconnects under -race, one whose session another
// took over) kept mochi's Close waiting for its reader for ever, and a
// clean clone's make test-race hung 10 minutes so. The broker closes every
// connection left after closeWait.
func TestCloseEndsConnectionsLeftOpen(t *testing.T) {
	defer func(d time.Duration) { closeWait = d }(closeWait)
	closeWait = 100 * time.Millisecond
	lim := DefaultLimits()
	lim.Conns.Handshake = 0
	var logs []string
	var mu sync.Mutex
	b, err := StartEmbedded(Opts{Addr: "127.0.0.1:0", Hall: "test", Anonymous: true, Limits: &lim,
		Logf: func(f string, a ...any) {
			mu.Lock()
			logs = append(logs, fmt.Sprintf(f, a...))
			mu.Unlock()
		},
		Receive: func(string, []byte) error { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	c, err := net.Dial("tcp", b.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	wait.For(t, 10*time.Second, "the broker to accept the connection", func() bool { return b.lns[0].Accepted() > 0 })
	closed := make(chan error, 1)
	go func() { closed <- b.Close() }()
	select {
	case <-closed:
	case <-time.After(30 * time.Second):
		t.Fatal("Close still waits for a connection that never sent CONNECT")
	}
	// The connection is closed: a read ends.
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := c.Read(make([]byte, 1)); err == nil {
		t.Error("the connection left open is still open")
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.ContainsFunc(logs, func(s string) bool { return strings.Contains(s, "closed 1 connection(s) still open") }) {
		t.Errorf("no log of the connection closed: %q", logs)
	}
}
