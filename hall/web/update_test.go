package web

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/hall/auth"
	"github.com/zeitnot/zeitnot/hall/store"
	"github.com/zeitnot/zeitnot/internal/wallclock/wallclocktest"
	"github.com/zeitnot/zeitnot/protocol"
)

// sent records the commands the hall published, by board.
type sent struct {
	mu   sync.Mutex
	cmds []sentCmd
}

type sentCmd struct {
	board int
	cmd   protocol.Command
	raw   protocol.UpdateCmd
}

func (s *sent) publish(topic string, payload []byte) error {
	var n int
	fmt.Sscanf(topic[strings.Index(topic, "/board/")+len("/board/"):], "%d", &n)
	c, err := protocol.ParseCommand(payload, protocol.ScopeBoard)
	if err != nil {
		return err
	}
	var u protocol.UpdateCmd
	json.Unmarshal([]byte(c.Arg), &u)
	s.mu.Lock()
	s.cmds = append(s.cmds, sentCmd{n, c, u})
	s.mu.Unlock()
	return nil
}

func (s *sent) boards() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	var b []int
	for _, c := range s.cmds {
		b = append(b, c.board)
	}
	return b
}

func (s *sent) idOf(board int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.cmds {
		if c.board == board {
			return c.cmd.ID
		}
	}
	return ""
}

// fakeClock puts board n into st as a clock online with its game
// running or not, and its update member.
func fakeClock(t *testing.T, st *store.Store, n int, running bool, update string, at time.Time) {
	t.Helper()
	st.PutOnline(n, protocol.OnlineMsg{Online: true, Clock: true}, at)
	state := fmt.Sprintf(`{"started":%v,"update":%s}`, running, update)
	msg := fmt.Sprintf(`{"hall":"club","board":%d,"game":"%04d-aaaaaa","time":%d,"state":%s}`, n, n, at.UnixMilli(), fullState(t, state))
	m, err := protocol.ParseStateMsg([]byte(msg))
	if err != nil {
		t.Fatalf("board %d state: %v", n, err)
	}
	st.PutState(n, &m, at)
}

const tokenForTests = "0123456789abcdef-token"

func updateServer(t *testing.T, batch int) (*store.Store, *Server, *sent, *wallclocktest.Clock) {
	t.Helper()
	clk := wallclocktest.New(time.Date(2026, 3, 7, 17, 0, 0, 0, time.UTC))
	p := &sent{}
	st, srv := pgnServer(t, Opts{Hall: "club", Clock: clk, Publish: p.publish, UpdateDir: t.TempDir(), UpdateBatch: batch,
		Auth: auth.New(auth.Opts{Clock: clk}), APIToken: tokenForTests})
	return st, srv, p, clk
}

func putBundle(t *testing.T, srv http.Handler, body, name, token string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest("PUT", "/api/update?name="+name, strings.NewReader(body))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	return rec
}

// TestUpdateAPI: PUT /api/update takes a bundle with the token only, up
// to protocol.MaxBundle; the clocks get it back at the URL the command
// names.
func TestUpdateAPI(t *testing.T) {
	_, srv, _, _ := updateServer(t, 0)
	data := strings.Repeat("signed bundle ", 1000)
	sum := sha256.Sum256([]byte(data))
	if rec := putBundle(t, srv, data, "zeitnot-1.4.0-arm64.raucb", ""); rec.Code != http.StatusUnauthorized {
		t.Errorf("without the token: %d %s", rec.Code, rec.Body)
	}
	if rec := putBundle(t, srv, data, "zeitnot-1.4.0-arm64.raucb", "wrong-token-wrong-token"); rec.Code != http.StatusUnauthorized {
		t.Errorf("with a wrong token: %d %s", rec.Code, rec.Body)
	}
	req := httptest.NewRequest("PUT", "/api/update", strings.NewReader("x"))
	req.Header.Set("Authorization", "Bearer "+tokenForTests)
	req.ContentLength = protocol.MaxBundle + 1
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	if rec.Code != http.StatusRequestEntityTooLarge || !strings.Contains(rec.Body.String(), "larger than 512 MiB") {
		t.Errorf("too large: %d %s", rec.Code, rec.Body)
	}
	if rec := putBundle(t, srv, "", "x.raucb", tokenForTests); rec.Code != http.StatusBadRequest {
		t.Errorf("empty: %d %s", rec.Code, rec.Body)
	}
	rec = putBundle(t, srv, data, "zeitnot-1.4.0-arm64.raucb", tokenForTests)
	var b bundle
	if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &b) != nil {
		t.Fatalf("upload: %d %s", rec.Code, rec.Body)
	}
	if b.SHA256 != hex.EncodeToString(sum[:]) || b.Size != int64(len(data)) || b.Name != "zeitnot-1.4.0-arm64.raucb" || b.Version != "1.4.0" {
		t.Errorf("bundle %+v", b)
	}
	got, body := get(t, srv, "/update/"+b.SHA256+".raucb")
	if got.Code != http.StatusOK || body != data {
		t.Errorf("the clocks' fetch: %d, %d bytes", got.Code, len(body))
	}
	if got, _ := get(t, srv, "/update/"+strings.Repeat("0", 64)+".raucb"); got.Code != http.StatusNotFound {
		t.Errorf("another bundle: %d", got.Code)
	}
	// A name that is no bundle name is replaced by one of the hash.
	rec = putBundle(t, srv, data, "../../etc/passwd", tokenForTests)
	json.Unmarshal(rec.Body.Bytes(), &b)
	if b.Name != "zeitnot-"+b.SHA256[:16]+".raucb" {
		t.Errorf("a bad name kept as %q", b.Name)
	}
}

// TestRollout: the hall updates the clocks a few at a time, never one
// whose game runs (it waits until the game ends), and moves on as each
// reports restarting, a new version, or a refusal.
func TestRollout(t *testing.T) {
	st, srv, p, clk := updateServer(t, 2)
	now := clk.Now()
	v132 := `{"version":"1.3.2","slot":"A"}`
	for n := 1; n <= 5; n++ {
		fakeClock(t, st, n, n == 2, v132, now)
	}
	// Board 6 runs the bundle's version already: it is sent nothing.
	fakeClock(t, st, 6, false, `{"version":"1.4.0","slot":"B"}`, now)
	rec := putBundle(t, srv, "bundle", "zeitnot-1.4.0.raucb", tokenForTests)
	if rec.Code != http.StatusOK {
		t.Fatal(rec.Body)
	}
	req := httptest.NewRequest("POST", "/api/update", nil)
	req.Host = "hall.lan:8080"
	req.Header.Set("Authorization", "Bearer "+tokenForTests)
	rec = httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("start: %d %s", rec.Code, rec.Body)
	}
	check := func(what string, want ...int) {
		t.Helper()
		srv.StepUpdate()
		if got := p.boards(); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%s: sent to %v, want %v", what, got, want)
		}
	}
	check("first two, not board 2 whose game runs", 1, 3)
	c := p.cmds[0]
	if c.cmd.Name != "update" || !strings.HasPrefix(c.raw.URL, "http://hall.lan:8080/update/") || c.raw.File != "zeitnot-1.4.0.raucb" || c.raw.Size != 6 || c.raw.Version != "1.4.0" {
		t.Errorf("the command: %+v", c)
	}

	// Board 1's link refuses it: the hall moves on to board 4.
	st.PutReply(1, protocol.Reply{ID: p.idOf(1), Cmd: "update", Board: 1, Error: "refused: update: the hall answered 404 Not Found"}, now)
	check("after board 1's refusal", 1, 3, 4)
	// Board 3 installs: it goes on counting until it restarts.
	fakeClock(t, st, 3, false, `{"version":"1.3.2","slot":"A","state":"installing","percent":40}`, now)
	check("while board 3 installs", 1, 3, 4)
	fakeClock(t, st, 3, false, `{"version":"1.3.2","slot":"A","state":"restarting","offer":"1.4.0"}`, now)
	check("board 3 restarting: board 5 next", 1, 3, 4, 5)
	// Board 2's game ends; board 4 comes back on the new version.
	fakeClock(t, st, 2, false, v132, now)
	check("board 2 waits for a place", 1, 3, 4, 5)
	fakeClock(t, st, 4, false, `{"version":"1.4.0","slot":"B"}`, now)
	check("board 4 on 1.4.0: board 2", 1, 3, 4, 5, 2)
	fakeClock(t, st, 5, false, `{"version":"1.3.2","slot":"A","state":"refused","message":"not signed by zeitnot's key"}`, now)
	check("board 5 refused", 1, 3, 4, 5, 2)

	v := srv.updateView()
	if v.Done != 3 || v.Waiting != 1 || v.Refused != 2 {
		t.Errorf("progress: %d done, %d waiting, %d refused", v.Done, v.Waiting, v.Refused)
	}
	// The API's board JSON says where each is.
	_, body := get(t, srv, "/api/boards/5")
	if !strings.Contains(body, `"rollout":"refused"`) || !strings.Contains(body, `"update":{"message":"not signed by zeitnot's key","slot":"A","state":"refused","version":"1.3.2"}`) {
		t.Errorf("board 5's JSON: %s", body)
	}
	// A clock that says nothing of it for long is counted failed.
	clk.Advance(updateStall + time.Second)
	srv.StepUpdate()
	if v := srv.updateView(); v.Waiting != 0 || v.Refused != 3 || v.Done != 3 {
		t.Errorf("after the stall: %+v", v)
	}
}

// TestRolloutNeedsTheHallsAddress: started from a page at localhost
// without update_url, the rollout is refused: the clocks could not fetch
// from there.
func TestRolloutNeedsTheHallsAddress(t *testing.T) {
	st, srv, p, clk := updateServer(t, 0)
	fakeClock(t, st, 1, false, `{"version":"1.3.2"}`, clk.Now())
	putBundle(t, srv, "bundle", "z.raucb", tokenForTests)
	r := httptest.NewRequest("POST", "/api/update", nil)
	r.Host = "127.0.0.1:8080"
	if _, err := srv.startRollout(r); err == nil || !strings.Contains(err.Error(), "not at localhost") {
		t.Errorf("from localhost: %v", err)
	}
	if len(p.boards()) != 0 {
		t.Errorf("sent: %v", p.boards())
	}
}
