package clocklog

import (
	"bytes"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/engine/clock"
	"github.com/zeitnot/zeitnot/engine/timecontrol"
)

// The cases of a fault review of the journal, each once with the damage
// and once without: salvage must give back the same game (times within the
// second between journal lines), and say that it dropped something.

const reviewGame = `format 1
control 300
option first-increment on
option period-trigger flag
option after-flag freeze
42 start
1042 checkpoint
2042 checkpoint
3000 press white
4000 checkpoint
5000 checkpoint
6000 checkpoint
6858 press black
7858 checkpoint
8858 checkpoint
9000 press white
`

func salvageState(t *testing.T, log string, at int64) (clock.State, []error) {
	t.Helper()
	l, errs := Salvage("game.log", strings.NewReader(log))
	if l == nil {
		t.Fatalf("nothing salvaged from\n%s%v", log, errs)
	}
	c, err := Replay(l, Handlers{})
	if err != nil {
		t.Fatal(err)
	}
	return c.State(at), errs
}

func TestReviewHeaderDamage(t *testing.T) {
	want, errs := salvageState(t, reviewGame, 10000)
	if len(errs) != 0 || !want.Started || want.Player[clock.White].Moves != 2 {
		t.Fatalf("undamaged game: %+v %v", want, errs)
	}
	for _, damage := range []struct{ from, to string }{
		{"option period-trigger", "option period-trigeer"},
		{"42 start", "t2 start"},
		{"control 300\n", "control 300\n9999999999 press white\n"},
		{"control 300\n", "control 300\n999999 press white\n"},
		{"option after-flag freeze\n", "option after-flag freeze\n4503599627370496 checkpoint\n"},
	} {
		log := strings.Replace(reviewGame, damage.from, damage.to, 1)
		got, errs := salvageState(t, log, 10000)
		if len(errs) == 0 {
			t.Errorf("%q: damage not reported", damage.to)
		}
		if !near(got, want, 1000) {
			t.Errorf("%q: game not recovered:\n got %+v\nwant %+v\n%v", damage.to, got, want, errs)
		}
	}
}

// TestReviewSilentFlip: in format 1, 6858 read as 7858 charged Black a
// second unnoticed. The log as written now finds it.
func TestReviewSilentFlip(t *testing.T) {
	pair, _ := timecontrol.ParsePair("300")
	b := AppendHeader(nil, Header{Controls: pair, Options: clock.DefaultOptions})
	b = AppendEvent(b, Event{At: 0, Verb: Start, Side: clock.NoSide})
	b = AppendEvent(b, Event{At: 3000, Verb: Press, Side: clock.White})
	b = AppendEvent(b, Event{At: 6858, Verb: Press, Side: clock.Black})
	bad := bytes.Replace(b, []byte("6858"), []byte("7858"), 1)
	if _, err := Parse("game.log", bytes.NewReader(bad)); err == nil {
		t.Error("a flipped digit in an instant is read without an error")
	}
	got, errs := salvageState(t, string(bad), 8000)
	if len(errs) == 0 {
		t.Error("salvage says nothing of the flipped digit")
	}
	if ms := got.Player[clock.Black].Ms; ms != 300000-3858 {
		t.Errorf("black has %d ms, want %d", ms, 300000-3858)
	}
}

// TestReviewFarInstant: an instant of aeons was valid, flagged the running
// side, and took minutes to replay on a repeating period.
func TestReviewFarInstant(t *testing.T) {
	for _, log := range []string{
		"control 40/60\n0 start\n4503599627370496 show\n",
		"control 40/7200:20/3600\n0 start\n4503599627370496 checkpoint\n",
	} {
		_, err := Parse("game.log", strings.NewReader(log))
		if err == nil || !strings.Contains(err.Error(), `game.log:3: instant "4503599627370496": want milliseconds, a whole number from 0 to 2592000000 (30 days)`) {
			t.Errorf("%q: %v", log, err)
		}
	}
	// The bound itself is a valid instant, settled at once.
	l, err := Parse("game.log", strings.NewReader("control 40/60\n0 start\n2592000000 show\n"))
	if err != nil {
		t.Fatal(err)
	}
	var st clock.State
	Replay(l, Handlers{Show: func(s clock.State) { st = s }})
	if w := st.Player[clock.White]; w.Period != 43201 || !w.Overstep || w.Flag {
		t.Errorf("30 days on: %+v", w)
	}
}
