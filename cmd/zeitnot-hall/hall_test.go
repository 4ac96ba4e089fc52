package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/zeitnot/zeitnot/hall"
	"github.com/zeitnot/zeitnot/hall/demo"
	"github.com/zeitnot/zeitnot/internal/wait"
)

func TestHallCommand(t *testing.T) {
	var out, errb bytes.Buffer
	if code := hallMain(context.Background(), []string{"--hash-password"}, strings.NewReader("a long password\n"), &out, &errb); code != 0 {
		t.Fatalf("--hash-password: %d %s", code, errb.String())
	}
	if bcrypt.CompareHashAndPassword(bytes.TrimSpace(out.Bytes()), []byte("a long password")) != nil {
		t.Errorf("--hash-password printed %q", out.String())
	}
	conf := filepath.Join(t.TempDir(), "hall.toml")
	os.WriteFile(conf, []byte("hall = \"x\"\nmqt = \"a\"\n"), 0o600)
	errb.Reset()
	if code := hallMain(context.Background(), []string{"--config", conf}, nil, &out, &errb); code != exitConfig || !strings.Contains(errb.String(), "hall.toml:2: mqt: unknown key (did you mean mqtt?)") {
		t.Errorf("a bad hall.toml: %d %s", code, errb.String())
	}
	errb.Reset()
	if code := hallMain(context.Background(), []string{"--mqtt", "0.0.0.0:1883", "--data", t.TempDir()}, nil, &out, &errb); code != exitConfig || !strings.Contains(errb.String(), "not on loopback") {
		t.Errorf("an open broker without users: %d %s", code, errb.String())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // starts and stops at once
	errb.Reset()
	if code := hallMain(ctx, []string{"--http", "127.0.0.1:0", "--mqtt", "127.0.0.1:0", "--mqtts", "127.0.0.1:0", "--data", t.TempDir()}, nil, &out, &errb); code != 0 || !strings.Contains(errb.String(), "pages: http://127.0.0.1:") ||
		!strings.Contains(errb.String(), `broker: the clocks' [hall] fingerprint = "sha256:`) || !strings.Contains(errb.String(), "broker: listening on mqtts://127.0.0.1:") {
		t.Errorf("start and stop: %d %s", code, errb.String())
	}
	errb.Reset()
	if code := hallMain(context.Background(), []string{"--mqtt", "off", "--mqtts", "off", "--data", t.TempDir()}, nil, &out, &errb); code != exitConfig || !strings.Contains(errb.String(), `mqtt and mqtts are both "off"`) {
		t.Errorf("no listener: %d %s", code, errb.String())
	}
}

// make hall's clocks: real daemons and links, playing against the hall.
func TestHallDemo(t *testing.T) {
	if testing.Short() {
		t.Skip("starts daemon and link processes")
	}
	dir := t.TempDir()
	cfg := hall.DefaultConfig()
	cfg.HTTP, cfg.MQTT, cfg.MQTTS, cfg.Data = "127.0.0.1:0", "127.0.0.1:0", "127.0.0.1:0", dir
	h, err := hall.Start(cfg, hall.Opts{Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	exe := buildClock(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	// The demo's clocks connect as make hall's do: over TLS, pinning the
	// hall's CA.
	fp, ok := h.Fingerprint()
	if !ok {
		t.Fatal("the hall has no TLS listener")
	}
	go func() {
		done <- demo.Run(ctx, demo.Opts{Exe: exe, Dir: filepath.Join(dir, "demo"), Broker: "mqtts://" + h.MQTTSAddr(), Fingerprint: fp.String(), Hall: cfg.Hall, Boards: 2, Think: 600 * time.Millisecond, Logf: t.Logf})
	}()
	wait.Until(t, 30*time.Second, func() string {
		b1, ok1 := h.Store().Board(1)
		b2, ok2 := h.Store().Board(2)
		if ok1 && ok2 && b1.IsOnline() && b2.IsOnline() && b1.State != nil && (b1.State.State.White.Moves == 2 || b1.State.State.Black.Moves == 2) {
			return ""
		}
		return fmt.Sprintf("board 1 state %v, board 2 state %v", b1.State != nil, b2.State != nil)
	})
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// The links said goodbye as they stopped.
	wait.For(t, 5*time.Second, "board 1 offline after the demo stopped", func() bool {
		b, _ := h.Store().Board(1)
		return !b.IsOnline()
	})
}
