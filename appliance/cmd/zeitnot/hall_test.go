package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/bcrypt"
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
	if code := hallMain(ctx, []string{"--http", "127.0.0.1:0", "--mqtt", "127.0.0.1:0", "--data", t.TempDir()}, nil, &out, &errb); code != 0 || !strings.Contains(errb.String(), "pages: http://127.0.0.1:") {
		t.Errorf("start and stop: %d %s", code, errb.String())
	}
}
