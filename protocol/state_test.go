package protocol

import (
	"encoding/json"
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
				cs, err := ParseStatus(raw)
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
	cs := Status{StateJSON: clocklog.StateJSON{Running: "white", White: Side{SideClock: clocklog.SideClock{Ms: 1500}, Mode: "fischer"}, Black: Side{SideClock: clocklog.SideClock{Ms: 9000}, Mode: "fischer"}}}
	if w, b := cs.Shown(10 * time.Second); w != 0 || b != 9000 {
		t.Errorf("%d %d", w, b)
	}
	if d, ok := cs.UntilZero(); !ok || d != 1500*time.Millisecond {
		t.Errorf("UntilZero %s %v", d, ok)
	}
	cs.Running = "none"
	if w, b := cs.Shown(10 * time.Second); w != 1500 || b != 9000 {
		t.Errorf("paused: %d %d", w, b)
	}
	if _, ok := cs.UntilZero(); ok {
		t.Error("UntilZero while paused")
	}
}

// TestParseStatusRefuses: a state a viewer cannot show is refused with
// what is wrong (a state without white, taken in, froze the pages).
func TestParseStatusRefuses(t *testing.T) {
	good := `{"at":0,"running":"none","paused":false,"first_flag":"none","white":{"ms":1,"moves":0,"period":1,"mode":"fischer"},"black":{"ms":1,"moves":0,"period":1,"mode":"fischer"},"to_move":"white","started":false,"stopped":false}`
	if _, err := ParseStatus([]byte(good)); err != nil {
		t.Fatalf("good: %v", err)
	}
	const startFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	board := func(b string) string {
		return strings.Replace(good, `"stopped":false`, `"stopped":false,"board":`+b, 1)
	}
	for _, b := range []string{
		`{"state":"ok","fen":"` + startFEN + `","ply":0}`,
		`{"state":"lost","fen":"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1","ply":1,"san":"e4","uci":"e2e4","missing_from":2}`,
	} {
		s, err := ParseStatus([]byte(board(b)))
		if err != nil || s.Board == nil {
			t.Errorf("board %s: %v", b, err)
		}
	}
	for _, c := range []struct{ raw, err string }{
		{`{"running":"none"}`, "state: no at"},
		{strings.Replace(good, `"white":{"ms":1,"moves":0,"period":1,"mode":"fischer"},`, "", 1), "state: no white"},
		{strings.Replace(good, `"white":{"ms":1,`, `"white":{`, 1), "state: white: no ms"},
		{strings.Replace(good, `"white":{"ms":1,"moves":0,"period":1,"mode":"fischer"}`, `"white":null`, 1), "state: white: want a JSON object"},
		{strings.Replace(good, `"white":{"ms":1,"moves":0,"period":1,"mode":"fischer"}`, `"white":"x"`, 1), "state: white: want a JSON object"},
		{strings.Replace(good, `"ms":1,`, `"ms":-5,`, 1), "state: white: ms -5, delay_ms 0, moves 0, period 1 out of range"},
		{strings.Replace(good, `"mode":"fischer"`, `"mode":"<b>"`, 1), `state: white: mode "<b>" is no mode`},
		{strings.Replace(good, `"running":"none"`, `"running":"up"`, 1), `state: running "up", want white, black or none`},
		{strings.Replace(good, `"at":0,`, `"at":0,"at":1,`, 1), `state: member "at" given twice`},
		{strings.Replace(good, `"at":0`, `"at":"0"`, 1), "state: cannot unmarshal"},
		{good + " {}", "state: more after the JSON object"},
		{`[]`, "state: want a JSON object"},
		{strings.Replace(good, `"stopped":false`, `"stopped":false,"result":"2-0","result_by":"players"`, 1), `state: result "2-0", want 1-0, 1/2-1/2 or 0-1`},
		{strings.Replace(good, `"stopped":false`, `"stopped":false,"result":"*","result_by":"arbiter"`, 1), `state: result "*"`},
		{strings.Replace(good, `"stopped":false`, `"stopped":false,"result":"1-0"`, 1), `state: result_by "", want players or arbiter`},
		{strings.Replace(good, `"stopped":false`, `"stopped":false,"result":"1-0","result_by":"white"`, 1), `state: result_by "white"`},
		{board(`{"state":"on","fen":"` + startFEN + `","ply":0}`), `state: board: state "on", want ok, illegal, mismatch or lost`},
		{board(`{"state":"ok","fen":"8/8/8 w - - 0 1","ply":0}`), "state: board: FEN placement"},
		{board(`{"state":"ok","fen":"` + startFEN + `","ply":-1}`), "state: board: ply -1, missing_from 0 out of range"},
		{board(`{"state":"ok","fen":"` + startFEN + `","ply":0,"san":"e4","uci":"e2e4"}`), "state: board: a move at ply 0"},
		{board(`{"state":"ok","fen":"` + startFEN + `","ply":1,"san":"<b>","uci":"e2e4"}`), `state: board: move "<b>" "e2e4" is not SAN and UCI`},
		{board(`{"state":"ok","fen":"` + startFEN + `","ply":1,"san":"e4","uci":"e2"}`), `state: board: move "e4" "e2" is not SAN and UCI`},
	} {
		_, err := ParseStatus([]byte(c.raw))
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%.60s: %v, want %q", c.raw, err, c.err)
		}
	}
}

// TestParseStatusResult: a state with the game's result reads.
func TestParseStatusResult(t *testing.T) {
	raw := `{"at":0,"running":"none","paused":true,"first_flag":"white","white":{"ms":0,"moves":1,"period":1,"mode":"fischer"},"black":{"ms":1,"moves":1,"period":1,"mode":"fischer"},"to_move":"white","started":true,"stopped":false,"result":"0-1","result_by":"players"}`
	st, err := ParseStatus([]byte(raw))
	if err != nil || st.Result != "0-1" || st.ResultBy != "players" {
		t.Fatalf("%+v %v", st, err)
	}
}

func FuzzParseStateMsg(f *testing.F) {
	f.Add([]byte(`{"hall":"h","board":1,"time":1,"state":{"at":0,"running":"none","paused":false,"first_flag":"none","white":{"ms":1,"moves":0,"period":1,"mode":"fischer"},"black":{"ms":1,"moves":0,"period":1,"mode":"fischer"},"to_move":"white","started":false,"stopped":false}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := ParseStateMsg(b)
		if err != nil {
			return
		}
		if m.State.Running != "white" && m.State.Running != "black" && m.State.Running != "none" {
			t.Fatalf("accepted running %q", m.State.Running)
		}
		again, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ParseStateMsg(again); err != nil {
			t.Fatalf("what it took does not read back: %v", err)
		}
	})
}
