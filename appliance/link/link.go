package link

import (
	"context"
	"crypto/ed25519"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/zeitnot/zeitnot/internal/mqttprobe"
	"github.com/zeitnot/zeitnot/protocol"

	"github.com/eclipse/paho.golang/autopaho"
	"github.com/eclipse/paho.golang/paho"

	"github.com/zeitnot/zeitnot/appliance/config/halltable"
	"github.com/zeitnot/zeitnot/appliance/control"
	"github.com/zeitnot/zeitnot/internal/wallclock"
)

// Opts are the link's settings beyond the config file. The zero value of a
// field means its default (DefaultOpts).
type Opts struct {
	// Socket is the clock daemon's control socket.
	Socket string
	// Dir is the link's own state directory, where it keeps how far the
	// broker has acknowledged the log and the board's signing key
	// (KeyFile); "" keeps nothing (after a restart the current game is
	// sent again from its first line) and signs nothing.
	Dir string
	// Version goes into the online message.
	Version string
	// Log receives one line per thing worth telling (systemd's journal).
	Log func(msg string)
	// Notify receives the one-line status for systemd's STATUS=.
	Notify func(status string)

	// StateEvery is how often the state is sent when nothing happens.
	StateEvery time.Duration
	// Backoff is the wait before connection attempt n to the broker (0
	// for the first); default: exponential from 1 s to 2 min with jitter.
	Backoff func(attempt int) time.Duration
	// ClockRetry is the wait before following the daemon again after it
	// went away.
	ClockRetry time.Duration
	// CommandRate and CommandBurst bound the commands carried out: Burst
	// at once, then Rate a second. Refusals for the rate are answered at
	// most once a second; the rest are dropped.
	CommandRate  float64
	CommandBurst int
	// Clock is the link's time: the command rate limit, the state's and
	// the saves' timers, the retries (default wallclock.Real).
	Clock wallclock.Clock
	// SaveEvery is how often the acknowledged position is written to Dir
	// while lines flow (and always when the link stops). Each write is a
	// few blocks of the SD card; a crash of the link resends at most the
	// lines of this interval, which readers drop by their seq.
	SaveEvery time.Duration
	// Timeout bounds one daemon request and one MQTT operation.
	Timeout time.Duration
	// Spool is where the hall's update bundles go (protocol.UpdateSpool).
	Spool string
	// FetchStall gives up fetching a bundle that received nothing for
	// this long, FetchTimeout one that took longer in all.
	FetchStall, FetchTimeout time.Duration
}

// DefaultOpts are the settings zeitnot link runs with.
func DefaultOpts() Opts {
	return Opts{
		Socket:       control.DefaultSocket,
		StateEvery:   10 * time.Second,
		Backoff:      ExponentialBackoff(time.Second, 2*time.Minute),
		ClockRetry:   time.Second,
		CommandRate:  1,
		CommandBurst: 5,
		SaveEvery:    time.Minute,
		Timeout:      5 * time.Second,
		Clock:        wallclock.Real,
		Spool:        protocol.UpdateSpool,
		FetchStall:   30 * time.Second,
		FetchTimeout: 10 * time.Minute,
	}
}

// ExponentialBackoff waits 0 before the first attempt, then lo, doubling
// up to hi, each wait drawn between half and all of that.
func ExponentialBackoff(lo, hi time.Duration) func(int) time.Duration {
	return func(attempt int) time.Duration {
		if attempt <= 0 {
			return 0
		}
		d := lo
		for i := 1; i < attempt && d < hi; i++ {
			d *= 2
		}
		d = min(d, hi)
		return d/2 + rand.N(d/2+1)
	}
}

// Status is what the link knows of its two ends.
type Status struct {
	Broker   string // the broker's address
	BrokerUp bool
	// BrokerErr is why the last connection attempt failed or the
	// connection was lost; nil while connected.
	BrokerErr error
	Attempts  int           // failed attempts since the last connection
	Retry     time.Duration // the wait before the next attempt
	ClockUp   bool
	ClockErr  error
	Log       string // "ok", or why the log topic gets no lines
	Game      string // the game whose lines are sent
	Acked     int64  // the last line of Game the broker acknowledged
	Refused   int    // commands refused for the rate or a full queue
	// Commands is true once the broker has acknowledged the subscription
	// to the command topics on the current connection: from then on a
	// command the hall sends reaches the link.
	Commands bool
}

func (s Status) String() string {
	var b strings.Builder
	if s.BrokerUp {
		b.WriteString("broker connected")
	} else {
		b.WriteString("broker not connected")
		if s.BrokerErr != nil {
			fmt.Fprintf(&b, ": %v", s.BrokerErr)
		}
		if s.Attempts > 0 {
			fmt.Fprintf(&b, " (attempt %d, next in %s)", s.Attempts, roundDur(s.Retry))
		}
	}
	if s.ClockUp {
		b.WriteString("; clock connected")
	} else {
		b.WriteString("; clock not connected")
		if s.ClockErr != nil {
			fmt.Fprintf(&b, ": %v", s.ClockErr)
		}
	}
	if s.Log == "ok" && s.Game != "" {
		fmt.Fprintf(&b, "; log: game %s line %d sent", s.Game, s.Acked)
	} else if s.Log == "ok" {
		b.WriteString("; log: ok")
	} else if s.Log != "" {
		fmt.Fprintf(&b, "; log: %s", s.Log)
	}
	return b.String()
}

// roundDur rounds a wait for people.
func roundDur(d time.Duration) time.Duration {
	if d < time.Second {
		return d.Round(time.Millisecond)
	}
	return d.Round(100 * time.Millisecond)
}

// Link follows one clock and publishes it to the hall's broker.
type Link struct {
	cfg   Config
	o     Opts
	t     protocol.Topics
	tls   *tls.Config
	clock clockClient
	start time.Time
	key   ed25519.PrivateKey // signs the log lines; nil without Dir

	cm *autopaho.ConnectionManager

	mu        sync.Mutex
	st        Status
	conn      context.Context // cancelled when the broker connection drops; nil while down
	connStop  context.CancelFunc
	asked     bool              // this connection's subscription to the commands was answered
	state     protocol.StateMsg // the last state, Raw nil before the first
	stateSeq  uint64            // counts states received
	missed    bool              // journal lines of the watch stream were dropped
	republish bool              // the state must be sent again (new connection)
	current   string            // the clock's current game, as last learned
	waiters   map[string]chan []byte
	lastNote  string

	stateKick  chan struct{}
	logKick    chan struct{}
	lines      chan streamLines
	resends    chan protocol.ResendArg // the hall's resend commands, for pushLog
	onlineKick chan struct{}
	cmds       chan incoming
	updating   chan struct{} // full while a bundle is fetched
}

// incoming is one message on a command topic.
type incoming struct {
	scope    protocol.Scope
	payload  []byte // at most protocol.MaxCommand+1 bytes of it
	size     int
	retained bool
	corr     []byte
}

// New returns a link for cfg. It reads the TLS files now, so that a bad
// file is reported at once.
func New(cfg Config, o *Opts) (*Link, error) {
	opts := DefaultOpts()
	if o != nil {
		if o.Socket != "" {
			opts.Socket = o.Socket
		}
		opts.Dir, opts.Version, opts.Log, opts.Notify = o.Dir, o.Version, o.Log, o.Notify
		if o.StateEvery > 0 {
			opts.StateEvery = o.StateEvery
		}
		if o.Backoff != nil {
			opts.Backoff = o.Backoff
		}
		if o.ClockRetry > 0 {
			opts.ClockRetry = o.ClockRetry
		}
		if o.CommandRate > 0 {
			opts.CommandRate = o.CommandRate
		}
		if o.CommandBurst > 0 {
			opts.CommandBurst = o.CommandBurst
		}
		if o.Clock != nil {
			opts.Clock = o.Clock
		}
		if o.SaveEvery > 0 {
			opts.SaveEvery = o.SaveEvery
		}
		if o.Timeout > 0 {
			opts.Timeout = o.Timeout
		}
		if o.Spool != "" {
			opts.Spool = o.Spool
		}
		if o.FetchStall > 0 {
			opts.FetchStall = o.FetchStall
		}
		if o.FetchTimeout > 0 {
			opts.FetchTimeout = o.FetchTimeout
		}
	}
	if cfg.Broker == nil || cfg.Hall == "" || cfg.Board < 1 {
		return nil, errors.New("link: the config has no broker, hall or board")
	}
	tc, err := cfg.TLS()
	if err != nil {
		return nil, fmt.Errorf("link: %s: %w", cfg.File, err)
	}
	l := &Link{
		cfg:        cfg,
		o:          opts,
		t:          protocol.TopicsFor(cfg.Hall, cfg.Board),
		tls:        tc,
		clock:      clockClient{control.Client{Socket: opts.Socket, Timeout: opts.Timeout}},
		waiters:    map[string]chan []byte{},
		stateKick:  make(chan struct{}, 1),
		logKick:    make(chan struct{}, 1),
		lines:      make(chan streamLines, 64),
		resends:    make(chan protocol.ResendArg, 4),
		onlineKick: make(chan struct{}, 1),
		cmds:       make(chan incoming, 16),
		updating:   make(chan struct{}, 1),
	}
	l.st.Broker = cfg.Broker.String()
	if opts.Dir != "" {
		key, made, err := loadKey(opts.Dir)
		if err != nil {
			return nil, fmt.Errorf("link: %w", err)
		}
		l.key = key
		what := "signs its log lines with the key in"
		if made {
			what = "made a key for the board, to sign its log lines, in"
		}
		l.logf("log: %s %s (fingerprint %s)", what, filepath.Join(opts.Dir, KeyFile), protocol.KeyFingerprint(l.PublicKey()))
	}
	return l, nil
}

// protocol.Topics returns the link's topics.
func (l *Link) Topics() protocol.Topics { return l.t }

// Status returns what the link knows now.
func (l *Link) Status() Status {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.st
}

func kick(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

func (l *Link) logf(format string, a ...any) {
	if l.o.Log != nil {
		l.o.Log(fmt.Sprintf(format, a...))
	}
}

// changed records a change of status (the caller holds mu) and tells
// systemd.
func (l *Link) changed() {
	if l.o.Notify != nil {
		if s := l.st.String(); s != l.lastNote {
			l.lastNote = s
			l.o.Notify(s)
		}
	}
}

// Run links the clock to the broker until ctx is done. It then marks the
// board offline, saves how far the log was acknowledged and disconnects.
// It returns an error only when it cannot start.
func (l *Link) Run(ctx context.Context) error {
	l.start = l.o.Clock.Now()
	will, _ := json.Marshal(protocol.OnlineMsg{Online: false})
	cfg := autopaho.ClientConfig{
		ServerUrls:                    []*url.URL{l.cfg.Broker},
		TlsCfg:                        l.tls,
		KeepAlive:                     30,
		CleanStartOnInitialConnection: true,
		SessionExpiryInterval:         0,
		ReconnectBackoff:              l.backoff,
		ConnectTimeout:                2 * l.o.Timeout,
		ConnectUsername:               l.cfg.Username,
		ConnectPassword:               l.cfg.Password,
		WillMessage:                   &paho.WillMessage{Topic: l.t.Online, Payload: will, QoS: 1, Retain: true},
		WillProperties:                &paho.WillProperties{},
		OnConnectionUp:                l.connectionUp,
		OnConnectionDown:              l.connectionDown,
		OnConnectError:                l.connectError,
		ConnectPacketBuilder: func(c *paho.Connect, _ *url.URL) (*paho.Connect, error) {
			if c.Properties == nil {
				c.Properties = &paho.ConnectProperties{}
			}
			// The broker drops what is larger rather than send it.
			c.Properties.MaximumPacketSize = new(uint32(64 << 10))
			return c, nil
		},
		ClientConfig: paho.ClientConfig{
			ClientID:           protocol.ClientID(l.cfg.Hall, l.cfg.Board),
			OnPublishReceived:  []func(paho.PublishReceived) (bool, error){l.received},
			OnServerDisconnect: l.serverDisconnect,
			PacketTimeout:      l.o.Timeout,
		},
	}
	// The connection outlives ctx long enough to say goodbye.
	connCtx, stopConn := context.WithCancel(context.WithoutCancel(ctx))
	defer stopConn()
	cm, err := autopaho.NewConnection(connCtx, cfg)
	if err != nil {
		return fmt.Errorf("link: %w", err)
	}
	l.cm = cm
	l.mu.Lock()
	l.changed()
	l.mu.Unlock()
	l.logf("linking board %d of hall %s to %s as %s", l.cfg.Board, l.cfg.Hall, l.cfg.Broker, protocol.ClientID(l.cfg.Hall, l.cfg.Board))

	var wg sync.WaitGroup
	for _, f := range []func(context.Context){l.follow, l.pushLog, l.publishStates, l.publishOnline, l.command} {
		wg.Go(func() { f(ctx) })
	}
	<-ctx.Done()
	wg.Wait()

	bye, cancel := context.WithTimeout(context.Background(), l.o.Timeout)
	defer cancel()
	if c := l.connContext(); c != nil {
		payload, _ := json.Marshal(protocol.OnlineMsg{Online: false, Reason: "stopped"})
		if err := l.publish(bye, &paho.Publish{Topic: l.t.Online, Payload: payload, QoS: 1, Retain: true}); err != nil {
			l.logf("could not mark the board offline: %v", err)
		}
	}
	if err := cm.Disconnect(bye); err != nil {
		l.logf("disconnect: %v", err)
	}
	return nil
}

// backoff wraps Opts.Backoff to report the wait.
func (l *Link) backoff(attempt int) time.Duration {
	d := l.o.Backoff(attempt)
	if attempt > 0 {
		l.mu.Lock()
		l.st.Retry = d
		err := l.st.BrokerErr
		l.changed()
		l.mu.Unlock()
		l.logf("broker %s: %v; attempt %d failed, next in %s", l.cfg.Broker, err, attempt, roundDur(d))
	}
	return d
}

func (l *Link) connectionUp(cm *autopaho.ConnectionManager, _ *paho.Connack) {
	c, stop := context.WithCancel(context.Background())
	l.mu.Lock()
	l.conn, l.connStop = c, stop
	wasDown := l.st.BrokerErr != nil
	l.st.BrokerUp, l.st.BrokerErr, l.st.Attempts, l.st.Retry = true, nil, 0, 0
	l.republish = true
	l.changed()
	l.mu.Unlock()
	if wasDown {
		l.logf("broker %s: connected", l.cfg.Broker)
	}
	// Must not block: subscribe beside.
	go func() {
		ctx, cancel := context.WithTimeout(c, l.o.Timeout)
		defer cancel()
		sa, err := cm.Subscribe(ctx, &paho.Subscribe{Subscriptions: []paho.SubscribeOptions{
			// Retained commands are never sent (RetainHandling 2):
			// they would run again at every connection. One
			// published with retain while the link is connected
			// keeps its flag (RetainAsPublished) and is refused.
			{Topic: l.t.Cmd, QoS: 1, RetainHandling: 2, RetainAsPublished: true},
			{Topic: l.t.All, QoS: 1, RetainHandling: 2, RetainAsPublished: true},
		}})
		if e := subackError(sa, l.t.Cmd, l.t.All); e != nil {
			err = e // names the topic, where paho does not
		}
		if err != nil && c.Err() == nil {
			l.logf("broker %s: cannot subscribe to the command topics: %v", l.cfg.Broker, err)
		}
		l.mu.Lock()
		if c.Err() == nil { // still the same connection
			l.st.Commands = err == nil
			l.asked = true
		}
		l.mu.Unlock()
		// Only now is the board online for the hall: a command sent
		// the moment it sees that reaches a subscription that exists.
		kick(l.onlineKick)
	}()
	kick(l.stateKick)
	kick(l.logKick)
}

func (l *Link) connectionDown() bool {
	l.mu.Lock()
	if l.connStop != nil {
		l.connStop()
	}
	l.conn, l.connStop = nil, nil
	l.st.BrokerUp, l.st.Commands, l.asked = false, false, false
	if l.st.BrokerErr == nil {
		l.st.BrokerErr = errors.New("connection lost")
	}
	l.changed()
	l.mu.Unlock()
	l.logf("broker %s: connection lost", l.cfg.Broker)
	return true
}

func (l *Link) connectError(err error) {
	l.mu.Lock()
	l.st.BrokerUp = false
	l.st.BrokerErr = explainConnect(err, l.cfg)
	l.st.Attempts++
	l.changed()
	l.mu.Unlock()
}

func (l *Link) serverDisconnect(d *paho.Disconnect) {
	msg := fmt.Sprintf("the broker closed the connection: %s", reasonText(d.ReasonCode))
	if d.ReasonCode == 0x8E {
		msg += fmt.Sprintf(" (another client connected as %s: is board %d configured on two clocks?)", protocol.ClientID(l.cfg.Hall, l.cfg.Board), l.cfg.Board)
	}
	if d.Properties != nil && d.Properties.ReasonString != "" {
		msg += ": " + d.Properties.ReasonString
	}
	l.mu.Lock()
	l.st.BrokerErr = errors.New(msg)
	l.changed()
	l.mu.Unlock()
	l.logf("broker %s: %s", l.cfg.Broker, msg)
}

// connContext returns the current connection's context, nil while down.
func (l *Link) connContext() context.Context {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.conn
}

var errDown = errors.New("not connected to the broker")

// publish sends p on the current connection and waits for the broker's
// acknowledgement (QoS 1). It fails at once when the connection drops. An
// online message that says online gets the board's public key (withKey):
// every one the link sends carries it.
func (l *Link) publish(ctx context.Context, p *paho.Publish) error {
	c := l.connContext()
	if c == nil {
		return errDown
	}
	if p.Topic == l.t.Online {
		p.Payload = l.withKey(p.Payload)
	}
	ctx, cancel := context.WithTimeout(ctx, l.o.Timeout)
	defer cancel()
	stop := context.AfterFunc(c, cancel)
	defer stop()
	resp, err := l.cm.Publish(ctx, p)
	if err != nil && resp == nil && c.Err() != nil {
		return errDown
	}
	return publishErr(p.Topic, resp, err)
}

// publishErr is what a publish's acknowledgement resp and error err (paho's)
// come to: a refusal in the acknowledgement is named by reasonText, not by
// paho's text for its code, which for 0x99 says the payload format does not
// match its indicator, what the hall never means by it.
func publishErr(topic string, resp *paho.PublishResponse, err error) error {
	if resp != nil && resp.ReasonCode >= 0x80 {
		return fmt.Errorf("the broker refused a message on %s: %s", topic, reasonText(resp.ReasonCode))
	}
	return err
}

// awaitBroker waits until the broker is connected.
func (l *Link) awaitBroker(ctx context.Context) error {
	return l.cm.AwaitConnection(ctx)
}

// received takes messages from the broker; it must not block.
func (l *Link) received(pr paho.PublishReceived) (bool, error) {
	p := pr.Packet
	var scope protocol.Scope
	switch p.Topic {
	case l.t.Cmd:
		scope = protocol.ScopeBoard
	case l.t.All:
		scope = protocol.ScopeAll
	default:
		l.mu.Lock()
		w := l.waiters[p.Topic]
		l.mu.Unlock()
		if w != nil {
			select {
			case w <- append([]byte(nil), p.Payload...):
			default:
			}
		}
		return true, nil
	}
	if p.Retain && len(p.Payload) == 0 {
		// Someone cleared a retained command: nothing to carry out
		// or answer.
		return true, nil
	}
	in := incoming{scope: scope, size: len(p.Payload), retained: p.Retain}
	in.payload = append([]byte(nil), p.Payload[:min(len(p.Payload), protocol.MaxCommand+1)]...)
	if p.Properties != nil && len(p.Properties.CorrelationData) <= 256 {
		in.corr = append([]byte(nil), p.Properties.CorrelationData...)
	}
	select {
	case l.cmds <- in:
	default:
		l.mu.Lock()
		l.st.Refused++
		l.mu.Unlock()
	}
	return true, nil
}

// explainConnect turns a failed connection attempt into a sentence.
func explainConnect(err error, cfg Config) error {
	var ce *autopaho.ConnackError
	if errors.As(err, &ce) {
		msg := fmt.Sprintf("the broker refused the connection: %s", reasonText(ce.ReasonCode))
		switch ce.ReasonCode {
		case 0x86, 0x87:
			// Brokers answer a wrong password with either.
			msg += fmt.Sprintf(" (check hall.username %q and the password in %s, and that the broker lets that user connect as %s)", cfg.Username, cfg.File, protocol.ClientID(cfg.Hall, cfg.Board))
		}
		if ce.Reason != "" {
			msg += ": " + ce.Reason
		}
		return errors.New(msg)
	}
	var fe *halltable.FingerprintError
	if errors.As(err, &fe) {
		return fe
	}
	var ua x509.UnknownAuthorityError
	if errors.As(err, &ua) {
		src := "the system's CA certificates"
		if cfg.CAFile != "" {
			src = "hall.ca_file " + cfg.CAFile
		}
		return fmt.Errorf("TLS: the broker's certificate is not signed by a CA in %s (%v)", src, ua)
	}
	var he x509.HostnameError
	if errors.As(err, &he) {
		return fmt.Errorf("TLS: the broker's certificate is not for %s (%v)", cfg.Broker.Hostname(), he)
	}
	var ie x509.CertificateInvalidError
	if errors.As(err, &ie) {
		return fmt.Errorf("TLS: the broker's certificate is not valid: %v", ie)
	}
	// A TLS alert from the broker comes as a net.OpError "remote error"
	// around the alert (an unexported type).
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Op == "remote error" && oe.Err != nil {
		switch alert := oe.Err.Error(); alert {
		case "tls: certificate required":
			return errors.New("TLS: the broker wants a client certificate (hall.cert_file and hall.key_file)")
		case "tls: bad certificate", "tls: unsupported certificate", "tls: revoked certificate",
			"tls: expired certificate", "tls: unknown certificate", "tls: unknown certificate authority":
			return fmt.Errorf("TLS: the broker refused the client certificate %s (%s)", cfg.CertFile, alert)
		}
	}
	var re tls.RecordHeaderError
	if errors.As(err, &re) {
		return fmt.Errorf("TLS: the broker at %s does not speak TLS (is it mqtt:// rather than mqtts://?)", cfg.Broker.Host)
	}
	msg := err.Error()
	msg = strings.TrimPrefix(msg, "failed to connect to "+cfg.Broker.String()+": ")
	if cfg.Broker.Scheme == "mqtts" && (errors.Is(err, syscall.ECONNRESET) || errors.Is(err, io.EOF)) && mqttprobe.Plain(cfg.Broker.Host, 2*time.Second) {
		return fmt.Errorf("TLS: the broker at %s speaks plain MQTT, not TLS: use mqtt://%s, or the broker's TLS port (mqtts://, usually 8883)", cfg.Broker.Host, cfg.Broker.Host)
	}
	if cfg.Broker.Scheme == "mqtts" && cfg.CertFile == "" && (errors.Is(err, syscall.ECONNRESET) || errors.Is(err, io.EOF)) {
		// With TLS 1.3 a refused client certificate can come as a
		// closed connection after the handshake.
		msg += " (does the broker want a client certificate? hall.cert_file and hall.key_file)"
	}
	return errors.New(msg)
}

// reasonText names an MQTT 5 reason code. 0x99 is named as the hall's
// broker uses it (hall/broker): it refuses with 0x99 a message that its
// intake refused, whatever the payload format.
func reasonText(code byte) string {
	names := map[byte]string{
		0x80: "unspecified error", 0x81: "malformed packet", 0x82: "protocol error",
		0x83: "implementation specific error", 0x84: "unsupported protocol version",
		0x85: "client identifier not valid", 0x86: "bad user name or password",
		0x87: "not authorized", 0x88: "server unavailable", 0x89: "server busy",
		0x8A: "banned", 0x8B: "server shutting down", 0x8C: "bad authentication method",
		0x8D: "keep alive timeout", 0x8E: "session taken over", 0x90: "topic name invalid",
		0x93: "receive maximum exceeded", 0x95: "packet too large", 0x97: "quota exceeded",
		0x99: "the hall refused the message: its intake did not accept it (a line out of order or with a bad checksum, say: the hall's log says why; MQTT names the code payload format invalid)", 0x9A: "retain not supported", 0x9B: "QoS not supported",
		0x9C: "use another server", 0x9D: "server moved", 0x9F: "connection rate exceeded",
	}
	if n, ok := names[code]; ok {
		return fmt.Sprintf("%s (MQTT reason 0x%02X)", n, code)
	}
	return fmt.Sprintf("MQTT reason 0x%02X", code)
}
