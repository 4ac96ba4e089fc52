// Package hall is the tournament hall's side of the hall protocol
// (docs/hall-protocol.md): `zeitnot-hall`, which takes in what every clock
// publishes, keeps it, shows the hall live in a browser, and lets the
// arbiter command the clocks.
//
// Its parts:
//
//   - broker: an MQTT broker embedded in the hall (mochi-mqtt) with the
//     clocks' users and permissions, or a client of an outside broker
//     (Mosquitto) for a big hall;
//   - store: what the hall received, in its data directory, so that a
//     restart loses nothing;
//   - web: the pages, their live stream and the API; auth: the arbiter's
//     login; pgn: a game's clock readings as PGN;
//   - broadcast: the push of the round's feed to a lichess broadcast
//     (hall.toml's [broadcast]).
//
// Receiver checks every message against the protocol before the store
// keeps it. Start wires them together as the config says.
package hall

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/zeitnot/zeitnot/hall/auth"
	"github.com/zeitnot/zeitnot/hall/broadcast"
	"github.com/zeitnot/zeitnot/hall/broker"
	"github.com/zeitnot/zeitnot/hall/limit"
	"github.com/zeitnot/zeitnot/hall/store"
	"github.com/zeitnot/zeitnot/hall/tlsca"
	"github.com/zeitnot/zeitnot/hall/web"
	"github.com/zeitnot/zeitnot/internal/regfile"
	"github.com/zeitnot/zeitnot/internal/wallclock"
	"github.com/zeitnot/zeitnot/protocol"
)

// Opts are what Start needs beyond the config.
type Opts struct {
	// Logf gets the hall's log lines.
	Logf func(format string, a ...any)
	// Clock is the hall's time of day: the arbiters' sessions and login
	// limits, the pages, the arrival of the clocks' messages, the resend
	// windows (nil: wallclock.Real); tests give it a fake one they
	// advance (wallclocktest). The TLS certificates are made on the
	// system's time, which the other side checks them against.
	Clock wallclock.Clock
	// HTTP are the pages' limits; nil: DefaultHTTPLimits.
	HTTP *HTTPLimits
	// Broker are the embedded broker's limits; nil: broker.DefaultLimits.
	Broker *broker.Limits
}

// HTTPLimits are the pages' limits against a hostile network, as nginx
// sets them.
type HTTPLimits struct {
	// Conns are the listener's connection caps: per address and in all;
	// past Total a new connection closes the oldest one that is not the
	// arbiter's (a request with the arbiter's session marks its
	// connection known).
	Conns limit.ListenerOpts
	// Header, Read and Write are the time a client has to send its
	// request's header, its whole request, and to take the answer; Idle
	// is how long a keep-alive connection waits for its next request.
	// The live streams (/events) run past Read and Write: each write has
	// Write to finish.
	Header, Read, Write, Idle time.Duration
	// MaxStreams and MaxStreamsPerAddr cap the live streams (web.Opts).
	MaxStreams, MaxStreamsPerAddr int
	// MaxRequestsPerAddr bounds the page and API requests one address
	// has under way (web.Opts); 0 takes web's default.
	MaxRequestsPerAddr int
}

// DefaultHTTPLimits are the pages' limits when Opts.HTTP is nil.
func DefaultHTTPLimits() HTTPLimits {
	return HTTPLimits{
		Conns:  limit.ListenerOpts{PerAddr: 64, ExemptLoopback: true, Total: 2000},
		Header: 10 * time.Second, Read: 30 * time.Second, Write: 30 * time.Second, Idle: 30 * time.Second,
		MaxStreams: 1000, MaxStreamsPerAddr: 8,
	}
}

// Hall is a running hall.
type Hall struct {
	cfg      Config
	st       *store.Store
	emb      *broker.Embedded
	cli      *broker.Client
	web      *web.Server
	srv      *http.Server
	httpLn   *limit.Listener
	httpAddr string
	logf     func(string, ...any)
	resend   *resender
	push     *pusher // the push to lichess; nil for none
	// fingerprint is the TLS listener's CA's (or its certificate's).
	fingerprint protocol.Fingerprint

	closeOnce sync.Once
	closeErr  error
}

// MosquittoACL is zeitnot's ACL for Mosquitto (mosquitto/zeitnot.acl):
// what makes an outside broker safe for the clocks.
//
//go:embed mosquitto/zeitnot.acl
var MosquittoACL string

// ArbiterPasswordFile is the file in the data directory that holds the
// arbiter's password when the config names no arbiters.
const ArbiterPasswordFile = "arbiter-password"

// Start starts the hall: store, broker, pages.
func Start(cfg Config, o Opts) (*Hall, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	logf := o.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	if err := os.MkdirAll(cfg.Data, 0o750); err != nil {
		return nil, fmt.Errorf("data: %w", err)
	}
	arbiters := cfg.Arbiters
	if len(arbiters) == 0 {
		pw, err := arbiterPassword(cfg.Data)
		if err != nil {
			return nil, err
		}
		h, err := auth.Hash(pw)
		if err != nil {
			return nil, err
		}
		arbiters = map[string]string{"arbiter": h}
		logf("arbiter login: user arbiter, the password is in %s", filepath.Join(cfg.Data, ArbiterPasswordFile))
	}
	st, err := store.OpenWith(cfg.Data, store.Opts{Clock: o.Clock})
	if err != nil {
		return nil, err
	}
	for _, d := range st.Damaged() {
		logf("data: %s", d)
	}
	h := &Hall{cfg: cfg, st: st, logf: logf}
	st.ConfigKeys(cfg.Keys)
	clk := wallclock.Or(o.Clock)
	rcv := NewReceiver(cfg.Hall, st)
	rcv.clock = clk
	h.resend = newResender(cfg.Hall, logf, clk)
	h.resend.still = func(n int, game string, from int64) bool {
		first, waiting := st.Missing(n, game)
		return first == from && waiting > 0
	}
	rcv.missing, rcv.logf = h.resend.ask, logf
	receive := func(topic string, payload []byte) error {
		err := rcv.Receive(topic, payload)
		if errors.Is(err, ErrNotMine) {
			return nil
		}
		return err
	}
	var publish func(topic string, payload []byte) error
	if cfg.Broker == "" {
		plain, tlsAddr := cfg.MQTT, cfg.MQTTS
		if off(plain) {
			plain = ""
		}
		if off(tlsAddr) {
			tlsAddr = ""
		}
		var tc *tls.Config
		if tlsAddr != "" {
			cert, err := serverCert(cfg, tlsAddr)
			if err != nil {
				st.Close()
				return nil, err
			}
			h.fingerprint = protocol.FingerprintOf(cert.Certificate[len(cert.Certificate)-1])
			tc = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
		}
		emb, err := broker.StartEmbedded(broker.Opts{Addr: plain, TLSAddr: tlsAddr, TLS: tc, Hall: cfg.Hall, Users: cfg.Clocks, Anonymous: true, Receive: receive, Logf: logf,
			Retained: retained(cfg.Hall, st, clk.Now()), Limits: o.Broker, Clock: clk})
		if err != nil {
			st.Close()
			return nil, err
		}
		h.emb = emb
		publish = emb.Publish
		who := func(addr string) string {
			if IsLoopback(addr) {
				return "loopback: anonymous clocks accepted"
			}
			return fmt.Sprintf("%d clock users", len(cfg.Clocks))
		}
		if emb.TLSAddr() != "" {
			logf("broker: listening on mqtts://%s (%s)", emb.TLSAddr(), who(cfg.MQTTS))
			logf("broker: the clocks' [hall] fingerprint = %q (the hall's CA; /arbiter shows it)", h.fingerprint.String())
		}
		if emb.Addr() != "" {
			logf("broker: listening on mqtt://%s (%s)", emb.Addr(), who(cfg.MQTT))
			if !IsLoopback(cfg.MQTT) {
				logf("broker: plain MQTT on %s is not on loopback: the clocks' passwords cross the network in clear there; give the clocks mqtts://, and mqtt = \"off\" or a loopback address", emb.Addr())
			}
		}
	} else {
		u, _ := url.Parse(cfg.Broker)
		if u.Port() == "" {
			port := "1883"
			if u.Scheme == "mqtts" {
				port = "8883"
			}
			u.Host = net.JoinHostPort(u.Hostname(), port)
		}
		var tc *tls.Config
		if u.Scheme == "mqtts" {
			tc = &tls.Config{ServerName: u.Hostname(), MinVersion: tls.VersionTLS12}
			if cfg.CAFile != "" {
				pem, err := regfile.ReadFile(cfg.CAFile, regfile.Opts{Max: 1 << 20})
				if err != nil {
					st.Close()
					return nil, fmt.Errorf("ca_file: %v", err)
				}
				pool := x509.NewCertPool()
				if !pool.AppendCertsFromPEM(pem) {
					st.Close()
					return nil, fmt.Errorf("ca_file %s: no PEM certificate in it", cfg.CAFile)
				}
				tc.RootCAs = pool
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		cli, err := broker.Dial(ctx, broker.ClientOpts{URL: u, Hall: cfg.Hall, Username: cfg.Username, Password: cfg.Password, TLS: tc, Filter: rcv.Filter(), Receive: receive, Logf: logf})
		cancel()
		if err != nil {
			st.Close()
			return nil, err
		}
		h.cli = cli
		publish = cli.Publish
		logf("broker: connected to %s", u.Redacted())
		if err := cli.CheckACL(protocol.TopicsFor(cfg.Hall, 0).State); err != nil {
			if !cfg.BrokerWithoutACL || !errors.Is(err, broker.ErrNoACL) {
				cli.Close()
				st.Close()
				return nil, fmt.Errorf("broker %s: %v; install zeitnot's ACL (zeitnot hall --mosquitto-acl prints it) or, knowing that, start with --broker-without-acl (broker_without_acl = true)", u.Redacted(), err)
			}
			logf("broker: %v; started all the same (broker_without_acl)", err)
		}
	}
	go h.resend.run(publish)
	hl := DefaultHTTPLimits()
	if o.HTTP != nil {
		hl = *o.HTTP
	}
	tour, err := store.OpenTournament(cfg.Data)
	if err != nil {
		h.closeBroker()
		st.Close()
		return nil, err
	}
	au := auth.New(auth.Opts{Users: arbiters, Clock: clk, File: filepath.Join(cfg.Data, auth.SessionsFile), Logf: logf})
	zone := time.Local
	if cfg.Zone != "" {
		if zone, err = time.LoadLocation(cfg.Zone); err != nil {
			return nil, fmt.Errorf("hall: zone: %v", err)
		}
	}
	w, err := web.New(web.Opts{Store: st, Hall: cfg.Hall, Title: cfg.Title, Site: cfg.Site, Round: cfg.Round, Zone: zone, BroadcastDelay: cfg.BroadcastDelay, Publish: publish, Auth: au, Logf: logf, Clock: clk,
		MaxStreams: hl.MaxStreams, MaxStreamsPerAddr: hl.MaxStreamsPerAddr, StreamsLoopbackLimited: !hl.Conns.ExemptLoopback, WriteTimeout: hl.Write,
		MaxRequestsPerAddr: hl.MaxRequestsPerAddr, RequestsLoopbackLimited: !hl.Conns.ExemptLoopback,
		Tournament: tour, APIToken: string(cfg.APIToken), TLS: h.tlsInfo(), Broadcast: h.broadcastStatus,
		UpdateDir: filepath.Join(cfg.Data, "update"), UpdateBase: cfg.UpdateURL, UpdateBatch: cfg.UpdateBatch})
	if err != nil {
		h.closeBroker()
		st.Close()
		return nil, err
	}
	h.web = w
	if cfg.Broadcast != nil {
		if h.push, err = startPush(cfg.Broadcast, st, w, clk, logf); err != nil {
			w.Close()
			h.closeBroker()
			st.Close()
			return nil, err
		}
	}
	ln, err := net.Listen("tcp", cfg.HTTP)
	if err != nil {
		h.closePush()
		w.Close()
		h.closeBroker()
		st.Close()
		return nil, fmt.Errorf("http: %w", err)
	}
	h.httpAddr = ln.Addr().String()
	h.httpLn = limit.NewListener(ln, hl.Conns)
	h.srv = &http.Server{Handler: knownArbiter(au, w), ReadHeaderTimeout: hl.Header, ReadTimeout: hl.Read, WriteTimeout: hl.Write, IdleTimeout: hl.Idle, MaxHeaderBytes: 32 << 10,
		ConnContext: func(ctx context.Context, c net.Conn) context.Context { return context.WithValue(ctx, connKey{}, c) }}
	go h.srv.Serve(h.httpLn)
	logf("pages: http://%s/ (arbiter: /arbiter), data in %s", h.httpAddr, cfg.Data)
	return h, nil
}

// broadcastStatus is the push's state for the arbiter's page; nil when
// the hall pushes nothing.
func (h *Hall) broadcastStatus() *broadcast.Status {
	if h.push == nil {
		return nil
	}
	s := h.push.p.Status()
	return &s
}

// closePush stops the push to lichess, if any.
func (h *Hall) closePush() {
	if h.push != nil {
		h.push.close()
	}
}

type connKey struct{}

// knownArbiter marks the connection of a request with the arbiter's
// session known to the listener: it is never closed to make room.
func knownArbiter(a *auth.Auth, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if c, ok := r.Context().Value(connKey{}).(net.Conn); ok {
			if lc := limit.ConnOf(c); lc != nil && a.Session(r) != nil {
				lc.Known()
			}
		}
		next.ServeHTTP(w, r)
	})
}

// HTTPConns is how many connections the pages' listener holds open, and
// how many it closed at once or to make room, for a limit.
func (h *Hall) HTTPConns() (open int, refused, evicted int64) {
	return h.httpLn.Open(), h.httpLn.Refused(), h.httpLn.Evicted()
}

// retained is what a new embedded broker holds retained: each board's
// last state, and its link offline (no clock is connected to a broker that
// just started; each says online again when it reconnects). The store is
// told the same.
func retained(hall string, st *store.Store, now time.Time) []broker.Message {
	offline := protocol.OnlineMsg{Online: false}
	var out []broker.Message
	for _, b := range st.Boards() {
		t := protocol.TopicsFor(hall, b.Board)
		if b.State != nil {
			if payload, err := json.Marshal(b.State); err == nil {
				out = append(out, broker.Message{Topic: t.State, Payload: payload})
			}
		}
		if b.Online != nil {
			if b.IsOnline() {
				st.PutOnline(b.Board, offline, now)
				b.Online = &offline
			}
			payload, _ := json.Marshal(b.Online)
			out = append(out, broker.Message{Topic: t.Online, Payload: payload})
		}
	}
	return out
}

// arbiterPassword reads the arbiter's password from the data directory,
// making one the first time.
func arbiterPassword(dir string) (string, error) {
	p := filepath.Join(dir, ArbiterPasswordFile)
	b, err := regfile.ReadFile(p, regfile.Opts{Max: 4096, NoFollow: true})
	if err == nil {
		pw, err := ReadPassword(p)
		if err != nil {
			return "", fmt.Errorf("%s: %v", p, err)
		}
		_ = b
		return string(pw), nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	r := make([]byte, 12)
	rand.Read(r)
	pw := base64.RawURLEncoding.EncodeToString(r)
	if err := os.WriteFile(p, []byte(pw+"\n"), 0o600); err != nil {
		return "", err
	}
	return pw, nil
}

// serverCert is the embedded broker's TLS certificate: cert_file's, or
// one the hall's own CA (in the data directory's tls/) makes now for the
// laptop's addresses and the host of addr.
func serverCert(cfg Config, addr string) (tls.Certificate, error) {
	if cfg.CertFile != "" {
		cert, err := tls.LoadX509KeyPair(cfg.CertFile, cfg.KeyFile)
		if err != nil {
			return cert, fmt.Errorf("cert_file %s, key_file %s: %v", cfg.CertFile, cfg.KeyFile, err)
		}
		return cert, nil
	}
	ca, err := CA(cfg)
	if err != nil {
		return tls.Certificate{}, err
	}
	hosts := tlsca.Hosts()
	if host, _, err := net.SplitHostPort(addr); err == nil && host != "" {
		if ip := net.ParseIP(host); ip == nil || !ip.IsUnspecified() {
			hosts = append(hosts, host)
		}
	}
	return ca.Server(hosts, time.Now())
}

// TLSDir is the directory of the hall's CA in its data directory.
const TLSDir = "tls"

// CA opens the hall's own CA in cfg's data directory, making it the first
// time (hall/tlsca).
func CA(cfg Config) (*tlsca.CA, error) {
	return tlsca.Open(filepath.Join(cfg.Data, TLSDir), cfg.Hall, time.Now())
}

// ClockFingerprint is the fingerprint the clocks of cfg's hall pin: its
// own CA's (made now if there is none yet), or with cert_file the last
// certificate of cert_file's chain.
func ClockFingerprint(cfg Config) (protocol.Fingerprint, error) {
	if cfg.CertFile != "" {
		cert, err := tls.LoadX509KeyPair(cfg.CertFile, cfg.KeyFile)
		if err != nil {
			return protocol.Fingerprint{}, fmt.Errorf("cert_file %s, key_file %s: %v", cfg.CertFile, cfg.KeyFile, err)
		}
		return protocol.FingerprintOf(cert.Certificate[len(cert.Certificate)-1]), nil
	}
	ca, err := CA(cfg)
	if err != nil {
		return protocol.Fingerprint{}, err
	}
	return ca.Fingerprint(), nil
}

// Fingerprint is the fingerprint the clocks pin: the SHA-256 of the
// hall's CA certificate (of cert_file's last certificate with cert_file);
// ok is false without a TLS listener.
func (h *Hall) Fingerprint() (f protocol.Fingerprint, ok bool) {
	return h.fingerprint, h.emb != nil && h.emb.TLSAddr() != ""
}

// MQTTSAddr is the embedded broker's TLS address, "" without one.
func (h *Hall) MQTTSAddr() string {
	if h.emb == nil {
		return ""
	}
	return h.emb.TLSAddr()
}

func (h *Hall) tlsInfo() *web.TLSInfo {
	f, ok := h.Fingerprint()
	if !ok {
		return nil
	}
	return &web.TLSInfo{URL: (&url.URL{Scheme: "mqtts", Host: h.emb.TLSAddr()}).String(), Fingerprint: f.String()}
}

// HTTPAddr is where the pages are served.
func (h *Hall) HTTPAddr() string { return h.httpAddr }

// MQTTAddr is the embedded broker's address, "" with an outside broker.
func (h *Hall) MQTTAddr() string {
	if h.emb == nil {
		return ""
	}
	return h.emb.Addr()
}

// Store is the hall's store.
func (h *Hall) Store() *store.Store { return h.st }

// Publish sends a command as the arbiter's pages do.
func (h *Hall) Publish(topic string, payload []byte) error {
	if h.emb != nil {
		return h.emb.Publish(topic, payload)
	}
	return h.cli.Publish(topic, payload)
}

func (h *Hall) closeBroker() {
	h.resend.close()
	if h.emb != nil {
		h.emb.Close()
	}
	if h.cli != nil {
		h.cli.Close()
	}
}

// Close stops the hall: pages, broker, and the store last, so that
// everything received is on disk.
func (h *Hall) Close() error {
	h.closeOnce.Do(func() {
		h.closePush()
		h.web.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		h.srv.Shutdown(ctx)
		h.closeBroker()
		h.closeErr = h.st.Close()
	})
	return h.closeErr
}

// Run runs the hall until ctx is done.
func Run(ctx context.Context, cfg Config, o Opts) error {
	h, err := Start(cfg, o)
	if err != nil {
		return err
	}
	<-ctx.Done()
	return h.Close()
}
