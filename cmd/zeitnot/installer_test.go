package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/control"
	"github.com/zeitnot/zeitnot/appliance/installer"
	"github.com/zeitnot/zeitnot/internal/wait"
	"github.com/zeitnot/zeitnot/protocol"
)

func TestReadRequest(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "update-request")
	os.WriteFile(p, []byte(`{"op":"check","file":"a.raucb","sha256":"`+strings.Repeat("ab", 32)+`","size":5}`), 0o640)
	req, err := readRequest(p)
	if err != nil || req.Op != "check" || req.Size != 5 {
		t.Fatalf("%+v, %v", req, err)
	}
	if _, err := os.Stat(p); err == nil {
		t.Error("the request was not removed")
	}
	os.WriteFile(filepath.Join(dir, "target"), []byte("{}"), 0o640)
	os.Symlink(filepath.Join(dir, "target"), p)
	if _, err := readRequest(p); err == nil {
		t.Error("a link was read")
	}
	os.Remove(p)
	os.WriteFile(p, []byte(`{"op":"check","file":"../a.raucb"}`), 0o640)
	if _, err := readRequest(p); err == nil || !strings.Contains(err.Error(), p) {
		t.Errorf("a bad request: %v", err)
	}
}

// TestRunProgress: rauc install's progress lines said as they come, once
// each, and its whole output kept for the refusal's reason.
func TestRunProgress(t *testing.T) {
	rauc := filepath.Join(t.TempDir(), "rauc")
	os.WriteFile(rauc, []byte("#!/bin/sh\necho installing\necho '  0% Installing'\necho ' 40% Copying image'\necho ' 40% Copying image'\necho 'LastError: no space' >&2\necho '100% Installing failed.'\nexit 1\n"), 0o755)
	var stdout bytes.Buffer
	out, err := runProgress(exec.Command(rauc), &stdout)
	if err == nil {
		t.Error("no error")
	}
	if got := stdout.String(); got != "update: progress 0%\nupdate: progress 40%\nupdate: progress 100%\n" {
		t.Errorf("progress %q", got)
	}
	if raucError(string(out), err) != "no space" {
		t.Errorf("output %q", out)
	}
}

// TestInstallerWithTheDaemon: a stick's bundle from the offer to the
// restart, through a real daemon's control socket and request file: the
// installer's check (zeitnot installer, with a stand-in rauc), the
// question at the clock, ok, the install (the installer's logic with a
// stand-in zeitnot update), each report in the daemon's status.
func TestInstallerWithTheDaemon(t *testing.T) {
	dir := t.TempDir()
	p := startDaemon(t, dir)
	spool := filepath.Join(dir, "spool")
	os.Mkdir(spool, 0o770)
	data := []byte("a bundle's bytes")
	os.WriteFile(filepath.Join(spool, "zeitnot-1.4.0-arm64.raucb"), data, 0o640)
	sum := sha256.Sum256(data)
	offer, _ := json.Marshal(protocol.UpdateOffer{Source: "usb", File: "zeitnot-1.4.0-arm64.raucb", SHA256: hex.EncodeToString(sum[:]), Size: int64(len(data))})
	if a, err := control.Call(p.sock, "update-offer", string(offer)); err != nil || a != "ok" {
		t.Fatalf("update-offer: %q, %v", a, err)
	}
	req := filepath.Join(dir, "update-request")
	wait.For(t, 10*time.Second, "the daemon's request", func() bool { _, err := os.Stat(req); return err == nil })

	bin := t.TempDir()
	os.WriteFile(filepath.Join(bin, "rauc"), []byte("#!/bin/sh\necho '{\"compatible\":\"zeitnot-rpi-arm64\",\"version\":\"1.4.0\"}'\n"), 0o755)
	t.Setenv("PATH", bin+":"+os.Getenv("PATH"))
	conf := filepath.Join(dir, "system.conf")
	os.WriteFile(conf, []byte("[system]\ncompatible=zeitnot-rpi-arm64\n"), 0o644)
	if code, out, errOut := prog.Run("installer", "--socket", p.sock, "--spool", spool, "--system-conf", conf, req); code != 0 {
		t.Fatalf("zeitnot installer: %d\n%s%s", code, out, errOut)
	}
	if st := p.status(); st.Update == nil || st.Update.State != protocol.UpdateOffered || st.Update.Offer != "1.4.0" || st.Screen != "menu:update-to-1.4.0?" {
		t.Fatalf("after the check: %+v, screen %q", st.Update, st.Screen)
	}
	p.press("ok")
	wait.For(t, 10*time.Second, "the install's request", func() bool { _, err := os.Stat(req); return err == nil })
	r, err := readRequest(req)
	if err != nil || r.Op != protocol.UpdateInstall {
		t.Fatalf("request %+v, %v", r, err)
	}
	err = installer.Handle(context.Background(), r, installer.Opts{Spool: spool,
		Runner: fakeUpdate{"update: progress 40%", "update: " + filepath.Join(spool, r.File) + " installed, restarting"},
		Report: func(rep protocol.UpdateReport) error {
			b, _ := json.Marshal(rep)
			a, err := control.Call(p.sock, "update-report", string(b))
			if err == nil && a != "ok" {
				err = errors.New(a)
			}
			return err
		}})
	if err != nil {
		t.Fatal(err)
	}
	if st := p.status(); st.Update.State != protocol.UpdateRestarting || st.Update.Percent != 100 {
		t.Errorf("after the install: %+v", st.Update)
	}
	if ents, _ := os.ReadDir(spool); len(ents) != 0 {
		t.Errorf("the spool keeps %v", ents)
	}
}

// fakeUpdate stands in for zeitnot update: its lines, exit 0.
type fakeUpdate []string

func (f fakeUpdate) Info(context.Context, string) (installer.Info, error) {
	return installer.Info{}, errors.New("not asked")
}

func (f fakeUpdate) Install(ctx context.Context, bundle string, line func(string)) error {
	for _, l := range f {
		line(l)
	}
	return nil
}
