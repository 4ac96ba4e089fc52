package clocklog

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/engine/clock"
)

// TestIncrementVerb reads, writes and applies "MS increment
// white|black|both MS" (FIDE Guidelines III.4), a correction like set and
// add: valid while paused or before the start.
func TestIncrementVerb(t *testing.T) {
	log := `control 300
0 start
100000 press white
190000 press black
290000 press white
300000 press black
305000 increment both 5000
310000 pause
320000 increment both 5000
330000 resume
332000 press white
333000 press black
333000 show
334000 pause
334000 increment white 0
334000 resume
335000 press white
335000 show
`
	l, err := Parse("game.log", strings.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	if e := l.Events[7]; e.Verb != SetIncrement || e.Side != clock.NoSide || e.Value != 5000 || e.String() != "320000 increment both 5000" {
		t.Errorf("event %+v reads as %q", e, e.String())
	}
	if e := l.Events[13]; e.Side != clock.White || e.String() != "334000 increment white 0" {
		t.Errorf("event %+v reads as %q", e, e.String())
	}
	var refused []string
	var got []string
	if _, err := Replay(l, Handlers{
		Show:    func(s clock.State) { got = append(got, compact(s)) },
		Refused: func(line int, e Event, err error) { refused = append(refused, e.String()+": "+err.Error()) },
	}); err != nil {
		t.Fatal(err)
	}
	// White: 90 s at the pause, 2 s for the move, +5 s; Black: 200 s, 1 s, +5 s.
	want := []string{"333000 white w=93000/3/1 b=204000/3/1", "335000 black w=91000/4/1 b=204000/3/1"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("shows:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(refused) != 1 || !strings.HasPrefix(refused[0], "305000 increment both 5000: clock: corrections need the clock paused") {
		t.Errorf("refused: %q, want the increment while running", refused)
	}

	// Written as the journal writes it, and read back.
	var b []byte
	b = AppendHeader(b, l.Header)
	for _, e := range l.Events {
		b = AppendEvent(b, e)
	}
	back, err := Parse("back.log", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if !sameEvents(l, back) {
		t.Errorf("round trip changed the events:\n%s", b)
	}
	if !bytes.Contains(b, []byte("\n320000 increment both 5000 *")) {
		t.Errorf("journal line:\n%s", b)
	}
}

// TestIncrementBothOrNeither: a side whose control takes no increment
// (delay) refuses it, and then neither side gets it.
func TestIncrementBothOrNeither(t *testing.T) {
	l, err := Parse("game.log", strings.NewReader("control white 300\ncontrol black 300d5\n0 increment both 5000\n0 increment white 5000\n0 start\n1000 press white\n1000 show\n"))
	if err != nil {
		t.Fatal(err)
	}
	var refused []string
	c, err := Replay(l, Handlers{Refused: func(line int, e Event, err error) { refused = append(refused, e.String()) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(refused) != 1 || refused[0] != "0 increment both 5000" {
		t.Errorf("refused %q", refused)
	}
	if st := c.State(1000); st.Player[clock.White].Ms != 304000 || st.Player[clock.Black].Mode.String() != "delay" {
		t.Errorf("state %s %+v", compact(st), st)
	}
}

func TestIncrementErrors(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{"0 increment purple 5000", `increment: want white, black or both, got "purple"`},
		{"0 increment both", `increment takes 2 argument(s), got 1`},
		{"0 increment both 5000 6000", `increment takes 2 argument(s), got 3`},
		{"0 increment both -1", `increment both: bad number "-1", want milliseconds from 0 to 3600000`},
		{"0 increment white +5000", `increment white: bad number "+5000"`},
		{"0 increment black 3600001", `increment black: bad number "3600001"`},
		{"0 increment none 5000", `increment: want white, black or both, got "none"`},
	} {
		_, err := Parse("game.log", strings.NewReader("control 300\n"+c.line+"\n"))
		if err == nil || !strings.Contains(err.Error(), "game.log:2: "+c.want) {
			t.Errorf("%q: %v, want %q", c.line, err, c.want)
		}
	}
}

// TestClkAfterFlag: with after-flag continue, %emt is the time the move
// took also across and after the flag: White's turn of 3.4 s, its flag
// fallen at 3 s, took 3.4 s, and its later moves their own time.
func TestClkAfterFlag(t *testing.T) {
	l, err := Parse("g", strings.NewReader("control white 3\ncontrol black 60\noption after-flag continue\n0 start\n3400 press white\n5000 press black\n7500 press white\n"))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteClk(l, &b); err != nil {
		t.Fatal(err)
	}
	want := "1. {[%clk 0:00:00] [%emt 0:00:03.4]}\n" +
		"1... {[%clk 0:00:58.4] [%emt 0:00:01.6]}\n" +
		"2. {[%clk 0:00:00] [%emt 0:00:02.5]}\n"
	if b.String() != want {
		t.Errorf("clk:\n%s\nwant\n%s", b.String(), want)
	}
}

// TestClkCountUp: a count-up clock has no time left; %egt, the elapsed
// game time, takes %clk's place.
func TestClkCountUp(t *testing.T) {
	l, err := Parse("g", strings.NewReader("control ^\n0 start\n5200 press white\n65000 press black\n70300 press white\n"))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteClk(l, &b); err != nil {
		t.Fatal(err)
	}
	want := "1. {[%egt 0:00:05.2] [%emt 0:00:05.2]}\n" +
		"1... {[%egt 0:00:59.8] [%emt 0:00:59.8]}\n" +
		"2. {[%egt 0:00:10.5] [%emt 0:00:05.3]}\n"
	if b.String() != want {
		t.Errorf("clk:\n%s\nwant\n%s", b.String(), want)
	}
}

// TestShowsFinalState: a log without a show, as the journal saves a game,
// prints the clock at its last instant, as a show there would.
func TestShowsFinalState(t *testing.T) {
	for _, c := range []struct{ log, want string }{
		{"control 300+2\n0 start\n4000 press white\n9000 checkpoint black\n", `{"at":9000,"running":"black","paused":false,"first_flag":"none","white":{"ms":300000,"moves":1,`},
		{"control 300+2\n", `{"at":0,"running":"none","paused":false,"first_flag":"none","white":{"ms":302000,"moves":0,`},
	} {
		l, err := Parse("g", strings.NewReader(c.log))
		if err != nil {
			t.Fatal(err)
		}
		var withShow bytes.Buffer
		ls, _ := Parse("g", strings.NewReader(c.log+"9000 show\n"))
		if err := WriteShows(ls, &withShow, nil, "g"); err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := WriteShows(l, &b, nil, "g"); err != nil {
			t.Fatal(err)
		}
		if strings.Count(b.String(), "\n") != 1 || !strings.HasPrefix(b.String(), c.want) {
			t.Errorf("%q:\n%s\nwant one line starting %s", c.log, b.String(), c.want)
		}
		if c.log != "control 300+2\n" && b.String() != withShow.String() {
			t.Errorf("%q: %s, but a show at the last instant prints %s", c.log, b.String(), withShow.String())
		}
	}
	// With a show, only the shows.
	l, _ := Parse("g", strings.NewReader("control 300\n0 start\n1000 show\n2000 press white\n"))
	var b bytes.Buffer
	WriteShows(l, &b, nil, "g")
	if strings.Count(b.String(), "\n") != 1 || !strings.HasPrefix(b.String(), `{"at":1000,`) {
		t.Errorf("with a show: %s", b.String())
	}
}

// TestReplayOverstepWithoutShows replays testdata/overstep-across-periods.log:
// Black's third period (quota 6) runs out at 34247 ms with 5 moves made,
// while nobody looks at the clock. The replay must mark the overstep
// whether or not show lines sit in between: a look at the clock is not an
// input.
func TestReplayOverstepWithoutShows(t *testing.T) {
	game, err := os.ReadFile("testdata/overstep-across-periods.log")
	if err != nil {
		t.Fatal(err)
	}
	for _, shows := range []string{"", "34000 show\n34300 show\n", "28247 show\n31247 show\n34247 show\n"} {
		text := strings.Replace(string(game), "35613 press black", shows+"35613 press black", 1)
		l, err := Parse("overstep-across-periods.log", strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		var last clock.State
		if _, err := Replay(l, Handlers{Show: func(s clock.State) { last = s }}); err != nil {
			t.Fatal(err)
		}
		if b := last.Player[clock.Black]; b.Ms != 1634 || b.Moves != 6 || b.Period != 4 || !b.Overstep {
			t.Errorf("with shows %q: black at 35614 %+v, want 1634 ms, 6 moves, period 4, overstep", shows, b)
		}
	}
}

// TestIncrementFollowed: after "increment both 5000" (FIDE Guidelines
// III.4) the state JSON names the arbiter's increment, the PGN's
// TimeControl is the control as played, and "increment both 0" takes it
// back: the JSON leaves the field out again, as before the increment.
func TestIncrementFollowed(t *testing.T) {
	const game = `control 300
0 start
100000 press white
190000 press black
200000 pause
200000 increment both 5000
200000 resume
210000 press white
210000 show
220000 pause
220000 increment both 0
220000 resume
220000 show
`
	l, err := Parse("iii4.log", strings.NewReader(game))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := WriteShows(l, &out, nil, "iii4.log"); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"moves":2,"period":1,"flag":false,"overstep":false,"mode":"fischer","delay_ms":0,"overtime":false,"overtime_left":0,"quota_left":0,"increment_ms":5000}`) ||
		strings.Contains(lines[1], "increment_ms") {
		t.Errorf("shows:\n%s", out.String())
	}
	l.Events = l.Events[:8] // up to the first show: the increment in effect
	var pgn bytes.Buffer
	if err := WritePGN(l, &pgn, PGNGame{}); err != nil {
		t.Fatal(err)
	}
	// The standard's TimeControl cannot say it: "?", and the increment in
	// zeitnot's own tag (docs/pgn.md).
	if !strings.Contains(pgn.String(), `[TimeControl "?"]`) || !strings.Contains(pgn.String(), `[ZeitnotIncrement "white+5@2 black+5@2"]`) {
		t.Errorf("PGN:\n%s", pgn.String())
	}
}
