package hall

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/zeitnot/zeitnot/hall/auth"
	"github.com/zeitnot/zeitnot/hall/broadcast"
	"github.com/zeitnot/zeitnot/hall/broker"
	"github.com/zeitnot/zeitnot/hall/web"
	"github.com/zeitnot/zeitnot/internal/regfile"
	"github.com/zeitnot/zeitnot/internal/tomldoc"
	"github.com/zeitnot/zeitnot/protocol"
)

// Config is the hall's setup: the flags of `zeitnot-hall`, or hall.toml
// with the same keys.
type Config struct {
	File string // the hall.toml it was read from, "" for none

	HTTP string // the pages' address, default 127.0.0.1:8080
	// MQTT is the embedded broker's plain MQTT address, default
	// 127.0.0.1:1883; "off" for none. Off loopback a clock's password
	// would cross the network in clear: the clocks use MQTTS there.
	MQTT string
	// MQTTS is the embedded broker's TLS address (mqtts), default
	// 127.0.0.1:8883 (0.0.0.0:8883 for the clocks of the hall's
	// network); "off" for none. Its certificate is the hall's own CA's
	// (hall/tlsca, in the data directory's tls/), or CertFile's.
	MQTTS string
	// Broker, if set, is an outside broker (mqtt:// or mqtts://) to use
	// instead of the embedded one, with Username, Password, CAFile.
	Broker   string
	Username string
	Password []byte
	CAFile   string
	// BrokerWithoutACL starts the hall on an outside broker that lets the
	// hall's user publish a clock's topic (no ACL, or not zeitnot's:
	// mosquitto/zeitnot.acl); without it the hall refuses to.
	BrokerWithoutACL bool
	// CertFile and KeyFile, if set, are the certificate (a chain, the CA
	// last) and key of the embedded broker's TLS listener instead of the
	// hall's own CA's.
	CertFile, KeyFile string
	Data              string // the data directory
	Hall              string // the topic namespace, default club
	Title             string // what the pages call the hall, default Hall
	// Site and Round are the PGN's Site ("Vienna AUT") and Round ("3")
	// tags; "" for "?".
	Site, Round string
	// Zone is the hall's time zone, an IANA name ("Europe/Vienna"); ""
	// is the laptop's own. The arbiter's round start is read in it, and
	// the pages show every time of day in it and name it.
	Zone string
	// BroadcastDelay is how far behind the games the round's feed for
	// broadcasts (/round.pgn) runs, against cheating: 15 to 30 minutes
	// at big events; 0 for none. The hall applies it, never the clock.
	BroadcastDelay time.Duration
	// Arbiters are the arbiters' logins: name -> bcrypt hash.
	Arbiters map[string]string
	// Clocks are the embedded broker's users: name -> board and hash.
	Clocks map[string]broker.User
	// Keys are the boards' public keys given in advance (hall.toml's
	// [keys]: board = "ed25519:BASE64", the key the board's online
	// message carries): the hall checks each board's log lines with its
	// key from the first line.
	Keys map[int]string
	// APIToken is the scripts' token for the tournament API, read from
	// api_token_file (at least 16 characters); nil: no token is taken.
	APIToken []byte
	// Broadcast is the push of the round to lichess's broadcasts
	// (hall.toml's [broadcast]); nil: none.
	Broadcast *Broadcast
	// UpdateBatch is how many clocks update at once (1 to 50; 0: the
	// default, web.DefaultUpdateBatch).
	UpdateBatch int
	// UpdateURL is the hall's HTTP address as the clocks reach it,
	// http://HOST:PORT with HOST the one they connect to the broker at;
	// "": the address the arbiter's page is opened at.
	UpdateURL string
}

// MaxUpdateBatch is the most clocks update_batch lets update at once.
const MaxUpdateBatch = 50

// Broadcast is hall.toml's [broadcast]: the round pushed to lichess
// (hall/broadcast).
type Broadcast struct {
	// Ranges are the lichess rounds and the boards each shows: round
	// alone is every board's; [[broadcast.range]] tables split a hall
	// of more than 100 boards.
	Ranges []broadcast.Range
	// Token is the broadcaster's lichess token (scope study:write), read
	// from token_file.
	Token []byte
	// Interval is the least time between two pushes; 0 the default.
	Interval time.Duration
	// URL is lichess's ("" its default); tests give a stand-in's.
	URL string
}

// MinBroadcastInterval and MaxBroadcastInterval bound [broadcast]'s
// interval.
const (
	MinBroadcastInterval = time.Second
	MaxBroadcastInterval = 10 * time.Minute
)

// MaxBroadcastDelay is the longest broadcast_delay the hall takes.
const MaxBroadcastDelay = 6 * time.Hour

// DefaultConfig is the hall with no flags and no file: a club evening.
func DefaultConfig() Config {
	return Config{HTTP: "127.0.0.1:8080", MQTT: "127.0.0.1:1883", MQTTS: "127.0.0.1:8883", Hall: "club", Data: DefaultDataDir()}
}

// DefaultDataDir is $XDG_STATE_HOME/zeitnot/hall, or
// ~/.local/state/zeitnot/hall.
func DefaultDataDir() string {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "zeitnot", "hall")
	}
	if h, err := os.UserHomeDir(); err == nil {
		return filepath.Join(h, ".local", "state", "zeitnot", "hall")
	}
	return filepath.Join(os.TempDir(), "zeitnot-hall")
}

// ConfigError is one problem of hall.toml, at its line.
type ConfigError = tomldoc.FileError

// LoadConfig reads hall.toml at path over c (the defaults, or what flags
// gave before); every problem is a *ConfigError with its line, joined.
func LoadConfig(path string, c Config) (Config, error) {
	data, err := regfile.ReadFile(path, regfile.Opts{Max: 1 << 20})
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return c, &ConfigError{File: path, Msg: "cannot read: " + err.Error()}
	}
	return ParseConfig(path, data, c)
}

// ParseConfig reads hall.toml's contents over c; name is the file's path,
// for messages and relative file names.
func ParseConfig(name string, data []byte, c Config) (Config, error) {
	d, e := tomldoc.NewDecoder(name, data)
	if e != nil {
		return c, e
	}
	c.File = name
	Table.Decode(d, &c)
	return c, d.Err()
}

// Table is the schema of hall.toml, in the order of the flags.
var Table = &tomldoc.Schema[Config]{
	Fields: []tomldoc.Field[Config]{
		tomldoc.StringField("http", hostPort, func(c *Config, s string) { c.HTTP = s }),
		tomldoc.StringField("mqtt", hostPortOrOff, func(c *Config, s string) { c.MQTT = s }),
		tomldoc.StringField("mqtts", hostPortOrOff, func(c *Config, s string) { c.MQTTS = s }),
		tomldoc.StringField("broker", checkBroker, func(c *Config, s string) { c.Broker = s }),
		tomldoc.BoolField("broker_without_acl", func(c *Config, b bool) { c.BrokerWithoutACL = b }),
		tomldoc.StringField("username", nil, func(c *Config, s string) { c.Username = s }),
		secretFile("password_file", func(c *Config, pw []byte) { c.Password = pw }, 0),
		tomldoc.FileField("ca_file", func(c *Config, p string) { c.CAFile = p }),
		tomldoc.FileField("cert_file", func(c *Config, p string) { c.CertFile = p }),
		tomldoc.FileField("key_file", func(c *Config, p string) { c.KeyFile = p }),
		tomldoc.FileField("data", func(c *Config, p string) { c.Data = p }),
		tomldoc.StringField("hall", CheckHall, func(c *Config, s string) { c.Hall = s }),
		tomldoc.StringField("title", nil, func(c *Config, s string) { c.Title = s }),
		tomldoc.StringField("site", nil, func(c *Config, s string) { c.Site = s }),
		tomldoc.StringField("round", nil, func(c *Config, s string) { c.Round = s }),
		tomldoc.StringField("zone", func(s string) error {
			if _, err := time.LoadLocation(s); err != nil || s == "" {
				return fmt.Errorf("%q is no time zone the system knows (an IANA name: Europe/Vienna; leave it out for the laptop's own)", s)
			}
			return nil
		}, func(c *Config, s string) { c.Zone = s }),
		tomldoc.CustomField("broadcast_delay", `a duration from "0s" to "6h" ("15m", "30m")`, func(c *Config, v *tomldoc.Value) error {
			s, ok := v.V.(string)
			if !ok {
				return tomldoc.Want(`a duration in quotes ("15m")`)
			}
			d, err := time.ParseDuration(s)
			if err != nil || d < 0 || d > MaxBroadcastDelay {
				return fmt.Errorf("want a duration from \"0s\" to \"6h\" (\"15m\", \"30m\"), got %q", s)
			}
			c.BroadcastDelay = d
			return nil
		}),
		tomldoc.NamesField("arbiters", `a table [arbiters]: name = "bcrypt hash"`, func(d *tomldoc.Decoder, c *Config, name string, v *tomldoc.Value, path tomldoc.Key) {
			h, ok := v.V.(string)
			if !ok {
				d.Wrong(v, path, "a bcrypt hash in quotes")
				return
			}
			if err := auth.CheckHash(h); err != nil {
				d.Errorf(v.Line, path, "want a bcrypt hash (zeitnot-hall --hash-password makes one): %v", err)
				return
			}
			if c.Arbiters == nil {
				c.Arbiters = map[string]string{}
			}
			c.Arbiters[name] = h
		}),
		tomldoc.MapField("clocks", clockTable, func(c *Config, name string, u broker.User) {
			if c.Clocks == nil {
				c.Clocks = map[string]broker.User{}
			}
			c.Clocks[name] = u
		}),
		secretFile("api_token_file", func(c *Config, tok []byte) { c.APIToken = tok }, 16),
		tomldoc.CustomField("update_batch", fmt.Sprintf("a number of clocks from 1 to %d", MaxUpdateBatch), func(c *Config, v *tomldoc.Value) error {
			n, ok := v.V.(int64)
			if !ok || n < 1 || n > MaxUpdateBatch {
				return fmt.Errorf("want how many clocks update at once, a number from 1 to %d, got %v", MaxUpdateBatch, v.V)
			}
			c.UpdateBatch = int(n)
			return nil
		}),
		tomldoc.StringField("update_url", func(s string) error {
			u, err := url.Parse(s)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") {
				return fmt.Errorf("want the hall's HTTP address as the clocks reach it, like \"http://192.168.1.10:8080\", got %q", s)
			}
			return nil
		}, func(c *Config, s string) { c.UpdateURL = s }),
		tomldoc.TableField("broadcast", broadcastTable, func(c *Config) *Broadcast { c.Broadcast = &Broadcast{}; return c.Broadcast }),
		tomldoc.NamesField("keys", `a table [keys]: board = "ed25519:BASE64"`, func(d *tomldoc.Decoder, c *Config, name string, v *tomldoc.Value, path tomldoc.Key) {
			n, err := strconv.Atoi(name)
			if err != nil || protocol.CheckBoard(n) != nil || strconv.Itoa(n) != name {
				d.Errorf(v.Line, path, "want a board number from 1 to %d, got %q", protocol.MaxBoard, name)
				return
			}
			k, ok := v.V.(string)
			if !ok {
				d.Wrong(v, path, `the board's public key in quotes ("ed25519:BASE64")`)
				return
			}
			if _, err := protocol.ParseKey(k); err != nil {
				d.Errorf(v.Line, path, "%v (the key the board's link logs when it starts, as its online message carries it)", err)
				return
			}
			if c.Keys == nil {
				c.Keys = map[int]string{}
			}
			c.Keys[n] = k
		}),
	},
	Check: func(d *tomldoc.Decoder, c *Config, _ *tomldoc.Tab, _ tomldoc.Key) {
		if (c.CertFile == "") != (c.KeyFile == "") {
			missing, given := "key_file", "cert_file"
			if c.KeyFile != "" {
				missing, given = given, missing
			}
			d.Errorf(d.Line(given), tomldoc.Key{missing}, "missing: the embedded broker's TLS needs both cert_file and key_file")
		}
	},
}

// clockTable is the schema of one clock of [clocks]: an embedded broker's
// user.
var clockTable = &tomldoc.Schema[broker.User]{
	Fields: []tomldoc.Field[broker.User]{
		tomldoc.IntField("board", 1, 9999, func(u *broker.User, n int64) { u.Board = int(n) }),
		tomldoc.StringField("password_hash", broker.CheckHash, func(u *broker.User, h string) { u.Hash = h }),
	},
	Check: func(d *tomldoc.Decoder, u *broker.User, tab *tomldoc.Tab, path tomldoc.Key) {
		if tab.Get("board") == nil || tab.Get("password_hash") == nil {
			d.Errorf(d.Line(path...), path, "needs board and password_hash")
		}
	},
}

// broadcastTable is the schema of [broadcast].
var broadcastTable = &tomldoc.Schema[Broadcast]{
	Fields: []tomldoc.Field[Broadcast]{
		tomldoc.StringField("round", broadcast.CheckRound, func(b *Broadcast, s string) {
			b.Ranges = append(b.Ranges, broadcast.Range{Round: s})
		}),
		{Key: "range", Want: "[[broadcast.range]] tables", Read: func(d *tomldoc.Decoder, b *Broadcast, v *tomldoc.Value, path tomldoc.Key) {
			if v.Kind != tomldoc.Array || !v.ArrayOfTables {
				d.Wrong(v, path, "[[broadcast.range]] tables")
				return
			}
			for _, e := range v.Array() {
				var r broadcast.Range
				n := len(d.Errors())
				if rangeTable.DecodeTable(d, e, path, &r) && len(d.Errors()) == n {
					b.Ranges = append(b.Ranges, r)
				}
			}
		}},
		secretFile("token_file", func(b *Broadcast, tok []byte) { b.Token = tok }, 8).Needed("the file holding the broadcaster's lichess token (scope study:write)"),
		tomldoc.CustomField("interval", `a duration from "1s" to "10m" ("5s")`, func(b *Broadcast, v *tomldoc.Value) error {
			s, ok := v.V.(string)
			if !ok {
				return tomldoc.Want(`a duration in quotes ("5s")`)
			}
			d, err := time.ParseDuration(s)
			if err != nil || d < MinBroadcastInterval || d > MaxBroadcastInterval {
				return fmt.Errorf("want a duration from \"1s\" to \"10m\" (\"5s\"), got %q", s)
			}
			b.Interval = d
			return nil
		}),
		tomldoc.StringField("url", func(s string) error {
			u, err := url.Parse(s)
			if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.RawQuery != "" || u.User != nil {
				return fmt.Errorf("want lichess's address, https://lichess.org (leave it out for that), got %q", s)
			}
			return nil
		}, func(b *Broadcast, s string) { b.URL = s }),
	},
	Check: func(d *tomldoc.Decoder, b *Broadcast, tab *tomldoc.Tab, path tomldoc.Key) {
		switch {
		case tab.Get("round") != nil && tab.Get("range") != nil:
			d.Errorf(d.Line("broadcast", "range"), path, "round and [[broadcast.range]] both: give round alone for one lichess round of every board, or a [[broadcast.range]] table for each round")
		case tab.Get("round") == nil && tab.Get("range") == nil:
			d.Errorf(d.Line(path...), path, "missing: round, the lichess round's id, or [[broadcast.range]] tables")
		}
		seen := map[string]bool{}
		for _, r := range b.Ranges {
			if seen[r.Round] {
				d.Errorf(d.Line("broadcast", "range"), path, "round %s is given twice: each range pushes to a round of its own", r.Round)
			}
			seen[r.Round] = true
		}
	},
}

// rangeTable is the schema of one [[broadcast.range]].
var rangeTable = &tomldoc.Schema[broadcast.Range]{
	Fields: []tomldoc.Field[broadcast.Range]{
		tomldoc.StringField("boards", web.CheckBoards, func(r *broadcast.Range, s string) { r.Boards = s }).Needed(`the boards the round shows ("1-100")`),
		tomldoc.StringField("round", broadcast.CheckRound, func(r *broadcast.Range, s string) { r.Round = s }).Needed("the lichess round's id"),
	},
}

// secretFile is a key naming a file that holds a password or a token (at
// least min characters), which is read at once.
func secretFile[T any](key string, set func(c *T, secret []byte), min int) tomldoc.Field[T] {
	return tomldoc.Field[T]{Key: key, Want: "a file name", Read: func(d *tomldoc.Decoder, c *T, v *tomldoc.Value, path tomldoc.Key) {
		p, ok := d.FileName(v, path)
		if !ok {
			return
		}
		b, err := ReadPassword(p)
		switch {
		case err != nil:
			d.Errorf(v.Line, path, "%v", err)
		case len(b) < min:
			d.Errorf(v.Line, path, "%s: the token has %d characters, want at least %d", p, len(b), min)
		}
		set(c, b)
	}}
}

// Off is the address of a listener the hall does not open.
const Off = "off"

func hostPortOrOff(s string) error {
	if s == Off {
		return nil
	}
	if _, _, err := net.SplitHostPort(s); err != nil {
		return fmt.Errorf("want host:port or \"off\", got %q", s)
	}
	return nil
}

func hostPort(s string) error {
	if _, _, err := net.SplitHostPort(s); err != nil {
		return fmt.Errorf("want host:port, got %q", s)
	}
	return nil
}

// ReadPassword reads a password file: its content, a final newline
// dropped.
func ReadPassword(path string) ([]byte, error) {
	b, err := regfile.ReadFile(path, regfile.Opts{Max: 4096})
	if err != nil {
		return nil, fmt.Errorf("cannot read: %v", err)
	}
	b = bytes.TrimRight(b, "\r\n")
	if len(b) == 0 {
		return nil, fmt.Errorf("%s is empty", path)
	}
	return b, nil
}

// CheckHall checks a hall name: one topic level of letters, digits, '-'
// and '_', at most 64.
func CheckHall(s string) error {
	if s == "" || len(s) > 64 || strings.ContainsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_')
	}) {
		return fmt.Errorf("want 1 to 64 letters, digits, '-' or '_' (it is an MQTT topic level), got %q", s)
	}
	return nil
}

func checkBroker(s string) error {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "mqtt" && u.Scheme != "mqtts") || u.Host == "" || u.Path != "" && u.Path != "/" {
		return fmt.Errorf("want mqtt://host:port or mqtts://host:port, got %q", s)
	}
	return nil
}

// off reports whether a listener's address is none.
func off(addr string) bool { return addr == "" || addr == Off }

// IsLoopback reports whether addr (host:port) listens on loopback only.
func IsLoopback(addr string) bool {
	h, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// Check reports what is wrong with c as a whole.
func (c Config) Check() error {
	var errs []error
	if err := CheckHall(c.Hall); err != nil {
		errs = append(errs, fmt.Errorf("hall: %v", err))
	}
	if c.Broker == "" {
		for _, a := range []string{c.MQTT, c.MQTTS} {
			if a != Off && a != "" && !IsLoopback(a) && len(c.Clocks) == 0 {
				errs = append(errs, fmt.Errorf("the embedded broker on %s is not on loopback: it needs the clocks' users ([clocks] in hall.toml), anonymous clients are accepted on loopback only", a))
			}
		}
		if off(c.MQTT) && off(c.MQTTS) {
			errs = append(errs, errors.New(`mqtt and mqtts are both "off": the embedded broker needs one of them`))
		}
		if c.CertFile != "" && off(c.MQTTS) {
			errs = append(errs, errors.New(`cert_file and key_file are the embedded broker's TLS listener's, and mqtts is "off"`))
		}
		// cert_file once made the mqtt listener TLS; it is mqtts's now. A
		// hall.toml of then would serve plain MQTT where it meant TLS.
		if c.CertFile != "" && !off(c.MQTT) && !IsLoopback(c.MQTT) {
			errs = append(errs, fmt.Errorf(`mqtt %s is plain MQTT off loopback, with cert_file: cert_file and key_file are the TLS listener's, mqtts; give the address as mqtts = %q, and mqtt = "off" or a loopback address`, c.MQTT, c.MQTT))
		}
	}
	if c.Broker != "" {
		if err := checkBroker(c.Broker); err != nil {
			errs = append(errs, fmt.Errorf("broker: %v", err))
		}
		if c.CertFile != "" {
			errs = append(errs, errors.New("cert_file and key_file are the embedded broker's; with broker the outside broker has its own"))
		}
	}
	if c.Data == "" {
		errs = append(errs, errors.New("no data directory"))
	}
	return errors.Join(errs...)
}
