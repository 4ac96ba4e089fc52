package hall

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/zeitnot/zeitnot/devtools/fakeclock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
)

// The round page in a real browser: the arbiter imports a TRF with the
// file form, reorders two boards, sends the players, sees a clock's
// result arrive and enters a result for a board without a clock.
func TestBrowserRound(t *testing.T) {
	ctx := browser(t, 1280, 900)
	h := startHall(t, nil)
	base := "http://" + h.HTTPAddr()
	var clocks []*fakeclock.Clock
	for n := 1; n <= 2; n++ {
		clocks = append(clocks, dialClock(t, brokerURL(h), n, func(o *fakeclock.Opts) { o.Control = "60" }))
	}
	file := filepath.Join(t.TempDir(), "open.trf")
	if err := os.WriteFile(file, []byte(eightBoards()), 0o644); err != nil {
		t.Fatal(err)
	}
	pw, err := os.ReadFile(filepath.Join(h.cfg.Data, ArbiterPasswordFile))
	if err != nil {
		t.Fatal(err)
	}
	do(t, ctx, chromedp.Navigate(base+"/login"), chromedp.WaitVisible(chromedp.CSS("input[name=password]")),
		chromedp.SetValue(chromedp.CSS("input[name=user]"), "arbiter"),
		chromedp.SetValue(chromedp.CSS("input[name=password]"), strings.TrimSpace(string(pw))),
		chromedp.Submit(chromedp.CSS("input[name=password]")),
		chromedp.WaitVisible(chromedp.CSS("#form-next-game")),
		chromedp.Navigate(base+"/arbiter/round"), chromedp.WaitVisible(chromedp.CSS("#form-import")),
		chromedp.SetUploadFiles(chromedp.CSS("#form-import input[name=trf]"), []string{file}),
		chromedp.Submit(chromedp.CSS("#form-import input[name=trf]")),
		chromedp.WaitVisible(chromedp.CSS("#flash")),
	)
	if flash := run(t, ctx, chromedp.Text(chromedp.CSS("#flash"))); !strings.Contains(flash, "open.trf: 16 players, round 1: 8 boards") {
		t.Fatalf("flash after the import: %q", flash)
	}
	if row := run(t, ctx, chromedp.Text(chromedp.CSS("#board-1"))); !strings.Contains(row, "1 Meier, Jürgen") || !strings.Contains(row, "9 Weiß, Jörg") {
		t.Errorf("board 1: %q", row)
	}
	// Boards 1 and 2 change places.
	do(t, ctx, chromedp.SetValue(chromedp.CSS("#form-order input[name=order]"), "2 1 3 4 5 6 7 8"),
		chromedp.Submit(chromedp.CSS("#form-order input[name=order]")), chromedp.WaitVisible(chromedp.CSS("#flash")))
	if row := run(t, ctx, chromedp.Text(chromedp.CSS("#board-1"))); !strings.Contains(row, "2 Łukasiewicz, Zofia") {
		t.Errorf("board 1 after the reorder: %q", row)
	}
	do(t, ctx, chromedp.Submit(chromedp.CSS("#form-send button")), chromedp.WaitVisible(chromedp.CSS("#flash")))
	if flash := run(t, ctx, chromedp.Text(chromedp.CSS("#flash"))); !strings.Contains(flash, `round 1: players sent to 8 boards; control 90'+30"`) {
		t.Errorf("flash after the send: %q", flash)
	}
	waitFor(t, 10*time.Second, "board 1's players", func() bool {
		for _, c := range clocks[0].Commands() {
			if strings.Contains(string(c), `"white":"Łukasiewicz, Zofia"`) {
				return true
			}
		}
		return false
	})
	// Board 1's clock: a draw, both levers. The page open shows it
	// without a reload: it follows the live stream (it opened
	// /arbiter/undefined, said "reconnecting" for good and needed a
	// reload), and it never says "reconnecting" while the hall is up.
	// Board 5 has no clock: the arbiter enters 1-0.
	do(t, ctx, chromedp.Navigate(base+"/arbiter/round"), chromedp.WaitVisible(chromedp.CSS("#round-results")))
	waitFor(t, 10*time.Second, "the round page's live stream", func() bool {
		return run(t, ctx, chromedp.Text(chromedp.CSS("#live"))) == "live"
	})
	run(t, ctx, chromedp.Evaluate[bool](`(() => { window.zeitnotLiveSaid = [];
		new MutationObserver(() => window.zeitnotLiveSaid.push(document.getElementById("live").textContent)).observe(document.getElementById("live"), {childList: true, characterData: true, subtree: true, attributes: true});
		window.zeitnotNotReloaded = true; return true; })()`))
	c := clocks[0]
	c.Press()
	c.Press()
	c.Pause()
	c.Result(clocklog.Draw, clocklog.Players)
	waitIdle(t, clocks...)
	waitFor(t, 10*time.Second, "board 1's result on the page", func() bool {
		return run(t, ctx, chromedp.Text(chromedp.CSS("#board-1 .result"))) == "1/2-1/2 players"
	})
	if !run(t, ctx, chromedp.Evaluate[bool](`window.zeitnotNotReloaded === true`)) {
		t.Error("the round page was reloaded")
	}
	if m := run(t, ctx, chromedp.Text(chromedp.CSS("#missing"))); m != "7" {
		t.Errorf("%s results missing after board 1's draw, want 7", m)
	}
	if said := run(t, ctx, chromedp.Evaluate[[]string](`window.zeitnotLiveSaid.concat([document.getElementById("live").textContent])`)); slices.Contains(said, "reconnecting") {
		t.Errorf("the round page said %q while the hall was up", said)
	}
	do(t, ctx, chromedp.SetValue(chromedp.CSS("#board-5 select[name=result]"), "1-0"),
		chromedp.Submit(chromedp.CSS("#board-5 select[name=result]")), chromedp.WaitVisible(chromedp.CSS("#flash")))
	if r := run(t, ctx, chromedp.Text(chromedp.CSS("#board-5 .result"))); r != "1-0 hall" {
		t.Errorf("board 5's result: %q", r)
	}
	if m := run(t, ctx, chromedp.Text(chromedp.CSS("#missing"))); m != "6" {
		t.Errorf("%s results missing, want 6", m)
	}
	shot(t, ctx, shots(t), "round.png")
}
