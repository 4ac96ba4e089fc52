// Package halltable reads and checks the [hall] table of zeitnot.toml:
// where a clock publishes its state and log (appliance/link). It is its
// own package so that `zeitnot config check`, the import from the boot
// partition or a USB stick (appliance/config) and the link refuse exactly
// the same tables with the same messages, without the config package
// depending on the link's MQTT client (issue 22 finding 10: a table the
// link refused was imported, the link exited 78 and the clock silently
// left the hall).
package halltable

import (
	"bytes"
	"cmp"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"github.com/zeitnot/zeitnot/protocol"
	"io/fs"
	"net"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/zeitnot/zeitnot/internal/regfile"
	"github.com/zeitnot/zeitnot/internal/suggest"
	"github.com/zeitnot/zeitnot/internal/tomldoc"
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

// hallKeys are the keys of [hall], in the order the documentation gives.
var hallKeys = []string{"broker", "hall", "board", "username", "password", "password_file", "ca_file", "cert_file", "key_file"}

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
	doc, e := tomldoc.ParseFile(name, data)
	if e != nil {
		return Config{}, e
	}
	raw := doc.Root.Get("hall")
	if raw == nil {
		return Config{}, fmt.Errorf("%s: %w", name, ErrNoHall)
	}
	lineOf := func(key ...string) int {
		for n := len(key); n > 0; n-- {
			if l := doc.Line(key[:n]...); l > 0 {
				return l
			}
		}
		return 0
	}
	var errs []error
	bad := func(key, format string, a ...any) {
		errs = append(errs, &ConfigError{File: name, Line: lineOf("hall", key), Key: "hall." + key, Msg: fmt.Sprintf(format, a...)})
	}
	tab := raw.Table()
	if tab == nil {
		return Config{}, &ConfigError{File: name, Line: lineOf("hall"), Key: "hall", Msg: fmt.Sprintf("want a table [hall], got %s", describe(raw.V))}
	}
	t := map[string]any{}
	var keys []string // in file order
	for _, k := range tab.Keys {
		v := tab.Get(k)
		if v.Err != nil {
			bad(k, "%v", v.Err)
			continue
		}
		t[k] = v.V
		keys = append(keys, k)
	}

	c := Config{File: name}
	str := func(k string) (string, bool) {
		s, ok := t[k].(string)
		if !ok {
			bad(k, "want a string, got %s", describe(t[k]))
			return "", false
		}
		if !utf8.ValidString(s) || strings.ContainsFunc(s, IsControl) {
			bad(k, "control characters or invalid UTF-8 in %q", s)
			return "", false
		}
		return s, true
	}
	path := func(k string) string {
		s, ok := str(k)
		if !ok {
			return ""
		}
		if s == "" {
			bad(k, "want a file name, got an empty string")
			return ""
		}
		if !filepath.IsAbs(s) {
			s = filepath.Join(cmp.Or(o.Dir, filepath.Dir(name)), s)
		}
		return s
	}
	var password, passwordFile string
	for _, k := range keys {
		switch k {
		case "broker":
			if s, ok := str(k); ok {
				u, err := parseBroker(s)
				if err != nil {
					bad(k, "%v", err)
				}
				c.Broker = u
			}
		case "hall":
			if s, ok := str(k); ok {
				if err := protocol.CheckHall(s); err != nil {
					bad(k, "%v", err)
				}
				c.Hall = s
			}
		case "board":
			n, ok := t[k].(int64)
			if !ok || n < 1 || n > protocol.MaxBoard {
				bad(k, "want a whole number from 1 to %d, got %s", protocol.MaxBoard, describe(t[k]))
			}
			c.Board = int(n)
		case "username":
			if s, ok := str(k); ok {
				if len(s) > 256 {
					bad(k, "longer than 256 bytes")
				}
				c.Username = s
			}
		case "password":
			if s, ok := str(k); ok {
				password = s
				c.Password = []byte(s)
			}
		case "password_file":
			passwordFile = path(k)
		case "ca_file":
			c.CAFile = path(k)
		case "cert_file":
			c.CertFile = path(k)
		case "key_file":
			c.KeyFile = path(k)
		default:
			msg := fmt.Sprintf("unknown key; [hall] has %s", strings.Join(hallKeys, ", "))
			if s := suggest.Nearest(k, hallKeys); s != "" {
				msg = fmt.Sprintf("unknown key (did you mean %s?)", s)
			}
			bad(k, "%s", msg)
		}
	}
	for _, k := range []string{"broker", "hall", "board"} {
		if _, ok := t[k]; !ok {
			errs = append(errs, &ConfigError{File: name, Line: lineOf("hall"), Key: "hall." + k, Msg: "missing; [hall] needs broker, hall and board"})
		}
	}
	if password != "" && passwordFile != "" {
		bad("password_file", "give password or password_file, not both")
	}
	if (c.CertFile == "") != (c.KeyFile == "") {
		missing, given := "cert_file", "key_file"
		if c.CertFile != "" {
			missing, given = given, missing
		}
		errs = append(errs, &ConfigError{File: name, Line: lineOf("hall", given), Key: "hall." + missing,
			Msg: "missing: a client certificate needs both cert_file and key_file"})
	}
	if c.Broker != nil && c.Broker.Scheme == "mqtt" {
		for _, k := range []string{"ca_file", "cert_file", "key_file"} {
			if _, ok := t[k]; ok {
				bad(k, "needs an mqtts:// broker (TLS); %q is plain TCP", c.Broker.String())
			}
		}
	}
	if passwordFile != "" && len(errs) == 0 {
		b, err := regfile.ReadFile(passwordFile, regfile.Opts{Max: maxSecretSize})
		switch {
		case err != nil && o.MissingOK && errors.Is(err, fs.ErrNotExist):
		case err != nil:
			bad("password_file", "cannot read: %v", err)
		default:
			b = bytes.TrimRight(b, "\r\n")
			if len(b) == 0 {
				bad("password_file", "%s is empty", passwordFile)
			}
			c.Password = b
		}
	}
	if len(errs) > 0 {
		return Config{}, errors.Join(errs...)
	}
	return c, nil
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

// IsControl reports whether r is a control character (C0, DEL or C1),
// which no key of [hall] nor a command's text may hold.
func IsControl(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }

// describe names a decoded TOML value for an error message.
func describe(v any) string {
	switch v := v.(type) {
	case string:
		return strconv.Quote(v)
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case bool:
		return strconv.FormatBool(v)
	case map[string]any:
		return "a table"
	case []any, []map[string]any:
		return "an array"
	case nil:
		return "nothing"
	}
	return fmt.Sprintf("%v", v)
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
