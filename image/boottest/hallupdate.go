package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/eclipse/paho.golang/paho"

	"github.com/zeitnot/zeitnot/protocol"
)

// hallUpdate is the update from the hall, the clock's side: the card
// booted with a network and a [hall] table pointing at a mosquitto broker
// on the host, the hall's update command published to the board, the
// bundle served over HTTP from the host (the hall's address, as the link
// takes bundles only from its hall's host). The link fetches it into the
// spool and offers it with auto set; the idle clock installs it without a
// question, restarts into its trial and commits it.
//
// It runs last: the card's zeitnot.toml is replaced by one with the
// network and the hall, which the import then keeps.
func (r *updateRig) hallUpdate(bundle string) {
	fail := func(what string, err error) { r.rep.check("update: from the hall: "+what, false, "%v", err) }
	r.stop()
	broker, err := startHostBroker(r.work)
	if err != nil {
		fail("mosquitto on the host", err)
		return
	}
	defer broker.stop()
	hall, err := watchHall(broker.port)
	if err != nil {
		fail("the hall's subscriber", err)
		return
	}
	defer hall.close()
	sum, size, err := fileSHA256(bundle)
	if err != nil {
		fail("the hall's bundle", err)
		return
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fail("the hall's HTTP server", err)
		return
	}
	fetched := make(chan string, 4)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		select { // noted, never held up: the channel keeps the first few
		case fetched <- req.Method + " " + req.URL.Path:
		default:
		}
		if req.URL.Path != "/update/hall.raucb" {
			http.NotFound(w, req)
			return
		}
		http.ServeFile(w, req, bundle)
	})}
	go srv.Serve(l)
	defer srv.Close()
	toml := filepath.Join(r.work, "zeitnot.toml")
	os.WriteFile(toml, []byte(netConfig(broker.port)), 0o644)
	if _, err := command(r.ctx, 30*time.Second, "mcopy", "-o", "-i", fat(r.disk, part(r.parts, 1)), toml, "::zeitnot.toml"); err != nil {
		fail("zeitnot.toml with the hall on the boot partition", err)
		return
	}
	r.nic = "user,model=virtio-net-pci"
	defer func() { r.nic = "" }()
	if err := r.boot(); err != nil {
		fail("boot with the network", err)
		return
	}
	r.ready()
	before := r.show()
	online := func(ms []hallMsg) bool {
		for _, m := range ms {
			var o protocol.OnlineMsg
			if json.Unmarshal(m.payload, &o) == nil && o.Online && o.Clock {
				return true
			}
		}
		return false
	}
	if _, ok := hall.waitFor("online", time.Time{}, 3*time.Minute, online); !ok {
		out, _ := r.run("journalctl -b -o cat -u zeitnot-link.service | tail -n 15", 30*time.Second)
		fail("the clock's link on the hall's broker", fmt.Errorf("not online within 3 minutes: %s", out))
		return
	}
	cmd := protocol.UpdateCmd{URL: fmt.Sprintf("http://%s:%d/update/hall.raucb", hostFromGuest, l.Addr().(*net.TCPAddr).Port),
		SHA256: sum, Size: size, Version: "hall", File: "zeitnot-hall.raucb"}
	sent := time.Now()
	ctx, cancel := context.WithTimeout(r.ctx, 30*time.Second)
	_, err = hall.cm.Publish(ctx, &paho.Publish{Topic: protocol.TopicsFor(netHall, netBoard).Cmd, QoS: 1, Payload: cmd.Payload("boottest-update")})
	cancel()
	if err != nil {
		fail("the update command published", err)
		return
	}
	replies, ok := hall.waitFor("reply", sent, 10*time.Minute, func(ms []hallMsg) bool {
		for _, m := range ms {
			var rp protocol.Reply
			if json.Unmarshal(m.payload, &rp) == nil && rp.ID == "boottest-update" {
				return true
			}
		}
		return false
	})
	var reply string
	for _, m := range replies {
		reply += string(m.payload)
	}
	var got []string
	for len(fetched) > 0 {
		got = append(got, <-fetched)
	}
	if !r.rep.check("update: from the hall: the link fetches the bundle over HTTP and the clock takes it", ok && strings.Contains(reply, `"ok":true`) && len(got) > 0,
		"reply %s; requests %q", reply, got) {
		out, _ := r.run("journalctl -b -o cat -u zeitnot-link.service -u zeitnot-installer.service | tail -n 20; zeitnot status", 30*time.Second)
		fmt.Printf("update: from the hall: the guest:\n%s\n", out)
		return
	}
	// Idle, the clock installs the hall's bundle without asking, and
	// restarts into its trial.
	if err := r.waitRestart(15 * time.Minute); err != nil || !r.fw.tryboot {
		r.rep.check("update: from the hall: the idle clock installs it by itself and restarts into its trial", false, "%v (tryboot flag %v)", err, r.fw.tryboot)
		return
	}
	r.rep.check("update: from the hall: the idle clock installs it by itself and restarts into its trial", true, "tryboot flag set")
	if err := r.boot(); err != nil {
		fail("the trial boot", err)
		return
	}
	st := r.ready()
	ver, _ := r.run(". /etc/os-release; echo $IMAGE_VERSION", 10*time.Second)
	after := r.show()
	want := "primary=A booted=A trial=false bad=none"
	if strings.Contains(before, "primary=A") {
		want = "primary=B booted=B trial=false bad=none"
	}
	r.rep.check("update: from the hall: the clock comes back on the hall's version, marked good",
		ver == r.versionBase+"-hall" && after == want, "before: %s; after: %s, version %s; system %s", before, after, ver, st)
}

func fileSHA256(path string) (string, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	return hex.EncodeToString(h.Sum(nil)), n, err
}
