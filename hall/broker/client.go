package broker

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net/url"
	"sync"
	"syscall"
	"time"

	"github.com/zeitnot/zeitnot/internal/mqttprobe"

	"github.com/eclipse/paho.golang/autopaho"
	"github.com/eclipse/paho.golang/paho"
)

// ClientOpts configure the hall's client of an outside broker.
type ClientOpts struct {
	URL      *url.URL // mqtt://host:port or mqtts://host:port
	ClientID string   // default zeitnot-hall-{Hall}
	Hall     string
	Username string
	Password []byte
	TLS      *tls.Config
	// Filter is what the hall subscribes to.
	Filter string
	// Receive gets every message, before the hall acknowledges it to the
	// broker. Its error is logged; the message is acknowledged all the
	// same (the broker would only send it again).
	Receive func(topic string, payload []byte) error
	Logf    func(format string, a ...any)
	// SessionExpiry is how long the broker keeps the hall's session and
	// queues its messages while the hall is away (default 24 h).
	SessionExpiry time.Duration
}

// Client is the hall's connection to an outside broker. It keeps one
// session on the broker, so what the clocks publish while the hall
// restarts waits there for it.
type Client struct {
	o  ClientOpts
	cm *autopaho.ConnectionManager

	mu      sync.Mutex
	up      bool
	lastErr error
	cancel  context.CancelFunc
}

// Dial connects to the broker (retrying in the background) and returns
// once the first connection is up or ctx is done.
func Dial(ctx context.Context, o ClientOpts) (*Client, error) {
	if o.ClientID == "" {
		o.ClientID = "zeitnot-hall-" + o.Hall
	}
	if o.SessionExpiry == 0 {
		o.SessionExpiry = 24 * time.Hour
	}
	c := &Client{o: o}
	cfg := autopaho.ClientConfig{
		ServerUrls:                    []*url.URL{o.URL},
		TlsCfg:                        o.TLS,
		KeepAlive:                     30,
		CleanStartOnInitialConnection: false,
		SessionExpiryInterval:         uint32(o.SessionExpiry / time.Second),
		ReconnectBackoff:              autopaho.NewExponentialBackoff(100*time.Millisecond, 10*time.Second, 250*time.Millisecond, 2),
		ConnectTimeout:                10 * time.Second,
		ConnectUsername:               o.Username,
		ConnectPassword:               o.Password,
		OnConnectionUp: func(cm *autopaho.ConnectionManager, ca *paho.Connack) {
			c.setUp(true, nil)
			go func() {
				sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				sa, err := cm.Subscribe(sctx, &paho.Subscribe{Subscriptions: []paho.SubscribeOptions{{Topic: o.Filter, QoS: 1}}})
				if err == nil && sa != nil && len(sa.Reasons) > 0 && sa.Reasons[0] >= 0x80 {
					err = fmt.Errorf("the broker refused the subscription to %s (reason 0x%02x)", o.Filter, sa.Reasons[0])
				}
				if err != nil {
					c.logf("broker: %v", err)
				}
			}()
		},
		OnConnectError: func(err error) {
			c.setUp(false, err)
			c.logf("broker: cannot connect to %s: %v", o.URL.Redacted(), err)
		},
		OnConnectionDown: func() bool {
			c.setUp(false, errors.New("connection lost"))
			c.logf("broker: connection to %s lost; reconnecting", o.URL.Redacted())
			return true
		},
		ClientConfig: paho.ClientConfig{
			ClientID: o.ClientID,
			OnPublishReceived: []func(paho.PublishReceived) (bool, error){func(pr paho.PublishReceived) (bool, error) {
				if o.Receive != nil {
					if err := o.Receive(pr.Packet.Topic, pr.Packet.Payload); err != nil {
						c.logf("broker: %v", err)
					}
				}
				return true, nil
			}},
			PacketTimeout: 10 * time.Second,
		},
	}
	cctx, cancel := context.WithCancel(context.Background())
	c.cancel = cancel
	cm, err := autopaho.NewConnection(cctx, cfg)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("broker: %w", err)
	}
	c.cm = cm
	if err := cm.AwaitConnection(ctx); err != nil {
		c.mu.Lock()
		last := c.lastErr
		c.mu.Unlock()
		if last != nil {
			err = last
		}
		cancel()
		if o.URL.Scheme == "mqtts" && (errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET)) && mqttprobe.Plain(o.URL.Host, 2*time.Second) {
			return nil, fmt.Errorf("broker: %s speaks plain MQTT, not TLS: use mqtt://%s, or the broker's TLS port (mqtts://, usually 8883)", o.URL.Redacted(), o.URL.Host)
		}
		return nil, fmt.Errorf("broker: %s: %v", o.URL.Redacted(), err)
	}
	return c, nil
}

func (c *Client) setUp(up bool, err error) {
	c.mu.Lock()
	c.up, c.lastErr = up, err
	c.mu.Unlock()
}

func (c *Client) logf(format string, a ...any) {
	if c.o.Logf != nil {
		c.o.Logf(format, a...)
	}
}

// Connected reports whether the connection is up.
func (c *Client) Connected() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.up
}

// Publish sends a command, QoS 1, not retained, waiting for the broker's
// acknowledgement (at most 5 s).
func (c *Client) Publish(topic string, payload []byte) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.cm.AwaitConnection(ctx); err != nil {
		return fmt.Errorf("not connected to the broker: %v", err)
	}
	pr, err := c.cm.Publish(ctx, &paho.Publish{Topic: topic, Payload: payload, QoS: 1})
	if err == nil && pr != nil && pr.ReasonCode >= 0x80 {
		err = fmt.Errorf("the broker refused the command on %s (reason 0x%02x)", topic, pr.ReasonCode)
	}
	return err
}

// ErrNoACL is CheckACL's error for a broker that let the hall publish a
// clock's topic.
var ErrNoACL = errors.New("the broker has no ACL, or not zeitnot's")

// CheckACL asks whether the broker keeps to an ACL like zeitnot's: the
// hall's own user must not be let publish a clock's topic. It publishes
// on board 0's state topic (no clock has board 0; the hall reads nothing
// of it) and wants the broker to refuse (MQTT 5 reason 0x87, not
// authorized, as Mosquitto answers a publish its ACL denies).
func (c *Client) CheckACL(topic string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.cm.AwaitConnection(ctx); err != nil {
		return fmt.Errorf("not connected to the broker: %v", err)
	}
	pr, err := c.cm.Publish(ctx, &paho.Publish{Topic: topic, Payload: []byte(`{}`), QoS: 1})
	if pr != nil && pr.ReasonCode >= 0x80 {
		return nil
	}
	if err != nil {
		return fmt.Errorf("the ACL check's publish on %s: %v", topic, err)
	}
	return fmt.Errorf("%w: it let the hall's user publish on %s, a clock's topic, so any account on it may command the clocks", ErrNoACL, topic)
}

// Close disconnects; the broker keeps the session.
func (c *Client) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	err := c.cm.Disconnect(ctx)
	c.cancel()
	return err
}
