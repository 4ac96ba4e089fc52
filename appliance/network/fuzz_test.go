package network

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzConfig: the parser never panics; a config it accepts renders, and
// the files hold no control character but newlines and tabs, and never
// the passphrase.
func FuzzConfig(f *testing.F) {
	tomls, _ := filepath.Glob("testdata/*.toml")
	for _, p := range tomls {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range []string{
		"",
		"network = 1\n",
		"[network]\nethernet = false\n",
		"[network]\naddress = \"10.0.0.1/8\"\ngateway = \"10.255.255.254\"\ndns = [\"10.0.0.2\", \"::1\"]\n",
		"[network]\nntp = [\"a.local\", \"b\", \"fe80::1\"]\n[network.wifi]\nssid = \"\\u00e4\"\npassphrase = \"12345678\"\ncountry = \"SE\"\n",
		"[network.wifi]\nssid = \"x\"\npassphrase_file = \"pw\"\ncountry = \"SE\"\n",
		"network.wifi = { ssid = \"x\", passphrase = \"        \", country = \"NO\" }\n",
		"[[network]]\n[network.wifi.x]\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, errs := parse("fuzz/zeitnot.toml", data, false) // reads no file
		if len(errs) > 0 {
			for _, e := range errs {
				if !strings.HasPrefix(e.Error(), "fuzz/zeitnot.toml:") {
					t.Errorf("error without the file: %v", e)
				}
			}
			return
		}
		if c.WiFi != nil && c.WiFi.PassphraseFile != "" {
			c.WiFi.Passphrase = "from the file"
		}
		files, err := Files(c)
		if err != nil {
			t.Fatalf("accepted, but Files: %v\n%q", err, data)
		}
		if c.On != (len(files) > 0) {
			t.Errorf("on %v, %d files", c.On, len(files))
		}
		for _, file := range files {
			for _, b := range file.Content {
				if b < 0x20 && b != '\n' && b != '\t' || b == 0x7f {
					t.Errorf("%s: control character %#x:\n%s", file.Path, b, file.Content)
					break
				}
			}
			if c.WiFi != nil && bytes.Contains(file.Content, []byte("psk=")) == (file.Path != WPAFile) {
				t.Errorf("%s: psk where it should not be, or not where it should", file.Path)
			}
			if c.WiFi != nil && len(c.WiFi.Passphrase) >= 8 && bytes.Contains(file.Shown, []byte(c.WiFi.Passphrase)) && !bytes.Contains([]byte(c.File+c.WiFi.SSID+strings.Join(c.NTP, "")), []byte(c.WiFi.Passphrase)) {
				t.Errorf("%s shows the passphrase", file.Path)
			}
		}
	})
}
