package hall

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/zeitnot/zeitnot/appliance/screen"
	"github.com/zeitnot/zeitnot/devtools/fakeclock"
	"github.com/zeitnot/zeitnot/hall/store"
	"github.com/zeitnot/zeitnot/internal/needtool"
	"github.com/zeitnot/zeitnot/protocol"
)

// chromium returns Debian's headless Chromium, or skips the test.
func chromium(t *testing.T) string {
	t.Helper()
	return needtool.Path(t, "apt-get install chromium", "chromium", "chromium-browser", "google-chrome")
}

// browser starts a headless Chromium for the test.
func browser(t *testing.T, w, h int) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromium(t)), chromedp.NoSandbox, chromedp.WindowSize(w, h),
		chromedp.Flag("hide-scrollbars", true), chromedp.Flag("font-render-hinting", "none"),
		// A page left keeps no live stream open (Chromium holds 6
		// connections a host; cached pages would hold theirs).
		chromedp.Flag("disable-features", "BackForwardCache"))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(actx)
	t.Cleanup(cancel2)
	if err := chromedp.Do(ctx); err != nil { // start the browser now
		t.Fatal(err)
	}
	return ctx
}

func run[T any](t *testing.T, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	v, err := chromedp.Run(c, a)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func do(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	run(t, ctx, chromedp.Steps(steps...))
}

// shots is where the README's pictures go: ZEITNOT_HALL_SHOTS=docs/hall
// (make hall-screens), or a temporary directory.
func shots(t *testing.T) string {
	if d := os.Getenv("ZEITNOT_HALL_SHOTS"); d != "" {
		if !filepath.IsAbs(d) {
			d = filepath.Join("..", d) // tests run in hall/
		}
		os.MkdirAll(d, 0o755)
		return d
	}
	return t.TempDir()
}

func shot(t *testing.T, ctx context.Context, dir, name string) {
	t.Helper()
	png := run(t, ctx, chromedp.FullScreenshot(100))
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// The hall's pages in a real browser: a press on a clock shows on the
// page within the goal, times run on as the Go rule says, the arbiter logs
// in and sets a round.
func TestBrowser(t *testing.T) {
	ctx := browser(t, 1280, 800)
	h := startHall(t, nil)
	base := "http://" + h.HTTPAddr()
	controls := []string{"5400+30", "40/5400+30:1800+30", "900+10", "180+2", "300|240", "*60", "1500+10", "600+5"}
	var clocks []*fakeclock.Clock
	for n := 1; n <= 8; n++ {
		clocks = append(clocks, dialClock(t, brokerURL(h), n, func(o *fakeclock.Opts) { o.Control = controls[n-1] }))
	}
	names := [][2]string{{"Carlsen, M.", "Caruana, F."}, {"Ding, L.", "Nepomniachtchi, I."}, {"Firouzja, A.", "Gukesh, D."}, {"Praggnanandhaa, R.", "Abdusattorov, N."},
		{"So, W.", "Nakamura, H."}, {"Giri, A.", "Rapport, R."}, {"Vachier-Lagrave, M.", "Aronian, L."}, {"Ju, W.", "Lei, T."}}
	for i, c := range clocks {
		h.Store().SetPlayers(i+1, c.Game(), store.Players{White: names[i][0], Black: names[i][1]})
		for p := 0; p < 3+i%4*3; p++ {
			c.Press()
		}
	}
	clocks[4].Pause()
	waitIdle(t, clocks...)

	// The JavaScript rule agrees with protocol.ClockState.Shown.
	do(t, ctx, chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("#b8 .t")))
	raw, err := os.ReadFile("web/testdata/shown.json") // the cases of web's TestShownCasesGo
	if err != nil {
		t.Fatal(err)
	}
	bad := run(t, ctx, chromedp.Evaluate[[]string](`(() => { const bad = []; for (const c of `+string(raw)+`) {
		const [w, b] = zeitnotShown(c.state, c.e); if (w !== c.white || b !== c.black) bad.push(c.name + ": " + w + ", " + b); } return bad; })()`))
	if len(bad) > 0 {
		t.Errorf("shown.js disagrees with protocol.ClockState.Shown: %q", bad)
	}

	// The running side's time runs on between messages.
	t1 := run(t, ctx, chromedp.Text(chromedp.CSS("#b3 .side.run .t")))
	time.Sleep(1100 * time.Millisecond)
	t2 := run(t, ctx, chromedp.Text(chromedp.CSS("#b3 .side.run .t")))
	if t1 == t2 {
		t.Errorf("board 3's running clock shows %s a second later too", t2)
	}
	clocks[7].Close() // board 8 goes offline
	deadline := time.Now().Add(5 * time.Second)
	for !run(t, ctx, chromedp.Evaluate[bool](`document.getElementById("b8").classList.contains("offline")`)) {
		if time.Now().After(deadline) {
			t.Fatal("board 8 not shown offline")
		}
		time.Sleep(20 * time.Millisecond)
	}
	// An offline board's times are frozen at its last state, as the clock
	// shows them, and marked (issue 24.11): they do not run on.
	do(t, ctx, chromedp.WaitVisible(chromedp.CSS("#b8 .tag.frozen")))
	b8, _ := h.Store().Board(8)
	st := b8.State.State
	want := [2]string{screen.FormatTime(st.White.Ms, screen.DefaultTenthsBelow, false), screen.FormatTime(st.Black.Ms, screen.DefaultTenthsBelow, false)}
	got := run(t, ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("#b8 .t"), e => e.textContent)`))
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("offline board 8 shows %q, its last state %q", got, want)
	}
	dir := shots(t)
	shot(t, ctx, dir, "hall.png")

	// One board, big.
	do(t, ctx, chromedp.Navigate(base+"/board/4"), chromedp.WaitVisible(chromedp.CSS("#b4 .t")))
	if n := run(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll("article.board").length`)); n != 1 {
		t.Errorf("/board/4 shows %d boards", n)
	}
	shot(t, ctx, dir, "board.png")

	// The arbiter: login first.
	do(t, ctx, chromedp.Navigate(base+"/arbiter"), chromedp.WaitVisible(chromedp.CSS("input[name=password]")))
	pw, err := os.ReadFile(filepath.Join(h.cfg.Data, ArbiterPasswordFile))
	if err != nil {
		t.Fatal(err)
	}
	do(t, ctx,
		chromedp.SetValue(chromedp.CSS("input[name=user]"), "arbiter"),
		chromedp.SetValue(chromedp.CSS("input[name=password]"), "wrong password"),
		chromedp.Submit(chromedp.CSS("input[name=password]")),
		chromedp.WaitVisible(chromedp.CSS("p.error")),
		chromedp.SetValue(chromedp.CSS("input[name=user]"), "arbiter"),
		chromedp.SetValue(chromedp.CSS("input[name=password]"), strings.TrimSpace(string(pw))),
		chromedp.Submit(chromedp.CSS("input[name=password]")),
		chromedp.WaitVisible(chromedp.CSS("#form-next-game")),
		chromedp.SetValue(chromedp.CSS("#form-next-game input[name=control]"), "fide-rapid-15"),
		chromedp.SetValue(chromedp.CSS("#form-next-game select[name=after-flag]"), "continue"),
		chromedp.SetValue(chromedp.CSS("#form-next-game input[name=boards]"), "1-4, 6"),
		chromedp.Submit(chromedp.CSS("#form-next-game input[name=control]")),
		chromedp.WaitVisible(chromedp.CSS("#flash")),
	)
	flash := run(t, ctx, chromedp.Text(chromedp.CSS("#flash")))
	if !strings.Contains(flash, "next-game 15'+10\" (15 min + 10 s a move) sent to boards 1, 2, 3, 4, 6") {
		t.Errorf("flash after next-game: %q", flash)
	}
	// A start that has passed is refused, with the hall's zone named
	// (issue 24.9: it got "round: ok").
	do(t, ctx,
		chromedp.SetValue(chromedp.CSS("#form-round input[name=start]"), "2020-03-07T18:30"),
		chromedp.Submit(chromedp.CSS("#form-round input[name=start]")),
		chromedp.WaitVisible(chromedp.CSS("p.error#flash")),
	)
	if flash := run(t, ctx, chromedp.Text(chromedp.CSS("#flash"))); !strings.Contains(flash, "Not sent: round: the start 2020-03-07 18:30 (the laptop's zone (") || !strings.Contains(flash, "has passed") {
		t.Errorf("flash after a past start: %q", flash)
	}
	if z := run(t, ctx, chromedp.Text(chromedp.CSS("#form-round label"))); !strings.Contains(z, "the laptop's zone (") {
		t.Errorf("the round form names no zone: %q", z)
	}
	start := time.Now().Add(48 * time.Hour)
	do(t, ctx,
		chromedp.SetValue(chromedp.CSS("#form-round input[name=start]"), start.Format("2006-01-02T15:04")),
		chromedp.SetValue(chromedp.CSS("#form-round input[name=default_time]"), "30"),
		chromedp.Submit(chromedp.CSS("#form-round input[name=start]")),
		chromedp.WaitVisible(chromedp.CSS("#flash")),
	)
	if flash := run(t, ctx, chromedp.Text(chromedp.CSS("#flash"))); !strings.Contains(flash, "round sent to every board") {
		t.Errorf("flash after round: %q", flash)
	}
	waitFor(t, 5*time.Second, "the commands at the clocks", func() bool {
		return len(clocks[0].Commands()) == 2 && len(clocks[4].Commands()) == 1
	})
	var ng map[string]any
	json.Unmarshal(clocks[0].Commands()[0], &ng)
	if ng["cmd"] != "next-game" || ng["control"] != "fide-rapid-15" || fmt.Sprint(ng["options"]) != "map[after-flag:continue]" {
		t.Errorf("board 1 got %s", clocks[0].Commands()[0])
	}
	var rd map[string]any
	json.Unmarshal(clocks[4].Commands()[0], &rd)
	if rd["cmd"] != "round" || rd["default_time"] != "30m" || !strings.HasPrefix(fmt.Sprint(rd["start"]), start.Format("2006-01-02T15:04:00")) {
		t.Errorf("board 5 got %s", clocks[4].Commands()[0])
	}
	// The replies show on the arbiter's cards.
	do(t, ctx, chromedp.WaitVisible(chromedp.CSS("#b1 .tag.ok")))
	shot(t, ctx, dir, "arbiter.png")

	// A form without its CSRF token is refused.
	status := run(t, ctx, chromedp.Evaluate[int](`fetch("/arbiter", {method: "POST", headers: {"Content-Type": "application/x-www-form-urlencoded"}, body: "action=pause&boards=all"}).then(r => r.status)`, chromedp.EvalAwaitPromise))
	if status != 403 {
		t.Errorf("a pause without the CSRF token: %d, want 403", status)
	}

	// A phone.
	do(t, ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)), chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("#b1 .t")))
	if w := run(t, ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth`)); w > 390 {
		t.Errorf("the hall on a phone is %d px wide, the screen 390", w)
	}
	shot(t, ctx, dir, "phone.png")
	// A press on board 1 shows on the page: measure from the instant the
	// state holds (the press) to the page's rendering of it, as the page
	// records it.
	c := clocks[0]
	do(t, ctx, chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("#b1 .t")))
	type press struct {
		held  int64
		moves int
	}
	var presses []press
	for i := 0; i < 200; i++ {
		held, moves := c.Press()
		presses = append(presses, press{held.UnixMilli(), moves})
		time.Sleep(time.Duration(10+i%5*5) * time.Millisecond)
	}
	waitIdle(t, c)
	var lat []time.Duration
	deadline = time.Now().Add(5 * time.Second)
	for {
		shown := run(t, ctx, chromedp.Evaluate[[][4]int64](`window.zeitnotRendered.filter(r => r[0] === 1)`))
		lat = lat[:0]
		missing := 0
		for _, p := range presses {
			i := slices.IndexFunc(shown, func(r [4]int64) bool { return r[1] == p.held && r[2] == int64(p.moves) })
			if i < 0 {
				missing++
				continue
			}
			lat = append(lat, time.Duration(shown[i][3]-p.held)*time.Millisecond)
		}
		if missing == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d presses never shown on the page", missing, len(presses))
		}
		time.Sleep(50 * time.Millisecond)
	}
	slices.Sort(lat)
	p99 := lat[(len(lat)*99+99)/100-1]
	t.Logf("press to page, %d presses: median %v, p99 %v, max %v", len(lat), lat[len(lat)/2], p99, lat[len(lat)-1])
	// The goal, 250 ms at the 99th percentile, is a figure of the machine
	// as much as of the code: make test runs packages side by side, and a
	// timed assertion there fails on a busy machine (498 ms once). It is
	// reported always and held only when asked for, on a quiet machine
	// (ZEITNOT_LATENCY_GOAL=1).
	if p99 > 250*time.Millisecond {
		if os.Getenv("ZEITNOT_LATENCY_GOAL") == "1" {
			t.Errorf("p99 press to page %v, the goal is 250 ms", p99)
		} else {
			t.Logf("p99 press to page %v is over the 250 ms goal (ZEITNOT_LATENCY_GOAL=1 makes that a failure)", p99)
		}
	}
}

// TestPageNeverThrows: a state the hall holds but cannot use (written by
// an older hall, before intake checked states) is shown as far as it
// goes, the page throws nothing, and the boards after it keep running
// (issue 22, finding 6: 71 uncaught TypeErrors and frozen clocks).
func TestPageNeverThrows(t *testing.T) {
	ctx := browser(t, 1280, 800)
	h := startHall(t, nil)
	var thrown []string
	var mu sync.Mutex
	if err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*cdpruntime.EventExceptionThrown); ok && e.ExceptionDetails != nil {
			d := e.ExceptionDetails
			msg := d.Text
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
			mu.Lock()
			thrown = append(thrown, fmt.Sprintf("%s:%d: %s", d.URL, d.LineNumber+1, msg))
			mu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}
	c3 := dialClock(t, brokerURL(h), 3, nil)
	c3.Press()
	c3.Press()
	waitIdle(t, c3)
	now := time.Now()
	for i, raw := range []string{
		`{"running":"white","white":null,"black":5}`,
		`{"running":"black"}`,
		`"a string"`,
	} {
		h.Store().PutState(1+i%2, &protocol.StateMsg{Hall: "test", Board: 1 + i%2, Time: now.UnixMilli(), Raw: json.RawMessage(raw)}, now)
	}
	do(t, ctx, chromedp.Navigate("http://"+h.HTTPAddr()+"/"), chromedp.WaitVisible(chromedp.CSS("#b3 .side.run .t")))
	t1 := run(t, ctx, chromedp.Text(chromedp.CSS("#b3 .side.run .t")))
	waitFor(t, 5*time.Second, "board 3's running clock to run on", func() bool {
		return run(t, ctx, chromedp.Text(chromedp.CSS("#b3 .side.run .t"))) != t1
	})
	if n := run(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll("article.board").length`)); n != 3 {
		t.Errorf("%d boards shown, want 3", n)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(thrown) > 0 {
		t.Errorf("the page threw %d exceptions: %q", len(thrown), thrown)
	}
}
