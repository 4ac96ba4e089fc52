package hall

import (
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/zeitnot/zeitnot/protocol"
)

// putClock makes board n known to h as an online clock whose game runs
// or not, with the status's update member update.
func putClock(t *testing.T, h *Hall, n int, running bool, update string) {
	t.Helper()
	now := time.Now()
	h.Store().PutOnline(n, protocol.OnlineMsg{Online: true, Clock: true}, now)
	side := `{"ms":300000,"moves":0,"period":1,"mode":"fischer"}`
	msg := fmt.Sprintf(`{"hall":"test","board":%d,"game":"%04d-bbbbbb","time":%d,"state":{"at":0,"running":"none","paused":false,"first_flag":"none","to_move":"white","started":%v,"stopped":false,"white":%s,"black":%s,"update":%s}}`,
		n, n, now.UnixMilli(), running, side, side, update)
	m, err := protocol.ParseStateMsg([]byte(msg))
	if err != nil {
		t.Fatalf("board %d: %v", n, err)
	}
	h.Store().PutState(n, &m, now)
}

// The arbiter updates the clocks in a real browser: uploads the bundle
// with the form, is told the hall does not check its signature, presses
// "Update the clocks" and watches the update column: the clock whose game
// runs waits, the other is sent the update and is done when it restarts.
func TestBrowserUpdate(t *testing.T) {
	ctx := browser(t, 1280, 900)
	h := startHall(t, func(c *Config) { c.UpdateURL = "http://hall.test:8080"; c.UpdateBatch = 1 })
	putClock(t, h, 1, false, `{"version":"1.3.2","slot":"A"}`)
	putClock(t, h, 2, true, `{"version":"1.3.2","slot":"B"}`)
	file := filepath.Join(t.TempDir(), "zeitnot-1.4.0-arm64.raucb")
	if err := os.WriteFile(file, []byte(strings.Repeat("a signed bundle ", 4096)), 0o644); err != nil {
		t.Fatal(err)
	}
	loginArbiter(t, ctx, h)
	do(t, ctx, chromedp.WaitVisible(chromedp.CSS("#update-upload")),
		chromedp.SetUploadFiles(chromedp.CSS("#update-upload input[name=bundle]"), []string{file}),
		chromedp.Submit(chromedp.CSS("#update-upload input[name=bundle]")),
		chromedp.WaitVisible(chromedp.CSS("#flash")),
	)
	if flash := run(t, ctx, chromedp.Text(chromedp.CSS("#flash"))); !strings.Contains(flash, "Uploaded zeitnot-1.4.0-arm64.raucb (65536 bytes") || !strings.Contains(flash, "does not check its signature") {
		t.Fatalf("flash after the upload: %q", flash)
	}
	if b := run(t, ctx, chromedp.Text(chromedp.CSS("#update-bundle"))); !strings.Contains(b, "zeitnot-1.4.0-arm64.raucb (version 1.4.0), 65536 bytes") {
		t.Errorf("the bundle: %q", b)
	}
	do(t, ctx, chromedp.Click(chromedp.CSS("#update-start button")), chromedp.WaitVisible(chromedp.CSS("#update-progress")))
	if flash := run(t, ctx, chromedp.Text(chromedp.CSS("#flash"))); !strings.Contains(flash, "2 clocks, 1 at a time") {
		t.Errorf("flash after update: %q", flash)
	}
	row := func(n int) string { return run(t, ctx, chromedp.Text(chromedp.CSS(fmt.Sprintf("#update-%d", n)))) }
	if r := row(1); !strings.Contains(r, "1.3.2") || !strings.Contains(r, "A") || !strings.Contains(r, "sent") {
		t.Errorf("board 1: %q", r)
	}
	if r := row(2); !strings.Contains(r, "waiting") {
		t.Errorf("board 2, its game running: %q", r)
	}
	// Board 1 installs, then restarts: board 2's game ends, its turn.
	putClock(t, h, 1, false, `{"version":"1.3.2","slot":"A","state":"installing","source":"hall","offer":"1.4.0","percent":40}`)
	h.web.StepUpdate()
	do(t, ctx, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#update-1")))
	if r := row(1); !strings.Contains(r, "installing 40%") {
		t.Errorf("board 1 installing: %q", r)
	}
	putClock(t, h, 1, false, `{"version":"1.3.2","slot":"A","state":"restarting","source":"hall","offer":"1.4.0"}`)
	putClock(t, h, 2, false, `{"version":"1.3.2","slot":"B"}`)
	h.web.StepUpdate()
	do(t, ctx, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#update-progress")))
	if r := row(1); !strings.Contains(r, "done") {
		t.Errorf("board 1 restarting: %q", r)
	}
	if r := row(2); !strings.Contains(r, "sent") {
		t.Errorf("board 2 after its game: %q", r)
	}
	if p := run(t, ctx, chromedp.Text(chromedp.CSS("#update-progress"))); p != "Update: 1 done, 1 waiting, 0 refused or failed." {
		t.Errorf("progress: %q", p)
	}
	shot(t, ctx, shots(t), "arbiter-update.png")
}

// TestUpdateUploadNeedsTheArbiter: the upload form takes a bundle only
// from the arbiter's session with the page's CSRF token; otherwise
// nothing is kept.
func TestUpdateUploadNeedsTheArbiter(t *testing.T) {
	h := startHall(t, nil)
	base := "http://" + h.HTTPAddr()
	upload := func(c *http.Client, csrf string) int {
		t.Helper()
		var b bytes.Buffer
		mw := multipart.NewWriter(&b)
		mw.WriteField("csrf", csrf)
		fw, _ := mw.CreateFormFile("bundle", "zeitnot-1.4.0.raucb")
		fw.Write([]byte("a bundle"))
		mw.Close()
		req, _ := http.NewRequest("POST", base+"/arbiter/update", &b)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	kept := func() bool {
		_, err := os.Stat(filepath.Join(h.cfg.Data, "update", "bundle.json"))
		return err == nil
	}
	if code := upload(&http.Client{}, "x"); code != http.StatusUnauthorized || kept() {
		t.Errorf("without a session: %d, kept %v", code, kept())
	}
	c := arbiterClient(t, h)
	if code := upload(c, "forged"); code != http.StatusForbidden || kept() {
		t.Errorf("with a forged CSRF token: %d, kept %v", code, kept())
	}
	resp, err := c.Get(base + "/arbiter")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	m := regexp.MustCompile(`<form method="post" action="/arbiter/update"[^>]*><input type="hidden" name="csrf" value="([^"]+)"`).FindSubmatch(page)
	if m == nil {
		t.Fatal("no upload form with a CSRF token on /arbiter")
	}
	if code := upload(c, string(m[1])); code != http.StatusSeeOther || !kept() {
		t.Errorf("the arbiter's upload: %d, kept %v", code, kept())
	}
}
