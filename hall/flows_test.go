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
	"github.com/zeitnot/zeitnot/internal/wait"
	"github.com/zeitnot/zeitnot/protocol"
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
	wait.For(t, 10*time.Second, "the page after the form", func() bool {
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
// asks for a confirmation when a short base has no units (90+30, read
// as the notation, would go out as 90 seconds + 30 s to every board).
func TestBrowserControlField(t *testing.T) {
	ctx := browser(t, 1280, 900)
	h := startHall(t, nil)
	c := dialClock(t, brokerURL(h), 1, nil)
	waitIdle(t, c)
	loginArbiter(t, ctx, h)
	field := chromedp.CSS("#form-next-game input[name=control]")
	do(t, ctx, chromedp.SendKeys(field, "90+30"))
	wait.For(t, 5*time.Second, "the field's reading", func() bool {
		return strings.Contains(run(t, ctx, chromedp.Text(chromedp.CSS("#control-reading"))), `Understood: 90'+30" (90 min + 30 s a move)`)
	})
	submit(t, ctx, "#form-next-game input[name=control]")
	if f := run(t, ctx, chromedp.Text(chromedp.CSS("#flash"))); !strings.Contains(f, `next-game 90'+30" (90 min + 30 s a move) sent to every board`) {
		t.Errorf("flash: %q", f)
	}
	wait.For(t, 5*time.Second, "the command at the clock", func() bool { return len(c.Commands()) == 1 })
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
	wait.For(t, 5*time.Second, "the confirmed command at the clock", func() bool { return len(c.Commands()) == 2 })
	if m := lastCommand(c); m["control"] != "300+3" {
		t.Errorf("the clock got %v, want 300+3", m)
	}
	// A preset's name.
	do(t, ctx, chromedp.SetValue(field, "Blitz 3+2"))
	submit(t, ctx, "#form-next-game input[name=control]")
	wait.For(t, 5*time.Second, "the preset at the clock", func() bool { return len(c.Commands()) == 3 })
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
// page says why.
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
	// A board no clock reported as is named, not reported as "sent" to.
	do(t, ctx, chromedp.SetValue(chromedp.CSS("#form-pause input[name=boards]"), "9999"))
	run(t, ctx, chromedp.Evaluate[bool](`window.zeitnotOld = true`))
	do(t, ctx, chromedp.Click(chromedp.CSS("#pause")))
	wait.For(t, 10*time.Second, "the page after pause 9999", func() bool {
		return !run(t, ctx, chromedp.Evaluate[bool](`!!window.zeitnotOld || document.readyState !== "complete"`))
	})
	if f := run(t, ctx, chromedp.Text(chromedp.CSS("#flash"))); !strings.Contains(f, "Not sent: pause: no clock has reported as board 9999") {
		t.Errorf("flash after pause 9999: %q", f)
	}
	run(t, ctx, chromedp.Evaluate[bool](`window.zeitnotOld = true`))
	do(t, ctx, chromedp.Click(chromedp.CSS("#pause")))
	wait.For(t, 10*time.Second, "every board shown paused", func() bool {
		return !run(t, ctx, chromedp.Evaluate[bool](`!!window.zeitnotOld || document.readyState !== "complete"`)) && slices.Equal(pausedOnPage(t, ctx, 1, 2, 3), []bool{true, true, true})
	})
	run(t, ctx, chromedp.Evaluate[bool](`window.zeitnotOld = true`))
	do(t, ctx, chromedp.Click(chromedp.CSS("#resume")))
	wait.For(t, 10*time.Second, "boards 1 and 2 resumed, board 3 still paused", func() bool {
		return !run(t, ctx, chromedp.Evaluate[bool](`!!window.zeitnotOld || document.readyState !== "complete"`)) && slices.Equal(pausedOnPage(t, ctx, 1, 2, 3), []bool{false, false, true})
	})
	wait.For(t, 10*time.Second, "board 3's refusal on its card", func() bool {
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

	// Take over board 3 with board 2's clock as the spare: the page says
	// it was asked, the spare's reply shows on its card and its page.
	do(t, ctx,
		chromedp.SetValue(chromedp.CSS("#form-takeover input[name=spare]"), "2"),
		chromedp.SetValue(chromedp.CSS("#form-takeover input[name=board]"), "3"))
	submit(t, ctx, "#form-takeover input[name=spare]")
	if f := run(t, ctx, chromedp.Text(chromedp.CSS("#flash"))); !strings.Contains(f, "takeover sent to board 2 to take over board 3's game; the spare's reply shows on its card: if it is ok, the game shows as board 3, on clock 2") {
		t.Errorf("flash after the takeover: %q", f)
	}
	wait.For(t, 10*time.Second, "the spare's reply on its card", func() bool {
		return strings.HasPrefix(run(t, ctx, chromedp.Text(chromedp.CSS("#b2 .tag.reply"))), "takeover ")
	})
	do(t, ctx, chromedp.Navigate("http://"+h.HTTPAddr()+"/arbiter/board/2"), chromedp.WaitVisible(chromedp.CSS("#last-reply")))
	if r := run(t, ctx, chromedp.Text(chromedp.CSS("#last-reply"))); !strings.Contains(r, ": takeover: ok") {
		t.Errorf("the spare's page: %q", r)
	}
	// The PGN, as the page's link downloads it.
	pgn := run(t, ctx, chromedp.Evaluate[string](`fetch(document.querySelector("nav a[href='/api/games.pgn']").href).then(r => r.status + " " + r.headers.get("Content-Type") + "\n" + r.text()).then(x => x)`, chromedp.EvalAwaitPromise))
	if !strings.HasPrefix(pgn, "200 ") {
		t.Errorf("the PGN link: %.200q", pgn)
	}
}

// A state as a clock publishes it, with members beyond the engine's.
func statusJSON(extra string) json.RawMessage {
	return json.RawMessage(`{"at":60000,"running":"white","paused":false,"first_flag":"none","to_move":"white","started":true,"stopped":false,` +
		`"white":{"ms":5400000,"moves":0,"period":1,"mode":"fischer"},"black":{"ms":5400000,"moves":0,"period":1,"mode":"fischer"},` +
		`"control":"5400+30","time_source":"ntp"` + extra + `}`)
}

// The arbiter sees every clock's power and battery, and a warning for a
// clock on battery that may not last the session (FIDE's equipment
// rules from 1 March 2026); DEFAULT marks and the round's countdown show
// on the cards and on /board/N.
func TestBrowserPowerDefaultCountdown(t *testing.T) {
	ctx := browser(t, 1280, 900)
	h := startHall(t, nil)
	now := time.Now()
	for n, extra := range map[int]string{
		1: `,"power_lost":true,"battery":{"percent":42,"volts":3.6,"low":false}`,
		2: `,"battery":{"percent":90,"volts":4.1,"low":false}`,
		3: `,"default":["white"],"round":{"start_ms":1,"default_ms":0,"game":"g"}`,
		4: `,"round":{"start_ms":` + fmt.Sprint(now.Add(5*time.Minute).UnixMilli()) + `,"default_ms":1800000,"starts_in_ms":300000}`,
	} {
		m, err := protocol.ParseStateMsg(mustJSON(t, protocol.StateMsg{Hall: "test", Board: n, Time: now.UnixMilli(), Raw: statusJSON(extra)}))
		if err != nil {
			t.Fatal(err)
		}
		h.Store().PutState(n, &m, now)
	}
	loginArbiter(t, ctx, h)
	do(t, ctx, chromedp.WaitVisible(chromedp.CSS("#b4 .tag.power")))
	if p := run(t, ctx, chromedp.Text(chromedp.CSS("#b1 .tag.power"))); p != "power: on battery, battery 42%: may not last the session" {
		t.Errorf("board 1's power: %q", p)
	}
	if p := run(t, ctx, chromedp.Text(chromedp.CSS("#b2 .tag.power"))); p != "power: mains, battery 90%" {
		t.Errorf("board 2's power: %q", p)
	}
	if w := run(t, ctx, chromedp.Text(chromedp.CSS("#power"))); !strings.Contains(w, "board 1: on battery, battery 42%") || strings.Contains(w, "board 2") {
		t.Errorf("the power summary: %q", w)
	}
	// The control as people read it, not the notation: 90'+30", not 5400+30.
	if c := run(t, ctx, chromedp.Text(chromedp.CSS("#b1 .tag.control"))); c != `90'+30"` {
		t.Errorf("board 1's control tag: %q, want 90'+30\"", c)
	}
	if d := run(t, ctx, chromedp.Text(chromedp.CSS("#b3 .tag.default"))); !strings.HasPrefix(d, "DEFAULT White") {
		t.Errorf("board 3's DEFAULT: %q", d)
	}
	cd := run(t, ctx, chromedp.Text(chromedp.CSS("#b4 .tag.countdown")))
	if !regexp.MustCompile(`^round starts in [45]:\d\d \(\d\d:\d\d\)$`).MatchString(cd) {
		t.Errorf("board 4's countdown on /arbiter: %q", cd)
	}
	shot(t, ctx, shots(t), "arbiter-power.png")
	for _, path := range []string{"/", "/board/4"} {
		do(t, ctx, chromedp.Navigate("http://"+h.HTTPAddr()+path), chromedp.WaitVisible(chromedp.CSS("#b4 .tag.countdown")))
		if cd := run(t, ctx, chromedp.Text(chromedp.CSS("#b4 .tag.countdown"))); !strings.HasPrefix(cd, "round starts in ") {
			t.Errorf("board 4's countdown on %s: %q", path, cd)
		}
	}
	shot(t, ctx, shots(t), "board-countdown.png")
}

func mustJSON(t *testing.T, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
