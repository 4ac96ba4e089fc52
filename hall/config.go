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
	"strings"
	"time"

	"github.com/zeitnot/zeitnot/hall/auth"
	"github.com/zeitnot/zeitnot/hall/broker"
	"github.com/zeitnot/zeitnot/internal/regfile"
	"github.com/zeitnot/zeitnot/internal/suggest"
	"github.com/zeitnot/zeitnot/internal/tomldoc"
)

// Config is the hall's setup: the flags of `zeitnot-hall`, or hall.toml
// with the same keys.
type Config struct {
	File string // the hall.toml it was read from, "" for none

	HTTP string // the pages' address, default 127.0.0.1:8080
	MQTT string // the embedded broker's address, default 127.0.0.1:1883
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
	// CertFile and KeyFile make the embedded broker TLS.
	CertFile, KeyFile string
	Data              string // the data directory
	Hall              string // the topic namespace, default club
	Title             string // what the pages call the hall, default Hall
	// Site and Round are the PGN's Site ("Vienna AUT") and Round ("3")
	// tags; "" for "?".
	Site, Round string
	// Zone is the time zone the arbiter's round start is read in, an
	// IANA name ("Europe/Vienna"); "" is the laptop's own. The form
	// shows it.
	Zone string
	// BroadcastDelay is how far behind the games the round's feed for
	// broadcasts (/round.pgn) runs, against cheating: 15 to 30 minutes
	// at big events; 0 for none. The hall applies it, never the clock.
	BroadcastDelay time.Duration
	// Arbiters are the arbiters' logins: name -> bcrypt hash.
	Arbiters map[string]string
	// Clocks are the embedded broker's users: name -> board and hash.
	Clocks map[string]broker.User
	// APIToken is the scripts' token for the tournament API, read from
	// api_token_file (at least 16 characters); nil: no token is taken.
	APIToken []byte
}

// MaxBroadcastDelay is the longest broadcast_delay the hall takes.
const MaxBroadcastDelay = 6 * time.Hour

// Keys of hall.toml.
var configKeys = []string{"http", "mqtt", "broker", "broker_without_acl", "username", "password_file", "ca_file", "cert_file", "key_file", "data", "hall", "title", "site", "round", "zone", "broadcast_delay", "arbiters", "clocks", "api_token_file"}

// DefaultConfig is the hall with no flags and no file: a club evening.
func DefaultConfig() Config {
	return Config{HTTP: "127.0.0.1:8080", MQTT: "127.0.0.1:1883", Hall: "club", Data: DefaultDataDir()}
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
	doc, e := tomldoc.ParseFile(name, data)
	if e != nil {
		return c, e
	}
	c.File = name
	var errs []error
	bad := func(line int, key, format string, a ...any) {
		errs = append(errs, &ConfigError{File: name, Line: line, Key: key, Msg: fmt.Sprintf(format, a...)})
	}
	str := func(k string, v *tomldoc.Value) (string, bool) {
		s, ok := v.V.(string)
		if !ok || v.Err != nil {
			bad(v.Line, k, "want a string")
			return "", false
		}
		if strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			bad(v.Line, k, "control characters in %q", s)
			return "", false
		}
		return s, true
	}
	file := func(k string, v *tomldoc.Value) string {
		s, ok := str(k, v)
		if !ok {
			return ""
		}
		if s == "" {
			bad(v.Line, k, "want a file name, got an empty string")
			return ""
		}
		if !filepath.IsAbs(s) {
			s = filepath.Join(filepath.Dir(name), s)
		}
		return s
	}
	for _, k := range doc.Root.Keys {
		v := doc.Root.Get(k)
		switch k {
		case "http", "mqtt":
			if s, ok := str(k, v); ok {
				if _, _, err := net.SplitHostPort(s); err != nil {
					bad(v.Line, k, "want host:port, got %q", s)
				}
				if k == "http" {
					c.HTTP = s
				} else {
					c.MQTT = s
				}
			}
		case "broker":
			if s, ok := str(k, v); ok {
				if err := checkBroker(s); err != nil {
					bad(v.Line, k, "%v", err)
				}
				c.Broker = s
			}
		case "broker_without_acl":
			b, ok := v.V.(bool)
			if !ok || v.Err != nil {
				bad(v.Line, k, "want true or false")
			}
			c.BrokerWithoutACL = b
		case "username":
			if s, ok := str(k, v); ok {
				c.Username = s
			}
		case "password_file":
			if p := file(k, v); p != "" {
				pw, err := ReadPassword(p)
				if err != nil {
					bad(v.Line, k, "%v", err)
				}
				c.Password = pw
			}
		case "api_token_file":
			if p := file(k, v); p != "" {
				tok, err := ReadPassword(p)
				switch {
				case err != nil:
					bad(v.Line, k, "%v", err)
				case len(tok) < 16:
					bad(v.Line, k, "%s: the token has %d characters, want at least 16", p, len(tok))
				}
				c.APIToken = tok
			}
		case "ca_file":
			c.CAFile = file(k, v)
		case "cert_file":
			c.CertFile = file(k, v)
		case "key_file":
			c.KeyFile = file(k, v)
		case "data":
			c.Data = file(k, v)
		case "hall":
			if s, ok := str(k, v); ok {
				if err := CheckHall(s); err != nil {
					bad(v.Line, k, "%v", err)
				}
				c.Hall = s
			}
		case "title":
			if s, ok := str(k, v); ok {
				c.Title = s
			}
		case "site":
			if s, ok := str(k, v); ok {
				c.Site = s
			}
		case "round":
			if s, ok := str(k, v); ok {
				c.Round = s
			}
		case "zone":
			if s, ok := str(k, v); ok {
				if _, err := time.LoadLocation(s); err != nil || s == "" {
					bad(v.Line, k, "%q is no time zone the system knows (an IANA name: Europe/Vienna; leave it out for the laptop's own)", s)
				}
				c.Zone = s
			}
		case "broadcast_delay":
			if s, ok := str(k, v); ok {
				d, err := time.ParseDuration(s)
				if err != nil || d < 0 || d > MaxBroadcastDelay {
					bad(v.Line, k, "want a duration from \"0s\" to \"6h\" (\"15m\", \"30m\"), got %q", s)
				}
				c.BroadcastDelay = d
			}
		case "arbiters":
			t := v.Table()
			if t == nil {
				bad(v.Line, k, "want a table [arbiters]: name = \"bcrypt hash\"")
				continue
			}
			c.Arbiters = map[string]string{}
			for _, user := range t.Keys {
				uv := t.Get(user)
				h, ok := str("arbiters."+user, uv)
				if !ok {
					continue
				}
				if err := auth.CheckHash(h); err != nil {
					bad(uv.Line, "arbiters."+user, "want a bcrypt hash (zeitnot-hall --hash-password makes one): %v", err)
					continue
				}
				c.Arbiters[user] = h
			}
		case "clocks":
			t := v.Table()
			if t == nil {
				bad(v.Line, k, "want a table [clocks]: user = { board = 12, password_hash = \"sha256:...\" }")
				continue
			}
			c.Clocks = map[string]broker.User{}
			for _, user := range t.Keys {
				uv := t.Get(user)
				key := "clocks." + user
				ut := uv.Table()
				if ut == nil {
					bad(uv.Line, key, "want { board = N, password_hash = \"...\" }")
					continue
				}
				var u broker.User
				for _, f := range ut.Keys {
					fv := ut.Get(f)
					switch f {
					case "board":
						n, ok := fv.V.(int64)
						if !ok || n < 1 || n > 9999 {
							bad(fv.Line, key+".board", "want a whole number from 1 to 9999")
						}
						u.Board = int(n)
					case "password_hash":
						if h, ok := str(key+".password_hash", fv); ok {
							if err := broker.CheckHash(h); err != nil {
								bad(fv.Line, key+".password_hash", "%v", err)
							}
							u.Hash = h
						}
					default:
						bad(fv.Line, key+"."+f, "unknown key; a clock has board and password_hash")
					}
				}
				if u.Board == 0 || u.Hash == "" {
					bad(uv.Line, key, "needs board and password_hash")
					continue
				}
				c.Clocks[user] = u
			}
		default:
			msg := "unknown key; hall.toml has " + strings.Join(configKeys, ", ")
			if s := suggest.Nearest(k, configKeys); s != "" {
				msg = fmt.Sprintf("unknown key (did you mean %s?)", s)
			}
			bad(v.Line, k, "%s", msg)
		}
	}
	if (c.CertFile == "") != (c.KeyFile == "") {
		bad(0, "cert_file", "the embedded broker's TLS needs both cert_file and key_file")
	}
	return c, errors.Join(errs...)
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
	if c.Broker == "" && !IsLoopback(c.MQTT) && len(c.Clocks) == 0 {
		errs = append(errs, fmt.Errorf("the embedded broker on %s is not on loopback: it needs the clocks' users ([clocks] in hall.toml), anonymous clients are accepted on loopback only", c.MQTT))
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
