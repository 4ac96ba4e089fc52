package hall

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/devtools/fakeclock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/hall/trf"
	"github.com/zeitnot/zeitnot/internal/wait"
	"github.com/zeitnot/zeitnot/protocol"
)

// TestForgedResultOverAcknowledgedLine: board 1's players confirm 0-1 on
// the clock and the link delivers it; then a forger publishes, as the
// board, a line with a right checksum for the result line's seq, saying
// 1-0 at the instant of the line before. The first line of a seq stands:
// the CSV, the TRF and the PGN keep 0-1, and the forged line is evidence
// on /arbiter and on the board's log page.
func TestForgedResultOverAcknowledgedLine(t *testing.T) {
	h := startHall(t, func(c *Config) { c.APIToken = []byte(testToken) })
	c := dialClock(t, brokerURL(h), 1, func(o *fakeclock.Opts) { o.Control = "60" })
	wait.For(t, 10*time.Second, "board 1 in the store", func() bool { return len(h.Store().Boards()) == 1 })
	if code, msg := apiDo(t, h, "PUT", "/api/tournament", testToken, []byte(eightBoards())); code != 200 {
		t.Fatalf("PUT /api/tournament: %d %s", code, msg)
	}
	post, getPage := roundForms(t, h)
	post(url.Values{"action": {"send"}, "control": {"on"}})
	wait.For(t, 10*time.Second, "board 1's players", func() bool {
		for _, cmd := range c.Commands() {
			if strings.Contains(string(cmd), `"cmd":"players"`) {
				return true
			}
		}
		return false
	})
	c.Press()
	c.Press()
	c.Press()
	c.Pause()
	c.Result(clocklog.BlackWins, clocklog.Players)
	waitIdle(t, c)
	csvResult := func() string {
		_, text := apiDo(t, h, "GET", "/api/rounds/1/results.csv", testToken, nil)
		rows, err := csv.NewReader(strings.NewReader(text)).ReadAll()
		if err != nil {
			t.Fatalf("results.csv: %v\n%s", err, text)
		}
		for _, r := range rows[1:] {
			if r[1] == "1" {
				return r[6] + "," + r[7]
			}
		}
		return ""
	}
	wait.For(t, 10*time.Second, "board 1's result in the CSV", func() bool { return csvResult() == "0-1,players" })

	// The forged line: the result line's seq, the instant of the line
	// before it, 1-0.
	lines := c.Lines()
	seq := int64(0)
	for i, l := range lines {
		if strings.Contains(l, " result ") {
			seq = int64(i + 1)
		}
	}
	if seq < 2 {
		t.Fatalf("no result line in the clock's log:\n%s", strings.Join(lines, "\n"))
	}
	at, _, _ := strings.Cut(lines[seq-2], " ")
	forged := clocklog.WithChecksum(at + " result 1-0 players")
	b, _ := json.Marshal(protocol.LogMsg{Game: c.Game(), Seq: seq, Line: forged})
	r := NewReceiver("test", h.Store())
	if err := r.Receive(protocol.TopicsFor("test", 1).Log, b); err != nil {
		t.Fatalf("the forged line, kept as evidence: %v", err)
	}
	c.Refresh()
	waitIdle(t, c)

	if got := csvResult(); got != "0-1,players" {
		t.Errorf("CSV board 1: %q, want the clock's 0-1,players", got)
	}
	_, out := apiDo(t, h, "GET", "/api/tournament.trf", testToken, nil)
	tr, err := trf.Parse("exported.trf", []byte(out))
	if err != nil {
		t.Fatalf("the exported TRF: %v\n%s", err, out)
	}
	if w, _ := tr.Player(1); w.Game(1).Result != '0' {
		t.Errorf("TRF player 1: %c, want 0", w.Game(1).Result)
	}
	if _, pgn := apiDo(t, h, "GET", "/api/rounds/1/games.pgn", testToken, nil); !strings.Contains(pgn, `[Result "0-1"]`) || strings.Contains(pgn, "1-0") {
		t.Errorf("PGN:\n%s", pgn)
	}
	if p := getPage("/arbiter"); !strings.Contains(p, fmt.Sprintf("Board 1, game %s</a>: 1 conflict", c.Game())) {
		t.Errorf("/arbiter does not show the evidence:\n%s", p)
	}
	if p := getPage("/arbiter/board/1?game=" + c.Game()); !strings.Contains(p, `id="conflicts"`) || !strings.Contains(p, forged) || !strings.Contains(p, lines[seq-1]) {
		t.Errorf("the board's log page does not show the evidence:\n%s", p)
	}
	t.Logf("forged %q over line %d; the CSV keeps %s", forged, seq, csvResult())
}

// TestLineAheadDoesNotFreeze: a forger publishes, as the board, line n+5
// with line n's instant. It is held aside; the real lines n+1... keep being
// taken, and once they reach it the held line is out of place and becomes
// evidence, so the hall's log ends equal to the clock's.
func TestLineAheadDoesNotFreeze(t *testing.T) {
	h := startHall(t, nil)
	c := dialClock(t, brokerURL(h), 2, nil)
	c.Press()
	c.Press()
	checkComplete(t, h, map[int]*fakeclock.Clock{2: c})
	lines := c.Lines()
	n := int64(len(lines))
	at, _, _ := strings.Cut(lines[n-1], " ")
	forged := clocklog.WithChecksum(at + " press white")
	b, _ := json.Marshal(protocol.LogMsg{Game: c.Game(), Seq: n + 5, Line: forged})
	r := NewReceiver("test", h.Store())
	r.missing = h.resend.ask // as the hall's own receiver
	if err := r.Receive(protocol.TopicsFor("test", 2).Log, b); err != nil {
		t.Fatalf("the line ahead, held aside: %v", err)
	}
	wait.For(t, 10*time.Second, "the hall's resend for the gap", func() bool { return c.Resent() > 0 })
	for range 12 {
		c.Press()
	}
	checkComplete(t, h, map[int]*fakeclock.Clock{2: c})
	got, waiting := h.Store().Lines(2, c.Game())
	if waiting != 0 {
		t.Errorf("%d lines still held", waiting)
	}
	cs := h.Store().Conflicts(2, c.Game())
	if len(cs) != 1 || cs[0].Seq != n+5 || cs[0].SetAside != forged || cs[0].Kept != got[n+4] {
		t.Errorf("evidence %+v", cs)
	}
	_, page := roundForms(t, h)
	if p := page("/arbiter/board/2?game=" + c.Game()); !strings.Contains(p, forged) {
		t.Errorf("the board's log page does not show the held line:\n%s", p)
	}
	t.Logf("line %d published ahead with line %d's instant; the hall took all %d lines", n+5, n, len(got))
}
