package link_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/appliance/link"
	"github.com/zeitnot/zeitnot/appliance/link/linktest"
	"github.com/zeitnot/zeitnot/internal/wallclock/wallclocktest"
	"github.com/zeitnot/zeitnot/protocol"
)

// bundle is a fake bundle's bytes and its hash.
func bundle(n int) ([]byte, string) {
	b := []byte(strings.Repeat("zeitnot bundle ", n/15+1))[:n]
	s := sha256.Sum256(b)
	return b, hex.EncodeToString(s[:])
}

// spoolFiles lists the spool, temporary files included.
func spoolFiles(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var n []string
	for _, e := range es {
		n = append(n, e.Name())
	}
	return n
}

// TestFetch: the link's fetch of a hall's bundle into the spool, and
// what it refuses: a hash or a size not the command's, a bundle larger
// than it said, a hall gone midway, another host than the hall's. A refused bundle leaves
// nothing in the spool.
func TestFetch(t *testing.T) {
	data, sum := bundle(100000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/update/b.raucb":
			w.Header().Set("Content-Length", strconv.Itoa(len(data)))
			w.Write(data)
		case "/update/chunked.raucb": // no Content-Length: the limit is the reader's
			w.Write(data[:50000])
			w.(http.Flusher).Flush()
			w.Write(data[50000:])
		case "/update/cut.raucb": // the hall goes away midway
			w.Header().Set("Content-Length", strconv.Itoa(len(data)))
			w.Write(data[:50000])
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	tests := []struct {
		name string
		cmd  protocol.UpdateCmd
		err  string // "" for fetched
	}{
		{"good", protocol.UpdateCmd{URL: srv.URL + "/update/b.raucb", SHA256: sum, Size: 100000, File: "zeitnot-1.4.0.raucb"}, ""},
		{"good without a name", protocol.UpdateCmd{URL: srv.URL + "/update/chunked.raucb", SHA256: sum, Size: 100000}, ""},
		{"wrong hash", protocol.UpdateCmd{URL: srv.URL + "/update/b.raucb", SHA256: strings.Repeat("0", 64), Size: 100000}, "the bundle's SHA-256 is " + sum + ", the command said 0000"},
		{"bigger than said", protocol.UpdateCmd{URL: srv.URL + "/update/b.raucb", SHA256: sum, Size: 99999}, "the hall sends 100000 bytes, the command said 99999"},
		{"bigger than said, chunked", protocol.UpdateCmd{URL: srv.URL + "/update/chunked.raucb", SHA256: sum, Size: 99999}, "the hall sent more than the command's 99999 bytes: removed"},
		{"smaller than said", protocol.UpdateCmd{URL: srv.URL + "/update/chunked.raucb", SHA256: sum, Size: 100001}, "the hall sent 100000 bytes, the command said 100001: removed"},
		{"cut midway", protocol.UpdateCmd{URL: srv.URL + "/update/cut.raucb", SHA256: sum, Size: 100000}, "cannot fetch the bundle: unexpected EOF"},
		{"not there", protocol.UpdateCmd{URL: srv.URL + "/update/x.raucb", SHA256: sum, Size: 100000}, "the hall answered 404 Not Found"},
		{"another host", protocol.UpdateCmd{URL: "http://example.com:" + u.Port() + "/update/b.raucb", SHA256: sum, Size: 100000}, "the clock fetches updates only from its hall, 127.0.0.1"},
		{"not http", protocol.UpdateCmd{URL: "ftp://127.0.0.1/b.raucb", SHA256: sum, Size: 100000}, "want http or https"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spool := t.TempDir()
			f := &link.Fetcher{Spool: spool, Host: u.Hostname(), Clock: wallclocktest.New(time.Unix(1e9, 0)), Stall: time.Minute, Total: time.Hour}
			o, err := f.Fetch(context.Background(), tt.cmd)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("Fetch: %v, want an error with %q", err, tt.err)
				}
				if n := spoolFiles(t, spool); len(n) != 0 {
					t.Errorf("left in the spool: %v", n)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := o.Check(); err != nil || o.Source != protocol.UpdateFromHall || !o.Auto || o.SHA256 != sum || o.Size != 100000 {
				t.Errorf("offer %+v (%v)", o, err)
			}
			if n := spoolFiles(t, spool); len(n) != 1 || n[0] != o.File {
				t.Errorf("spool %v, want only %s", n, o.File)
			}
			if tt.cmd.File != "" && o.File != tt.cmd.File {
				t.Errorf("file %s, want %s", o.File, tt.cmd.File)
			}
			got, _ := os.ReadFile(filepath.Join(spool, o.File))
			if string(got) != string(data) {
				t.Errorf("the spool's bundle differs from the hall's (%d bytes)", len(got))
			}
		})
	}
}

// TestFetchStalls: a hall that stops sending is given up after the stall
// time by the link's clock, and the part fetched is removed.
func TestFetchStalls(t *testing.T) {
	data, sum := bundle(1000)
	sent := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(len(data)))
		w.Write(data[:500])
		w.(http.Flusher).Flush()
		close(sent)
		<-r.Context().Done()
	}))
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	spool := t.TempDir()
	clk := wallclocktest.New(time.Unix(1e9, 0))
	f := &link.Fetcher{Spool: spool, Host: u.Hostname(), Clock: clk, Stall: 30 * time.Second, Total: 10 * time.Minute}
	done := make(chan error, 1)
	go func() {
		_, err := f.Fetch(context.Background(), protocol.UpdateCmd{URL: srv.URL + "/b.raucb", SHA256: sum, Size: 1000})
		done <- err
	}()
	<-sent
	clk.WaitArmed(t, 1)
	clk.Advance(29 * time.Second)
	select {
	case err := <-done:
		t.Fatalf("gave up before the stall time: %v", err)
	default:
	}
	clk.Advance(time.Second)
	select {
	case err := <-done:
		if err == nil || err.Error() != "the hall sent nothing for 30s" {
			t.Errorf("Fetch: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the stalled fetch was not given up")
	}
	if n := spoolFiles(t, spool); len(n) != 0 {
		t.Errorf("left in the spool: %v", n)
	}
}

// TestUpdateCommand: the hall's update command through the broker: the
// link fetches the bundle, offers it to the daemon and replies with its
// answer; a daemon's refusal is the reply's error, and the bundle is
// removed; a URL on another host is refused without a fetch.
func TestUpdateCommand(t *testing.T) {
	data, sum := bundle(4096)
	var fetched atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetched.Add(1)
		w.Write(data)
	}))
	defer srv.Close()
	r := newRig(t, linktest.BrokerOpts{})
	r.hall = linktest.NewHall(t, r.broker.URL(), linktest.HallOpts{})
	o := testOpts()
	o.Spool = t.TempDir()
	r.start(r.config(), o)
	r.online()

	cmd := protocol.UpdateCmd{URL: srv.URL + "/update/z.raucb", SHA256: sum, Size: 4096, Version: "1.4.0", File: "zeitnot-1.4.0.raucb"}
	rep, _ := r.send(r.topics.Cmd, string(cmd.Payload("u1")), nil)
	if !rep.OK || rep.ID != "u1" || rep.Cmd != "update" {
		t.Fatalf("update: %+v", rep)
	}
	want := `update-offer {"source":"hall","file":"zeitnot-1.4.0.raucb","sha256":"` + sum + `","size":4096,"auto":true}`
	if rq := r.clock.Requests(); len(rq) == 0 || rq[len(rq)-1] != want {
		t.Errorf("the daemon got %q, want %s", rq, want)
	}
	if n := spoolFiles(t, o.Spool); len(n) != 1 || n[0] != "zeitnot-1.4.0.raucb" {
		t.Errorf("spool: %v", n)
	}

	r.clock.SetRefuse("update-offer: a game is in progress")
	cmd.File = "zeitnot-1.4.1.raucb"
	rep, _ = r.send(r.topics.Cmd, string(cmd.Payload("u2")), nil)
	if rep.OK || rep.Error != "the clock refused: a game is in progress" {
		t.Errorf("refused update: %+v", rep)
	}
	if n := spoolFiles(t, o.Spool); len(n) != 1 {
		t.Errorf("spool after the refusal: %v", n)
	}
	r.clock.SetRefuse("")

	before := fetched.Load()
	cmd.URL = strings.Replace(srv.URL, "127.0.0.1", "localhost", 1) + "/update/z.raucb"
	rep, _ = r.send(r.topics.Cmd, string(cmd.Payload("u3")), nil)
	if rep.OK || !strings.Contains(rep.Error, "the clock fetches updates only from its hall, 127.0.0.1") || fetched.Load() != before {
		t.Errorf("update from another host: %+v, fetched %d times", rep, fetched.Load()-before)
	}
}
