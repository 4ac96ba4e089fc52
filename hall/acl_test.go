package hall

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/link/linktest"
	"github.com/zeitnot/zeitnot/devtools/fakeclock"
	"github.com/zeitnot/zeitnot/protocol"
)

// A documented limit: on a Mosquitto without an ACL anyone with an account
// commands the clocks. The hall refuses to start on one unless told; with
// zeitnot's ACL (mosquitto/zeitnot.acl) it starts, a clock publishes its
// own board only and commands no one.
func TestOutsideBrokerNeedsTheACL(t *testing.T) {
	if testing.Short() {
		t.Skip("starts mosquitto brokers: not with -short")
	}
	linktest.Mosquitto(t)
	start := func(b *linktest.Broker, user, pw string, without bool) (*Hall, error) {
		cfg := DefaultConfig()
		cfg.HTTP, cfg.Data, cfg.Hall = "127.0.0.1:0", t.TempDir(), "test"
		cfg.Broker, cfg.Username, cfg.Password, cfg.BrokerWithoutACL = b.URL(), user, []byte(pw), without
		h, err := Start(cfg, Opts{Logf: t.Logf})
		if err == nil {
			t.Cleanup(func() { h.Close() })
		}
		return h, err
	}
	users := map[string]string{"zeitnot-hall": "hall-pw", "3": "pw-3", "12": "pw-12"}
	open := linktest.StartBroker(t, linktest.BrokerOpts{Users: users})
	if _, err := start(open, "zeitnot-hall", "hall-pw", false); err == nil || !strings.Contains(err.Error(), "--broker-without-acl") {
		t.Fatalf("the hall started on a broker without an ACL: %v", err)
	}
	if _, err := start(open, "zeitnot-hall", "hall-pw", true); err != nil {
		t.Fatalf("with broker_without_acl: %v", err)
	}

	acl := filepath.Join(t.TempDir(), "zeitnot.acl")
	if err := os.WriteFile(acl, []byte(MosquittoACL), 0o644); err != nil {
		t.Fatal(err)
	}
	safe := linktest.StartBroker(t, linktest.BrokerOpts{Users: users, ACLFile: acl})
	h, err := start(safe, "zeitnot-hall", "hall-pw", false)
	if err != nil {
		t.Fatalf("the hall on a broker with zeitnot's ACL: %v", err)
	}
	u, _ := url.Parse(safe.URL())
	dial := func(board int, user, pw string) *fakeclock.Clock {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		c, err := fakeclock.Dial(ctx, fakeclock.Opts{Broker: u, Hall: "test", Board: board, Username: user, Password: pw, Control: "300+2"})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Close)
		return c
	}
	c3 := dial(3, "3", "pw-3")
	c3.Press()
	waitFor(t, 10*time.Second, "board 3's state at the hall", func() bool {
		b, ok := h.Store().Board(3)
		return ok && b.State != nil
	})
	c12 := dial(12, "12", "pw-12")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c12.Publish(ctx, protocol.TopicsFor("test", 3).State, []byte(`{}`), true); err == nil {
		t.Error("board 12's user published board 3's state")
	}
	if err := c12.Publish(ctx, protocol.TopicsFor("test", 3).Cmd, []byte(`{"cmd":"pause","id":"x"}`), false); err == nil {
		t.Error("board 12's user published a command")
	}
	if err := c12.Publish(ctx, protocol.TopicsFor("test", 12).All, []byte(`{"cmd":"pause","id":"x"}`), false); err == nil {
		t.Error("board 12's user published a command to all")
	}
	if err := h.Publish(protocol.TopicsFor("test", 3).Cmd, []byte(`{"cmd":"pause","id":"p1"}`)); err != nil {
		t.Fatalf("the hall's command: %v", err)
	}
	waitFor(t, 10*time.Second, "the hall's command at board 3", func() bool { return len(c3.Commands()) > 0 })
	if n := len(c12.Commands()); n != 0 {
		t.Errorf("board 12 got %d commands", n)
	}
}
