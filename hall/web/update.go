package web

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/zeitnot/zeitnot/hall/store"
	"github.com/zeitnot/zeitnot/protocol"
)

// Updating the clocks (docs/hall.md, "Updating the clocks"): the arbiter
// uploads a bundle once; the hall keeps it in its data directory and
// serves it to the clocks at /update/SHA256.raucb; "update the clocks"
// sends the update command to a few online clocks at a time whose game
// does not run, and moves on as each reports. The hall does not check
// the bundle's signature: each clock's installer does, with RAUC, before
// it writes anything.

// DefaultUpdateBatch is how many clocks update at once.
const DefaultUpdateBatch = 3

// updateStall is how long a clock sent the update may go without a word
// of it before the rollout counts it failed and moves on.
const updateStall = 20 * time.Minute

// transferTime is what an upload or a clock's fetch of a bundle may
// take, past the server's read and write timeouts (a network deadline,
// of the real time).
const transferTime = 15 * time.Minute

// bundle is the uploaded bundle, as bundle.json in Opts.UpdateDir keeps it.
type bundle struct {
	Name     string `json:"name"` // its name in the clocks' spools
	SHA256   string `json:"sha256"`
	Size     int64  `json:"size"`
	Version  string `json:"version,omitempty"`
	Uploaded int64  `json:"uploaded"` // Unix ms
}

func (b bundle) file() string { return b.SHA256 + ".raucb" }

// Rollout states of one clock.
const (
	rolloutWaiting = "waiting" // not sent yet: offline, its game runs, or its turn has not come
	rolloutSent    = "sent"    // sent; the clock fetches, checks or installs it
	rolloutDone    = "done"    // restarting into it, or runs another version now
	rolloutRefused = "refused" // the link or the clock refused it
	rolloutFailed  = "failed"  // the install failed, or no word of it for updateStall
)

type target struct {
	State  string
	Detail string
	ID     string // the command's id
	From   string // the version it ran when it was sent the update
	SentAt time.Time
}

type updater struct {
	mu      sync.Mutex
	bundle  *bundle
	targets map[int]*target // nil: no rollout
}

// bundleName is the spool name of an uploaded file's name: the name if it
// is a plain bundle name, else one made of the hash.
func bundleName(upload, sum string) string {
	upload = filepath.Base(strings.ReplaceAll(upload, `\`, "/"))
	if protocol.CheckBundleName(upload) == nil {
		return upload
	}
	return "zeitnot-" + sum[:16] + ".raucb"
}

var versionRE = regexp.MustCompile(`\d+\.\d+(\.\d+)?`)

// loadBundle reads the bundle kept in Opts.UpdateDir, if any.
func (s *Server) loadBundle() {
	if s.o.UpdateDir == "" {
		return
	}
	data, err := os.ReadFile(filepath.Join(s.o.UpdateDir, "bundle.json"))
	if err != nil {
		return
	}
	var b bundle
	if err := json.Unmarshal(data, &b); err != nil || len(b.SHA256) != 64 {
		s.o.Logf("web: update: %s: %v", filepath.Join(s.o.UpdateDir, "bundle.json"), err)
		return
	}
	if _, err := os.Stat(filepath.Join(s.o.UpdateDir, b.file())); err != nil {
		s.o.Logf("web: update: the bundle of bundle.json: %v", err)
		return
	}
	s.upd.bundle = &b
}

// storeBundle keeps r's bytes (at most protocol.MaxBundle) as the bundle
// to give the clocks, replacing any before, and stops a rollout of the
// one before.
func (s *Server) storeBundle(r io.Reader, name string) (bundle, error) {
	if s.o.UpdateDir == "" {
		return bundle{}, errors.New("the hall keeps no updates (no data directory)")
	}
	if err := os.MkdirAll(s.o.UpdateDir, 0o700); err != nil {
		return bundle{}, err
	}
	tmp, err := os.CreateTemp(s.o.UpdateDir, ".upload-*")
	if err != nil {
		return bundle{}, err
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(tmp, h), io.LimitReader(r, protocol.MaxBundle+1))
	if err != nil {
		return bundle{}, fmt.Errorf("the upload broke off: %v", err)
	}
	if n > protocol.MaxBundle {
		return bundle{}, fmt.Errorf("the bundle is larger than %d MiB: not a zeitnot update", protocol.MaxBundle>>20)
	}
	if n == 0 {
		return bundle{}, errors.New("the file is empty")
	}
	if err := tmp.Sync(); err != nil {
		return bundle{}, err
	}
	sum := hex.EncodeToString(h.Sum(nil))
	b := bundle{Name: bundleName(name, sum), SHA256: sum, Size: n, Uploaded: s.o.Clock.Now().UnixMilli()}
	b.Version = versionRE.FindString(b.Name)
	if err := os.Rename(tmp.Name(), filepath.Join(s.o.UpdateDir, b.file())); err != nil {
		return bundle{}, err
	}
	meta, _ := json.Marshal(b)
	if err := os.WriteFile(filepath.Join(s.o.UpdateDir, ".bundle.json"), meta, 0o600); err != nil {
		return bundle{}, err
	}
	if err := os.Rename(filepath.Join(s.o.UpdateDir, ".bundle.json"), filepath.Join(s.o.UpdateDir, "bundle.json")); err != nil {
		return bundle{}, err
	}
	s.upd.mu.Lock()
	old := s.upd.bundle
	s.upd.bundle, s.upd.targets = &b, nil
	s.upd.mu.Unlock()
	if old != nil && old.SHA256 != sum {
		os.Remove(filepath.Join(s.o.UpdateDir, old.file()))
	}
	s.o.Logf("web: update: bundle %s kept, %d bytes, SHA-256 %s", b.Name, b.Size, sum)
	return b, nil
}

// serveBundle gives the clocks the bundle: GET /update/SHA256.raucb.
func (s *Server) serveBundle(w http.ResponseWriter, r *http.Request) {
	s.upd.mu.Lock()
	b := s.upd.bundle
	s.upd.mu.Unlock()
	if b == nil || r.PathValue("file") != b.file() {
		http.Error(w, "no such bundle: the hall gives the clocks only the last one uploaded", http.StatusNotFound)
		return
	}
	// A bundle takes longer than the server's write timeout over a
	// clock's WLAN.
	http.NewResponseController(w).SetWriteDeadline(time.Now().Add(transferTime))
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Cache-Control", "no-store")
	http.ServeFile(w, r, filepath.Join(s.o.UpdateDir, b.file()))
}

// bundleURL is the URL the clocks fetch b from: on the host they reach
// the hall's broker at (Opts.UpdateBase), else the host the arbiter's
// page came from.
func (s *Server) bundleURL(b bundle, r *http.Request) string {
	base := s.o.UpdateBase
	if base == "" && r != nil {
		base = "http://" + r.Host
	}
	return strings.TrimSuffix(base, "/") + "/update/" + b.file()
}

// startRollout starts updating every clock the hall knows to the bundle.
func (s *Server) startRollout(r *http.Request) (string, error) {
	s.upd.mu.Lock()
	b := s.upd.bundle
	s.upd.mu.Unlock()
	if b == nil {
		return "", errors.New("update: upload a bundle first")
	}
	u := s.bundleURL(*b, r)
	if p, err := url.Parse(u); err != nil || p.Hostname() == "" || isLoopbackHost(p.Hostname()) && s.o.UpdateBase == "" {
		return "", fmt.Errorf("update: the clocks could not fetch %s: open this page at the hall's address on the clocks' network (the host the clocks connect to), not at localhost", u)
	}
	s.upd.mu.Lock()
	s.upd.targets = map[int]*target{}
	for _, bd := range s.o.Store.Boards() {
		s.upd.targets[bd.Board] = &target{State: rolloutWaiting}
	}
	n := len(s.upd.targets)
	s.updateURL = u
	s.upd.mu.Unlock()
	if n == 0 {
		return "", errors.New("update: no clock has reported to the hall yet")
	}
	s.StepUpdate()
	return fmt.Sprintf("update %s: %d clocks, %d at a time, none while its game runs; the update column shows each", b.Name, n, s.batch()), nil
}

func isLoopbackHost(h string) bool {
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

func (s *Server) batch() int {
	if s.o.UpdateBatch > 0 {
		return s.o.UpdateBatch
	}
	return DefaultUpdateBatch
}

// running reports whether b's game runs: started, not ended.
func running(b store.Board) bool {
	return b.State != nil && b.State.State.Started && !b.State.State.Stopped && b.State.State.Result == ""
}

func updateOf(b store.Board) protocol.UpdateStatus {
	if b.State != nil && b.State.State.Update != nil {
		return *b.State.State.Update
	}
	return protocol.UpdateStatus{}
}

// StepUpdate moves the rollout on: it takes in what the clocks sent
// reported, and sends the update to the next waiting clocks, up to the
// batch, that are online and whose game does not run.
func (s *Server) StepUpdate() {
	now := s.o.Clock.Now()
	s.upd.mu.Lock()
	defer s.upd.mu.Unlock()
	if s.upd.targets == nil || s.upd.bundle == nil {
		return
	}
	b := *s.upd.bundle
	boards := map[int]store.Board{}
	for _, bd := range s.o.Store.Boards() {
		boards[bd.Board] = bd
	}
	busy := 0
	for n, t := range s.upd.targets {
		if t.State != rolloutSent {
			continue
		}
		bd := boards[n]
		u := updateOf(bd)
		switch {
		case bd.Reply != nil && bd.Reply.ID == t.ID && !bd.Reply.OK:
			t.State, t.Detail = rolloutRefused, bd.Reply.Error
		case u.State == protocol.UpdateRestarting:
			t.State, t.Detail = rolloutDone, "restarting into "+orText(u.Offer, b.Name)
		case u.Version != "" && t.From != "" && u.Version != t.From:
			t.State, t.Detail = rolloutDone, "runs "+u.Version
		case u.State == protocol.UpdateRefused:
			t.State, t.Detail = rolloutRefused, u.Message
		case u.State == protocol.UpdateFailed:
			t.State, t.Detail = rolloutFailed, u.Message
		case now.Sub(t.SentAt) > updateStall && u.State == "":
			t.State, t.Detail = rolloutFailed, fmt.Sprintf("no word of the update for %s", updateStall)
		default:
			busy++
		}
	}
	for _, n := range slices.Sorted(maps.Keys(s.upd.targets)) {
		if busy >= s.batch() {
			break
		}
		t := s.upd.targets[n]
		bd, ok := boards[n]
		if t.State != rolloutWaiting || !ok || !bd.IsOnline() || !bd.Online.Clock {
			continue
		}
		if b.Version != "" && updateOf(bd).Version == b.Version {
			t.State, t.Detail = rolloutDone, "runs "+b.Version+" already"
			continue
		}
		if running(bd) {
			continue
		}
		cmd := protocol.UpdateCmd{URL: s.updateURL, SHA256: b.SHA256, Size: b.Size, Version: b.Version, File: b.Name}
		id := s.nextID()
		if _, err := s.sendAs(id, cmd, false, []int{n}); err != nil {
			t.State, t.Detail = rolloutRefused, err.Error()
			continue
		}
		t.State, t.ID, t.From, t.SentAt, t.Detail = rolloutSent, id, updateOf(bd).Version, now, ""
		busy++
	}
}

func orText(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// updateRow is one clock in the update column.
type updateRow struct {
	Board   int    `json:"board"`
	Version string `json:"version,omitempty"`
	Slot    string `json:"slot,omitempty"`
	State   string `json:"state,omitempty"` // the clock's update state
	Percent int    `json:"percent,omitempty"`
	Message string `json:"message,omitempty"`
	Rollout string `json:"rollout,omitempty"` // the rollout's state of it
	Detail  string `json:"detail,omitempty"`
}

// updateView is the arbiter's update panel and GET /api/update.
type updateView struct {
	Bundle  *bundle     `json:"bundle,omitempty"`
	URL     string      `json:"url,omitempty"`
	Batch   int         `json:"batch"`
	Rollout bool        `json:"rollout"`
	Done    int         `json:"done"`
	Waiting int         `json:"waiting"` // waiting or sent
	Refused int         `json:"refused"` // refused or failed
	Clocks  []updateRow `json:"clocks"`
}

func (s *Server) updateView() updateView {
	s.upd.mu.Lock()
	defer s.upd.mu.Unlock()
	v := updateView{Bundle: s.upd.bundle, URL: s.updateURL, Batch: s.batch(), Rollout: s.upd.targets != nil}
	for _, bd := range s.o.Store.Boards() {
		u := updateOf(bd)
		row := updateRow{Board: bd.Board, Version: u.Version, Slot: u.Slot, State: u.State, Percent: u.Percent, Message: u.Message}
		if t := s.upd.targets[bd.Board]; t != nil {
			row.Rollout, row.Detail = t.State, t.Detail
			switch t.State {
			case rolloutDone:
				v.Done++
			case rolloutWaiting, rolloutSent:
				v.Waiting++
			default:
				v.Refused++
			}
		}
		v.Clocks = append(v.Clocks, row)
	}
	return v
}

// rolloutOf is board n's rollout state, for the API's board JSON.
func (s *Server) rolloutOf(n int) string {
	s.upd.mu.Lock()
	defer s.upd.mu.Unlock()
	if t := s.upd.targets[n]; t != nil {
		return t.State
	}
	return ""
}

// uploadForm takes the arbiter's upload: POST /arbiter/update, a
// multipart form with the file as "bundle".
func (s *Server) uploadForm(w http.ResponseWriter, r *http.Request) {
	http.NewResponseController(w).SetReadDeadline(time.Now().Add(transferTime))
	r.Body = http.MaxBytesReader(w, r.Body, protocol.MaxBundle+64<<10)
	var file io.ReadCloser
	var name string
	sess := s.formSession(w, r, func() error {
		// Read the CSRF token first, then stream the file: the bundle is
		// never held in memory.
		mr, err := r.MultipartReader()
		if err != nil {
			return err
		}
		form := url.Values{}
		for {
			p, err := mr.NextPart()
			if err != nil {
				return err
			}
			if p.FormName() == "bundle" {
				file, name = p, p.FileName()
				r.Form, r.PostForm = form, form
				return nil
			}
			v, err := io.ReadAll(io.LimitReader(p, 4096))
			if err != nil {
				return err
			}
			form.Set(p.FormName(), string(v))
		}
	})
	if sess == nil {
		return
	}
	b, err := s.storeBundle(file, name)
	msg := ""
	if err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			err = fmt.Errorf("the bundle is larger than %d MiB: not a zeitnot update", protocol.MaxBundle>>20)
		}
		msg = "Not uploaded: " + err.Error()
	} else {
		msg = fmt.Sprintf("Uploaded %s (%d bytes, SHA-256 %s). The hall does not check its signature: each clock does, before it writes anything.", b.Name, b.Size, b.SHA256)
	}
	s.answer(w, r, sess.User, "update: ", msg, "/arbiter#update")
}

// apiUpdatePut is PUT /api/update?name=NAME: the bundle as the body, with
// the API token.
func (s *Server) apiUpdatePut(w http.ResponseWriter, r *http.Request) {
	if !s.apiAllowed(w, r, false) {
		return
	}
	http.NewResponseController(w).SetReadDeadline(time.Now().Add(transferTime))
	if r.ContentLength > protocol.MaxBundle {
		http.Error(w, fmt.Sprintf("the bundle is larger than %d MiB: not a zeitnot update", protocol.MaxBundle>>20), http.StatusRequestEntityTooLarge)
		return
	}
	b, err := s.storeBundle(r.Body, r.URL.Query().Get("name"))
	if err != nil {
		code := http.StatusBadRequest
		if strings.Contains(err.Error(), "larger than") {
			code = http.StatusRequestEntityTooLarge
		}
		http.Error(w, err.Error(), code)
		return
	}
	writeJSON(w, b)
}

// apiUpdatePost is POST /api/update: update the clocks, with the token.
func (s *Server) apiUpdatePost(w http.ResponseWriter, r *http.Request) {
	if !s.apiAllowed(w, r, false) {
		return
	}
	msg, err := s.startRollout(r)
	if err != nil {
		http.Error(w, err.Error(), http.StatusConflict)
		return
	}
	writeJSON(w, map[string]string{"message": msg})
}

// apiUpdateGet is GET /api/update: the bundle and the rollout.
func (s *Server) apiUpdateGet(w http.ResponseWriter, r *http.Request) {
	if !s.apiAllowed(w, r, true) {
		return
	}
	writeJSON(w, s.updateView())
}

// rolloutLoop moves the rollout on every few seconds, by the server's
// clock, until Close.
func (s *Server) rolloutLoop() {
	t := s.o.Clock.NewTicker(2 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-t.C():
			s.StepUpdate()
		}
	}
}
