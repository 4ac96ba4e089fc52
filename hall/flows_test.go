package hall

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/zeitnot/zeitnot/devtools/fakeclock"
)

// loginArbiter logs the browser in as the hall's arbiter.
func loginArbiter(t *testing.T, ctx context.Context, h *Hall) {
	t.Helper()
	pw, err := os.ReadFile(filepath.Join(h.cfg.Data, ArbiterPasswordFile))
	if err != nil {
		t.Fatal(err)
	}
	do(t, ctx, chromedp.Navigate("http://"+h.HTTPAddr()+"/login"), chromedp.WaitVisible(chromedp.CSS("input[name=password]")))
	// The login page has no live stream: it says nothing of one.
	if s := run(t, ctx, chromedp.Evaluate[string](`(document.getElementById("live") || {textContent: ""}).textContent`)); s != "" {
		t.Errorf("the login page says %q", s)
	}
	do(t, ctx,
		chromedp.SetValue(chromedp.CSS("input[name=user]"), "arbiter"),
		chromedp.SetValue(chromedp.CSS("input[name=password]"), strings.TrimSpace(string(pw))),
		chromedp.Submit(chromedp.CSS("input[name=password]")),
		chromedp.WaitVisible(chromedp.CSS("#form-next-game")))
}

// submit submits the form of sel and waits for the page it leads to.
func submit(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	run(t, ctx, chromedp.Evaluate[bool](`window.zeitnotOld = true`))
	do(t, ctx, chromedp.Submit(chromedp.CSS(sel)))
	waitFor(t, 10*time.Second, "the page after the form", func() bool {
		return run(t, ctx, chromedp.Evaluate[bool](`!window.zeitnotOld && document.readyState === "complete"`))
	})
}

// lastCommand is the last command clock c got, decoded.
func lastCommand(c *fakeclock.Clock) map[string]any {
	cs := c.Commands()
	if len(cs) == 0 {
		return nil
	}
	var m map[string]any
	json.Unmarshal(cs[len(cs)-1], &m)
	return m
}

// The control field says what it understood before anything is sent, and
// asks for a confirmation when a short base has no units (issue 24.7:
// 90+30 went out as 90 seconds + 30 s to every board).
func TestBrowserControlField(t *testing.T) {
	ctx := browser(t, 1280, 900)
	h := startHall(t, nil)
	c := dialClock(t, brokerURL(h), 1, nil)
	waitIdle(t, c)
	loginArbiter(t, ctx, h)
	field := chromedp.CSS("#form-next-game input[name=control]")
	do(t, ctx, chromedp.SendKeys(field, "90+30"))
	waitFor(t, 5*time.Second, "the field's reading", func() bool {
		return strings.Contains(run(t, ctx, chromedp.Text(chromedp.CSS("#control-reading"))), `Understood: 90'+30" (90 min + 30 s a move)`)
	})
	submit(t, ctx, "#form-next-game input[name=control]")
	if f := run(t, ctx, chromedp.Text(chromedp.CSS("#flash"))); !strings.Contains(f, `next-game 90'+30" (90 min + 30 s a move) sent to every board`) {
		t.Errorf("flash: %q", f)
	}
	waitFor(t, 5*time.Second, "the command at the clock", func() bool { return len(c.Commands()) == 1 })
	if m := lastCommand(c); m["control"] != "5400+30" {
		t.Errorf("the clock got %v, want 5400+30", m)
	}

	// 5+3: five minutes or five seconds? Nothing goes before the arbiter says.
	do(t, ctx, chromedp.SetValue(field, "5+3"))
	submit(t, ctx, "#form-next-game input[name=control]")
	if f := run(t, ctx, chromedp.Text(chromedp.CSS("#flash"))); !strings.Contains(f, "Not sent yet") || !strings.Contains(f, "5 min + 3 s a move, not 5 s + 3 s a move") {
		t.Errorf("flash for 5+3: %q", f)
	}
	if len(c.Commands()) != 1 {
		t.Errorf("5+3 was sent before the confirmation: %s", c.Commands()[len(c.Commands())-1])
	}
	shot(t, ctx, shots(t), "arbiter-confirm.png")
	submit(t, ctx, "#confirm-control button")
	waitFor(t, 5*time.Second, "the confirmed command at the clock", func() bool { return len(c.Commands()) == 2 })
	if m := lastCommand(c); m["control"] != "300+3" {
		t.Errorf("the clock got %v, want 300+3", m)
	}
	// A preset's name.
	do(t, ctx, chromedp.SetValue(field, "Blitz 3+2"))
	submit(t, ctx, "#form-next-game input[name=control]")
	waitFor(t, 5*time.Second, "the preset at the clock", func() bool { return len(c.Commands()) == 3 })
	if m := lastCommand(c); m["control"] != "fide-blitz-3" {
		t.Errorf("the clock got %v, want the preset's key", m)
	}
}

// pausedOnPage reports, for each board, whether its card shows it paused.
func pausedOnPage(t *testing.T, ctx context.Context, boards ...int) []bool {
	t.Helper()
	out := make([]bool, len(boards))
	for i, n := range boards {
		out[i] = run(t, ctx, chromedp.Evaluate[bool](fmt.Sprintf(`!!document.querySelector("#b%d .tag.paused")`, n)))
	}
	return out
}

// Pause all, then resume all: the clocks resume only what the hall
// paused; a game its arbiter paused at the board stays paused, and the
// page says why (issue 24.8).
func TestBrowserPauseResume(t *testing.T) {
	ctx := browser(t, 1280, 900)
	h := startHall(t, nil)
	var cs []*fakeclock.Clock
	for n := 1; n <= 3; n++ {
		c := dialClock(t, brokerURL(h), n, nil)
		c.Press()
		c.Press()
		cs = append(cs, c)
	}
	cs[2].Pause() // the arbiter at board 3
	waitIdle(t, cs...)
	loginArbiter(t, ctx, h)
	do(t, ctx, chromedp.WaitVisible(chromedp.CSS("#b3 .tag.paused")))
	// A board no clock reported as is named, not "sent" to (issue 24.13).
	do(t, ctx, chromedp.SetValue(chromedp.CSS("#form-pause input[name=boards]"), "9999"))
	run(t, ctx, chromedp.Evaluate[bool](`window.zeitnotOld = true`))
	do(t, ctx, chromedp.Click(chromedp.CSS("#pause")))
	waitFor(t, 10*time.Second, "the page after pause 9999", func() bool { return !run(t, ctx, chromedp.Evaluate[bool](`!!window.zeitnotOld`)) })
	if f := run(t, ctx, chromedp.Text(chromedp.CSS("#flash"))); !strings.Contains(f, "Not sent: pause: no clock has reported as board 9999") {
		t.Errorf("flash after pause 9999: %q", f)
	}
	run(t, ctx, chromedp.Evaluate[bool](`window.zeitnotOld = true`))
	do(t, ctx, chromedp.Click(chromedp.CSS("#pause")))
	waitFor(t, 10*time.Second, "every board shown paused", func() bool {
		return !run(t, ctx, chromedp.Evaluate[bool](`!!window.zeitnotOld`)) && slices.Equal(pausedOnPage(t, ctx, 1, 2, 3), []bool{true, true, true})
	})
	run(t, ctx, chromedp.Evaluate[bool](`window.zeitnotOld = true`))
	do(t, ctx, chromedp.Click(chromedp.CSS("#resume")))
	waitFor(t, 10*time.Second, "boards 1 and 2 resumed, board 3 still paused", func() bool {
		return !run(t, ctx, chromedp.Evaluate[bool](`!!window.zeitnotOld`)) && slices.Equal(pausedOnPage(t, ctx, 1, 2, 3), []bool{false, false, true})
	})
	waitFor(t, 10*time.Second, "board 3's refusal on its card", func() bool {
		return strings.Contains(run(t, ctx, chromedp.Text(chromedp.CSS("#b3 .tags"))), "at the board")
	})
	if f := run(t, ctx, chromedp.Text(chromedp.CSS("#flash"))); !strings.Contains(f, "resume sent to every board") {
		t.Errorf("flash: %q", f)
	}
	// Each reply says its command and when it came, once.
	reply := run(t, ctx, chromedp.Text(chromedp.CSS("#b3 .tag.reply")))
	if !regexp.MustCompile(`^resume \d\d:\d\d:\d\d: the clock refused: the game was paused at the clock`).MatchString(reply) {
		t.Errorf("board 3's reply: %q", reply)
	}
	if r := run(t, ctx, chromedp.Text(chromedp.CSS("#b1 .tag.reply"))); !regexp.MustCompile(`^resume \d\d:\d\d:\d\d: ok$`).MatchString(r) {
		t.Errorf("board 1's reply: %q", r)
	}
	shot(t, ctx, shots(t), "arbiter-resume.png")
}
