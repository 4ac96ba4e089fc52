package hall

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/zeitnot/zeitnot/protocol"
)

// otherZone is a zone whose date now is not the machine's: UTC+14 or
// UTC-11, 25 hours apart, so one of them always differs.
func otherZone(t *testing.T) *time.Location {
	t.Helper()
	now := time.Now()
	for _, name := range []string{"Pacific/Kiritimati", "Pacific/Pago_Pago"} {
		z, err := time.LoadLocation(name)
		if err != nil {
			t.Skipf("no time zone %s on this machine: %v", name, err)
		}
		if now.In(z).Format("2006-01-02") != now.Format("2006-01-02") {
			return z
		}
	}
	t.Fatal("no zone with another date")
	return nil
}

// One time zone on every page and reply: the hall's (hall.toml zone),
// never the browser's. The hall is set to a zone whose date differs from
// the machine's (and the browser's, which runs in the machine's): a
// frozen clock's last known time, a reply's time on the arbiter's card, a
// round's start in the countdown, the PGN's date and the games file's
// name are the hall zone's, and every page names it.
func TestBrowserHallZone(t *testing.T) {
	zone := otherZone(t)
	ctx := browser(t, 1280, 900)
	h := startHall(t, func(c *Config) { c.Zone = zone.String() })
	base := "http://" + h.HTTPAddr()
	in := func(ms int64, layout string) string { return time.UnixMilli(ms).In(zone).Format(layout) }
	_, off := time.Now().In(zone).Zone()
	zname := fmt.Sprintf("%s (%s, UTC%+03d:00)", zone, time.Now().In(zone).Format("MST"), off/3600)

	c1 := dialClock(t, brokerURL(h), 1, nil)
	c1.Press()
	c1.Press()
	c2 := dialClock(t, brokerURL(h), 2, nil)
	c2.Press()
	waitIdle(t, c1, c2)
	c2.Close() // offline: its times frozen at its last state
	waitFor(t, 5*time.Second, "board 2 offline", func() bool { b, _ := h.Store().Board(2); return !b.IsOnline() })
	now := time.Now()
	start := now.Add(5 * time.Minute)
	m, err := protocol.ParseStateMsg(mustJSON(t, protocol.StateMsg{Hall: "test", Board: 4, Time: now.UnixMilli(),
		Raw: statusJSON(`,"round":{"start_ms":` + fmt.Sprint(start.UnixMilli()) + `,"default_ms":0,"starts_in_ms":300000}`)}))
	if err != nil {
		t.Fatal(err)
	}
	h.Store().PutState(4, &m, now)

	do(t, ctx, chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("#b2 .tag.frozen")), chromedp.WaitVisible(chromedp.CSS("#b4 .tag.countdown")))
	if z := run(t, ctx, chromedp.Evaluate[string](`(document.getElementById("zone") || {}).textContent || ""`)); z != zname {
		t.Errorf("the page names the zone %q, want %q", z, zname)
	}
	b2, _ := h.Store().Board(2)
	if f := run(t, ctx, chromedp.Text(chromedp.CSS("#b2 .tag.frozen"))); f != "times frozen: last known "+in(b2.State.Time, "15:04:05") {
		t.Errorf("board 2: %q, want its last time %s in the hall's zone", f, in(b2.State.Time, "15:04:05"))
	}
	waitFor(t, 5*time.Second, "the countdown", func() bool {
		return strings.HasSuffix(run(t, ctx, chromedp.Text(chromedp.CSS("#b4 .tag.countdown"))), "("+in(start.UnixMilli(), "15:04")+")")
	})

	// A reply on the arbiter's card: its time in the hall's zone.
	loginArbiter(t, ctx, h)
	if z := run(t, ctx, chromedp.Evaluate[string](`(document.getElementById("zone") || {}).textContent || ""`)); z != zname {
		t.Errorf("/arbiter names the zone %q, want %q", z, zname)
	}
	do(t, ctx, chromedp.SetValue(chromedp.CSS("#form-pause input[name=boards]"), "1"), chromedp.Click(chromedp.CSS("#pause")),
		chromedp.WaitVisible(chromedp.CSS("#flash")), chromedp.WaitVisible(chromedp.CSS("#b1 .tag.reply")))
	b1, _ := h.Store().Board(1)
	if r := run(t, ctx, chromedp.Text(chromedp.CSS("#b1 .tag.reply"))); !strings.HasPrefix(r, "pause "+in(b1.ReplyAt, "15:04:05")+": ok") {
		t.Errorf("board 1's reply: %q, want it at %s", r, in(b1.ReplyAt, "15:04:05"))
	}
	if title := run(t, ctx, chromedp.Evaluate[string](`document.querySelector("#b1 .tag.reply").title`)); !strings.Contains(title, in(b1.ReplyAt, "2006-01-02 15:04:05")+", "+zname) {
		t.Errorf("board 1's reply's title: %q", title)
	}
	// The log page's reply too.
	do(t, ctx, chromedp.Navigate(base+"/arbiter/board/1"), chromedp.WaitVisible(chromedp.CSS("#last-reply")))
	if r := run(t, ctx, chromedp.Text(chromedp.CSS("#last-reply"))); !strings.Contains(r, "at "+in(b1.ReplyAt, "15:04:05")) {
		t.Errorf("board 1's log page: %q", r)
	}
	// Each line's instant as a time of day, in the hall's zone.
	lines, _ := h.Store().Lines(1, b1.Game)
	var want []string
	for _, l := range lines {
		var ms int64
		if _, err := fmt.Sscanf(l, "%d ", &ms); err == nil {
			want = append(want, in(b1.Epoch[b1.Game]+ms, "15:04:05"))
		} else {
			want = append(want, "")
		}
	}
	if got := run(t, ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#log-lines td.clock"), e => e.textContent)`)); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("board 1's log lines' times of day: %q, want %q", got, want)
	}

	// The PGN's date is the day the game started in the hall's zone; the
	// evening's file is named by the hall's date.
	_, pgn := get(t, h, "/api/boards/1/pgn")
	if want := `[Date "` + in(b1.Started[b1.Game], "2006.01.02") + `"]`; !strings.Contains(pgn, want) {
		t.Errorf("board 1's PGN has no %s:\n%s", want, pgn)
	}
	resp, err := http.Get(base + "/api/games.pgn?all=1")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if cd, want := resp.Header.Get("Content-Disposition"), "test-"+time.Now().In(zone).Format("2006-01-02")+".pgn"; !strings.Contains(cd, want) {
		t.Errorf("games.pgn: %q, want %s", cd, want)
	}
}
