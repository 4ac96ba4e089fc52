package network

import (
	"errors"
	"fmt"
	"io/fs"
	"net/netip"
	"strings"
	"unicode/utf8"

	"github.com/zeitnot/zeitnot/internal/regfile"
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

// Table is the schema of the [network] table, in the order the
// documentation gives the keys.
var Table = &tomldoc.Schema[Config]{
	Fields: []tomldoc.Field[Config]{
		tomldoc.BoolField("ethernet", func(c *Config, b bool) { c.Ethernet = b }).Documented(
			"`true`: every wired port takes an address by DHCP; `false`: no Ethernet (then `[network.wifi]` is needed)", "`true`"),
		tomldoc.StringField("address", func(s string) error { _, err := parseAddress(s); return err },
			func(c *Config, s string) { c.Address, _ = parseAddress(s) }).Documented(
			"a fixed IPv4 address on Ethernet instead of DHCP, with its prefix length: `\"192.168.1.50/24\"`", "DHCP"),
		tomldoc.StringField("gateway", func(s string) error {
			if a, err := netip.ParseAddr(s); err != nil || !a.Is4() {
				return fmt.Errorf("want an IPv4 address, like \"192.168.1.1\", got %q", s)
			}
			return nil
		}, func(c *Config, s string) { c.Gateway = netip.MustParseAddr(s) }).Documented(
			"with `address`: the router, an IPv4 address in the same subnet", "none"),
		tomldoc.ListField("dns", MaxServers, func(s string) error {
			if a, err := netip.ParseAddr(s); err != nil || a.Zone() != "" || a.IsUnspecified() || a.IsMulticast() {
				return fmt.Errorf("want an IP address, like \"192.168.1.1\", got %q", s)
			}
			return nil
		}, func(c *Config, items []tomldoc.Item) {
			for _, it := range items {
				c.DNS = append(c.DNS, netip.MustParseAddr(it.S))
			}
		}).Documented(fmt.Sprintf("with `address`: DNS servers, an address or a list of up to %d", MaxServers), "none"),
		tomldoc.ListField("ntp", MaxServers, checkHost, func(c *Config, items []tomldoc.Item) {
			for _, it := range items {
				c.NTP = append(c.NTP, it.S)
			}
		}).Documented(fmt.Sprintf("NTP servers the clock sets its time from: host names (`\"arbiter.local\"`) or addresses, one or a list of up to %d", MaxServers),
			"those the DHCP server names, else Debian's pool (`0.debian.pool.ntp.org` to `3.`)"),
		tomldoc.TableField("wifi", WiFiTable, func(c *Config) *WiFi { c.WiFi = &WiFi{}; return c.WiFi }).Documented(
			"one WPA2-Personal (WPA-PSK) network; open networks are not supported", "no Wi-Fi"),
	},
	Check: func(d *tomldoc.Decoder, c *Config, tab *tomldoc.Tab, path tomldoc.Key) {
		if c.Address.IsValid() && !c.Ethernet {
			d.Errorf(d.Line("network", "address"), tomldoc.Key{"network", "address"}, "a fixed address is for Ethernet, which is off (ethernet = false)")
		}
		if !c.Address.IsValid() {
			for _, k := range []string{"gateway", "dns"} {
				if v := tab.Get(k); v != nil {
					d.Errorf(v.Line, tomldoc.Key{"network", k}, "needs address, a fixed IPv4 address: with DHCP the DHCP server gives the %s", map[string]string{"gateway": "gateway", "dns": "DNS servers"}[k])
				}
			}
		} else if c.Gateway.IsValid() {
			if err := checkGateway(c.Address, c.Gateway); err != nil {
				d.Errorf(tab.Get("gateway").Line, tomldoc.Key{"network", "gateway"}, "%v", err)
			}
		}
		if !c.Ethernet && tab.Get("wifi") == nil {
			d.Errorf(d.Line("network", "ethernet"), tomldoc.Key{"network", "ethernet"}, "the clock would have no network: set ethernet = true, add [network.wifi], or remove [network]")
		}
	},
}

// WiFiTable is the schema of the [network.wifi] table.
var WiFiTable = &tomldoc.Schema[WiFi]{
	Fields: []tomldoc.Field[WiFi]{
		tomldoc.StringField("ssid", func(s string) error {
			if len(s) == 0 || len(s) > MaxSSIDLen {
				return fmt.Errorf("want 1 to %d bytes, got %d", MaxSSIDLen, len(s))
			}
			return nil
		}, func(w *WiFi, s string) { w.SSID = s }).Needed("the name of the Wi-Fi network").Documented(
			fmt.Sprintf("the network's name, 1 to %d bytes", MaxSSIDLen), "required"),
		tomldoc.SecretField("passphrase", checkPassphrase, func(w *WiFi, s string) { w.Passphrase = s }).Documented(
			fmt.Sprintf("its password: %d to %d printable ASCII characters (letters, digits, spaces, punctuation; no umlauts)", MinPassphraseLen, MaxPassphraseLen),
			"required, or `passphrase_file`"),
		tomldoc.FileField("passphrase_file", func(w *WiFi, p string) { w.PassphraseFile = p }).Documented(
			"a file holding the password on one line, such as `/boot/firmware/wifi-passphrase` on the card's boot partition (a relative name is beside `zeitnot.toml`)", ""),
		tomldoc.StringField("country", checkCountry, func(w *WiFi, s string) { w.Country = s }).
			Needed("the country the clock is in, two capital letters like \"DE\": it sets which channels and power the radio may use").Documented(
			"the country the clock is in, two capital letters (ISO 3166: `\"DE\"`, `\"AT\"`, `\"CH\"`, `\"GB\"`): the radio uses only the channels and power allowed there", "required"),
	},
	Check: func(d *tomldoc.Decoder, w *WiFi, tab *tomldoc.Tab, path tomldoc.Key) {
		switch has, hasFile := tab.Get("passphrase") != nil, tab.Get("passphrase_file") != nil; {
		case has && hasFile:
			d.Errorf(tab.Get("passphrase_file").Line, tomldoc.Key{"network", "wifi", "passphrase_file"}, "give passphrase or passphrase_file, not both")
		case !has && !hasFile:
			d.Errorf(d.Line("network", "wifi"), tomldoc.Key{"network", "wifi", "passphrase"}, "missing: give passphrase or passphrase_file (WPA2-PSK; open networks are not supported)")
		}
	},
}

// parse is Parse; with secrets, passphrase_file is read.
func parse(name string, data []byte, secrets bool) (Config, []error) {
	d, e := tomldoc.NewDecoder(name, data)
	if e != nil {
		return Config{}, []error{e}
	}
	c := Config{File: name}
	raw := d.Doc.Root.Get("network")
	if raw == nil {
		return c, nil
	}
	c.On, c.Ethernet = true, true
	Table.DecodeTable(d, raw, tomldoc.Key{"network"}, &c)
	if w := c.WiFi; secrets && d.OK() && w != nil && w.PassphraseFile != "" {
		s, err := readPassphrase(w.PassphraseFile)
		if err != nil {
			d.Errorf(d.Line("network", "wifi", "passphrase_file"), tomldoc.Key{"network", "wifi", "passphrase_file"}, "%v", err)
		}
		w.Passphrase = s
	}
	if !d.OK() {
		return Config{}, d.Errors()
	}
	return c, nil
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
