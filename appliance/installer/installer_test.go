package installer

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/protocol"
)

const name = "zeitnot-1.4.0-arm64.raucb"

// fakeRunner stands in for rauc info and zeitnot update.
type fakeRunner struct {
	info    Info
	infoErr error
	lines   []string // zeitnot update's output
	exitErr error
	ran     []string
}

func (f *fakeRunner) Info(ctx context.Context, bundle string) (Info, error) {
	f.ran = append(f.ran, "info "+filepath.Base(bundle))
	return f.info, f.infoErr
}

func (f *fakeRunner) Install(ctx context.Context, bundle string, line func(string)) error {
	f.ran = append(f.ran, "install "+filepath.Base(bundle))
	for _, l := range f.lines {
		line(l)
	}
	return f.exitErr
}

// spool makes a spool with the bundle (its contents data) and an old one;
// it returns the request for the bundle.
func spool(t *testing.T, data string) (string, protocol.UpdateRequest) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, name), []byte(data), 0o640)
	os.WriteFile(filepath.Join(dir, "zeitnot-1.3.0-arm64.raucb"), []byte("old"), 0o640)
	os.WriteFile(filepath.Join(dir, ".tmp-123"), []byte("partial"), 0o640)
	old := time.Now().Add(-2 * time.Hour)
	os.Chtimes(filepath.Join(dir, ".tmp-123"), old, old) // a copy that died
	os.WriteFile(filepath.Join(dir, ".stick-9.part"), []byte("under way"), 0o640)
	sum := sha256.Sum256([]byte(data))
	return dir, protocol.UpdateRequest{Op: protocol.UpdateCheck, File: name, SHA256: hex.EncodeToString(sum[:]), Size: int64(len(data))}
}

func spoolFiles(dir string) string {
	ents, _ := os.ReadDir(dir)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return strings.Join(names, " ")
}

func TestHandle(t *testing.T) {
	progress := []string{
		"update: installing /spool/" + name,
		"update: progress 0%",
		"update: progress 40%",
		"update: progress 40%",
		"update: progress 100%",
		"update: /spool/" + name + " installed, restarting",
	}
	for _, c := range []struct {
		name   string
		op     string
		edit   func(dir string, r *protocol.UpdateRequest)
		runner fakeRunner
		// want is the reports, "STATE [VERSION] [PERCENT] [MESSAGE]";
		// left the spool's files after.
		want, left, ran string
	}{
		{name: "good bundle", op: protocol.UpdateCheck, runner: fakeRunner{info: Info{Compatible: "zeitnot-arm64", Version: "1.4.0"}},
			want: "offered 1.4.0", left: ".stick-9.part " + name, ran: "info " + name},
		{name: "bad hash", op: protocol.UpdateCheck, edit: func(dir string, r *protocol.UpdateRequest) { r.SHA256 = strings.Repeat("0", 64) },
			want: "refused damaged: its SHA-256 is", left: ".stick-9.part", ran: ""},
		{name: "truncated", op: protocol.UpdateCheck, edit: func(dir string, r *protocol.UpdateRequest) { r.Size++ },
			want: "refused damaged or truncated: 12 bytes, the offer said 13", left: ".stick-9.part", ran: ""},
		{name: "a link", op: protocol.UpdateCheck, edit: func(dir string, r *protocol.UpdateRequest) {
			os.Remove(filepath.Join(dir, name))
			os.Symlink("/dev/mmcblk0", filepath.Join(dir, name))
		}, want: "refused the bundle cannot be opened", left: ".stick-9.part", ran: ""},
		{name: "gone", op: protocol.UpdateCheck, edit: func(dir string, r *protocol.UpdateRequest) { os.Remove(filepath.Join(dir, name)) },
			want: "refused the bundle is gone from the spool", left: ".stick-9.part", ran: ""},
		{name: "RAUC refusal", op: protocol.UpdateCheck,
			runner: fakeRunner{infoErr: errors.New("its signature is not from this clock's key: signature verification failed: unable to get local issuer certificate\nmore")},
			want:   "refused its signature is not from this clock's key: signature verification failed: unable to get local issuer certificate more", left: ".stick-9.part", ran: "info " + name},
		{name: "another system", op: protocol.UpdateCheck, runner: fakeRunner{info: Info{Compatible: "zeitnot-amd64", Version: "1.4.0"}},
			want: `refused for another system: the bundle is for "zeitnot-amd64", this clock is "zeitnot-arm64"`, left: ".stick-9.part", ran: "info " + name},
		{name: "install with progress", op: protocol.UpdateInstall, runner: fakeRunner{lines: progress},
			want: "installing 0 | installing 40 | installing 100 | restarting 100", left: ".stick-9.part", ran: "install " + name},
		{name: "install refused (downgrade)", op: protocol.UpdateInstall, runner: fakeRunner{
			lines:   []string{"update: refused: version 1.2.0 is older than the running system (built 1, this one 2); --allow-downgrade installs it"},
			exitErr: errors.New("exit status 1")},
			want: "refused version 1.2.0 is older than the running system (built 1, this one 2); --allow-downgrade installs it", left: ".stick-9.part", ran: "install " + name},
		{name: "install failure", op: protocol.UpdateInstall, runner: fakeRunner{
			lines: []string{"update: progress 20%"}, exitErr: errors.New("signal: killed")},
			want: "installing 20 | failed signal: killed", left: ".stick-9.part", ran: "install " + name},
		{name: "trial reboot failed", op: protocol.UpdateInstall, runner: fakeRunner{
			lines:   []string{"update: installed, but the trial reboot failed: no tryboot"},
			exitErr: errors.New("exit status 1")},
			want: "failed installed, but the trial reboot failed: no tryboot", left: ".stick-9.part", ran: "install " + name},
		{name: "install of a changed bundle", op: protocol.UpdateInstall, edit: func(dir string, r *protocol.UpdateRequest) {
			os.WriteFile(filepath.Join(dir, name), []byte("other bytes!"), 0o640)
		}, want: "refused damaged: its SHA-256 is", left: ".stick-9.part", ran: ""},
		{name: "discard", op: protocol.UpdateDiscard, want: "", left: ".stick-9.part", ran: ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, req := spool(t, "bundle bytes")
			req.Op = c.op
			if c.edit != nil {
				c.edit(dir, &req)
			}
			var got []string
			err := Handle(context.Background(), req, Opts{Spool: dir, Compatible: "zeitnot-arm64", Runner: &c.runner,
				Report: func(r protocol.UpdateReport) error {
					if err := r.Check(); err != nil {
						t.Errorf("a bad report: %v", err)
					}
					s := r.State
					for _, p := range []string{r.Version, map[bool]string{true: itoa(r.Percent)}[r.Percent > 0 || r.State == protocol.UpdateInstalling], r.Message} {
						if p != "" {
							s += " " + p
						}
					}
					got = append(got, s)
					return nil
				}})
			if err != nil {
				t.Fatal(err)
			}
			if g := strings.Join(got, " | "); !strings.HasPrefix(g, c.want) || c.want == "" && g != "" {
				t.Errorf("reports %q, want %q", g, c.want)
			}
			if l := spoolFiles(dir); l != c.left {
				t.Errorf("spool has %q, want %q", l, c.left)
			}
			if r := strings.Join(c.runner.ran, " | "); r != c.ran {
				t.Errorf("ran %q, want %q", r, c.ran)
			}
		})
	}
}

func itoa(n int) string {
	s := ""
	for {
		s = string(rune('0'+n%10)) + s
		if n /= 10; n == 0 {
			return s
		}
	}
}

// TestHandleBadRequest: a request the daemon would not write is refused
// without a report and without touching the spool.
func TestHandleBadRequest(t *testing.T) {
	dir, req := spool(t, "bundle bytes")
	req.File = "../../etc/shadow"
	err := Handle(context.Background(), req, Opts{Spool: dir, Runner: &fakeRunner{},
		Report: func(protocol.UpdateReport) error { t.Error("reported"); return nil }})
	if err == nil || !strings.Contains(err.Error(), "not a path") {
		t.Errorf("got %v", err)
	}
	if l := spoolFiles(dir); !strings.Contains(l, name) {
		t.Errorf("spool %q", l)
	}
}

// TestExec: the real runner against fake rauc and zeitnot programs: the
// manifest's version from rauc info's JSON, RAUC's error as the reason,
// zeitnot update's lines as they come.
func TestExec(t *testing.T) {
	dir := t.TempDir()
	script := func(name, body string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755)
		return p
	}
	good := Exec{
		Rauc:    script("rauc", `echo '{"compatible":"zeitnot-arm64","version":"1.4.0","description":"x"}'`+"\n"),
		Zeitnot: script("zeitnot", "echo 'update: progress 10%'\necho 'update: progress 90%' >&2\necho \"update: $2 installed, restarting\"\n"),
	}
	info, err := good.Info(context.Background(), "b.raucb")
	if err != nil || info.Version != "1.4.0" || info.Compatible != "zeitnot-arm64" {
		t.Errorf("info %+v, %v", info, err)
	}
	var lines []string
	if err := good.Install(context.Background(), "b.raucb", func(l string) { lines = append(lines, l) }); err != nil {
		t.Fatal(err)
	}
	if g := strings.Join(lines, "|"); g != "update: progress 10%|update: progress 90%|update: b.raucb installed, restarting" {
		t.Errorf("lines %q", g)
	}
	bad := Exec{Rauc: script("rauc-bad", "echo 'rauc-Message: Failed to verify bundle: signature verification failed: unable to get local issuer certificate' >&2\nexit 1\n")}
	if _, err := bad.Info(context.Background(), "b.raucb"); err == nil || !strings.HasPrefix(err.Error(), "its signature is not from this clock's key: Failed to verify") {
		t.Errorf("refusal: %v", err)
	}
}
