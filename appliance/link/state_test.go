package link

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
)

// TestShownFollowsTheEngine: what a viewer runs on from a state message is
// what the clock itself shows that much later, in every mode, until the
// running side's time reaches 0.
func TestShownFollowsTheEngine(t *testing.T) {
	for _, spec := range []string{"300", "300+2", "300d5", "300b5", "*60", "^", "3600~5x30", "1800~20/300", "40/5400+30:1800+30", "300|240"} {
		t.Run(spec, func(t *testing.T) {
			pair, err := timecontrol.ParsePair(spec)
			if err != nil {
				t.Fatal(err)
			}
			c, err := clock.New(pair, clock.DefaultOptions)
			if err != nil {
				t.Fatal(err)
			}
			c.Start(0)
			c.Press(7300, clock.White) // Black runs now, a delay fresh
			for _, at := range []int64{7300, 9000} {
				st := c.State(at)
				raw, _ := json.Marshal(clocklog.ToJSON(st))
				cs, err := ParseState(raw)
				if err != nil {
					t.Fatal(err)
				}
				for _, e := range []int64{0, 100, 2500, 4999, 5000, 5001, 12345, 59000} {
					want := c.State(at + e)
					if want.Player[clock.Black].Ms == 0 || want.Player[clock.Black].Period != st.Player[clock.Black].Period || want.Player[clock.Black].Overtime != st.Player[clock.Black].Overtime {
						break // the next message says what happens at 0
					}
					w, b := cs.Shown(time.Duration(e) * time.Millisecond)
					if w != want.Player[clock.White].Ms || b != want.Player[clock.Black].Ms {
						t.Errorf("state at %d, %d ms later: shown %d/%d, the clock %d/%d", at, e, w, b, want.Player[clock.White].Ms, want.Player[clock.Black].Ms)
					}
				}
			}
		})
	}
}

func TestShownStopsAtZero(t *testing.T) {
	cs := ClockState{Running: "white", White: Side{Ms: 1500, Mode: "fischer"}, Black: Side{Ms: 9000, Mode: "fischer"}}
	if w, b := cs.Shown(10 * time.Second); w != 0 || b != 9000 {
		t.Errorf("%d %d", w, b)
	}
	if d, ok := cs.untilZero(); !ok || d != 1500*time.Millisecond {
		t.Errorf("untilZero %s %v", d, ok)
	}
	cs.Running = "none"
	if w, b := cs.Shown(10 * time.Second); w != 1500 || b != 9000 {
		t.Errorf("paused: %d %d", w, b)
	}
	if _, ok := cs.untilZero(); ok {
		t.Error("untilZero while paused")
	}
}

func TestTakeoverArg(t *testing.T) {
	state := func(running string, started bool, extra string) []byte {
		return []byte(fmt.Sprintf(`{"hall":"club","board":7,"game":"g1","time":1767000000000,"state":{"running":%q,"started":%t,"to_move":"white","control":"300+2",`+
			`"white":{"ms":1000,"moves":3,"period":1,"overstep":true},"black":{"ms":2000,"moves":3,"period":2}%s}}`, running, started, extra))
	}
	on := &OnlineMsg{Online: true, Clock: true}
	off := &OnlineMsg{Online: false}
	tests := []struct {
		payload []byte
		online  *OnlineMsg
		want    string
	}{
		{state("none", true, ""), on, `{"board":7,"game":"g1","control":"300+2","to_move":"white","white":{"ms":1000,"moves":3,"period":1,"overstep":true},"black":{"ms":2000,"moves":3,"period":2},"at":1767000000000}`},
		{state("white", true, `,"options":{"after-flag":"continue"}`), off, `{"board":7,"game":"g1","control":"300+2","options":{"after-flag":"continue"},"to_move":"white","white":{"ms":1000,"moves":3,"period":1,"overstep":true},"black":{"ms":2000,"moves":3,"period":2},"at":1767000000000}`},
		{state("white", true, ""), nil, `{"board":7,"game":"g1","control":"300+2","to_move":"white","white":{"ms":1000,"moves":3,"period":1,"overstep":true},"black":{"ms":2000,"moves":3,"period":2},"at":1767000000000}`},
		{state("white", true, ""), on, "error: board 7's clock is running and online: pause it first"},
		{state("none", false, ""), off, "error: board 7's game has not started: nothing to take over"},
		{state("none", true, `,"options":{"after-flag":"melt"}`), off, `error: board 7's option after-flag: want freeze or continue, got "melt"`},
		{[]byte(strings.Replace(string(state("none", true, "")), `"control":"300+2"`, `"control":"5 min"`, 1)), off, `error: board 7's control "5 min": white: timecontrol: "5 min": column 2: unexpected ' ', want '+' (increment), 'd' (delay), 'b' (Bronstein), '~' (overtime), ':' or the end`},
		{[]byte(strings.Replace(string(state("none", true, "")), `"period":2`, `"period":0`, 1)), off, "error: board 7's black clock: ms 2000, moves 3, period 0 out of range"},
		{[]byte(strings.Replace(string(state("none", true, "")), `"board":7`, `"board":8`, 1)), off, `error: the state on board 7's topic is of hall "club" board 8`},
		{[]byte(`{"hall":"club","board":7,"state":{"running":"sideways"}}`), off, `error: board 7's state: running "sideways", want white, black or none`},
		{[]byte(`not json`), off, "error: board 7's state message cannot be read: invalid character 'o' in literal null (expecting 'u')"},
	}
	for _, tt := range tests {
		got, err := takeoverArg("club", 7, tt.payload, tt.online)
		if err != nil {
			got = "error: " + err.Error()
		}
		if got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.payload, got, tt.want)
		}
	}
}
