package network

import (
	"errors"
	"fmt"
	"io/fs"
	"net/netip"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/zeitnot/zeitnot/internal/regfile"
	"github.com/zeitnot/zeitnot/internal/suggest"
	"github.com/zeitnot/zeitnot/internal/tomldoc"
)

// Config is the [network] table of zeitnot.toml.
type Config struct {
	File string // the config file it was read from, for messages and the files' headers

	// On is whether the file has a [network] table. Without one the clock
	// stays off the network: the other fields are empty and Files gives no
	// file.
	On bool

	// Ethernet: the wired ports are configured, by DHCP unless Address is
	// set.
	Ethernet bool
	// Address is the fixed IPv4 address of Ethernet with its prefix length
	// (192.168.1.50/24, the address not masked); the zero Prefix means DHCP.
	Address netip.Prefix
	// Gateway is the default route with a fixed address; zero: none.
	Gateway netip.Addr
	// DNS are the DNS servers with a fixed address.
	DNS []netip.Addr

	// NTP are the NTP servers for systemd-timesyncd, host names or
	// addresses; none: its defaults.
	NTP []string

	// WiFi is the [network.wifi] table; nil: no Wi-Fi.
	WiFi *WiFi
}

// WiFi is the [network.wifi] table: one WPA2-PSK network.
type WiFi struct {
	SSID    string // 1 to 32 bytes
	Country string // ISO 3166 alpha-2, two capital letters
	// Passphrase is 8 to 63 printable ASCII characters. Parse and Load
	// read it from PassphraseFile when the table names one; CheckFile
	// leaves it empty then.
	Passphrase     string
	PassphraseFile string // absolute; "" when the passphrase is in the table
}

// Limits of the [network] table.
const (
	MaxSSIDLen       = 32
	MinPassphraseLen = 8
	MaxPassphraseLen = 63
	MaxServers       = 8 // entries in ntp or dns

	maxConfigSize     = 1 << 20 // as the daemon's config
	maxPassphraseFile = 4 << 10
	maxHostLen        = 253
)

// ConfigError is one problem in the [network] table: FILE:LINE: network.KEY: what is wrong.
type ConfigError = tomldoc.FileError

// The keys of [network] and [network.wifi], in the order the documentation
// gives.
var (
	networkKeys = []string{"ethernet", "address", "gateway", "dns", "ntp", "wifi"}
	wifiKeys    = []string{"ssid", "passphrase", "passphrase_file", "country"}
)

// Load reads the [network] table of the config file at path, and the
// passphrase file it names. A missing file is a file without the table:
// Config.On is false, and the error nil. Problems are *ConfigError values,
// joined.
func Load(path string) (Config, error) {
	data, err := regfile.ReadFile(path, regfile.Opts{Max: maxConfigSize})
	if errors.Is(err, fs.ErrNotExist) {
		return Config{File: path}, nil
	}
	if err != nil {
		return Config{}, &ConfigError{File: path, Msg: "cannot read: " + regfile.WithoutPath(err).Error()}
	}
	return Parse(path, data)
}

// Parse reads the [network] table from a config file's contents; name is
// the file's path, for messages and for a relative passphrase_file (taken
// from the file's directory), which it reads. A document without the table
// gives Config.On false and no error.
func Parse(name string, data []byte) (Config, error) {
	c, errs := parse(name, data, true)
	if len(errs) > 0 {
		return Config{}, errors.Join(errs...)
	}
	return c, nil
}

// CheckFile returns the problems of the [network] table of the file at
// path, for `zeitnot config check`. It leaves out what that command
// reports itself: a file that is missing, cannot be read or is not TOML
// gives none here. It does not read passphrase_file, a file on the clock.
func CheckFile(path string) []error {
	data, err := regfile.ReadFile(path, regfile.Opts{Max: maxConfigSize})
	if err != nil {
		return nil
	}
	if _, err := tomldoc.Parse(data); err != nil {
		return nil
	}
	_, errs := parse(path, data, false)
	return errs
}

// CheckData returns the problems of the [network] table in a config file's
// contents (name for messages), as CheckFile does, for a file already read:
// `zeitnot config import` refuses a file whose [network] table the clock
// could not use, so the problems reach the display instead of only the
// journal of zeitnot-network.service.
func CheckData(name string, data []byte) []error {
	if _, err := tomldoc.Parse(data); err != nil {
		return nil
	}
	_, errs := parse(name, data, false)
	return errs
}

// parser holds what parse needs while it reads the table.
type parser struct {
	name string
	doc  *tomldoc.Doc
	errs []error
}

func (p *parser) bad(line int, key, format string, a ...any) {
	p.errs = append(p.errs, &ConfigError{File: p.name, Line: line, Key: key, Msg: fmt.Sprintf(format, a...)})
}

// parse is Parse; with secrets, passphrase_file is read.
func parse(name string, data []byte, secrets bool) (Config, []error) {
	doc, e := tomldoc.ParseFile(name, data)
	if e != nil {
		return Config{}, []error{e}
	}
	c := Config{File: name}
	raw := doc.Root.Get("network")
	if raw == nil {
		return c, nil
	}
	p := &parser{name: name, doc: doc}
	tab := raw.Table()
	if tab == nil || raw.ArrayOfTables {
		p.bad(raw.Line, "network", "want a table [network], got %s", describe(raw))
		return Config{}, p.errs
	}
	c.On, c.Ethernet = true, true
	var wifi *tomldoc.Value
	var addressLine int
	for _, k := range tab.Keys {
		v := tab.Get(k)
		key := "network." + k
		if v.Err != nil {
			p.bad(v.Line, key, "%v", v.Err)
			continue
		}
		switch k {
		case "ethernet":
			b, ok := v.V.(bool)
			if !ok {
				p.bad(v.Line, key, "want true or false, got %s", describe(v))
				continue
			}
			c.Ethernet = b
		case "address":
			if s, ok := p.str(v, key, false); ok {
				pre, err := parseAddress(s)
				if err != nil {
					p.bad(v.Line, key, "%v", err)
					continue
				}
				c.Address, addressLine = pre, v.Line
			}
		case "gateway":
			if s, ok := p.str(v, key, false); ok {
				a, err := netip.ParseAddr(s)
				if err != nil || !a.Is4() {
					p.bad(v.Line, key, "want an IPv4 address, like \"192.168.1.1\", got %q", s)
					continue
				}
				c.Gateway = a
			}
		case "dns":
			for _, e := range p.list(v, key) {
				a, err := netip.ParseAddr(e.s)
				if err != nil || a.Zone() != "" || a.IsUnspecified() || a.IsMulticast() {
					p.bad(e.line, key, "want an IP address, like \"192.168.1.1\", got %q", e.s)
					continue
				}
				c.DNS = append(c.DNS, a)
			}
		case "ntp":
			for _, e := range p.list(v, key) {
				if err := checkHost(e.s); err != nil {
					p.bad(e.line, key, "%v", err)
					continue
				}
				c.NTP = append(c.NTP, e.s)
			}
		case "wifi":
			wifi = v
		default:
			p.unknown(v.Line, "network", k, networkKeys)
		}
	}
	tabLine := raw.Line
	if c.Address.IsValid() && !c.Ethernet {
		p.bad(addressLine, "network.address", "a fixed address is for Ethernet, which is off (ethernet = false)")
	}
	if !c.Address.IsValid() {
		for _, k := range []string{"gateway", "dns"} {
			if v := tab.Get(k); v != nil {
				p.bad(v.Line, "network."+k, "needs address, a fixed IPv4 address: with DHCP the DHCP server gives the %s", map[string]string{"gateway": "gateway", "dns": "DNS servers"}[k])
			}
		}
	} else if c.Gateway.IsValid() {
		if err := checkGateway(c.Address, c.Gateway); err != nil {
			p.bad(tab.Get("gateway").Line, "network.gateway", "%v", err)
		}
	}
	if wifi != nil {
		c.WiFi = p.wifi(wifi, secrets)
	}
	if !c.Ethernet && wifi == nil {
		line := tabLine
		if v := tab.Get("ethernet"); v != nil {
			line = v.Line
		}
		p.bad(line, "network.ethernet", "the clock would have no network: set ethernet = true, add [network.wifi], or remove [network]")
	}
	if len(p.errs) > 0 {
		return Config{}, p.errs
	}
	return c, nil
}

// wifi reads the [network.wifi] table v.
func (p *parser) wifi(v *tomldoc.Value, secrets bool) *WiFi {
	tab := v.Table()
	if tab == nil || v.ArrayOfTables {
		p.bad(v.Line, "network.wifi", "want a table [network.wifi], got %s", describe(v))
		return nil
	}
	w := &WiFi{}
	var fileLine int
	for _, k := range tab.Keys {
		e := tab.Get(k)
		key := "network.wifi." + k
		if e.Err != nil {
			p.bad(e.Line, key, "%v", e.Err)
			continue
		}
		switch k {
		case "ssid":
			if s, ok := p.str(e, key, false); ok {
				if len(s) == 0 || len(s) > MaxSSIDLen {
					p.bad(e.Line, key, "want 1 to %d bytes, got %d", MaxSSIDLen, len(s))
					continue
				}
				w.SSID = s
			}
		case "passphrase":
			if s, ok := p.str(e, key, true); ok {
				if err := checkPassphrase(s); err != nil {
					p.bad(e.Line, key, "%v", err)
					continue
				}
				w.Passphrase = s
			}
		case "passphrase_file":
			if s, ok := p.str(e, key, false); ok {
				if s == "" {
					p.bad(e.Line, key, "want a file name, got an empty string")
					continue
				}
				if !filepath.IsAbs(s) {
					s = filepath.Join(filepath.Dir(p.name), s)
				}
				w.PassphraseFile, fileLine = s, e.Line
			}
		case "country":
			if s, ok := p.str(e, key, false); ok {
				if err := checkCountry(s); err != nil {
					p.bad(e.Line, key, "%v", err)
					continue
				}
				w.Country = s
			}
		default:
			p.unknown(e.Line, "network.wifi", k, wifiKeys)
		}
	}
	for _, k := range []string{"ssid", "country"} {
		if tab.Get(k) == nil {
			why := map[string]string{
				"ssid":    "the name of the Wi-Fi network",
				"country": "the country the clock is in, two capital letters like \"DE\": it sets which channels and power the radio may use",
			}[k]
			p.bad(v.Line, "network.wifi."+k, "missing: %s", why)
		}
	}
	switch has, hasFile := tab.Get("passphrase") != nil, tab.Get("passphrase_file") != nil; {
	case has && hasFile:
		p.bad(fileLine, "network.wifi.passphrase_file", "give passphrase or passphrase_file, not both")
	case !has && !hasFile:
		p.bad(v.Line, "network.wifi.passphrase", "missing: give passphrase or passphrase_file (WPA2-PSK; open networks are not supported)")
	case hasFile && secrets && w.PassphraseFile != "" && len(p.errs) == 0:
		s, err := readPassphrase(w.PassphraseFile)
		if err != nil {
			p.bad(fileLine, "network.wifi.passphrase_file", "%v", err)
		}
		w.Passphrase = s
	}
	return w
}

// readPassphrase reads a passphrase file: one line, its line end dropped.
func readPassphrase(path string) (string, error) {
	b, err := regfile.ReadFile(path, regfile.Opts{Max: maxPassphraseFile})
	if err != nil {
		return "", fmt.Errorf("cannot read: %w", err)
	}
	s := strings.TrimSuffix(strings.TrimSuffix(string(b), "\n"), "\r")
	if err := checkPassphrase(s); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

func (p *parser) unknown(line int, table, k string, keys []string) {
	msg := fmt.Sprintf("unknown key; [%s] has %s", table, strings.Join(keys, ", "))
	if s := suggest.Nearest(k, keys); s != "" {
		msg = fmt.Sprintf("unknown key (did you mean %s?)", s)
	}
	p.bad(line, table+"."+k, "%s", msg)
}

// str returns v's string, which must be valid UTF-8 without control
// characters. A secret is never repeated in a message.
func (p *parser) str(v *tomldoc.Value, key string, secret bool) (string, bool) {
	s, ok := v.V.(string)
	if !ok {
		what := describe(v)
		if secret {
			what = kindName(v)
		}
		p.bad(v.Line, key, "want a string, got %s", what)
		return "", false
	}
	if !utf8.ValidString(s) || strings.ContainsFunc(s, isControl) {
		if secret {
			p.bad(v.Line, key, "control characters or invalid UTF-8 in it")
		} else {
			p.bad(v.Line, key, "control characters or invalid UTF-8 in %q", s)
		}
		return "", false
	}
	return s, true
}

type entry struct {
	s    string
	line int
}

// list reads a string or an array of strings: 1 to MaxServers different
// ones.
func (p *parser) list(v *tomldoc.Value, key string) []entry {
	if v.Kind == tomldoc.String {
		if s, ok := p.str(v, key, false); ok {
			return []entry{{s, v.Line}}
		}
		return nil
	}
	a, ok := v.V.([]*tomldoc.Value)
	if !ok || v.ArrayOfTables {
		p.bad(v.Line, key, "want a string or a list of strings, got %s", describe(v))
		return nil
	}
	if len(a) == 0 || len(a) > MaxServers {
		p.bad(v.Line, key, "want 1 to %d entries, got %d (leave %s out for none)", MaxServers, len(a), key)
		return nil
	}
	var out []entry
	var seen []string
	for _, e := range a {
		if e.Err != nil {
			p.bad(e.Line, key, "%v", e.Err)
			continue
		}
		if e.Kind != tomldoc.String {
			p.bad(e.Line, key, "want a string, got %s", describe(e))
			continue
		}
		s, ok := p.str(e, key, false)
		if !ok {
			continue
		}
		if slices.Contains(seen, strings.ToLower(s)) {
			p.bad(e.Line, key, "%q is there twice", s)
			continue
		}
		seen = append(seen, strings.ToLower(s))
		out = append(out, entry{s, e.Line})
	}
	return out
}

// parseAddress checks a fixed address: an IPv4 host address with its
// prefix length, neither the subnet's own address nor its broadcast.
func parseAddress(s string) (netip.Prefix, error) {
	pre, err := netip.ParsePrefix(s)
	if err != nil || !pre.Addr().Is4() {
		return netip.Prefix{}, fmt.Errorf("want an IPv4 address with its prefix length, like \"192.168.1.50/24\", got %q", s)
	}
	a := pre.Addr()
	if pre.Bits() < 8 {
		return netip.Prefix{}, fmt.Errorf("prefix length /%d: want /8 to /32 (a /24 subnet is 255.255.255.0)", pre.Bits())
	}
	if a.IsUnspecified() || a.IsLoopback() || a.IsMulticast() || a == netip.AddrFrom4([4]byte{255, 255, 255, 255}) {
		return netip.Prefix{}, fmt.Errorf("%s cannot be the clock's address", a)
	}
	if pre.Bits() <= 30 {
		if a == pre.Masked().Addr() {
			return netip.Prefix{}, fmt.Errorf("%s is the subnet %s itself, not an address in it", a, pre.Masked())
		}
		if a == broadcast(pre) {
			return netip.Prefix{}, fmt.Errorf("%s is the broadcast address of %s, not a host's", a, pre.Masked())
		}
	}
	return pre, nil
}

// checkGateway checks that gw is a host of the clock's subnet, not the
// clock itself.
func checkGateway(pre netip.Prefix, gw netip.Addr) error {
	switch {
	case !pre.Masked().Contains(gw):
		return fmt.Errorf("%s is not in the clock's subnet %s (address = %q)", gw, pre.Masked(), pre.String())
	case gw == pre.Addr():
		return fmt.Errorf("%s is the clock's own address", gw)
	case pre.Bits() <= 30 && (gw == pre.Masked().Addr() || gw == broadcast(pre)):
		return fmt.Errorf("%s is the subnet's own or broadcast address, not a host's", gw)
	}
	return nil
}

// broadcast returns the last address of pre's subnet.
func broadcast(pre netip.Prefix) netip.Addr {
	b := pre.Masked().Addr().As4()
	for i := pre.Bits(); i < 32; i++ {
		b[i/8] |= 0x80 >> (i % 8)
	}
	return netip.AddrFrom4(b)
}

// checkHost checks an NTP server: an IP address, or a host name of
// letters, digits and '-' in dot-separated labels (arbiter.local,
// 0.debian.pool.ntp.org).
func checkHost(s string) error {
	if a, err := netip.ParseAddr(s); err == nil {
		if a.Zone() != "" || a.IsUnspecified() || a.IsMulticast() {
			return fmt.Errorf("%q cannot be an NTP server", s)
		}
		return nil
	}
	wrong := fmt.Errorf("want a host name like \"arbiter.local\" or an IP address, got %q", s)
	if s == "" || len(s) > maxHostLen {
		return wrong
	}
	labels := strings.Split(s, ".")
	for _, l := range labels {
		if len(l) == 0 || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return wrong
		}
		for i := 0; i < len(l); i++ {
			c := l[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
				return wrong
			}
		}
	}
	if last := labels[len(labels)-1]; strings.Trim(last, "0123456789") == "" {
		// 192.168.1.300: meant as an address, and not one.
		return fmt.Errorf("%q is neither an IP address nor a host name", s)
	}
	return nil
}

// checkPassphrase checks a WPA2 passphrase without repeating it.
func checkPassphrase(s string) error {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return fmt.Errorf("character %d is not printable ASCII: a WPA2 passphrase is letters, digits, spaces and ASCII punctuation", utf8.RuneCountInString(s[:i])+1)
		}
	}
	if n := len(s); n < MinPassphraseLen || n > MaxPassphraseLen {
		return fmt.Errorf("want %d to %d characters (WPA2), got %d", MinPassphraseLen, MaxPassphraseLen, n)
	}
	return nil
}

// checkCountry checks an ISO 3166 alpha-2 code: two capital letters.
func checkCountry(s string) error {
	ok := len(s) == 2
	for i := 0; i < len(s); i++ {
		ok = ok && s[i] >= 'A' && s[i] <= 'Z'
	}
	if ok {
		return nil
	}
	msg := fmt.Sprintf("want two capital letters (ISO 3166), like \"DE\", got %q", s)
	if u := strings.ToUpper(s); u != s && checkCountry(u) == nil {
		msg += fmt.Sprintf(" (did you mean %q?)", u)
	}
	return errors.New(msg)
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }

// kindName names a value's kind alone.
func kindName(v *tomldoc.Value) string {
	switch v.Kind {
	case tomldoc.String:
		return "a string"
	case tomldoc.Integer:
		return "a number"
	case tomldoc.Float:
		return "a number"
	case tomldoc.Bool:
		return "true or false"
	case tomldoc.Datetime:
		return "a date or time"
	case tomldoc.Array:
		return "an array"
	case tomldoc.Table:
		return "a table"
	}
	return "nothing"
}

// describe names a value for an error message.
func describe(v *tomldoc.Value) string {
	switch v.Kind {
	case tomldoc.String:
		return strconv.Quote(v.V.(string))
	case tomldoc.Array, tomldoc.Table:
		return kindName(v)
	}
	if v.Raw != "" {
		return v.Raw
	}
	return kindName(v)
}
