package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
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
