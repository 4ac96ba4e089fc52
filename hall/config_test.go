package hall

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/hall/broker"
)

func TestConfigFile(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "hall.pw"), []byte("s3cret\n"), 0o600)
	good := `http = "0.0.0.0:80"
mqtt = "off"
mqtts = "0.0.0.0:8883"
hall = "spring-open"
title = "Spring Open"
site = "Vienna AUT"
round = "3"
broadcast_delay = "15m"
data = "data"
cert_file = "broker.crt"
key_file = "broker.key"

[arbiters]
anna = "$2a$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy"

[clocks]
board12 = { board = 12, password_hash = "sha256:` + strings.Repeat("ab", 32) + `" }
`
	c, err := ParseConfig(filepath.Join(dir, "hall.toml"), []byte(good), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	if c.HTTP != "0.0.0.0:80" || c.MQTT != "off" || c.MQTTS != "0.0.0.0:8883" || c.Hall != "spring-open" || c.Site != "Vienna AUT" || c.Round != "3" || c.BroadcastDelay != 15*time.Minute || c.Data != filepath.Join(dir, "data") || c.Clocks["board12"] != (broker.User{Board: 12, Hash: "sha256:" + strings.Repeat("ab", 32)}) || len(c.Arbiters) != 1 {
		t.Errorf("%+v", c)
	}
	if err := c.Check(); err != nil {
		t.Error(err)
	}
	for _, b := range []struct{ toml, want string }{
		{"htp = \"x\"", "hall.toml:1: htp: unknown key (did you mean http?)"},
		{"\n\nhall = \"a/b\"", "hall.toml:3: hall: want 1 to 64 letters"},
		{"mqtt = 1883", "hall.toml:1: mqtt: want a string, got 1883"},
		{"mqtts = \"8883\"", `hall.toml:1: mqtts: want host:port or "off", got "8883"`},
		{"round = 3", "hall.toml:1: round: want a string, got 3"},
		{"zone = \"Mars/Olympus\"", "hall.toml:1: zone: \"Mars/Olympus\" is no time zone"},
		{"broker_without_acl = 1", "hall.toml:1: broker_without_acl: want true or false, got 1"},
		{"[clocks]\nb1 = { board = 1, password_hash = \"sha256:00\", pin = 1 }", "hall.toml:2: clocks.b1.pin: unknown key; [clocks.b1] has board, password_hash"},
		{"[clocks]\nb1 = 3", "hall.toml:2: clocks.b1: want a table [clocks.b1], got 3"},
		{"arbiters = 1", "hall.toml:1: arbiters: want a table [arbiters]: name = \"bcrypt hash\", got 1"},
		{"tilte = \"x\"", "hall.toml:1: tilte: unknown key (did you mean title?)"},
		{"colour = \"x\"", "hall.toml:1: colour: unknown key; the file has http, mqtt, mqtts, broker"},
		{"http = \"8080\"", "hall.toml:1: http: want host:port"},
		{"broker = \"http://x\"", "hall.toml:1: broker: want mqtt://host:port"},
		{"[arbiters]\nanna = \"plain\"", "hall.toml:2: arbiters.anna: want a bcrypt hash"},
		{"[clocks]\nb1 = { board = 0, password_hash = \"sha256:00\" }", "hall.toml:2: clocks.b1.board: want a whole number"},
		{"[clocks]\nb1 = { board = 1 }", "hall.toml:2: clocks.b1: needs board and password_hash"},
		{"password_file = \"missing\"", "hall.toml:1: password_file: cannot read"},
		{"\nkey_file = \"k\"", "hall.toml:2: cert_file: missing: the embedded broker's TLS needs both cert_file and key_file"},
		{"http = ", "hall.toml:1:8: "},
		{"broadcast_delay = \"15\"", `hall.toml:1: broadcast_delay: want a duration from "0s" to "6h" ("15m", "30m"), got "15"`},
		{"broadcast_delay = \"-1m\"", "hall.toml:1: broadcast_delay: want a duration"},
		{"broadcast_delay = \"7h\"", "hall.toml:1: broadcast_delay: want a duration"},
		{"broadcast_delay = 900", `hall.toml:1: broadcast_delay: want a duration in quotes ("15m"), got 900`},
	} {
		_, err := ParseConfig("hall.toml", []byte(b.toml), DefaultConfig())
		if err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%q: %v, want %q", b.toml, err, b.want)
		}
	}
	c = DefaultConfig()
	c.MQTT = "0.0.0.0:1883"
	if err := c.Check(); err == nil || !strings.Contains(err.Error(), "not on loopback") {
		t.Errorf("an open broker without users: %v", err)
	}
	c = DefaultConfig()
	c.MQTTS = "0.0.0.0:8883"
	if err := c.Check(); err == nil || !strings.Contains(err.Error(), "the embedded broker on 0.0.0.0:8883 is not on loopback: it needs the clocks' users") {
		t.Errorf("an open TLS broker without users: %v", err)
	}
	users := map[string]broker.User{"b": {Board: 1, Hash: broker.HashSHA256("x")}}
	for _, tt := range []struct {
		mqtt, mqtts, cert, want string
	}{
		{"off", "off", "", `mqtt and mqtts are both "off": the embedded broker needs one of them`},
		{"127.0.0.1:1883", "off", "b.crt", `cert_file and key_file are the embedded broker's TLS listener's, and mqtts is "off"`},
		// A hall.toml from when cert_file made the mqtt listener TLS.
		{"0.0.0.0:8883", "127.0.0.1:8883", "b.crt", `mqtt 0.0.0.0:8883 is plain MQTT off loopback, with cert_file: cert_file and key_file are the TLS listener's, mqtts; give the address as mqtts = "0.0.0.0:8883", and mqtt = "off" or a loopback address`},
		{"off", "0.0.0.0:8883", "b.crt", ""},
	} {
		c = DefaultConfig()
		c.MQTT, c.MQTTS, c.CertFile, c.KeyFile, c.Clocks = tt.mqtt, tt.mqtts, tt.cert, tt.cert, users
		err := c.Check()
		if tt.want == "" && err != nil || tt.want != "" && (err == nil || err.Error() != tt.want) {
			t.Errorf("mqtt %s, mqtts %s, cert_file %q: %v, want %s", tt.mqtt, tt.mqtts, tt.cert, err, tt.want)
		}
	}
}

// TestConfigAPIToken: api_token_file is read relative to hall.toml; a
// short or missing token is an error naming the line.
func TestConfigAPIToken(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "api-token"), []byte("0123456789abcdef-xyz\n"), 0o600)
	os.WriteFile(filepath.Join(dir, "short"), []byte("abc\n"), 0o600)
	c, err := ParseConfig(filepath.Join(dir, "hall.toml"), []byte(`api_token_file = "api-token"`+"\n"), DefaultConfig())
	if err != nil || string(c.APIToken) != "0123456789abcdef-xyz" {
		t.Fatalf("token %q, %v", c.APIToken, err)
	}
	for _, f := range []string{"short", "missing"} {
		_, err := ParseConfig(filepath.Join(dir, "hall.toml"), []byte("title = \"x\"\napi_token_file = \""+f+"\"\n"), DefaultConfig())
		if err == nil || !strings.Contains(err.Error(), ":2:") || !strings.Contains(err.Error(), "api_token_file") {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// TestConfigKeys: [keys] gives boards' public keys; a wrong board or key
// is an error naming the line and what is wrong.
func TestConfigKeys(t *testing.T) {
	key := "ed25519:O2onvM62pC1io6jQKm8Nc2UyFXcd4kOmOsBIoYtZ2ik="
	c, err := ParseConfig("hall.toml", []byte("[keys]\n5 = \""+key+"\"\n12 = \""+key+"\"\n"), DefaultConfig())
	if err != nil || len(c.Keys) != 2 || c.Keys[5] != key || c.Keys[12] != key {
		t.Fatalf("keys %v, %v", c.Keys, err)
	}
	for _, b := range []struct{ toml, want string }{
		{"[keys]\n0 = \"" + key + "\"", "hall.toml:2: keys.0: want a board number from 1 to 9999, got \"0\""},
		{"[keys]\nboard5 = \"" + key + "\"", "hall.toml:2: keys.board5: want a board number"},
		{"[keys]\n05 = \"" + key + "\"", "hall.toml:2: keys.05: want a board number"},
		{"[keys]\n5 = 1", "hall.toml:2: keys.5: want the board's public key in quotes"},
		{"[keys]\n5 = \"ed25519:AAAA\"", "hall.toml:2: keys.5: key \"ed25519:AAAA\": want 32 bytes in base64"},
		{"\n[keys]\n5 = \"" + key[len("ed25519:"):] + "\"", "hall.toml:3: keys.5: key"},
		{"keys = 1", "hall.toml:1: keys: want a table [keys]: board = \"ed25519:BASE64\", got 1"},
	} {
		_, err := ParseConfig("hall.toml", []byte(b.toml), DefaultConfig())
		if err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%q: %v, want %q", b.toml, err, b.want)
		}
	}
}

// TestConfigUpdate: update_batch and update_url, and their errors naming
// the line.
func TestConfigUpdate(t *testing.T) {
	c, err := ParseConfig("hall.toml", []byte("update_batch = 5\nupdate_url = \"http://192.168.1.10:8080\"\n"), DefaultConfig())
	if err != nil || c.UpdateBatch != 5 || c.UpdateURL != "http://192.168.1.10:8080" {
		t.Fatalf("%v: batch %d, url %q", err, c.UpdateBatch, c.UpdateURL)
	}
	for _, tt := range []struct{ in, err string }{
		{"title = \"x\"\nupdate_batch = 0\n", "hall.toml:2"},
		{"update_batch = 51\n", "from 1 to 50, got 51"},
		{"update_batch = \"3\"\n", "hall.toml:1"},
		{"update_url = \"ftp://x\"\n", `like "http://192.168.1.10:8080", got "ftp://x"`},
	} {
		_, err := ParseConfig("hall.toml", []byte(tt.in), DefaultConfig())
		if err == nil || !strings.Contains(err.Error(), tt.err) || !strings.Contains(err.Error(), "update_") {
			t.Errorf("%q: %v, want an error with %q", tt.in, err, tt.err)
		}
	}
}
