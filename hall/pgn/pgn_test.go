package pgn

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/engine/clocklog"
)

func exampleLines(t *testing.T) []string {
	data, err := os.ReadFile("../../engine/clocklog/testdata/example.log")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(data), "\n") {
		if i := strings.IndexByte(l, '#'); i >= 0 {
			l = l[:i]
		}
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// The comments are replay --clk's, move for move.
func TestSameAsReplayClk(t *testing.T) {
	lines := exampleLines(t)
	var b bytes.Buffer
	err := Write(&b, Game{Event: "Club \"open\"", Date: time.Date(2026, 3, 7, 0, 0, 0, 0, time.UTC), Board: 12, ID: "0017", White: "Carlsen, Magnus", Black: "Caruana, Fabiano", Lines: lines})
	if err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		`[Event "Club \"open\""]`, `[Date "2026.03.07"]`, `[White "Carlsen, Magnus"]`, `[Black "Caruana, Fabiano"]`,
		`[Result "*"]`, `[TimeControl "40/5400+30:1800+30"]`, `[WhiteClock "1:30:30"]`, `[BlackClock "1:30:30"]`, `[Board "12"]`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %s in\n%s", want, out)
		}
	}
	l, err := clocklog.Parse("example", strings.NewReader(strings.Join(lines, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	var clk bytes.Buffer
	if err := clocklog.WriteClk(l, &clk); err != nil {
		t.Fatal(err)
	}
	movetext := strings.Join(strings.Fields(out[strings.Index(out, "\n\n"):]), " ")
	want := strings.Join(strings.Fields(clk.String()), " ") + " *"
	if movetext != want {
		t.Errorf("movetext\n%s\nwant\n%s", movetext, want)
	}
}

func TestBrokenLog(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, Game{Board: 1, ID: "x", Lines: []string{"nonsense"}}); err == nil {
		t.Errorf("no error for a log without a control:\n%s", b.String())
	}
}

// TestTimeControlAsPlayed: after the arbiter's extra 5 s per move (FIDE
// Guidelines III.4, "increment both 5000") the TimeControl is the control
// as played, from the move it was given before; taken back, the game's own.
func TestTimeControlAsPlayed(t *testing.T) {
	game := []string{"control 300", "0 start", "100000 press white", "190000 press black",
		"200000 pause", "200000 increment both 5000", "200000 resume", "210000 press white"}
	for _, c := range []struct {
		lines []string
		want  string
	}{
		{game, `[TimeControl "300+5@2"]`},
		{append(game[:len(game):len(game)], "220000 pause", "220000 increment both 0"), `[TimeControl "300"]`},
	} {
		var b bytes.Buffer
		if err := Write(&b, Game{Board: 1, ID: "0001", Lines: c.lines}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), c.want) {
			t.Errorf("no %s in\n%s", c.want, b.String())
		}
	}
}
