package network

import (
	"bytes"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestPSK: the passphrase-to-PSK test vectors of IEEE 802.11i-2004,
// annex H.4.
func TestPSK(t *testing.T) {
	for _, tt := range []struct{ passphrase, ssid, psk string }{
		{"password", "IEEE", "f42c6fc52df0ebef9ebb4b90b38a5f902e83fe1b135a70e23aed762e9710a12e"},
		{"ThisIsAPassword", "ThisIsASSID", "0dc0d6eb90555ed6419756b9a15ec3e3209b63df707dd508d14581f8982721af"},
		{strings.Repeat("a", 32), strings.Repeat("Z", 32), "becb93866bb8c3832cb777c2f559807c8c59afcb6eae734885001300a981cc62"},
	} {
		got, err := PSK(tt.passphrase, tt.ssid)
		if err != nil || hex.EncodeToString(got) != tt.psk {
			t.Errorf("PSK(%q, %q) = %x, %v; want %s", tt.passphrase, tt.ssid, got, err, tt.psk)
		}
	}
}

// render writes files as the golden files hold them.
func render(files []File, shown bool) []byte {
	var b bytes.Buffer
	for _, f := range files {
		fmt.Fprintf(&b, "==> %s (%04o) <==\n", f.Path, f.Mode)
		if shown {
			b.Write(f.Shown)
		} else {
			b.Write(f.Content)
		}
	}
	return b.Bytes()
}

// TestFilesGolden renders each testdata/*.toml and compares the files with
// testdata/*.golden (go test -update rewrites them).
func TestFilesGolden(t *testing.T) {
	tomls, _ := filepath.Glob("testdata/*.toml")
	if len(tomls) == 0 {
		t.Fatal("no testdata/*.toml")
	}
	for _, in := range tomls {
		name := strings.TrimSuffix(filepath.Base(in), ".toml")
		t.Run(name, func(t *testing.T) {
			c, err := Load(in)
			if err != nil {
				t.Fatal(err)
			}
			c.File = "/etc/zeitnot/zeitnot.toml" // the same header wherever the test runs
			files, err := Files(c)
			if err != nil {
				t.Fatal(err)
			}
			got := append([]byte("# "+c.Summary()+"\n"), render(files, false)...)
			golden := strings.TrimSuffix(in, ".toml") + ".golden"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("files differ from %s (go test -update rewrites it):\n%s", golden, got)
			}
			for _, f := range files {
				if f.Path == WPAFile {
					if f.Mode != 0o600 {
						t.Errorf("%s: mode %o", f.Path, f.Mode)
					}
					continue
				}
				if !bytes.Equal(f.Shown, f.Content) {
					t.Errorf("%s: shown differs from the content, and it has no secret", f.Path)
				}
			}
		})
	}
}

// TestWPASecretHidden: the PSK is in the content and nowhere in what is
// shown; the passphrase is in neither.
func TestWPASecretHidden(t *testing.T) {
	c, err := Parse("zeitnot.toml", []byte("[network]\n[network.wifi]\nssid = \"IEEE\"\npassphrase = \"password\"\ncountry = \"DE\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	files, err := Files(c)
	if err != nil {
		t.Fatal(err)
	}
	const psk = "f42c6fc52df0ebef9ebb4b90b38a5f902e83fe1b135a70e23aed762e9710a12e"
	var wpa *File
	for i := range files {
		if bytes.Contains(files[i].Content, []byte("password")) || bytes.Contains(files[i].Shown, []byte("password")) {
			t.Errorf("%s holds the passphrase", files[i].Path)
		}
		if files[i].Path == WPAFile {
			wpa = &files[i]
		}
	}
	if wpa == nil {
		t.Fatal("no wpa_supplicant.conf")
	}
	for _, want := range []string{"\tpsk=" + psk + "\n", "\tssid=49454545\n", "country=DE\n", "\tkey_mgmt=WPA-PSK\n", "\tscan_ssid=1\n"} {
		if !bytes.Contains(wpa.Content, []byte(want)) {
			t.Errorf("content has no %q:\n%s", want, wpa.Content)
		}
	}
	if bytes.Contains(wpa.Shown, []byte(psk)) || !bytes.Contains(wpa.Shown, []byte("\tpsk="+Hidden+"\n")) {
		t.Errorf("shown:\n%s", wpa.Shown)
	}
	if got, want := string(bytes.Replace(wpa.Content, []byte(psk), []byte(Hidden), 1)), string(wpa.Shown); got != want {
		t.Errorf("shown is not the content with the PSK hidden:\n%s", want)
	}
}

// TestFilesNoNetwork: no table, no files.
func TestFilesNoNetwork(t *testing.T) {
	c, err := Parse("zeitnot.toml", []byte("[game]\ncontrol = \"fide-blitz-3\"\n"))
	if err != nil || c.On {
		t.Fatalf("%+v, %v", c, err)
	}
	if files, err := Files(c); files != nil || err != nil {
		t.Errorf("%v, %v", files, err)
	}
	if s := c.Summary(); s != "" {
		t.Errorf("summary %q", s)
	}
}

// TestFilesRefusesBadConfig: a Config not made by Parse cannot smuggle a
// line into a file.
func TestFilesRefusesBadConfig(t *testing.T) {
	good := func() Config {
		return Config{File: "f", On: true, Ethernet: true, WiFi: &WiFi{SSID: "Club", Country: "DE", Passphrase: "correct horse"}}
	}
	if _, err := Files(good()); err != nil {
		t.Fatalf("good: %v", err)
	}
	for name, change := range map[string]func(*Config){
		"country newline":  func(c *Config) { c.WiFi.Country = "D\nE" },
		"ntp newline":      func(c *Config) { c.NTP = []string{"a\n[Time]"} },
		"no passphrase":    func(c *Config) { c.WiFi.Passphrase = "" },
		"short passphrase": func(c *Config) { c.WiFi.Passphrase = "short" },
		"long ssid":        func(c *Config) { c.WiFi.SSID = strings.Repeat("x", 33) },
		"nothing on":       func(c *Config) { c.Ethernet, c.WiFi = false, nil },
		"gateway, no addr": func(c *Config) { c.Gateway = mustAddr("192.168.1.1") },
		"dns, no addr":     func(c *Config) { c.DNS = append(c.DNS, mustAddr("192.168.1.1")) },
		"dns with zone": func(c *Config) {
			c.Address = mustPrefix("192.168.1.5/24")
			c.DNS = append(c.DNS, mustAddr("fe80::1").WithZone("x\ny"))
		},
	} {
		c := good()
		change(&c)
		if files, err := Files(c); err == nil {
			t.Errorf("%s: no error; files:\n%s", name, render(files, false))
		}
	}
}
