package hall

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/protocol"
)

// TestForgedLogLines: while board 9's link is away, a forger publishes 30
// lines for the next seqs without checksums (refused, each with the board
// and why), then 20 with right checksums; the link comes back with the
// real lines. The forged lines came first for their seqs, and without a
// signature the hall cannot tell them from the link's: the first line of
// a seq stands, and /arbiter shows the 20 conflicts with the real lines as
// evidence; the rest of the game follows.
func TestForgedLogLines(t *testing.T) {
	h := startHall(t, nil)
	r := NewReceiver("test", h.Store())
	topic := protocol.TopicsFor("test", 9).Log
	send := func(seq int64, line string) error {
		b, _ := json.Marshal(protocol.LogMsg{Game: "0042-aaaaaa", Seq: seq, Line: line})
		return r.Receive(topic, b)
	}
	journal := []string{clocklog.WithChecksum("format 2"), clocklog.WithChecksum("control 300+2"), clocklog.WithChecksum("0 start")}
	for i := 1; i <= 40; i++ {
		journal = append(journal, clocklog.WithChecksum(fmt.Sprintf("%d press %s", i*1000, []string{"white", "black"}[i%2])))
	}
	for i := 0; i < 10; i++ {
		if err := send(int64(i+1), journal[i]); err != nil {
			t.Fatal(err)
		}
	}
	for seq := int64(11); seq <= 40; seq++ {
		err := send(seq, fmt.Sprintf("%d press white", seq*100))
		if err == nil || !strings.HasPrefix(err.Error(), "board 9: ") || !strings.Contains(err.Error(), "no format 2 checksum") {
			t.Fatalf("forged line %d: %v", seq, err)
		}
	}
	for seq := int64(11); seq <= 30; seq++ {
		if err := send(seq, clocklog.WithChecksum(fmt.Sprintf("%d press black", 7000+seq))); err != nil {
			t.Fatal(err)
		}
	}
	for i := 10; i < len(journal); i++ {
		if err := send(int64(i+1), journal[i]); err != nil {
			t.Fatalf("the link's line %d: %v", i+1, err)
		}
	}
	served := append([]string(nil), journal[:10]...)
	for seq := int64(11); seq <= 30; seq++ {
		served = append(served, clocklog.WithChecksum(fmt.Sprintf("%d press black", 7000+seq)))
	}
	served = append(served, journal[30:]...)
	if code, body := get(t, h, "/api/boards/9/log?game=0042-aaaaaa"); code != 200 || body != strings.Join(served, "\n")+"\n" {
		t.Errorf("the hall's log of board 9: %d\n%s", code, body)
	}

	c := arbiterClient(t, h)
	page := func(path string) string {
		resp, err := c.Get("http://" + h.HTTPAddr() + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	if p := page("/arbiter"); !strings.Contains(p, `id="disputed"`) || !strings.Contains(p, "Board 9, game 0042-aaaaaa</a>: 20 conflicts") {
		t.Errorf("/arbiter does not show the conflict:\n%s", p)
	}
	p := page("/arbiter/board/9?game=0042-aaaaaa")
	if !strings.Contains(p, `id="conflicts"`) || !strings.Contains(p, "<td>11</td><td><code>7011 press black") || !strings.Contains(p, "<code>"+journal[10]+"</code>") {
		t.Errorf("the board's log page does not show the evidence:\n%s", p)
	}
}

// arbiterClient logs in as the arbiter and returns a client with the
// session, sending back whatever hidden fields the login form has.
func arbiterClient(t *testing.T, h *Hall) *http.Client {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	base := "http://" + h.HTTPAddr()
	resp, err := c.Get(base + "/login")
	if err != nil {
		t.Fatal(err)
	}
	form, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	pw, err := os.ReadFile(filepath.Join(h.cfg.Data, ArbiterPasswordFile))
	if err != nil {
		t.Fatal(err)
	}
	v := url.Values{"user": {"arbiter"}, "password": {strings.TrimSpace(string(pw))}}
	for _, m := range regexp.MustCompile(`<input type="hidden" name="([^"]+)" value="([^"]*)"`).FindAllStringSubmatch(string(form), -1) {
		v.Set(m[1], m[2])
	}
	resp, err = c.PostForm(base+"/login", v)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("login: %s", resp.Status)
	}
	return c
}
