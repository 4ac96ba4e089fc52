// Package installer is the clock's update installer, `zeitnot installer`:
// the one privileged step of an update. The daemon holds no privilege; it
// writes a request (protocol.UpdateRequest) into its runtime directory,
// systemd starts the installer on it (zeitnot-installer.path, a root
// oneshot with no network), and the installer does what it asks with one
// bundle of the spool: check it (its size and SHA-256 against the
// offer's, then RAUC's signature and compatible, and its version), install
// it (zeitnot update, which reboots into it on trial), or discard it. It
// reports each step back to the daemon over the control socket,
// "update-report" (protocol.UpdateReport). A refusal or failure is one
// line, RAUC's reason.
//
// The spool (protocol.UpdateSpool) is written by the stick's exporter and
// the link; the installer trusts nothing in it: the name is checked
// again, the file opened without following links and hashed, and RAUC
// verifies the signature before anything is written. At most one bundle
// is kept there: the others are removed at every request, and the bundle
// itself after a refusal, a failure, an install or a discard.
package installer

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/zeitnot/zeitnot/protocol"
)

// Info is what RAUC says of a bundle whose signature it verified.
type Info struct {
	Compatible string // the system the bundle is for (its architecture)
	Version    string
}

// Runner runs RAUC and the update: RAUC (rauc info) and zeitnot update in
// production (Exec), a fake in tests.
type Runner interface {
	// Info verifies the bundle's signature and reads its manifest.
	Info(ctx context.Context, bundle string) (Info, error)
	// Install installs the bundle and restarts into it (zeitnot update
	// BUNDLE), calling line with each line of its output as it comes.
	Install(ctx context.Context, bundle string, line func(string)) error
}

// Opts say where the installer works.
type Opts struct {
	Spool string // default protocol.UpdateSpool
	// Compatible is the running system's RAUC compatible (system.conf);
	// a bundle for another is refused. "": RAUC's own check at install
	// only.
	Compatible string
	Runner     Runner
	// Report sends a report to the daemon ("update-report").
	Report func(protocol.UpdateReport) error
	Logf   func(format string, a ...any) // nil: nothing
}

// Handle does what the daemon's request asks. It returns an error only
// when the daemon could not be told; what became of the bundle goes to
// the daemon.
func Handle(ctx context.Context, req protocol.UpdateRequest, o Opts) error {
	if o.Spool == "" {
		o.Spool = protocol.UpdateSpool
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	if err := req.Check(); err != nil {
		// Not the daemon's own request: no report, as the file it names
		// may be none of the spool's.
		return fmt.Errorf("installer: request: %v", err)
	}
	h := &handler{o: o, req: req, path: filepath.Join(o.Spool, req.File)}
	h.clean(req.Op != protocol.UpdateDiscard)
	switch req.Op {
	case protocol.UpdateDiscard:
		o.Logf("installer: %s discarded", req.File)
		return nil
	case protocol.UpdateCheck:
		return h.check(ctx)
	}
	return h.install(ctx)
}

type handler struct {
	o    Opts
	req  protocol.UpdateRequest
	path string
}

func (h *handler) report(state string, version string, percent int, msg string) error {
	msg = oneLine(msg)
	h.o.Logf("installer: %s: %s %s%s", h.req.File, state, version, map[bool]string{true: ": " + msg, false: ""}[msg != ""])
	r := protocol.UpdateReport{File: h.req.File, State: state, Version: version, Percent: percent, Message: msg}
	if err := h.o.Report(r); err != nil {
		return fmt.Errorf("installer: reporting %s to the daemon: %w", state, err)
	}
	return nil
}

// refuse removes the bundle and reports why.
func (h *handler) refuse(state, format string, a ...any) error {
	os.Remove(h.path)
	return h.report(state, "", 0, fmt.Sprintf(format, a...))
}

// partialAge is how long a temporary file of the spool (a name starting
// with '.') is taken for a copy under way and left alone.
const partialAge = time.Hour

// clean removes every file of the spool but the request's bundle (keep)
// and the copies under way, or all of them but those.
func (h *handler) clean(keep bool) {
	ents, err := os.ReadDir(h.o.Spool)
	if err != nil {
		h.o.Logf("installer: %v", err)
		return
	}
	for _, e := range ents {
		if keep && e.Name() == h.req.File {
			continue
		}
		if fi, err := e.Info(); err == nil && strings.HasPrefix(e.Name(), ".") && time.Since(fi.ModTime()) < partialAge {
			continue // a helper's copy under way, under its temporary name
		}
		if err := os.RemoveAll(filepath.Join(h.o.Spool, e.Name())); err != nil {
			h.o.Logf("installer: %v", err)
		}
	}
}

// verify checks that the spool's file is the bundle offered: a regular
// file, not a link, of the offer's size and SHA-256.
func (h *handler) verify() error {
	f, err := os.OpenFile(h.path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return errors.New("the bundle is gone from the spool")
		}
		return fmt.Errorf("the bundle cannot be opened: %v", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	switch {
	case err != nil:
		return err
	case !fi.Mode().IsRegular():
		return errors.New("the bundle is not a regular file")
	case fi.Size() != h.req.Size:
		return fmt.Errorf("damaged or truncated: %d bytes, the offer said %d", fi.Size(), h.req.Size)
	}
	sum := sha256.New()
	if _, err := io.Copy(sum, io.LimitReader(f, protocol.MaxBundle+1)); err != nil {
		return fmt.Errorf("the bundle cannot be read: %v", err)
	}
	if got := hex.EncodeToString(sum.Sum(nil)); got != h.req.SHA256 {
		return fmt.Errorf("damaged: its SHA-256 is %s, the offer said %s", got[:12], h.req.SHA256[:12])
	}
	return nil
}

func (h *handler) check(ctx context.Context) error {
	if err := h.verify(); err != nil {
		return h.refuse(protocol.UpdateRefused, "%v", err)
	}
	info, err := h.o.Runner.Info(ctx, h.path)
	if err != nil {
		return h.refuse(protocol.UpdateRefused, "%v", err)
	}
	if h.o.Compatible != "" && info.Compatible != h.o.Compatible {
		return h.refuse(protocol.UpdateRefused, "for another system: the bundle is for %q, this clock is %q", info.Compatible, h.o.Compatible)
	}
	if info.Version == "" || len(info.Version) > 64 {
		return h.refuse(protocol.UpdateRefused, "the bundle's manifest has no version")
	}
	return h.report(protocol.UpdateOffered, oneLine(info.Version), 0, "")
}

func (h *handler) install(ctx context.Context) error {
	if err := h.verify(); err != nil {
		return h.refuse(protocol.UpdateRefused, "%v", err)
	}
	percent, why := -1, ""
	var reportErr error
	restarting := false
	err := h.o.Runner.Install(ctx, h.path, func(line string) {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "update: progress "):
			n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(line, "update: progress "), "%"))
			if err == nil && n >= 0 && n <= 100 && n != percent {
				percent = n
				if err := h.report(protocol.UpdateInstalling, "", n, ""); err != nil {
					reportErr = err
				}
			}
		case strings.HasPrefix(line, "update: refused: "):
			why = strings.TrimPrefix(line, "update: refused: ")
		case strings.HasPrefix(line, "update: installed, but"):
			why = strings.TrimPrefix(line, "update: ")
		case strings.HasPrefix(line, "update: ") && strings.HasSuffix(line, " installed, restarting"):
			// Told before the reboot: the daemon stops soon after.
			restarting = true
			os.Remove(h.path)
			if err := h.report(protocol.UpdateRestarting, "", 100, ""); err != nil {
				reportErr = err
			}
		}
	})
	switch {
	case err == nil && restarting:
		return reportErr
	case err == nil:
		return h.refuse(protocol.UpdateFailed, "zeitnot update ended without installing")
	case strings.HasPrefix(why, "installed, but"):
		return h.refuse(protocol.UpdateFailed, "%s", why)
	case why != "":
		// zeitnot update's refusal: RAUC's reason, or the pre-install
		// handler's (a downgrade).
		return h.refuse(protocol.UpdateRefused, "%s", strings.TrimPrefix(why, h.path+": "))
	}
	return h.refuse(protocol.UpdateFailed, "%v", err)
}

// oneLine makes text one printable line of a report's length.
func oneLine(text string) string {
	text = strings.Join(strings.Fields(text), " ")
	text = strings.Map(func(r rune) rune {
		if r < ' ' || r > '~' {
			return '?'
		}
		return r
	}, text)
	if len(text) > protocol.MaxUpdateMessage {
		text = text[:protocol.MaxUpdateMessage-3] + "..."
	}
	return text
}
