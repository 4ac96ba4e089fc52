package broker

import (
	"context"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/devtools/fakeclock"
	"github.com/zeitnot/zeitnot/internal/wait"
	"github.com/zeitnot/zeitnot/protocol"
	"golang.org/x/crypto/bcrypt"
)

type recorder struct {
	mu     sync.Mutex
	topics []string
}

func (r *recorder) receive(topic string, payload []byte) error {
	r.mu.Lock()
	r.topics = append(r.topics, topic)
	r.mu.Unlock()
	return nil
}

func (r *recorder) has(topic string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, t := range r.topics {
		if t == topic {
			return true
		}
	}
	return false
}

// Off loopback every clock needs its user, and a user publishes only its
// board's topics, whatever client id it takes.
func TestUsers(t *testing.T) {
	bc, _ := bcrypt.GenerateFromPassword([]byte("secret-6"), bcrypt.MinCost)
	rec := &recorder{}
	b, err := StartEmbedded(Opts{Addr: "127.0.0.1:0", Hall: "test", Receive: rec.receive, Logf: t.Logf,
		Users: map[string]User{"board5": {Board: 5, Hash: HashSHA256("secret-5")}, "board6": {Board: 6, Hash: string(bc)}}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	u := &url.URL{Scheme: "mqtt", Host: b.Addr()}
	dial := func(board int, user, pw, id string) (*fakeclock.Clock, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
		defer cancel()
		return fakeclock.Dial(ctx, fakeclock.Opts{Broker: u, Hall: "test", Board: board, Username: user, Password: pw, ClientID: id})
	}
	for _, c := range []struct{ user, pw string }{{"", ""}, {"board5", "wrong"}, {"board7", "secret-5"}, {"board6", "secret-5"}} {
		if cl, err := dial(5, c.user, c.pw, ""); err == nil {
			cl.Close()
			t.Errorf("user %q password %q connected", c.user, c.pw)
		}
	}
	// board6's user with a will on board 5's online topic: refused.
	if cl, err := dial(5, "board6", "secret-6", "zeitnot-test-5"); err == nil {
		cl.Close()
		t.Error("a will on another board's topic was accepted")
	}
	c5, err := dial(5, "board5", "secret-5", "")
	if err != nil {
		t.Fatal(err)
	}
	defer c5.Close()
	c6, err := dial(6, "board6", "secret-6", "some-other-id")
	if err != nil {
		t.Fatal(err)
	}
	defer c6.Close()
	c5.Press()
	wait.For(t, 5*time.Second, "the state of boards 5 and 6", func() bool {
		return rec.has(protocol.TopicsFor("test", 5).State) && rec.has(protocol.TopicsFor("test", 6).State)
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c6.Publish(ctx, protocol.TopicsFor("test", 5).State, []byte(`{}`), true); err == nil {
		t.Error("board 6 published on board 5's state")
	}
	if err := c5.Publish(ctx, protocol.TopicsFor("test", 5).Cmd, []byte(`{"cmd":"pause"}`), false); err == nil {
		t.Error("a clock published a command")
	}
	// Only the hall publishes commands; the clocks get them.
	if err := b.Publish(protocol.TopicsFor("test", 5).All, []byte(`{"cmd":"pause","id":"p1"}`)); err != nil {
		t.Fatal(err)
	}
	wait.For(t, 5*time.Second, "the command at both clocks", func() bool {
		return len(c5.Commands()) > 0 && len(c6.Commands()) > 0
	})
	wait.For(t, 5*time.Second, "board 5's reply to the command", func() bool {
		return rec.has(protocol.TopicsFor("test", 5).Reply)
	})
}

func TestCheckHash(t *testing.T) {
	for _, h := range []string{"sha256:00", "md5:x", "", "$2a$10$short"} {
		if CheckHash(h) == nil {
			t.Errorf("CheckHash(%q) accepted", h)
		}
	}
	if err := CheckHash(HashSHA256("x")); err != nil {
		t.Error(err)
	}
}
