package usb

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/protocol"
)

// bundleData is a stand-in bundle: bytes no text reader would make up.
func bundleData(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*131 + i/251)
	}
	return b
}

func spoolOf(t *testing.T) string {
	dir := filepath.Join(t.TempDir(), "spool")
	os.Mkdir(dir, 0o770)
	return dir
}

func spoolFiles(t *testing.T, dir string) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

func offers(d *fakeDaemon) []string {
	var o []string
	for _, r := range d.Requests() {
		if strings.HasPrefix(r, "update-offer ") {
			o = append(o, strings.TrimPrefix(r, "update-offer "))
		}
	}
	return o
}

// TestBundleOffered: a bundle at the stick's root is copied into the
// spool whole, with its SHA-256, and offered to the daemon as the stick's;
// the displays say to look at the clock.
func TestBundleOffered(t *testing.T) {
	img := newImage(t, 8192)
	data := bundleData(300 << 10)
	putFile(t, img, "zeitnot-1.4.0-arm64.raucb", data)
	c := newClockState(t, 1, 5)
	d := newFakeDaemon(t)
	o := opts(t, c, d)
	o.Spool = spoolOf(t)
	r := Export(context.Background(), open(t, img, nil), o)
	if r.Err != nil || r.Update != UpdateOffered {
		t.Fatalf("result %+v", r)
	}
	if got := spoolFiles(t, o.Spool); len(got) != 1 || got[0] != "zeitnot-1.4.0-arm64.raucb" {
		t.Fatalf("spool %v", got)
	}
	if got, _ := os.ReadFile(filepath.Join(o.Spool, "zeitnot-1.4.0-arm64.raucb")); !bytes.Equal(got, data) {
		t.Error("the spool's bundle differs from the stick's")
	}
	sum := sha256.Sum256(data)
	of := offers(d)
	if len(of) != 1 {
		t.Fatalf("offers %q", of)
	}
	offer, err := protocol.ParseUpdateOffer(of[0])
	if err != nil || offer.SHA256 != hex.EncodeToString(sum[:]) || offer.Size != int64(len(data)) || offer.Source != "usb" || offer.Auto {
		t.Errorf("offer %+v, %v", offer, err)
	}
	msgs := strings.Join(d.Messages(), "\n")
	if !strings.Contains(msgs, "COPYING THE UPDATE") || !strings.Contains(msgs, "UPDATE COPIED: SEE THE CLOCK") {
		t.Errorf("messages:\n%s", msgs)
	}
}

// TestBundleRefused: bundles the exporter does not offer, each said in
// update-errors.txt on the stick, nothing left in the spool.
func TestBundleRefused(t *testing.T) {
	for _, c := range []struct {
		name  string
		files map[string][]byte
		max   int64
		want  string
	}{
		{"two bundles", map[string][]byte{"a.raucb": bundleData(10), "b.raucb": bundleData(10)}, 0, "2 update bundles on the stick"},
		{"bad name", map[string][]byte{"my update.raucb": bundleData(10)}, 0, "letters, digits"},
		{"too large", map[string][]byte{"big.raucb": bundleData(64 << 10)}, 32 << 10, "larger than 32768 bytes"},
		{"empty", map[string][]byte{"empty.raucb": nil}, 0, "empty"},
	} {
		t.Run(c.name, func(t *testing.T) {
			img := newImage(t, 8192)
			for n, data := range c.files {
				putFile(t, img, n, data)
			}
			d := newFakeDaemon(t)
			o := opts(t, newClockState(t, 0, 0), d)
			o.Spool, o.maxBundle = spoolOf(t), c.max
			r := Export(context.Background(), open(t, img, nil), o)
			if r.Err != nil || r.Update != UpdateRefused || !strings.Contains(r.UpdateError, c.want) {
				t.Fatalf("result %+v, want %q", r, c.want)
			}
			if got := spoolFiles(t, o.Spool); len(got) != 0 {
				t.Errorf("spool %v", got)
			}
			if of := offers(d); len(of) != 0 {
				t.Errorf("offered %q", of)
			}
			if got := files(t, img, "")[UpdateErrorsFile]; !strings.Contains(got, c.want) {
				t.Errorf("%s: %q", UpdateErrorsFile, got)
			}
			if msgs := strings.Join(d.Messages(), "\n"); !strings.Contains(msgs, "UPDATE NOT TAKEN: SEE STICK") {
				t.Errorf("messages:\n%s", msgs)
			}
		})
	}
}

// TestBundlePulledMidCopy: a stick pulled out while its bundle is copied
// leaves no partial bundle in the spool and no offer.
func TestBundlePulledMidCopy(t *testing.T) {
	img := newImage(t, 8192)
	putFile(t, img, "zeitnot-1.4.0-arm64.raucb", bundleData(400<<10))
	d := newFakeDaemon(t)
	o := opts(t, newClockState(t, 0, 0), d)
	o.Spool = spoolOf(t)
	pull := func(ctx context.Context, prog string, args []string, stdout io.Writer) error {
		if prog != "mtype" || !strings.HasSuffix(args[len(args)-1], ".raucb") {
			return ExecRunner(ctx, prog, args, stdout)
		}
		// Half the bundle comes, then the stick is gone.
		var all bytes.Buffer
		if err := ExecRunner(ctx, prog, args, &all); err != nil {
			return err
		}
		stdout.Write(all.Bytes()[:all.Len()/2])
		os.Remove(img)
		return errors.New("mtype: read error: Input/output error")
	}
	r := Export(context.Background(), open(t, img, pull), o)
	if r.Err == nil || !r.Pulled {
		t.Fatalf("result %+v", r)
	}
	if got := spoolFiles(t, o.Spool); len(got) != 0 {
		t.Errorf("spool after the stick was pulled: %v", got)
	}
	if of := offers(d); len(of) != 0 {
		t.Errorf("offered %q", of)
	}
	if msgs := d.Messages(); !strings.Contains(msgs[len(msgs)-1], "STICK PULLED OUT EARLY") {
		t.Errorf("last message %q", msgs[len(msgs)-1])
	}
}

// TestBundleNotKept: a bundle the stick cannot give (a read error, the
// stick still in) or the clock cannot keep (no spool) is refused, said on
// the stick, and not offered; the export goes on.
func TestBundleNotKept(t *testing.T) {
	for _, c := range []struct {
		name  string
		spool func(t *testing.T) string
		run   Runner
		want  string
	}{
		{"read error", spoolOf, func(ctx context.Context, prog string, args []string, stdout io.Writer) error {
			if prog != "mtype" || !strings.HasSuffix(args[len(args)-1], ".raucb") {
				return ExecRunner(ctx, prog, args, stdout)
			}
			stdout.Write(bundleData(1000))
			return errors.New("mtype: read error: Input/output error")
		}, "zeitnot-1.4.0-arm64.raucb: cannot read it: "},
		{"no spool", func(t *testing.T) string { return filepath.Join(t.TempDir(), "gone") }, nil,
			"zeitnot-1.4.0-arm64.raucb: the clock cannot keep it: spool: "},
	} {
		t.Run(c.name, func(t *testing.T) {
			img := newImage(t, 8192)
			putFile(t, img, "zeitnot-1.4.0-arm64.raucb", bundleData(100<<10))
			d := newFakeDaemon(t)
			o := opts(t, newClockState(t, 0, 0), d)
			o.Spool = c.spool(t)
			r := Export(context.Background(), open(t, img, c.run), o)
			if r.Err != nil || r.Pulled || r.Update != UpdateRefused || !strings.HasPrefix(r.UpdateError, c.want) {
				t.Fatalf("result %+v, want an update error starting %q", r, c.want)
			}
			if got := files(t, img, "")[UpdateErrorsFile]; !strings.Contains(got, c.want) {
				t.Errorf("%s: %q", UpdateErrorsFile, got)
			}
			if of := offers(d); len(of) != 0 {
				t.Errorf("offered %q", of)
			}
			if ents, err := os.ReadDir(o.Spool); err == nil && len(ents) != 0 {
				t.Errorf("left in the spool: %v", ents)
			}
		})
	}
}
