package usb

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/zeitnot/zeitnot/internal/atomicfile"
	"github.com/zeitnot/zeitnot/protocol"
)

// An update bundle on the stick (NAME.raucb at its root, a name
// protocol.CheckBundleName takes) is copied into the update spool and
// offered to the daemon ("update-offer", source usb), which asks at the
// clock before the installer installs it. The copy is made whole or not
// at all: written under a temporary name, its SHA-256 computed on the
// way, at most protocol.MaxBundle bytes, synced, then renamed; a stick
// pulled out mid-copy leaves no partial bundle and no offer.

// UpdateOutcome is what became of a bundle on the stick.
type UpdateOutcome int

// What can become of a stick's bundle.
const (
	UpdateNone    UpdateOutcome = iota // the stick has none
	UpdateOffered                      // copied and offered: the clock asks
	UpdateRefused                      // not copied or not taken; UpdateError says why
)

// UpdateErrorsFile is written at the stick's root when its bundle is not
// taken, with why (as ErrorsFile for its config).
const UpdateErrorsFile = "update-errors.txt"

// bundleTimeout bounds the copy of a bundle: 512 MiB from a slow stick.
const bundleTimeout = 30 * time.Minute

// Copy writes the file at path on the stick to w, at most max bytes: a
// longer file is refused with ErrTooMuch as soon as more comes. It is
// Read for large files: nothing is kept in memory.
func (s *Stick) Copy(ctx context.Context, path string, w io.Writer, max int64) (int64, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, bundleTimeout, fmt.Errorf("mtype took longer than %v", bundleTimeout))
	defer cancel()
	cw := &capWriter{w: w, max: max, stop: cancel}
	err := s.o.Run(ctx, "mtype", []string{"-i", s.dev, msdos(path)}, cw)
	if cw.over {
		return cw.n, fmt.Errorf("%s: %s: %w: more than %d bytes", s.dev, msdos(path), ErrTooMuch, max)
	}
	if cw.err != nil {
		return cw.n, cw.err
	}
	if err != nil {
		return cw.n, fmt.Errorf("%s: %w", s.dev, err)
	}
	return cw.n, nil
}

// capWriter passes at most max bytes on to w.
type capWriter struct {
	w    io.Writer
	max  int64
	n    int64
	over bool
	err  error // w's
	stop func()
}

func (c *capWriter) Write(p []byte) (int, error) {
	if c.n+int64(len(p)) > c.max {
		c.over = true
		c.stop()
		return 0, errLimit
	}
	n, err := c.w.Write(p)
	c.n += int64(n)
	if err != nil {
		c.err = err
		c.stop()
	}
	return n, err
}

// bundleIn copies the stick's bundle, if it has one, to the spool and
// offers it. It returns only trouble with the stick; a bundle refused is
// a result.
func (x *exporter) bundleIn(ctx context.Context) error {
	var found []Entry
	for _, e := range x.root {
		if !e.Dir && strings.HasSuffix(strings.ToLower(e.Name), ".raucb") {
			found = append(found, e)
		}
	}
	refuse := func(format string, a ...any) error {
		x.r.Update, x.r.UpdateError = UpdateRefused, fmt.Sprintf(format, a...)
		x.o.Logf("usb: update: %s", x.r.UpdateError)
		text := fmt.Sprintf("The update on this stick was not taken by the clock %s on %s:\n\n%s\n",
			x.o.Hostname, x.o.Clock.Now().Format("2006-01-02 15:04"), x.r.UpdateError)
		return x.put(ctx, "", time.Time{}, []string{UpdateErrorsFile}, [][]byte{[]byte(text)})
	}
	switch {
	case len(found) == 0:
		return nil
	case len(found) > 1:
		return refuse("%d update bundles on the stick: leave one", len(found))
	case x.o.Daemon == nil:
		return refuse("%s: the clock's daemon is not running", found[0].Name)
	}
	name := found[0].Name
	if err := protocol.CheckBundleName(name); err != nil {
		return refuse("%v", err)
	}
	spool := x.o.Spool
	if spool == "" {
		spool = protocol.UpdateSpool
	}
	x.show("USB STICK: COPYING THE UPDATE/DO NOT PULL IT OUT")
	f, err := os.CreateTemp(spool, ".stick-*.part")
	if err != nil {
		return refuse("the update spool: %v", err)
	}
	tmp := f.Name()
	kept := false
	defer func() {
		if !kept {
			os.Remove(tmp)
		}
	}()
	sum := sha256.New()
	limit := x.o.maxBundle
	if limit <= 0 {
		limit = protocol.MaxBundle
	}
	n, err := x.s.Copy(ctx, name, io.MultiWriter(f, hashWriter{sum}), limit)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	switch {
	case errors.Is(err, ErrTooMuch):
		return refuse("%s: larger than %d bytes, not a bundle of this clock", name, limit)
	case err != nil && (x.s.Gone() || ctx.Err() != nil):
		return err // pulled out: the partial copy goes
	case err != nil:
		// The stick's trouble (a read error): the export goes on
		// without the update.
		return refuse("%s: cannot read it: %v", name, err)
	case x.s.Gone():
		return fmt.Errorf("%s: the stick went away while the update was copied", x.s.Device())
	case n == 0:
		return refuse("%s: empty", name)
	}
	final := filepath.Join(spool, name)
	if err := os.Rename(tmp, final); err != nil {
		return refuse("the update spool: %v", err)
	}
	kept = true
	atomicfile.SyncDir(spool) // the rename itself
	offer := protocol.UpdateOffer{Source: protocol.UpdateFromUSB, File: name, SHA256: hex.EncodeToString(sum.Sum(nil)), Size: n}
	if err := x.o.Daemon.OfferUpdate(offer); err != nil {
		os.Remove(final)
		return refuse("%s: the clock did not take it: %v", name, err)
	}
	x.r.Update = UpdateOffered
	x.o.Logf("usb: update %s (%d bytes, sha256 %s) offered", name, n, offer.SHA256)
	return nil
}

type hashWriter struct{ h hash.Hash }

func (w hashWriter) Write(p []byte) (int, error) { return w.h.Write(p) }
