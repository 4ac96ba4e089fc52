package hall

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// firstLoadTrouble is what a page shows, once loaded and its live
// stream up, that would tell the arbiter something failed: an error box,
// an alert, "Not done", "Not sent" or "reconnecting". "" for nothing.
const firstLoadTrouble = `(() => {
	const out = [];
	for (const e of document.querySelectorAll(".error, [role=alert], .live.off")) {
		if (e.offsetParent !== null || e.getClientRects().length > 0) out.push(e.tagName + "." + e.className + ": " + e.textContent.trim());
	}
	const text = document.body.innerText;
	for (const w of ["Not done", "Not sent", "reconnecting", "Error", "error:"]) {
		if (text.includes(w)) out.push("the page says " + JSON.stringify(w));
	}
	return out.join("; ");
})()`

// No page shows an error, "Not done" or "reconnecting" on its first load
// when nothing failed: the hall at a glance, a board, the login, the
// arbiter's page and the round page, without a tournament and with one
// (the round page said "no tournament imported yet" as an error, and
// "reconnecting" for good).
func TestBrowserFirstLoadNoError(t *testing.T) {
	ctx := browser(t, 1280, 900)
	h := startHall(t, func(c *Config) { c.APIToken = []byte(testToken) })
	base := "http://" + h.HTTPAddr()
	c := dialClock(t, brokerURL(h), 3, nil)
	c.Press()
	waitIdle(t, c)
	loginArbiter(t, ctx, h)
	check := func(when string) {
		t.Helper()
		for _, path := range []string{"/", "/board/3", "/board/7", "/arbiter", "/arbiter/round", "/login"} {
			do(t, ctx, chromedp.Navigate(base+path), chromedp.WaitReady(chromedp.CSS("main")))
			// The live stream comes up (or the page has none).
			waitFor(t, 10*time.Second, path+"'s live stream", func() bool {
				return run(t, ctx, chromedp.Evaluate[bool](`(() => { const l = document.getElementById("live"); return !l || l.hidden || l.textContent === "live"; })()`))
			})
			if bad := run(t, ctx, chromedp.Evaluate[string](firstLoadTrouble)); bad != "" {
				t.Errorf("%s, %s: %s", when, path, bad)
			}
		}
	}
	check("without a tournament")
	if code, msg := apiDo(t, h, "PUT", "/api/tournament", testToken, []byte(eightBoards())); code != 200 {
		t.Fatalf("PUT /api/tournament: %d %s", code, msg)
	}
	loginArbiter(t, ctx, h)
	check("with a tournament")
	if !strings.Contains(run(t, ctx, chromedp.Evaluate[string](`document.body.innerText`)), "Arbiter login") {
		t.Error("the last page is not the login")
	}
}
