// Package halltable reads and checks the [hall] table of zeitnot.toml:
// where a clock publishes its state and log (appliance/link). It is its
// own package so that `zeitnot config check`, the import from the boot
// partition or a USB stick (appliance/config) and the link refuse exactly
// the same tables with the same messages, without the config package
// depending on the link's MQTT client (when they differed, a table the
// link refused was imported, the link exited 78 and the clock silently
// left the hall).
package halltable

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/url"
	"strconv"

	"github.com/zeitnot/zeitnot/internal/regfile"
	"github.com/zeitnot/zeitnot/internal/tomldoc"
	"github.com/zeitnot/zeitnot/protocol"
)

// Config is the [hall] table of zeitnot.toml: where the clock publishes.
type Config struct {
	File string // the config file it was read from, for messages

	Broker *url.URL // mqtt://host[:port] or mqtts://host[:port], with the port filled in
	Hall   string   // the topic namespace: zeitnot/v1/{Hall}/...
	Board  int      // the board number, 1 to protocol.MaxBoard

	Username string
	Password []byte // from password or password_file; nil: none

	CAFile   string // PEM CA certificates the broker's certificate must chain to; "" with mqtts: the system's
	CertFile string // client certificate (PEM), with KeyFile
	KeyFile  string
}

// Limits of the [hall] table.
const (
	maxConfigSize = 1 << 20 // as the daemon's config
	maxSecretSize = 64 << 10
)

// ConfigError is one problem in the [hall] table: FILE:LINE: hall.KEY: what is wrong.
type ConfigError = tomldoc.FileError

// ErrNoHall is returned by LoadConfig and ParseConfig for a config file
// without a [hall] table: the clock is not linked to a hall.
var ErrNoHall = errors.New("no [hall] table: the clock is not linked to a hall")

// LoadConfig reads the [hall] table of the config file at path, and the
// password file it names. Every other table is left to the daemon. A file
// without the table gives ErrNoHall (wrapped, naming the file); a missing
// file too. Problems are *ConfigError values, joined.
func LoadConfig(path string) (Config, error) {
	data, err := regfile.ReadFile(path, regfile.Opts{Max: maxConfigSize})
	if errors.Is(err, fs.ErrNotExist) {
		return Config{}, fmt.Errorf("%s: no such file: %w", path, ErrNoHall)
	}
	if err != nil {
		return Config{}, &ConfigError{File: path, Msg: "cannot read: " + regfile.WithoutPath(err).Error()}
	}
	return ParseConfig(path, data)
}

// table is what the [hall] table holds before its files are read.
type table struct {
	Config
	password, passwordFile string
}

// Table is the schema of the [hall] table, in the order the documentation
// gives the keys.
var Table = &tomldoc.Schema[table]{
	Fields: []tomldoc.Field[table]{
		tomldoc.CustomField("broker", "mqtts://host:port or mqtt://host:port", func(t *table, v *tomldoc.Value) error {
			s, ok := v.V.(string)
			if !ok {
				return tomldoc.Want("a string")
			}
			if err := tomldoc.CheckText(s); err != nil {
				return fmt.Errorf("%v in %q", err, s)
			}
			u, err := parseBroker(s)
			t.Broker = u
			return err
		}).Needed("the broker's address, mqtts://host:port or mqtt://host:port"),
		tomldoc.StringField("hall", protocol.CheckHall, func(t *table, s string) { t.Hall = s }).
			Needed("the hall's name, the topic namespace"),
		tomldoc.IntField("board", 1, protocol.MaxBoard, func(t *table, n int64) { t.Board = int(n) }).
			Needed("the board number"),
		tomldoc.StringField("username", func(s string) error {
			if len(s) > 256 {
				return errors.New("longer than 256 bytes")
			}
			return nil
		}, func(t *table, s string) { t.Username = s }),
		tomldoc.SecretField("password", nil, func(t *table, s string) { t.password, t.Password = s, []byte(s) }),
		tomldoc.FileField("password_file", func(t *table, p string) { t.passwordFile = p }),
		tomldoc.FileField("ca_file", func(t *table, p string) { t.CAFile = p }),
		tomldoc.FileField("cert_file", func(t *table, p string) { t.CertFile = p }),
		tomldoc.FileField("key_file", func(t *table, p string) { t.KeyFile = p }),
	},
	Check: func(d *tomldoc.Decoder, c *table, tab *tomldoc.Tab, path tomldoc.Key) {
		at := func(k string) (int, tomldoc.Key) { return d.Line("hall", k), tomldoc.Key{"hall", k} }
		if c.password != "" && c.passwordFile != "" {
			l, k := at("password_file")
			d.Errorf(l, k, "give password or password_file, not both")
		}
		if (c.CertFile == "") != (c.KeyFile == "") {
			missing, given := "cert_file", "key_file"
			if c.CertFile != "" {
				missing, given = given, missing
			}
			l, _ := at(given)
			_, k := at(missing)
			d.Errorf(l, k, "missing: a client certificate needs both cert_file and key_file")
		}
		if c.Broker != nil && c.Broker.Scheme == "mqtt" {
			for _, k := range []string{"ca_file", "cert_file", "key_file"} {
				if tab.Get(k) != nil {
					l, p := at(k)
					d.Errorf(l, p, "needs an mqtts:// broker (TLS); %q is plain TCP", c.Broker.String())
				}
			}
		}
	},
}

// ParseConfig reads the [hall] table from a config file's contents; name
// is the file's path, for messages and for relative file names (taken from
// the file's directory). It reads the password file if one is named.
func ParseConfig(name string, data []byte) (Config, error) {
	return parse(name, data, CheckOpts{})
}

// CheckOpts say how Check reads a table that the link reads later,
// elsewhere.
type CheckOpts struct {
	// Dir, if set, is the directory relative file names are taken from
	// instead of the file's own: where the file will be when the link
	// reads it (an import writes it to the state directory).
	Dir string
	// MissingOK: a password file that does not exist is not a problem
	// (the check may run on another machine than the clock's).
	MissingOK bool
}

// Check returns every problem of the [hall] table of a config file's
// contents that ParseConfig would refuse, with the same messages, or
// nothing when the file has no [hall] table or a good one. name is the
// file's path for messages. It reads the password file, if one is named,
// as ParseConfig does, and then forgets it.
func Check(name string, data []byte, o CheckOpts) []error {
	_, err := parse(name, data, o)
	if err == nil || errors.Is(err, ErrNoHall) {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

func parse(name string, data []byte, o CheckOpts) (Config, error) {
	d, e := tomldoc.NewDecoder(name, data)
	if e != nil {
		return Config{}, e
	}
	d.Dir = o.Dir
	raw := d.Doc.Root.Get("hall")
	if raw == nil {
		return Config{}, fmt.Errorf("%s: %w", name, ErrNoHall)
	}
	t := table{Config: Config{File: name}}
	if !Table.DecodeTable(d, raw, tomldoc.Key{"hall"}, &t) {
		return Config{}, d.Err()
	}
	if t.passwordFile != "" && d.OK() {
		line, key := d.Line("hall", "password_file"), tomldoc.Key{"hall", "password_file"}
		b, err := regfile.ReadFile(t.passwordFile, regfile.Opts{Max: maxSecretSize})
		switch {
		case err != nil && o.MissingOK && errors.Is(err, fs.ErrNotExist):
		case err != nil:
			d.Errorf(line, key, "cannot read: %v", err)
		default:
			b = bytes.TrimRight(b, "\r\n")
			if len(b) == 0 {
				d.Errorf(line, key, "%s is empty", t.passwordFile)
			}
			t.Password = b
		}
	}
	if !d.OK() {
		return Config{}, d.Err()
	}
	return t.Config, nil
}

// parseBroker checks a broker address: mqtt://host[:port] (plain TCP,
// port 1883) or mqtts://host[:port] (TLS, port 8883), nothing else.
func parseBroker(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("want mqtts://host:port or mqtt://host:port, got %q", s)
	}
	var port string
	switch u.Scheme {
	case "mqtts":
		port = "8883"
	case "mqtt":
		port = "1883"
	default:
		return nil, fmt.Errorf("want mqtts://host:port (TLS) or mqtt://host:port (plain TCP), got %q", s)
	}
	if u.User != nil {
		return nil, fmt.Errorf("put the user name and password in username and password_file, not in the address %q", u.Redacted())
	}
	if u.Host == "" || u.Hostname() == "" || u.Opaque != "" {
		return nil, fmt.Errorf("no host in %q", s)
	}
	if (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("want only scheme, host and port, got %q", s)
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return nil, fmt.Errorf("port %q: want a number from 1 to 65535", p)
		}
		port = p
	}
	return &url.URL{Scheme: u.Scheme, Host: net.JoinHostPort(u.Hostname(), port)}, nil
}

// TLS returns the TLS configuration for an mqtts:// broker, reading the CA
// and client certificate files now; nil for mqtt://. Errors name the file.
func (c Config) TLS() (*tls.Config, error) {
	if c.Broker == nil || c.Broker.Scheme != "mqtts" {
		return nil, nil
	}
	t := &tls.Config{ServerName: c.Broker.Hostname(), MinVersion: tls.VersionTLS12}
	if c.CAFile != "" {
		pem, err := regfile.ReadFile(c.CAFile, regfile.Opts{Max: maxSecretSize})
		if err != nil {
			return nil, fmt.Errorf("hall.ca_file: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("hall.ca_file: %s: no PEM certificate in it", c.CAFile)
		}
		t.RootCAs = pool
	}
	if c.CertFile != "" {
		cert, err := regfile.ReadFile(c.CertFile, regfile.Opts{Max: maxSecretSize})
		if err != nil {
			return nil, fmt.Errorf("hall.cert_file: %w", err)
		}
		key, err := regfile.ReadFile(c.KeyFile, regfile.Opts{Max: maxSecretSize})
		if err != nil {
			return nil, fmt.Errorf("hall.key_file: %w", err)
		}
		pair, err := tls.X509KeyPair(cert, key)
		if err != nil {
			return nil, fmt.Errorf("hall.cert_file %s, key_file %s: %w", c.CertFile, c.KeyFile, err)
		}
		t.Certificates = []tls.Certificate{pair}
	}
	return t, nil
}
