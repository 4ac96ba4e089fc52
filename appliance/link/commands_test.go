package link_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/protocol"

	"github.com/zeitnot/zeitnot/appliance/link/linktest"
	"github.com/zeitnot/zeitnot/internal/wait"
	"github.com/zeitnot/zeitnot/internal/wallclock/wallclocktest"
)

// replies decodes the replies the hall got.
func replies(t *testing.T, h *linktest.Hall, topic string) []protocol.Reply {
	t.Helper()
	var out []protocol.Reply
	for _, m := range h.Messages(topic) {
		var r protocol.Reply
		dec := json.NewDecoder(strings.NewReader(string(m.Payload)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&r); err != nil {
			t.Fatalf("reply %s: %v", m.Payload, err)
		}
		out = append(out, r)
	}
	return out
}

// send publishes a command and waits for its reply.
func (r *rig) send(topic, payload string, corr []byte) (protocol.Reply, linktest.Msg) {
	r.t.Helper()
	n := len(r.hall.Messages(r.topics.Reply))
	if err := r.hall.Publish(topic, []byte(payload), false, corr); err != nil {
		r.t.Fatal(err)
	}
	r.hall.Wait(10*time.Second, "the reply to "+payload, func(h *linktest.Hall) bool {
		return len(h.Messages(r.topics.Reply)) > n
	})
	rs := replies(r.t, r.hall, r.topics.Reply)
	ms := r.hall.Messages(r.topics.Reply)
	return rs[n], ms[n]
}

func (r *rig) online() {
	r.t.Helper()
	r.hall.Wait(10*time.Second, "the link online, following the clock", func(h *linktest.Hall) bool {
		m, ok := h.Last(r.topics.Online)
		return ok && strings.Contains(string(m.Payload), `"online":true,"clock":true`)
	})
	// The subscription to the command topics follows the connection.
	wait.For(r.t, 10*time.Second, "the link subscribed to the command topics", func() bool {
		return r.link.Status().Commands
	})
}

func TestCommandsReachTheClock(t *testing.T) {
	r := newRig(t, linktest.BrokerOpts{})
	r.hall = linktest.NewHall(t, r.broker.URL(), linktest.HallOpts{})
	o := testOpts()
	o.CommandBurst = 100
	r.start(r.config(), o)
	r.online()

	// Board 7's clock died while paused: its last state is retained.
	board7 := fmt.Sprintf(`{"hall":"club","board":7,"game":"g0042","time":1767000000000,"state":{"at":600000,"running":"none","paused":true,"first_flag":"none",` +
		`"white":{"ms":4200000,"moves":21,"period":1,"flag":false,"overstep":false,"mode":"fischer","delay_ms":0,"overtime":false,"overtime_left":0,"quota_left":19},` +
		`"black":{"ms":4100500,"moves":20,"period":1,"flag":false,"overstep":false,"mode":"fischer","delay_ms":0,"overtime":false,"overtime_left":0,"quota_left":20},` +
		`"to_move":"black","started":true,"stopped":false,"recovered":false,"screen":"game","control":"40/5400+30:1800+30","left":"white","locked":false}}`)
	if err := r.hall.Publish(protocol.TopicsFor("club", 7).State, []byte(board7), true, nil); err != nil {
		t.Fatal(err)
	}

	all := "zeitnot/v1/club/all/cmd"
	tests := []struct {
		topic, payload string
		request        string // what the daemon gets
		detail         string
	}{
		{r.topics.Cmd, `{"id":"n1","cmd":"next-game","control":"fide-classical","options":{"after-flag":"continue"}}`,
			`next-game {"control":"fide-classical","options":{"after-flag":"continue"}}`, ""},
		{all, `{"id":"n2","cmd":"next-game","control":"5400+30|4800+30"}`,
			`next-game {"control":"5400+30|4800+30"}`, ""},
		{all, `{"id":"r1","cmd":"round","start":"2026-03-07T18:30:00+01:00","default_time":"30m"}`,
			`round {"start_ms":1772904600000,"default_ms":1800000}`, ""},
		{r.topics.Cmd, `{"id":"r2","cmd":"round","start":""}`,
			`round {"start_ms":0,"default_ms":0}`, ""},
		{r.topics.Cmd, `{"id":"p1","cmd":"players","white":"Carlsen, Magnus","black":"Caruana, Fabiano"}`,
			`players {"white":"Carlsen, Magnus","black":"Caruana, Fabiano"}`, ""},
		{r.topics.Cmd, `{"cmd":"players","black":" Müller-Lüdenscheidt, Ö. "}`,
			`players {"black":"Müller-Lüdenscheidt, Ö."}`, ""},
		{all, `{"id":"x","cmd":"pause"}`, `pause`, "not running"},
		{r.topics.Cmd, `{"id":"t1","cmd":"takeover","board":7}`,
			`takeover {"board":7,"game":"g0042","control":"40/5400+30:1800+30","to_move":"black","white":{"ms":4200000,"moves":21,"period":1,"flag":false,"overstep":false},"black":{"ms":4100500,"moves":20,"period":1,"flag":false,"overstep":false},"at":1767000000000}`, ""},
		{all, `{"id":"s1","cmd":"start"}`, "start", ""},
	}
	for i, tt := range tests {
		corr := []byte(fmt.Sprintf("corr-%d", i))
		rep, msg := r.send(tt.topic, tt.payload, corr)
		if !rep.OK || rep.Error != "" || rep.Board != 12 || rep.Detail != tt.detail {
			t.Errorf("%s: reply %+v", tt.payload, rep)
		}
		if string(msg.Corr) != string(corr) {
			t.Errorf("%s: correlation data %q, want %q", tt.payload, msg.Corr, corr)
		}
		var c struct{ ID, Cmd string }
		json.Unmarshal([]byte(tt.payload), &c)
		if rep.ID != c.ID || rep.Cmd != c.Cmd {
			t.Errorf("%s: reply for id %q cmd %q", tt.payload, rep.ID, rep.Cmd)
		}
		reqs := r.clock.Requests()
		if got := reqs[len(reqs)-1]; got != tt.request {
			t.Errorf("%s:\n daemon got %s\n      want %s", tt.payload, got, tt.request)
		}
	}

	// A start of a game that has started is refused, with the clock's
	// reason.
	if rep, _ := r.send(r.topics.Cmd, `{"id":"s2","cmd":"start"}`, nil); rep.OK || rep.Error != "the clock refused: the game has already started" {
		t.Errorf("second start: %+v", rep)
	}
	// The daemon's refusal comes back as the reason.
	r.clock.SetRefuse("a game is in progress on this clock")
	rep, _ := r.send(r.topics.Cmd, `{"id":"t2","cmd":"takeover","board":7}`, nil)
	if rep.OK || rep.Error != "the clock refused: a game is in progress on this clock" {
		t.Errorf("refused takeover: %+v", rep)
	}
	// The reply names its command once: not "round: the clock refused:
	// round: ...".
	r.clock.SetRefuse("round: the start has passed")
	rep, _ = r.send(r.topics.Cmd, `{"id":"t3","cmd":"round","start":""}`, nil)
	if rep.OK || rep.Cmd != "round" || rep.Error != "the clock refused: the start has passed" {
		t.Errorf("refused round: %+v", rep)
	}
}

func TestTakeoverOfARunningOnlineBoardRefused(t *testing.T) {
	r := newRig(t, linktest.BrokerOpts{})
	r.hall = linktest.NewHall(t, r.broker.URL(), linktest.HallOpts{})
	r.start(r.config(), testOpts())
	r.online()
	t7 := protocol.TopicsFor("club", 7)
	state := `{"hall":"club","board":7,"time":1767000000000,"state":{"at":0,"paused":false,"first_flag":"none","stopped":false,"running":"white","started":true,"to_move":"white","control":"300+2",` +
		`"white":{"ms":1000,"moves":3,"period":1,"mode":"fischer"},"black":{"ms":2000,"moves":3,"period":1,"mode":"fischer"}}}`
	r.hall.Publish(t7.State, []byte(state), true, nil)
	r.hall.Publish(t7.Online, []byte(`{"online":true,"clock":true,"log":"ok"}`), true, nil)
	rep, _ := r.send(r.topics.Cmd, `{"cmd":"takeover","board":7}`, nil)
	if rep.OK || rep.Error != "refused: board 7's clock is running and online: pause it first" {
		t.Errorf("reply %+v", rep)
	}
	rep, _ = r.send(r.topics.Cmd, `{"cmd":"takeover","board":8}`, nil)
	if rep.OK || rep.Error != "refused: the broker has no state of board 8" {
		t.Errorf("reply %+v", rep)
	}
	// Once board 7's link is gone (its will), its last state is taken.
	r.hall.Publish(t7.Online, []byte(`{"online":false}`), true, nil)
	rep, _ = r.send(r.topics.Cmd, `{"cmd":"takeover","board":7}`, nil)
	if !rep.OK {
		t.Errorf("reply %+v", rep)
	}
	for _, req := range r.clock.Requests() {
		if strings.HasPrefix(req, "takeover") && !strings.Contains(req, `"white":{"ms":1000,"moves":3,"period":1,"flag":false,"overstep":false}`) {
			t.Errorf("daemon got %s", req)
		}
	}
}

func TestMalformedCommandsRefused(t *testing.T) {
	r := newRig(t, linktest.BrokerOpts{})
	r.hall = linktest.NewHall(t, r.broker.URL(), linktest.HallOpts{})
	o := testOpts()
	o.CommandBurst = 100
	r.start(r.config(), o)
	r.online()
	all := "zeitnot/v1/club/all/cmd"
	huge := `{"cmd":"players","white":"` + strings.Repeat("x", 5000) + `"}`
	tests := []struct {
		topic, payload string
		id, cmd        string
		err            string
	}{
		{r.topics.Cmd, `pause`, "", "", "refused: command: not JSON: invalid character 'p' looking for beginning of value"},
		{r.topics.Cmd, `[{"cmd":"pause"}]`, "", "", "refused: command: want a JSON object"},
		{r.topics.Cmd, `{"cmd":"pause"`, "", "", "refused: command: not JSON: unexpected end"},
		{r.topics.Cmd, `{"cmd":"pause"} {"cmd":"pause"}`, "", "", "refused: command: more after the JSON object"},
		{r.topics.Cmd, `{"id":"a","cmd":"pause","cmd":"next-game"}`, "", "", `refused: command: field "cmd" given twice`},
		{r.topics.Cmd, `{"id":"b"}`, "b", "", "refused: no cmd; want one of next-game, round, players, pause, resume, start, takeover, result, resend, update"},
		{r.topics.Cmd, `{"id":"c","cmd":"reset"}`, "c", "", `refused: unknown cmd "reset"; want one of next-game, round, players, pause, resume, start, takeover, result, resend, update`},
		{r.topics.Cmd, `{"id":"d","cmd":"pause","force":true}`, "d", "pause", `refused: pause: unknown field "force"; it takes no fields but id`},
		{r.topics.Cmd, `{"id":"e","cmd":"next-game","control":"90 min"}`, "e", "next-game", `refused: next-game: control: "90 min" is neither a preset key nor a time control: white: timecontrol: "90 min": column 3: unexpected ' ', want '+' (increment), 'd' (delay), 'b' (Bronstein), '~' (overtime), ':' or the end`},
		{r.topics.Cmd, `{"id":"f","cmd":"next-game","control":"300","options":{"after-flag":"explode"}}`, "f", "next-game", `refused: next-game: option after-flag: want freeze or continue, got "explode"`},
		{r.topics.Cmd, `{"id":"g","cmd":"next-game"}`, "g", "next-game", `refused: next-game: missing field "control"`},
		{r.topics.Cmd, `{"id":"h","cmd":"round","start":"tonight"}`, "h", "round", `refused: round: start: want an RFC 3339 time like "2026-03-07T18:30:00+01:00", or "" for none, got "tonight"`},
		{r.topics.Cmd, `{"id":"i","cmd":"round","start":"","default_time":"-5m"}`, "i", "round", `refused: round: default_time: want a duration from "0s" to "24h", like "30m", got "-5m"`},
		{r.topics.Cmd, `{"id":"j","cmd":"players","white":42}`, "j", "players", `refused: players: white: want a string, got 42`},
		{r.topics.Cmd, `{"id":"k","cmd":"players","white":"a\u0007b"}`, "k", "players", `refused: players: white: control characters in "a\ab"`},
		{r.topics.Cmd, `{"id":"l","cmd":"players"}`, "l", "players", `refused: players: give white, black or both`},
		{r.topics.Cmd, `{"id":"m","cmd":"takeover","board":12}`, "m", "takeover", `refused: takeover: board 12 cannot take over its own game`},
		{r.topics.Cmd, `{"id":"n","cmd":"takeover","board":1.5}`, "n", "takeover", `refused: takeover: board: want a whole number from 1 to 9999, got 1.5`},
		{all, `{"id":"o","cmd":"players","white":"A"}`, "o", "players", `refused: players is for one board: send it to zeitnot/v1/{hall}/board/{board}/cmd`},
		{all, `{"id":"p","cmd":"takeover","board":3}`, "p", "takeover", `refused: takeover is for one board: send it to zeitnot/v1/{hall}/board/{board}/cmd`},
		{r.topics.Cmd, huge, "", "", "refused: command of 5028 bytes, at most 1024"},
		{r.topics.Cmd, "{\"cmd\":\"pause\",\"id\":\"\xff\"}", "", "", "refused: command is not UTF-8 text"},
		{r.topics.Cmd, `{"id":"` + strings.Repeat("i", 65) + `","cmd":"pause"}`, "", "", "refused: id: longer than 64 bytes"},
	}
	for _, tt := range tests {
		rep, _ := r.send(tt.topic, tt.payload, nil)
		if rep.OK || rep.ID != tt.id || rep.Cmd != tt.cmd || rep.Error != tt.err || rep.Board != 12 {
			t.Errorf("%.60s:\n reply %+v\n want id %q cmd %q error %s", tt.payload, rep, tt.id, tt.cmd, tt.err)
		}
	}
	if reqs := r.clock.Requests(); len(reqs) > 0 {
		for _, q := range reqs {
			if !strings.HasPrefix(q, "log") {
				t.Errorf("the daemon got %s from a refused command", q)
			}
		}
	}
}

// manualClock is a clock that moves only when the test says.
// TestAsksForLinesHaveTheirOwnBudget: the hall's asks for log lines
// (resend: at a clock's connection, at each new game, at a gap) do not
// use up the arbiter's commands' budget: a round's start right after
// them is carried out, not refused as too many commands.
func TestAsksForLinesHaveTheirOwnBudget(t *testing.T) {
	r, _ := budgetRig(t)
	for i := range 8 {
		if err := r.hall.Publish(r.topics.Cmd, []byte(fmt.Sprintf(`{"id":"ask%d","cmd":"resend","game":%q,"from":%d}`, i, r.clock.Game(), i+1)), false, nil); err != nil {
			t.Fatal(err)
		}
	}
	// Five asks carried out, and one rate reply for the three past their
	// budget (the link's clock stands still): all in before the arbiter's
	// commands, whose replies send reads in order.
	r.hall.Wait(10*time.Second, "the asks' six replies", func(h *linktest.Hall) bool { return len(h.Messages(r.topics.Reply)) >= 6 })
	for _, name := range []string{"start", "pause", "resume"} {
		rep, _ := r.send(r.topics.Cmd, fmt.Sprintf(`{"id":"arbiter-%s","cmd":%q}`, name, name), nil)
		if strings.Contains(rep.Error, "too many commands") {
			t.Errorf("the arbiter's %s after the hall's asks for lines: %+v", name, rep)
		}
	}
}

// budgetRig is a link on the hall's broker whose command budget (5 at
// once, then 1 a second) runs on clk: the rate limit's clock stands still
// through a flood, however long the broker takes to deliver it.
func budgetRig(t *testing.T) (*rig, *wallclocktest.Clock) {
	r := newRig(t, linktest.BrokerOpts{})
	r.hall = linktest.NewHall(t, r.broker.URL(), linktest.HallOpts{})
	clk := wallclocktest.New(time.Date(2026, 3, 7, 18, 0, 0, 0, time.UTC))
	o := testOpts() // 5 at once, then 1 a second
	o.Clock = clk
	r.start(r.config(), o)
	r.online()
	return r, clk
}

func TestCommandFloodIsRateLimited(t *testing.T) {
	r, clk := budgetRig(t)
	for i := range 200 {
		if err := r.hall.Publish(r.topics.Cmd, []byte(fmt.Sprintf(`{"id":"%d","cmd":"players","white":"W%d"}`, i, i)), false, nil); err != nil {
			t.Fatal(err)
		}
	}
	// The link takes the commands one at a time, so once 195 are refused
	// the first five are done; their replies and the one rate reply follow.
	wait.Until(t, 20*time.Second, func() string {
		if n := r.link.Status().Refused; n < 195 {
			return fmt.Sprintf("the link has refused %d of 200 commands, want 195", n)
		}
		return ""
	})
	r.hall.Wait(10*time.Second, "the 5 replies and the rate reply", func(h *linktest.Hall) bool {
		return len(h.Messages(r.topics.Reply)) >= 6
	})
	var players int
	for _, q := range r.clock.Requests() {
		if strings.HasPrefix(q, "players") {
			players++
		}
	}
	if players != 5 {
		t.Errorf("the daemon got %d commands of 200, want 5", players)
	}
	var ok, limited int
	for _, rep := range replies(t, r.hall, r.topics.Reply) {
		switch {
		case rep.OK:
			ok++
		case strings.HasPrefix(rep.Error, "refused: too many commands, at most 5 at once and 1 a second"):
			limited++
		default:
			t.Errorf("reply %+v", rep)
		}
	}
	if ok != 5 || limited != 1 {
		t.Errorf("%d ok and %d rate replies, want 5 and 1 (one a second)", ok, limited)
	}
	if st := r.link.Status(); st.Refused != 195 {
		t.Errorf("status counts %d refused commands, want 195", st.Refused)
	}
	// A second later there is a token again: the link works once the
	// flood is over.
	clk.Advance(time.Second)
	rep, _ := r.send(r.topics.Cmd, `{"id":"after","cmd":"pause"}`, nil)
	if !rep.OK {
		t.Errorf("after the flood: %+v", rep)
	}
}
