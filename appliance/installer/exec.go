package installer

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strings"
)

// Exec is the Runner of a clock: rauc info for the check and zeitnot
// update for the install.
type Exec struct {
	Rauc    string // default "rauc"
	Zeitnot string // the zeitnot program; default "zeitnot"
	// Keyring is the certificates rauc info checks the signature
	// against; "": system.conf's (the image's keyring).
	Keyring string
}

// Info runs rauc info --output-format=json: RAUC verifies the bundle's
// signature against the image's keyring before it says anything of it.
func (e Exec) Info(ctx context.Context, bundle string) (Info, error) {
	var out, errOut bytes.Buffer
	args := []string{"info", "--output-format=json"}
	if e.Keyring != "" {
		args = append(args, "--keyring", e.Keyring)
	}
	cmd := exec.CommandContext(ctx, or(e.Rauc, "rauc"), append(args, bundle)...)
	cmd.Stdout, cmd.Stderr = &limited{w: &out, n: 1 << 20}, &limited{w: &errOut, n: 64 << 10}
	if err := cmd.Run(); err != nil {
		return Info{}, fmt.Errorf("%s", Reason(lastLine(errOut.String(), err)))
	}
	var v struct {
		Compatible string `json:"compatible"`
		Version    string `json:"version"`
	}
	if err := json.Unmarshal(out.Bytes(), &v); err != nil {
		return Info{}, fmt.Errorf("rauc info: %v", err)
	}
	return Info{Compatible: v.Compatible, Version: v.Version}, nil
}

// Install runs zeitnot update BUNDLE, its output line by line to line.
func (e Exec) Install(ctx context.Context, bundle string, line func(string)) error {
	cmd := exec.CommandContext(ctx, or(e.Zeitnot, "zeitnot"), "update", bundle)
	r, w := io.Pipe()
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 4096), 64<<10)
		for sc.Scan() {
			line(sc.Text())
		}
		io.Copy(io.Discard, r)
	}()
	err := cmd.Wait()
	w.Close()
	<-done
	return err
}

// Reason says in a clock's words why RAUC refused a bundle, from its
// error line (as zeitnot update does).
func Reason(line string) string {
	line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "rauc-Message:"))
	switch {
	case strings.Contains(line, "ompatible"):
		return "for another system: " + line
	case strings.Contains(line, "ignature") || strings.Contains(line, "certificate") || strings.Contains(line, "CMS"):
		return "its signature is not from this clock's key: " + line
	case strings.Contains(line, "size") || strings.Contains(line, "truncat") || strings.Contains(line, "squashfs"):
		return "damaged or truncated: " + line
	}
	return line
}

func lastLine(text string, err error) string {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	if l := strings.TrimSpace(lines[len(lines)-1]); l != "" {
		return l
	}
	return err.Error()
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// limited keeps the first n bytes written and drops the rest.
type limited struct {
	w io.Writer
	n int
}

func (l *limited) Write(p []byte) (int, error) {
	if k := min(len(p), l.n); k > 0 {
		l.w.Write(p[:k])
		l.n -= k
	}
	return len(p), nil
}
