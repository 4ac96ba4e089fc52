package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/appliance/config/halltable"
	"github.com/zeitnot/zeitnot/hall"
	"github.com/zeitnot/zeitnot/hall/broker"
)

// clock-config writes a [hall] table the link takes, pinning the
// fingerprint the hall's TLS listener will have, and the hall.toml line
// whose hash is of its password.
func TestClockConfig(t *testing.T) {
	data := t.TempDir()
	var out, errb bytes.Buffer
	if code := runClockConfig([]string{"--data", data, "--hall", "spring", "--board", "12", "--broker", "mqtts://192.168.1.10:8883"}, &out, &errb); code != 0 {
		t.Fatalf("%d %s", code, errb.String())
	}
	c, err := halltable.ParseConfig(filepath.Join(t.TempDir(), "zeitnot.toml"), out.Bytes())
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	want, err := hall.ClockFingerprint(hall.Config{Data: data, Hall: "spring"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Broker.String() != "mqtts://192.168.1.10:8883" || c.Hall != "spring" || c.Board != 12 || c.Username != "board12" || c.Fingerprint == nil || *c.Fingerprint != want {
		t.Errorf("%+v, fingerprint %v, want %s", c, c.Fingerprint, want)
	}
	m := regexp.MustCompile(`board12 = \{ board = 12, password_hash = "(sha256:[0-9a-f]{64})" \}`).FindStringSubmatch(errb.String())
	if m == nil || m[1] != broker.HashSHA256(string(c.Password)) || len(c.Password) < 20 {
		t.Errorf("the hall.toml line: %s", errb.String())
	}
	if _, err := os.Stat(filepath.Join(data, hall.TLSDir, "ca.key")); err != nil {
		t.Errorf("no CA made: %v", err)
	}

	// Plain MQTT is refused with the clock's own message.
	out.Reset()
	errb.Reset()
	if code := runClockConfig([]string{"--data", data, "--board", "3", "--broker", "mqtt://192.168.1.10"}, &out, &errb); code != exitConfig ||
		!strings.Contains(errb.String(), `hall.fingerprint: needs an mqtts:// broker (TLS); "mqtt://192.168.1.10:1883" is plain TCP`) || out.Len() != 0 {
		t.Errorf("plain MQTT: %d %s %s", code, errb.String(), out.String())
	}
	if code := runClockConfig([]string{"--data", data}, &out, &errb); code != 2 {
		t.Errorf("no board: %d", code)
	}
}

// tls writes the broker's certificate and key for Mosquitto and prints
// the fingerprint the hall's own listener has too.
func TestTLSCommand(t *testing.T) {
	data := t.TempDir()
	var out, errb bytes.Buffer
	if code := runTLS([]string{"--data", data, "hall.club.example"}, &out, &errb); code != 0 {
		t.Fatalf("%d %s", code, errb.String())
	}
	want, _ := hall.ClockFingerprint(hall.Config{Data: data, Hall: "club"})
	dir := filepath.Join(data, hall.TLSDir)
	for _, s := range []string{`fingerprint = "` + want.String() + `"`, "certfile " + filepath.Join(dir, "server.crt"), "keyfile " + filepath.Join(dir, "server.key")} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("the output has no %s:\n%s", s, out.String())
		}
	}
	os.WriteFile(filepath.Join(dir, "ca.key"), []byte("garbage"), 0o600)
	errb.Reset()
	if code := runTLS([]string{"--data", data}, &out, &errb); code != 1 || !strings.Contains(errb.String(), filepath.Join(dir, "ca.key")+": no PEM private key in it") {
		t.Errorf("a damaged key: %d %s", code, errb.String())
	}
}
