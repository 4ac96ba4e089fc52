package link_test

import (
	"crypto/ed25519"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/link"
	"github.com/zeitnot/zeitnot/appliance/link/linktest"
	"github.com/zeitnot/zeitnot/protocol"
)

func keyConfig(t *testing.T) link.Config {
	u, err := url.Parse("mqtt://127.0.0.1:1")
	if err != nil {
		t.Fatal(err)
	}
	return link.Config{File: "zeitnot.toml", Broker: u, Hall: "club", Board: 12}
}

// TestKeyFileSurvivesRestart: the link makes the board's key at its first
// start, 0600, and a second start reads the same key back.
func TestKeyFileSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	var logs []string
	o := &link.Opts{Dir: dir, Log: func(s string) { logs = append(logs, s) }}
	l1, err := link.New(keyConfig(t), o)
	if err != nil {
		t.Fatal(err)
	}
	pub := l1.PublicKey()
	if len(pub) != ed25519.PublicKeySize {
		t.Fatalf("public key of %d bytes", len(pub))
	}
	fi, err := os.Stat(filepath.Join(dir, link.KeyFile))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("%s has mode %v, want 0600", link.KeyFile, fi.Mode().Perm())
	}
	l2, err := link.New(keyConfig(t), o)
	if err != nil {
		t.Fatal(err)
	}
	if !pub.Equal(l2.PublicKey()) {
		t.Errorf("the second start has another key: %s, was %s", protocol.KeyFingerprint(l2.PublicKey()), protocol.KeyFingerprint(pub))
	}
	fp := protocol.KeyFingerprint(pub)
	if len(logs) != 2 || !strings.Contains(logs[0], "made a key") || !strings.Contains(logs[1], "signs its log lines") || !strings.Contains(logs[1], fp) {
		t.Errorf("the link's log:\n%s", strings.Join(logs, "\n"))
	}
	// Without a state directory the link signs nothing.
	l3, err := link.New(keyConfig(t), &link.Opts{})
	if err != nil || l3.PublicKey() != nil {
		t.Errorf("no directory: key %v, %v", l3.PublicKey(), err)
	}
}

// TestCorruptKeyFile: a key file the link cannot read is an error naming
// the file, and the file is left as it is: never a new key in silence.
func TestCorruptKeyFile(t *testing.T) {
	for _, content := range []string{"", "ed25519-seed:AAAA\n", "garbage\n", "ed25519-seed:" + strings.Repeat("A", 44) + "x\n"} {
		dir := t.TempDir()
		p := filepath.Join(dir, link.KeyFile)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := link.New(keyConfig(t), &link.Opts{Dir: dir})
		if err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "not the board's key") {
			t.Errorf("%q: %v, want an error naming %s", content, err, p)
		}
		if b, _ := os.ReadFile(p); string(b) != content {
			t.Errorf("%q: the file was rewritten: %q", content, b)
		}
	}
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, link.KeyFile), 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := link.New(keyConfig(t), &link.Opts{Dir: dir}); err == nil || !strings.Contains(err.Error(), filepath.Join(dir, link.KeyFile)) {
		t.Errorf("a directory for the key file: %v", err)
	}
}

// TestSignsLogLines: every log line the link publishes carries a
// signature that verifies with the key of its online message, over its
// hall, board, game and seq.
func TestSignsLogLines(t *testing.T) {
	r := newRig(t, linktest.BrokerOpts{})
	r.hall = linktest.NewHall(t, r.broker.URL(), linktest.HallOpts{})
	r.start(r.config(), testOpts())
	r.press(0, "black")
	r.press(1200, "white")
	r.waitLog(len(r.clock.Lines(r.clock.Game())))
	var key ed25519.PublicKey
	r.hall.Wait(10*time.Second, "the online message with the key", func(h *linktest.Hall) bool {
		m, ok := h.Last(r.topics.Online)
		var om protocol.OnlineMsg
		if !ok || json.Unmarshal(m.Payload, &om) != nil || !om.Online {
			return false
		}
		k, err := protocol.ParseKey(om.Key)
		key = k
		return err == nil
	})
	if !key.Equal(r.link.PublicKey()) {
		t.Fatalf("the online message's key %s is not the link's %s", protocol.KeyFingerprint(key), protocol.KeyFingerprint(r.link.PublicKey()))
	}
	msgs := r.hall.Messages(r.topics.Log)
	if len(msgs) == 0 {
		t.Fatal("no log lines")
	}
	for _, m := range msgs {
		lm, err := protocol.ParseLogMsg(m.Payload)
		if err != nil {
			t.Fatal(err)
		}
		if err := protocol.VerifyLine(key, "club", 12, lm.Game, lm.Seq, lm.Line, lm.Sig); err != nil {
			t.Errorf("line %d %q: %v", lm.Seq, lm.Line, err)
		}
		if protocol.VerifyLine(key, "club", 12, lm.Game, lm.Seq+1, lm.Line, lm.Sig) == nil {
			t.Errorf("line %d's signature verifies as line %d", lm.Seq, lm.Seq+1)
		}
	}
}
