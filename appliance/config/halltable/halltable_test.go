package halltable

import (
	"errors"
	"github.com/zeitnot/zeitnot/protocol"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseConfig(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "zeitnot.toml")
	os.WriteFile(filepath.Join(dir, "board.pw"), []byte("s3cret\n"), 0o600)
	src := `profile = "sim"

[game]
control = "fide-classical"

[hall]
broker = "mqtts://broker.club.example:8884"
hall = "spring-open"
board = 12
username = "board12"
password_file = "board.pw"     # beside this file
ca_file = "/etc/zeitnot/hall-ca.pem"
cert_file = "board12.crt"
key_file = "board12.key"
`
	c, err := ParseConfig(name, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if c.Broker.String() != "mqtts://broker.club.example:8884" || c.Hall != "spring-open" || c.Board != 12 ||
		c.Username != "board12" || string(c.Password) != "s3cret" || c.CAFile != "/etc/zeitnot/hall-ca.pem" ||
		c.CertFile != filepath.Join(dir, "board12.crt") || c.KeyFile != filepath.Join(dir, "board12.key") || c.File != name {
		t.Errorf("%+v", c)
	}
	c, err = ParseConfig(name, []byte("[hall]\nbroker = \"mqtt://10.0.0.2\"\nhall = \"club\"\nboard = 1\npassword = \"pw\"\n"))
	if err != nil || c.Broker.String() != "mqtt://10.0.0.2:1883" || string(c.Password) != "pw" {
		t.Errorf("%+v %v", c, err)
	}
	c, err = ParseConfig(name, []byte(`hall = { broker = "mqtts://[fe80::1%25eth0]", hall = "h", board = 9999 }`))
	if err != nil || c.Broker.Host != "[fe80::1%eth0]:8883" {
		t.Errorf("%+v %v", c, err)
	}
}

func TestConfigWithoutHall(t *testing.T) {
	for _, src := range []string{"", "profile = \"sim\"\n[game]\ncontrol = \"300+2\"\n"} {
		_, err := ParseConfig("zeitnot.toml", []byte(src))
		if !errors.Is(err, ErrNoHall) || err.Error() != "zeitnot.toml: no [hall] table: the clock is not linked to a hall" {
			t.Errorf("%q: %v", src, err)
		}
	}
	_, err := LoadConfig(filepath.Join(t.TempDir(), "absent.toml"))
	if !errors.Is(err, ErrNoHall) {
		t.Errorf("missing file: %v", err)
	}
}

func TestConfigErrors(t *testing.T) {
	const head = "profile = \"sim\"\n[hall]\nbroker = \"mqtt://h\"\nhall = \"club\"\nboard = 3\n"
	tests := []struct {
		src  string
		want []string
	}{
		{"[hall]\n", []string{
			"zeitnot.toml:1: hall.broker: missing: the broker's address, mqtts://host:port or mqtt://host:port",
			"zeitnot.toml:1: hall.hall: missing: the hall's name, the topic namespace",
			"zeitnot.toml:1: hall.board: missing: the board number"}},
		{"hall = 3\n", []string{`zeitnot.toml:1: hall: want a table [hall], got 3`}},
		{strings.Replace(head, "board = 3", `board = "twelve"`, 1), []string{`zeitnot.toml:5: hall.board: want a whole number from 1 to 9999, got "twelve"`}},
		{strings.Replace(head, "board = 3", `board = 0`, 1), []string{`zeitnot.toml:5: hall.board: want a whole number from 1 to 9999, got 0`}},
		{strings.Replace(head, "board = 3", `board = 12.0`, 1), []string{`zeitnot.toml:5: hall.board: want a whole number from 1 to 9999, got 12.0`}},
		{strings.Replace(head, `"club"`, `"club/+"`, 1), []string{`zeitnot.toml:4: hall.hall: want 1 to 64 letters, digits, '-' or '_' (it is an MQTT topic level), got "club/+"`}},
		{strings.Replace(head, `"club"`, `""`, 1), []string{`zeitnot.toml:4: hall.hall: want 1 to 64 letters, digits, '-' or '_' (it is an MQTT topic level), got ""`}},
		{strings.Replace(head, `"mqtt://h"`, `"https://h"`, 1), []string{`zeitnot.toml:3: hall.broker: want mqtts://host:port (TLS) or mqtt://host:port (plain TCP), got "https://h"`}},
		{strings.Replace(head, `"mqtt://h"`, `"mqtt://u:p@h"`, 1), []string{`zeitnot.toml:3: hall.broker: put the user name and password in username and password_file, not in the address "mqtt://u:xxxxx@h"`}},
		{strings.Replace(head, `"mqtt://h"`, `"mqtt://h:99999"`, 1), []string{`zeitnot.toml:3: hall.broker: port "99999": want a number from 1 to 65535`}},
		{strings.Replace(head, `"mqtt://h"`, `"mqtt://h/x?y"`, 1), []string{`zeitnot.toml:3: hall.broker: want only scheme, host and port, got "mqtt://h/x?y"`}},
		{strings.Replace(head, `"mqtt://h"`, `"mqtt://"`, 1), []string{`zeitnot.toml:3: hall.broker: no host in "mqtt://"`}},
		{head + "pasword = \"x\"\n", []string{`zeitnot.toml:6: hall.pasword: unknown key (did you mean password?)`}},
		{head + "qos = 2\n", []string{`zeitnot.toml:6: hall.qos: unknown key; [hall] has broker, hall, board, username, password, password_file, ca_file, fingerprint, cert_file, key_file`}},
		{head + "password = \"a\"\npassword_file = \"/x\"\n", []string{`zeitnot.toml:7: hall.password_file: give password or password_file, not both`}},
		{head + "ca_file = \"/ca.pem\"\n", []string{`zeitnot.toml:6: hall.ca_file: needs an mqtts:// broker (TLS); "mqtt://h:1883" is plain TCP`}},
		{head + "fingerprint = \"sha256:" + strings.Repeat("AB:", 31) + "AB\"\n", []string{`zeitnot.toml:6: hall.fingerprint: needs an mqtts:// broker (TLS); "mqtt://h:1883" is plain TCP`}},
		{strings.Replace(head, "mqtt://h", "mqtts://h", 1) + "fingerprint = \"sha256:AB:CD\"\n", []string{`zeitnot.toml:6: hall.fingerprint: want sha256: and 64 hex digits (sha256:AB:CD:...), got "sha256:AB:CD"`}},
		{strings.Replace(head, "mqtt://h", "mqtts://h", 1) + "fingerprint = \"" + strings.Repeat("AB:", 31) + "AB\"\n", []string{`zeitnot.toml:6: hall.fingerprint: want sha256: and 64 hex digits (sha256:AB:CD:...), got "` + strings.Repeat("AB:", 31) + `AB"`}},
		{strings.Replace(head, "mqtt://h", "mqtts://h", 1) + "ca_file = \"/ca.pem\"\nfingerprint = \"sha256:" + strings.Repeat("AB", 32) + "\"\n", []string{`zeitnot.toml:7: hall.fingerprint: give ca_file or fingerprint, not both`}},
		{strings.Replace(head, "mqtt:", "mqtts:", 1) + "cert_file = \"/c.pem\"\n", []string{`zeitnot.toml:6: hall.key_file: missing: a client certificate needs both cert_file and key_file`}},
		{head + "password_file = \"missing.pw\"\n", []string{`zeitnot.toml:6: hall.password_file: cannot read: open DIR/missing.pw: no such file or directory`}},
		{head + "password_file = \"\"\n", []string{`zeitnot.toml:6: hall.password_file: want a file name, got an empty string`}},
		{head + "username = \"a\\u0000b\"\n", []string{`zeitnot.toml:6: hall.username: control characters or invalid UTF-8 in "a\x00b"`}},
		{head + "username = 7\n", []string{`zeitnot.toml:6: hall.username: want a string, got 7`}},
		{"profile = \n[hall]\n", []string{`zeitnot.toml:1:11: unexpected character U+000A at start of value`}},
		{"[game]\n[hall]\nbroker = \"mqtt://h\"\n[game]\n", []string{`zeitnot.toml:4:2: table game already exists`}},
	}
	for _, tt := range tests {
		dir := t.TempDir()
		_, err := ParseConfig(filepath.Join(dir, "zeitnot.toml"), []byte(tt.src))
		var got []string
		if err != nil {
			got = strings.Split(strings.ReplaceAll(strings.ReplaceAll(err.Error(), dir+"/", ""), dir, "DIR"), "\n")
			for i := range got {
				got[i] = strings.ReplaceAll(got[i], "open missing.pw", "open DIR/missing.pw")
			}
		}
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("%q:\n got %q\nwant %q", tt.src, got, tt.want)
		}
	}
}

func TestConfigFingerprint(t *testing.T) {
	want, _ := protocol.ParseFingerprint("sha256:" + strings.Repeat("0f", 32))
	for _, fp := range []string{want.String(), strings.ToLower(want.String()), "sha256:" + strings.Repeat("0F", 32)} {
		c, err := ParseConfig("zeitnot.toml", []byte("[hall]\nbroker = \"mqtts://10.0.0.2\"\nhall = \"club\"\nboard = 1\nfingerprint = \""+fp+"\"\n"))
		if err != nil || c.Fingerprint == nil || *c.Fingerprint != want {
			t.Errorf("%s: %v %v", fp, c.Fingerprint, err)
			continue
		}
		tc, err := c.TLS()
		if err != nil || !tc.InsecureSkipVerify || tc.VerifyPeerCertificate == nil {
			t.Errorf("%s: the TLS config does not check the pin: %+v %v", fp, tc, err)
		}
	}
}

func TestConfigPasswordFile(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "zeitnot.toml")
	src := "[hall]\nbroker = \"mqtt://h\"\nhall = \"c\"\nboard = 1\npassword_file = \"pw\"\n"
	for _, tt := range []struct{ content, want string }{
		{"", "zeitnot.toml:5: hall.password_file: " + dir + "/pw is empty"},
		{"\n", "zeitnot.toml:5: hall.password_file: " + dir + "/pw is empty"},
		{strings.Repeat("x", 70000), "zeitnot.toml:5: hall.password_file: cannot read: open " + dir + "/pw: too large: 70000 bytes, at most 65536 accepted"},
	} {
		os.WriteFile(filepath.Join(dir, "pw"), []byte(tt.content), 0o600)
		_, err := ParseConfig(name, []byte(src))
		if err == nil || strings.TrimPrefix(err.Error(), dir+"/") != tt.want {
			t.Errorf("%.10q: %v\nwant %s", tt.content, err, tt.want)
		}
	}
	os.Remove(filepath.Join(dir, "pw"))
	os.Mkdir(filepath.Join(dir, "pw"), 0o700)
	_, err := ParseConfig(name, []byte(src))
	if err == nil || !strings.Contains(err.Error(), "not a regular file (a directory)") {
		t.Errorf("a directory: %v", err)
	}
}

func FuzzParseConfig(f *testing.F) {
	f.Add([]byte("[hall]\nbroker = \"mqtts://h:1\"\nhall = \"c\"\nboard = 1\n"))
	f.Add([]byte("hall = { broker = \"mqtt://x\", board = 3 }\n[hall.x]\n"))
	f.Add([]byte("[[hall]]\nboard = 1\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		var c Config
		var err error
		done := make(chan struct{})
		go func() { c, err = ParseConfig("/nonexistent/zeitnot.toml", src); close(done) }()
		select {
		case <-done:
		case <-time.After(3 * time.Second):
			t.Fatalf("HANG %q", src)
		}
		if err == nil {
			if c.Broker == nil || protocol.CheckHall(c.Hall) != nil || protocol.CheckBoard(c.Board) != nil {
				t.Fatalf("accepted %+v from %q", c, src)
			}
			return
		}
		if !errors.Is(err, ErrNoHall) && !strings.HasPrefix(err.Error(), "/nonexistent/zeitnot.toml:") {
			t.Fatalf("error without the file: %v", err)
		}
	})
}
