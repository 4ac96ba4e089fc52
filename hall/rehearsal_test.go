package hall

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/zeitnot/zeitnot/appliance/control"
	"github.com/zeitnot/zeitnot/devtools/demo"
)

// startDemo runs make hall's simulated clocks against h: real daemons and
// links (bin/zeitnot, built for the test), their players waiting for the
// round. It returns the boards' directory (DIR/board-N/control.sock).
func startDemo(t *testing.T, h *Hall, boards int) string {
	t.Helper()
	bctx, bcancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer bcancel()
	exe, err := demo.Build(bctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "demo")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- demo.Run(ctx, demo.Opts{Exe: exe, Dir: dir, Broker: brokerURL(h).String(), Hall: h.cfg.Hall, Boards: boards, Think: 4 * time.Second, Wait: true, Logf: t.Logf})
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	waitFor(t, 60*time.Second, fmt.Sprintf("%d demo clocks online with a state", boards), func() bool {
		n := 0
		for _, b := range h.Store().Boards() {
			if b.IsOnline() && b.State != nil {
				n++
			}
		}
		return n == boards
	})
	return dir
}

// onPage waits until the page's JavaScript expression js is true, as a
// person would look until they see it.
func onPage(t *testing.T, ctx context.Context, within time.Duration, what, js string) {
	t.Helper()
	waitFor(t, within, what, func() bool { return run(t, ctx, chromedp.Evaluate[bool](js)) })
}

// press is the arbiter's form button sel pressed, and the page after it.
func press(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	run(t, ctx, chromedp.Evaluate[bool](`window.zeitnotOld = true`))
	do(t, ctx, chromedp.Click(chromedp.CSS(sel)))
	onPage(t, ctx, 10*time.Second, "the page after "+sel, `!window.zeitnotOld && document.readyState === "complete" && !!document.getElementById("flash")`)
}

func flash(t *testing.T, ctx context.Context) string {
	t.Helper()
	return run(t, ctx, chromedp.Text(chromedp.CSS("#flash")))
}

// A round rehearsed as make hall runs it, in Chromium, with the demo's
// real clocks (bin/zeitnot daemons and links) obeying it: the arbiter logs
// in, sets the round for boards 1-3 (board 4 is the spare, kept aside),
// sees the countdown, sees White's clocks start at the start, pauses all,
// resumes all, takes over board 2 with the spare (the game stays board
// 2's, the broken clock retired from the pages) and downloads the PGN.
// Each step is checked on the page, as a person sees it.
func TestBrowserRehearsal(t *testing.T) {
	if testing.Short() {
		t.Skip("starts daemon and link processes")
	}
	ctx := browser(t, 1280, 900)
	h := startHall(t, nil)
	dir := startDemo(t, h, 4)
	base := "http://" + h.HTTPAddr()
	loginArbiter(t, ctx, h)
	for n := 1; n <= 4; n++ {
		do(t, ctx, chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf("#b%d .tag.control", n))))
	}

	// The demo's clocks trust the laptop's clock, and the card says so.
	if s := run(t, ctx, chromedp.Text(chromedp.CSS("#b1 .tag.time"))); s != "time of day: the laptop's clock (a demonstration clock)" {
		t.Errorf("board 1's time source: %q", s)
	}

	// The round: a start 20 s from now, to the second, for boards 1-3.
	start := time.Now().Add(20 * time.Second).Truncate(time.Second)
	// A datetime-local input writes whole minutes without their ":00"
	// (and chromedp checks that the value it set reads back).
	layout := "2006-01-02T15:04:05"
	if start.Second() == 0 {
		layout = "2006-01-02T15:04"
	}
	do(t, ctx,
		chromedp.SetValue(chromedp.CSS("#form-round input[name=start]"), start.Format(layout)),
		chromedp.SetValue(chromedp.CSS("#form-round input[name=boards]"), "1-3"))
	press(t, ctx, "#form-round button")
	if f := flash(t, ctx); !strings.Contains(f, "round sent to boards 1, 2, 3") {
		t.Fatalf("flash after the round: %q", f)
	}
	// The countdown, on the arbiter's cards and the public pages.
	countdown := regexp.MustCompile(`^round starts in 0:[0-2]\d \(\d\d:\d\d\)$`)
	onPage(t, ctx, 10*time.Second, "board 1's countdown", `!!document.querySelector("#b1 .tag.countdown")`)
	if c := run(t, ctx, chromedp.Text(chromedp.CSS("#b1 .tag.countdown"))); !countdown.MatchString(c) {
		t.Errorf("board 1's countdown: %q", c)
	}
	if run(t, ctx, chromedp.Evaluate[bool](`!!document.querySelector("#b4 .tag.countdown")`)) {
		t.Error("the spare, board 4, counts down to a round not sent to it")
	}
	shot(t, ctx, shots(t), "arbiter-countdown.png")

	// The start: White's clock runs on boards 1-3, the countdowns gone;
	// nobody pressed a lever before it (Black's would have started White's
	// clock early).
	if run(t, ctx, chromedp.Evaluate[bool](`!!document.querySelector("#b1 .side.run, #b2 .side.run, #b3 .side.run")`)) {
		t.Fatal("a clock runs before the start")
	}
	onPage(t, ctx, 40*time.Second, "White's clocks running on boards 1-3 at the start", `[1, 2, 3].every(n => !!document.querySelector("#b" + n + " .side.white.run"))`)
	if now := time.Now(); now.Before(start) {
		t.Errorf("the clocks ran at %v, before the start %v", now.Format("15:04:05.000"), start.Format("15:04:05"))
	}
	if run(t, ctx, chromedp.Evaluate[bool](`!!document.querySelector("#b1 .tag.countdown, #b2 .tag.countdown, #b3 .tag.countdown")`)) {
		t.Error("a countdown still shows after the start")
	}
	if run(t, ctx, chromedp.Evaluate[bool](`!!document.querySelector("#b4 .side.run")`)) {
		t.Error("the spare's clock runs")
	}

	// Pause all, resume all.
	press(t, ctx, "#pause")
	onPage(t, ctx, 10*time.Second, "boards 1-3 paused by the hall", `[1, 2, 3].every(n => !!document.querySelector("#b" + n + " .tag.paused") && document.querySelector("#b" + n + " .tags").textContent.includes("paused by the hall"))`)
	press(t, ctx, "#resume")
	onPage(t, ctx, 10*time.Second, "boards 1-3 running again", `[1, 2, 3].every(n => !document.querySelector("#b" + n + " .tag.paused") && !!document.querySelector("#b" + n + " .side.run"))`)
	if got := pausedOnPage(t, ctx, 1, 2, 3); !slices.Equal(got, []bool{false, false, false}) {
		t.Errorf("paused after resume all: %v", got)
	}

	// Board 2's clock fails: the arbiter stops the game, and spare clock
	// 4 takes it over. The game stays board 2's.
	do(t, ctx, chromedp.SetValue(chromedp.CSS("#form-pause input[name=boards]"), "2"))
	press(t, ctx, "#pause")
	onPage(t, ctx, 10*time.Second, "board 2 paused", `!!document.querySelector("#b2 .tag.paused")`)
	// A screen shows the spare clock's own page: after the takeover it
	// follows the game to board 2.
	screen, closeScreen := chromedp.NewContext(ctx)
	defer closeScreen()
	// The first Run opens the tab for the life of the context it is given
	// (run's would close it after its timeout).
	if _, err := chromedp.Run(screen, chromedp.Steps()); err != nil {
		t.Fatal(err)
	}
	do(t, screen, chromedp.Navigate(base+"/board/4"), chromedp.WaitVisible(chromedp.CSS("#b4")))
	do(t, ctx,
		chromedp.SetValue(chromedp.CSS("#form-takeover input[name=spare]"), "4"),
		chromedp.SetValue(chromedp.CSS("#form-takeover input[name=board]"), "2"))
	press(t, ctx, "#form-takeover button")
	if f := flash(t, ctx); !strings.Contains(f, "takeover sent to board 4 to take over board 2's game") {
		t.Errorf("flash after the takeover: %q", f)
	}
	onPage(t, ctx, 20*time.Second, "board 2 on the spare clock, and no card of board 4",
		`!!document.querySelector("#b2 .tag.spare") && !document.getElementById("b4")`)
	do(t, screen, chromedp.WaitVisible(chromedp.CSS("#b2 .tag.spare")))
	if u := run(t, screen, chromedp.Location()); u != base+"/board/2" {
		t.Errorf("the spare's own page went on to %s, want board 2's", u)
	}
	// Opened now, clock 4's page is board 2's.
	do(t, screen, chromedp.Navigate(base+"/board/4"), chromedp.WaitVisible(chromedp.CSS("#b2 .tag.spare")))
	if u := run(t, screen, chromedp.Location()); u != base+"/board/2" {
		t.Errorf("/board/4 of the spare carrying board 2 opened %s", u)
	}
	if s := run(t, ctx, chromedp.Text(chromedp.CSS("#b2 .tag.spare"))); s != "on spare clock 4 (clock 2 replaced, retired)" {
		t.Errorf("board 2's spare tag: %q", s)
	}
	if r := run(t, ctx, chromedp.Text(chromedp.CSS("#b2 .tag.reply"))); !regexp.MustCompile(`^takeover \d\d:\d\d:\d\d: ok \(board 2's state was .* old`).MatchString(r) {
		t.Errorf("board 2's reply: %q", r)
	}
	if !run(t, ctx, chromedp.Evaluate[bool](`document.querySelector("#b2 .tags").textContent.includes("paused")`)) {
		t.Error("the spare's game is not shown paused for the arbiter's check")
	}
	// The arbiter checks the times and resumes at the board: the game
	// runs on, as board 2.
	if _, err := control.Call(filepath.Join(dir, "board-4", "control.sock"), "press", "pause"); err != nil {
		t.Fatal(err)
	}
	onPage(t, ctx, 10*time.Second, "board 2 running on the spare", `!!document.querySelector("#b2 .side.run") && !!document.querySelector("#b2 .tag.spare")`)
	shot(t, ctx, shots(t), "arbiter-takeover.png")
	// The public pages: board 2 is the spare's game, board 4 is nowhere.
	for _, path := range []string{"/", "/board/2"} {
		do(t, ctx, chromedp.Navigate(base+path), chromedp.WaitVisible(chromedp.CSS("#b2 .tag.spare")))
		if s := run(t, ctx, chromedp.Text(chromedp.CSS("#b2 .tag.spare"))); s != "on spare clock 4" {
			t.Errorf("%s: board 2's tag %q", path, s)
		}
		if run(t, ctx, chromedp.Evaluate[bool](`!!document.getElementById("b4")`)) {
			t.Errorf("%s shows the spare as board 4", path)
		}
	}

	// The PGN, as the page's link downloads it: board 2's game as it
	// stood; with ?all=1 its continuation on the spare, as board 2's.
	do(t, ctx, chromedp.Navigate(base+"/arbiter"), chromedp.WaitVisible(chromedp.CSS("#b2 .tag.spare")))
	pgn := run(t, ctx, chromedp.Evaluate[string](`fetch(document.querySelector("nav a[href='/api/games.pgn']").href).then(r => r.text().then(b => r.status + "\n" + r.headers.get("Content-Disposition") + "\n" + b))`, chromedp.EvalAwaitPromise))
	if !strings.HasPrefix(pgn, "200\nattachment; ") || strings.Count(pgn, `[Board "2"]`) != 1 {
		t.Errorf("the PGN link: %.600s", pgn)
	}
	all := run(t, ctx, chromedp.Evaluate[string](`fetch("/api/games.pgn?all=1").then(r => r.text())`, chromedp.EvalAwaitPromise))
	if strings.Count(all, `[Board "2"]`) != 2 || !strings.Contains(all, `[ZeitnotContinues "`) || strings.Contains(all, `[Board "4"]`) {
		t.Errorf("games.pgn?all=1: the continuation is not board 2's:\n%s", all)
	}
}
