package usb

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/zeitnot/zeitnot/appliance/spool"
	"github.com/zeitnot/zeitnot/protocol"
)

// An update bundle on the stick (NAME.raucb at its root, a name
// protocol.CheckBundleName takes) is copied into the update spool and
// offered to the daemon ("update-offer", source usb), which asks at the
// clock before the installer installs it. The copy is spool.Write's,
// whole or not at all, at most protocol.MaxBundle bytes: a stick pulled
// out mid-copy leaves no partial bundle and no offer.

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

// Open returns the file at path on the stick as a stream, for files too
// large to Read into memory: mtype writes it into the stream as it is
// read, and a read after mtype failed returns its error, with the device.
// Close stops mtype, if it still runs, and waits for it; mtype is also
// stopped after bundleTimeout.
func (s *Stick) Open(ctx context.Context, path string) io.ReadCloser {
	ctx, cancel := context.WithTimeoutCause(ctx, bundleTimeout, fmt.Errorf("mtype took longer than %v", bundleTimeout))
	pr, pw := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		err := s.o.Run(ctx, "mtype", []string{"-i", s.dev, msdos(path)}, pw)
		if err != nil {
			err = fmt.Errorf("%s: %w", s.dev, err)
		}
		pw.CloseWithError(err) // nil: the reader's io.EOF
	}()
	return &stream{PipeReader: pr, stop: cancel, done: done}
}

// stream is the reading end of Open's mtype.
type stream struct {
	*io.PipeReader
	stop func()
	done chan struct{}
}

func (s *stream) Close() error {
	s.stop()
	s.PipeReader.Close()
	<-s.done
	return nil
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
	dir := x.o.Spool
	if dir == "" {
		dir = protocol.UpdateSpool
	}
	limit := x.o.maxBundle
	if limit <= 0 {
		limit = protocol.MaxBundle
	}
	x.show("USB STICK: COPYING THE UPDATE/DO NOT PULL IT OUT")
	in := x.s.Open(ctx, name)
	n, sum, err := spool.Write(ctx, dir, name, in, limit, func(int64, [32]byte) error {
		if x.s.Gone() {
			return fmt.Errorf("%s: the stick went away while the update was copied", x.s.Device())
		}
		return nil
	})
	in.Close()
	var read *spool.ReadError
	switch {
	case errors.Is(err, spool.ErrTooLarge):
		return refuse("%s: larger than %d bytes, not a bundle of this clock", name, limit)
	case err != nil && (x.s.Gone() || ctx.Err() != nil):
		return err // pulled out: Write left no partial copy
	case errors.As(err, &read):
		// The stick's trouble (a read error): the export goes on
		// without the update.
		return refuse("%s: cannot read it: %v", name, read.Err)
	case errors.Is(err, spool.ErrEmpty):
		return refuse("%s: empty", name)
	case err != nil:
		return refuse("%s: the clock cannot keep it: %v", name, err)
	}
	final := filepath.Join(dir, name)
	offer := protocol.UpdateOffer{Source: protocol.UpdateFromUSB, File: name, SHA256: hex.EncodeToString(sum[:]), Size: n}
	if err := x.o.Daemon.OfferUpdate(offer); err != nil {
		os.Remove(final)
		return refuse("%s: the clock did not take it: %v", name, err)
	}
	x.r.Update = UpdateOffered
	x.o.Logf("usb: update %s (%d bytes, sha256 %s) offered", name, n, offer.SHA256)
	return nil
}
