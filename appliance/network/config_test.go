package network

import (
	"errors"
	"net/netip"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func mustAddr(s string) netip.Addr     { return netip.MustParseAddr(s) }
func mustPrefix(s string) netip.Prefix { return netip.MustParsePrefix(s) }

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		toml string
		want Config
	}{
		{"no table", "profile = \"sim\"\n[game]\ncontrol = \"fide-blitz-3\"\n", Config{File: "z.toml"}},
		{"empty file", "", Config{File: "z.toml"}},
		{"empty table", "[network]\n", Config{File: "z.toml", On: true, Ethernet: true}},
		{"dotted keys", "network.ntp = \"pool.ntp.org\"\n", Config{File: "z.toml", On: true, Ethernet: true, NTP: []string{"pool.ntp.org"}}},
		{"ntp list", "[network]\nntp = [\"arbiter.local\", \"10.0.0.1\", \"fd00::1\"]\n",
			Config{File: "z.toml", On: true, Ethernet: true, NTP: []string{"arbiter.local", "10.0.0.1", "fd00::1"}}},
		{"static", "[network]\naddress = \"10.1.2.3/16\"\ngateway = \"10.1.0.1\"\ndns = \"10.1.0.1\"\n",
			Config{File: "z.toml", On: true, Ethernet: true, Address: mustPrefix("10.1.2.3/16"), Gateway: mustAddr("10.1.0.1"), DNS: []netip.Addr{mustAddr("10.1.0.1")}}},
		{"static /32 no gateway", "[network]\naddress = \"10.1.2.3/32\"\n",
			Config{File: "z.toml", On: true, Ethernet: true, Address: mustPrefix("10.1.2.3/32")}},
		{"wifi", "[network]\nethernet = false\n[network.wifi]\nssid = \" Club \"\npassphrase = \"12345678\"\ncountry = \"GB\"\n",
			Config{File: "z.toml", On: true, WiFi: &WiFi{SSID: " Club ", Passphrase: "12345678", Country: "GB"}}},
		{"wifi inline", "[network]\nwifi = { ssid = \"C\", passphrase = \"" + strings.Repeat("~", 63) + "\", country = \"FR\" }\n",
			Config{File: "z.toml", On: true, Ethernet: true, WiFi: &WiFi{SSID: "C", Passphrase: strings.Repeat("~", 63), Country: "FR"}}},
		{"wifi 32-byte ssid", "[network.wifi]\nssid = \"" + strings.Repeat("ä", 16) + "\"\npassphrase = \"12345678\"\ncountry = \"DE\"\n",
			Config{File: "z.toml", On: true, Ethernet: true, WiFi: &WiFi{SSID: strings.Repeat("ä", 16), Passphrase: "12345678", Country: "DE"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse("z.toml", []byte(tt.toml))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
			if _, err := Files(got); err != nil {
				t.Errorf("Files: %v", err)
			}
		})
	}
}

// TestParseErrors: every problem is reported at its line and key, with
// what is wrong.
func TestParseErrors(t *testing.T) {
	const wifi = "[network.wifi]\nssid = \"Club\"\npassphrase = \"correct horse\"\ncountry = \"DE\"\n"
	tests := []struct {
		name string
		toml string
		want []string // the errors, in order
	}{
		{"not TOML", "[network\n", []string{"z.toml:1:9: "}},
		{"not a table", "network = true\n", []string{"z.toml:1: network: want a table [network], got true"}},
		{"array of tables", "[[network]]\n", []string{"z.toml:1: network: want a table [network], got an array"}},
		{"unknown key", "[network]\nethernt = true\n", []string{"z.toml:2: network.ethernt: unknown key (did you mean ethernet?)"}},
		{"unknown key far", "[network]\nproxy = \"x\"\n", []string{"z.toml:2: network.proxy: unknown key; [network] has ethernet, address, gateway, dns, ntp, wifi"}},
		{"ethernet string", "[network]\nethernet = \"yes\"\n", []string{"z.toml:2: network.ethernet: want true or false, got \"yes\""}},
		{"nothing on", "[network]\n\nethernet = false\n", []string{"z.toml:3: network.ethernet: the clock would have no network: set ethernet = true, add [network.wifi], or remove [network]"}},
		{"address no prefix", "[network]\naddress = \"192.168.1.50\"\n", []string{"z.toml:2: network.address: want an IPv4 address with its prefix length, like \"192.168.1.50/24\", got \"192.168.1.50\""}},
		{"address v6", "[network]\naddress = \"fd00::5/64\"\n", []string{"z.toml:2: network.address: want an IPv4 address with its prefix length"}},
		{"address subnet", "[network]\naddress = \"192.168.1.0/24\"\n", []string{"z.toml:2: network.address: 192.168.1.0 is the subnet 192.168.1.0/24 itself, not an address in it"}},
		{"address broadcast", "[network]\naddress = \"192.168.1.255/24\"\n", []string{"z.toml:2: network.address: 192.168.1.255 is the broadcast address of 192.168.1.0/24, not a host's"}},
		{"address /4", "[network]\naddress = \"16.0.0.1/4\"\n", []string{"z.toml:2: network.address: prefix length /4: want /8 to /32"}},
		{"address loopback", "[network]\naddress = \"127.0.0.5/8\"\n", []string{"z.toml:2: network.address: 127.0.0.5 cannot be the clock's address"}},
		{"address ethernet off", "[network]\nethernet = false\naddress = \"192.168.1.50/24\"\n" + wifi, []string{"z.toml:3: network.address: a fixed address is for Ethernet, which is off (ethernet = false)"}},
		{"gateway outside", "[network]\naddress = \"192.168.1.50/24\"\ngateway = \"192.168.2.1\"\n", []string{"z.toml:3: network.gateway: 192.168.2.1 is not in the clock's subnet 192.168.1.0/24 (address = \"192.168.1.50/24\")"}},
		{"gateway self", "[network]\naddress = \"192.168.1.50/24\"\ngateway = \"192.168.1.50\"\n", []string{"z.toml:3: network.gateway: 192.168.1.50 is the clock's own address"}},
		{"gateway broadcast", "[network]\naddress = \"192.168.1.50/24\"\ngateway = \"192.168.1.255\"\n", []string{"z.toml:3: network.gateway: 192.168.1.255 is the subnet's own or broadcast address"}},
		{"gateway v6", "[network]\naddress = \"192.168.1.50/24\"\ngateway = \"fe80::1\"\n", []string{"z.toml:3: network.gateway: want an IPv4 address, like \"192.168.1.1\", got \"fe80::1\""}},
		{"gateway dhcp", "[network]\ngateway = \"192.168.1.1\"\ndns = [\"1.1.1.1\"]\n", []string{
			"z.toml:2: network.gateway: needs address, a fixed IPv4 address: with DHCP the DHCP server gives the gateway",
			"z.toml:3: network.dns: needs address, a fixed IPv4 address: with DHCP the DHCP server gives the DNS servers"}},
		{"dns bad", "[network]\naddress = \"192.168.1.50/24\"\ndns = [\"192.168.1.1\",\n  \"resolver.local\"]\n", []string{"z.toml:4: network.dns: want an IP address, like \"192.168.1.1\", got \"resolver.local\""}},
		{"dns number", "[network]\naddress = \"192.168.1.50/24\"\ndns = [1]\n", []string{"z.toml:3: network.dns: want a string, got 1"}},
		{"ntp empty", "[network]\nntp = []\n", []string{"z.toml:2: network.ntp: want 1 to 8 entries, got 0 (leave network.ntp out for none)"}},
		{"ntp too many", "[network]\nntp = [\"a\",\"b\",\"c\",\"d\",\"e\",\"f\",\"g\",\"h\",\"i\"]\n", []string{"z.toml:2: network.ntp: want 1 to 8 entries, got 9"}},
		{"ntp twice", "[network]\nntp = [\"a.local\", \"A.local\"]\n", []string{"z.toml:2: network.ntp: \"A.local\" is there twice"}},
		{"ntp url", "[network]\nntp = \"ntp://pool.ntp.org\"\n", []string{"z.toml:2: network.ntp: want a host name like \"arbiter.local\" or an IP address, got \"ntp://pool.ntp.org\""}},
		{"ntp bad ip", "[network]\nntp = \"192.168.1.300\"\n", []string{"z.toml:2: network.ntp: \"192.168.1.300\" is neither an IP address nor a host name"}},
		{"ntp space", "[network]\nntp = \"a b\"\n", []string{"z.toml:2: network.ntp: want a host name"}},
		{"ntp label", "[network]\nntp = \"-a.local\"\n", []string{"z.toml:2: network.ntp: want a host name"}},
		{"ntp empty label", "[network]\nntp = \"a..local\"\n", []string{"z.toml:2: network.ntp: want a host name"}},
		{"ntp long", "[network]\nntp = \"" + strings.Repeat("a", 64) + ".local\"\n", []string{"z.toml:2: network.ntp: want a host name"}},
		{"ntp multicast", "[network]\nntp = \"224.0.1.1\"\n", []string{"z.toml:2: network.ntp: \"224.0.1.1\" cannot be an NTP server"}},
		{"ntp table", "[network]\nntp = { a = 1 }\n", []string{"z.toml:2: network.ntp: want a string or a list of strings, got a table"}},
		{"control char", "[network]\nntp = \"a\\nb\"\n", []string{"z.toml:2: network.ntp: control characters or invalid UTF-8 in \"a\\nb\""}},
		{"bad value", "[network]\nethernet = 1e999\n", []string{"z.toml:2: network.ethernet: "}},
		{"wifi not a table", "[network]\nwifi = \"Club\"\n", []string{"z.toml:2: network.wifi: want a table [network.wifi], got \"Club\""}},
		{"wifi array", "[[network.wifi]]\nssid = \"x\"\n", []string{"z.toml:1: network.wifi: want a table [network.wifi], got an array"}},
		{"wifi empty", "[network.wifi]\n", []string{
			"z.toml:1: network.wifi.ssid: missing: the name of the Wi-Fi network",
			"z.toml:1: network.wifi.country: missing: the country the clock is in",
			"z.toml:1: network.wifi.passphrase: missing: give passphrase or passphrase_file (WPA2-PSK; open networks are not supported)"}},
		{"wifi unknown", wifi + "pasphrase = \"x\"\n", []string{"z.toml:5: network.wifi.pasphrase: unknown key (did you mean passphrase?)"}},
		{"ssid empty", strings.Replace(wifi, "\"Club\"", "\"\"", 1), []string{"z.toml:2: network.wifi.ssid: want 1 to 32 bytes, got 0"}},
		{"ssid long", strings.Replace(wifi, "\"Club\"", "\""+strings.Repeat("ü", 17)+"\"", 1), []string{"z.toml:2: network.wifi.ssid: want 1 to 32 bytes, got 34"}},
		{"ssid tab", strings.Replace(wifi, "\"Club\"", "\"a\\tb\"", 1), []string{"z.toml:2: network.wifi.ssid: control characters or invalid UTF-8 in \"a\\tb\""}},
		{"ssid number", strings.Replace(wifi, "\"Club\"", "42", 1), []string{"z.toml:2: network.wifi.ssid: want a string, got 42"}},
		{"passphrase short", strings.Replace(wifi, "correct horse", "1234567", 1), []string{"z.toml:3: network.wifi.passphrase: want 8 to 63 characters (WPA2), got 7"}},
		{"passphrase long", strings.Replace(wifi, "correct horse", strings.Repeat("x", 64), 1), []string{"z.toml:3: network.wifi.passphrase: want 8 to 63 characters (WPA2), got 64"}},
		{"passphrase umlaut", strings.Replace(wifi, "correct horse", "Läufer und Turm", 1), []string{"z.toml:3: network.wifi.passphrase: character 2 is not printable ASCII"}},
		{"passphrase newline", strings.Replace(wifi, "correct horse", "correct\\nhorse", 1), []string{"z.toml:3: network.wifi.passphrase: control characters or invalid UTF-8 in it"}},
		{"passphrase number", strings.Replace(wifi, "\"correct horse\"", "12345678", 1), []string{"z.toml:3: network.wifi.passphrase: want a string, got a number"}},
		{"both passphrases", wifi + "passphrase_file = \"/x\"\n", []string{"z.toml:5: network.wifi.passphrase_file: give passphrase or passphrase_file, not both"}},
		{"passphrase_file empty", strings.Replace(wifi, "passphrase = \"correct horse\"", "passphrase_file = \"\"", 1), []string{"z.toml:3: network.wifi.passphrase_file: want a file name, got an empty string"}},
		{"country lower", strings.Replace(wifi, "\"DE\"", "\"de\"", 1), []string{"z.toml:4: network.wifi.country: want two capital letters (ISO 3166), like \"DE\", got \"de\" (did you mean \"DE\"?)"}},
		{"country name", strings.Replace(wifi, "\"DE\"", "\"Germany\"", 1), []string{"z.toml:4: network.wifi.country: want two capital letters (ISO 3166), like \"DE\", got \"Germany\""}},
		{"country world", strings.Replace(wifi, "\"DE\"", "\"00\"", 1), []string{"z.toml:4: network.wifi.country: want two capital letters"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse("z.toml", []byte(tt.toml))
			if err == nil {
				t.Fatalf("no error: %+v", c)
			}
			if !reflect.DeepEqual(c, Config{}) {
				t.Errorf("with an error, a config: %+v", c)
			}
			got := strings.Split(err.Error(), "\n")
			if len(got) != len(tt.want) {
				t.Fatalf("got %d errors, want %d:\n%s", len(got), len(tt.want), err)
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tt.want[i]) {
					t.Errorf("error %d:\n got  %s\n want %s...", i, got[i], tt.want[i])
				}
			}
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Errorf("not a *ConfigError: %T", err)
			}
			if strings.Contains(err.Error(), "correct") || strings.Contains(err.Error(), "Läufer") {
				t.Errorf("the passphrase is in the message: %v", err)
			}
		})
	}
}

func TestPassphraseFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cfg := func(file string) []byte {
		return []byte("[network.wifi]\nssid = \"Club\"\ncountry = \"DE\"\npassphrase_file = \"" + file + "\"\n")
	}
	name := filepath.Join(dir, "zeitnot.toml")
	for _, tt := range []struct{ data, want string }{
		{"correct horse\n", "correct horse"},
		{"correct horse\r\n", "correct horse"},
		{"correct horse", "correct horse"},
		{" spaces kept  \n", " spaces kept  "},
	} {
		write("pw", tt.data)
		c, err := Parse(name, cfg("pw")) // relative: beside the config file
		if err != nil || c.WiFi.Passphrase != tt.want || c.WiFi.PassphraseFile != filepath.Join(dir, "pw") {
			t.Errorf("%q: %+v, %v", tt.data, c.WiFi, err)
		}
	}
	for _, tt := range []struct{ data, want string }{
		{"two\nlines here\n", "pw: character 4 is not printable ASCII"},
		{"short\n", "pw: want 8 to 63 characters (WPA2), got 5"},
		{"\n", "pw: want 8 to 63 characters (WPA2), got 0"},
	} {
		write("pw", tt.data)
		_, err := Parse(name, cfg("pw"))
		if err == nil || !strings.Contains(err.Error(), ":4: network.wifi.passphrase_file: ") || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: %v, want ...%s", tt.data, err, tt.want)
		}
		if err != nil && strings.Contains(err.Error(), "lines here") {
			t.Errorf("the passphrase is in the message: %v", err)
		}
	}
	if _, err := Parse(name, cfg("none")); err == nil || !strings.Contains(err.Error(), "network.wifi.passphrase_file: cannot read: ") {
		t.Errorf("missing file: %v", err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero")); err != nil {
		t.Fatal(err)
	}
	if _, err := Parse(name, cfg("zero")); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a device: %v", err)
	}
	// CheckFile does not read it: the file is on the clock.
	p := write("check.toml", string(cfg("/boot/firmware/wifi-passphrase")))
	if errs := CheckFile(p); len(errs) != 0 {
		t.Errorf("CheckFile: %v", errs)
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	c, err := Load(filepath.Join(dir, "none.toml"))
	if err != nil || c.On || c.File != filepath.Join(dir, "none.toml") {
		t.Errorf("missing file: %+v, %v", c, err)
	}
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), dir+": cannot read: not a regular file") {
		t.Errorf("a directory: %v", err)
	}
	big := filepath.Join(dir, "big.toml")
	if err := os.WriteFile(big, make([]byte, maxConfigSize+1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(big); err == nil || !strings.Contains(err.Error(), "too large") {
		t.Errorf("too large: %v", err)
	}
}

func TestCheckFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "zeitnot.toml")
	for _, tt := range []struct {
		toml string
		n    int
	}{
		{"[network\n", 0}, // not TOML: config check says so
		{"[display]\nbrightness = 50\n", 0},
		{"[network]\nethernet = false\n", 1},
		{"[network]\nntp = 3\naddress = \"x\"\n", 2},
	} {
		if err := os.WriteFile(p, []byte(tt.toml), 0o644); err != nil {
			t.Fatal(err)
		}
		if errs := CheckFile(p); len(errs) != tt.n {
			t.Errorf("%q: %v, want %d errors", tt.toml, errs, tt.n)
		}
	}
	if errs := CheckFile(filepath.Join(dir, "none")); errs != nil {
		t.Errorf("missing: %v", errs)
	}
}

func TestSummary(t *testing.T) {
	for _, tt := range []struct{ toml, want string }{
		{"[network]\n", "Ethernet (DHCP)"},
		{"[network]\naddress = \"192.168.1.50/24\"\n", "Ethernet (192.168.1.50/24)"},
		{"[network]\naddress = \"192.168.1.50/24\"\ngateway = \"192.168.1.1\"\nntp = [\"a.local\", \"b.local\"]\n", "Ethernet (192.168.1.50/24 via 192.168.1.1), NTP a.local b.local"},
		{"[network]\nntp = [\"arbiter.local\"]\n[network.wifi]\nssid = \"Club\"\npassphrase = \"correct horse\"\ncountry = \"DE\"\n",
			"Ethernet (DHCP), Wi-Fi \"Club\" (DE), NTP arbiter.local"},
	} {
		c, err := Parse("z.toml", []byte(tt.toml))
		if err != nil || c.Summary() != tt.want {
			t.Errorf("%q: %q, %v; want %q", tt.toml, c.Summary(), err, tt.want)
		}
	}
}
