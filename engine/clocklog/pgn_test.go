package clocklog_test

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/engine/clocklog"
)

// The example log as PGN: no moves are known, so the clock record is one
// comment; the control, and where each clock stood at the end (White's
// with the two minutes the arbiter added).
func ExampleWritePGN() {
	f, _ := os.Open("testdata/example.log")
	defer f.Close()
	l, err := clocklog.Parse("example.log", f)
	if err != nil {
		panic(err)
	}
	clocklog.WritePGN(l, os.Stdout, clocklog.PGNGame{Site: "Vienna", Date: "2026.03.14"})
	// Output:
	// [Event "?"]
	// [Site "Vienna"]
	// [Date "2026.03.14"]
	// [Round "?"]
	// [White "?"]
	// [Black "?"]
	// [Result "*"]
	// [TimeControl "40/5400+30:1800+30"]
	// [ZeitnotControl "40/5400+30:1800+30"]
	// [WhiteClock "1:32:13.4"]
	// [BlackClock "1:29:24.9"]
	//
	// {clock record, moves not known: 1. clk 1:30:47.6 emt 0:00:12.4;
	// 1... clk 1:30:41.4 emt 0:00:18.6; 2. clk 1:30:13.4 emt 0:01:04.2;
	// 2... clk 1:29:24.9 emt 0:01:46.5} *
}

// The same log with the moves a board saw: each move gets one comment.
func ExampleWritePGN_moves() {
	f, _ := os.Open("testdata/example.log")
	defer f.Close()
	l, err := clocklog.Parse("example.log", f)
	if err != nil {
		panic(err)
	}
	clocklog.WritePGN(l, os.Stdout, clocklog.PGNGame{White: "Carlsen, Magnus", Black: "Caruana, Fabiano", Moves: []string{"e4", "e5", "Nf3"}})
	// Output:
	// [Event "?"]
	// [Site "?"]
	// [Date "????.??.??"]
	// [Round "?"]
	// [White "Carlsen, Magnus"]
	// [Black "Caruana, Fabiano"]
	// [Result "*"]
	// [TimeControl "40/5400+30:1800+30"]
	// [ZeitnotControl "40/5400+30:1800+30"]
	// [WhiteClock "1:32:13.4"]
	// [BlackClock "1:29:24.9"]
	//
	// 1. e4 {[%clk 1:30:47.6] [%emt 0:00:12.4]} 1... e5 {[%clk 1:30:41.4]
	// [%emt 0:00:18.6]} 2. Nf3 {[%clk 1:30:13.4] [%emt 0:01:04.2]
	// clock record, moves not known: 2... clk 1:29:24.9 emt 0:01:46.5} *
}

// gameLog is a log of n moves of 900 ms each, then more lines.
func gameLog(t *testing.T, head string, n int, tail string) *clocklog.Log {
	t.Helper()
	var b strings.Builder
	b.WriteString(head + "0 start\n")
	at := int64(0)
	for i := 0; i < n; i++ {
		at += 900
		side := "white"
		if i%2 == 1 {
			side = "black"
		}
		b.WriteString(strconv.FormatInt(at, 10) + " press " + side + "\n")
	}
	b.WriteString(tail)
	l, err := clocklog.Parse("g.log", strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestPGNRecordIsReplayClk: the clock record comment, read back entry by
// entry, is exactly what WriteClk writes (what `zeitnot replay --clk`
// prints), across line breaks; the flag is named in it, not in a second
// comment; tags are escaped; no line is longer than 79.
func TestPGNRecordIsReplayClk(t *testing.T) {
	l := gameLog(t, "format 1\ncontrol 60+1\n", 30, "200000 show\n") // White's flag falls
	var clk, pgn bytes.Buffer
	if err := clocklog.WriteClk(l, &clk); err != nil {
		t.Fatal(err)
	}
	if err := clocklog.WritePGN(l, &pgn, clocklog.PGNGame{Event: `Club "Open" \ 1`, Extra: [][2]string{{"Board", "7"}}}); err != nil {
		t.Fatal(err)
	}
	head, movetext, ok := strings.Cut(pgn.String(), "\n\n")
	if !ok {
		t.Fatalf("no blank line after the tags:\n%s", pgn.String())
	}
	for _, want := range []string{`[Event "Club 'Open' / 1"]`, `[Board "7"]`, `[WhiteClock "0:00:00"]`, `[TimeControl "60+1"]`, `[Result "*"]`} {
		if !strings.Contains(head, want) {
			t.Errorf("no %s in the tags:\n%s", want, head)
		}
	}
	for _, ln := range strings.Split(movetext, "\n") {
		if len(ln) > 79 {
			t.Errorf("movetext line of %d characters: %q", len(ln), ln)
		}
	}
	if n := strings.Count(movetext, "{"); n != 1 {
		t.Errorf("%d comments, want the one clock record:\n%s", n, movetext)
	}
	rec, note := recordClk(t, movetext)
	if !strings.Contains(movetext, "emt 0:00:00.9; White's flag fell first} *") {
		t.Errorf("the flag is not at the end of the record:\n%s", movetext)
	}
	if rec != clk.String() {
		t.Errorf("clock record read back:\n%s\nwant (WriteClk):\n%s", rec, clk.String())
	}
	if note != "White's flag fell first" {
		t.Errorf("note %q, want White's flag", note)
	}
	if !strings.HasSuffix(movetext, "} *\n\n") {
		t.Errorf("movetext does not end in the record and *:\n%q", movetext)
	}
}

// recordClk reads the clock record comment back into WriteClk's lines,
// and the note after its last entry.
func recordClk(t *testing.T, movetext string) (string, string) {
	t.Helper()
	s := strings.Join(strings.Fields(movetext), " ")
	i := strings.Index(s, clocklog.RecordPrefix)
	if i < 0 {
		t.Fatalf("no clock record in %q", s)
	}
	body := s[i+len(clocklog.RecordPrefix) : strings.IndexByte(s[i:], '}')+i]
	var b strings.Builder
	note := ""
	for _, e := range strings.Split(body, ";") {
		f := strings.Fields(e)
		if len(f) == 5 && f[3] == "emt" {
			b.WriteString(f[0] + " {[%" + f[1] + " " + f[2] + "] [%emt " + f[4] + "]}\n")
		} else {
			note = strings.TrimSpace(e)
		}
	}
	return b.String(), note
}

// Known moves carry their clocks in one comment each; a flag goes into
// the last one; count-up is [%egt] and has no WhiteClock; a result is
// written where it is known; the tags follow the control.
func TestPGNForms(t *testing.T) {
	for _, tt := range []struct {
		name       string
		head, tail string
		moves      int
		g          clocklog.PGNGame
		want, not  []string
	}{
		{
			name: "moves and flag", head: "control 60\n", moves: 4, tail: "70000 show\n",
			g:    clocklog.PGNGame{Moves: []string{"e4", "e5", "Qh5", "Nc6"}},
			want: []string{"1. e4 {[%clk 0:00:59.1] [%emt 0:00:00.9]}", "2... Nc6 {[%clk 0:00:58.2] [%emt 0:00:00.9] White's flag fell first} *", `[TimeControl "60"]`},
			not:  []string{"} {", "clock record"},
		},
		{
			name: "moves not all known", head: "control 60\n", moves: 3, tail: "70000 show\n",
			g:    clocklog.PGNGame{Moves: []string{"e4", ""}},
			want: []string{"1. e4 {[%clk 0:00:59.1] [%emt 0:00:00.9] clock record, moves not known: 1... clk 0:00:59.1 emt 0:00:00.9; 2. clk 0:00:58.2 emt 0:00:00.9; Black's flag fell first} *"},
			not:  []string{"} {", "1... e5"},
		},
		{
			name: "result", head: "control 60\n", moves: 2,
			g:    clocklog.PGNGame{Result: "1/2-1/2"},
			want: []string{`[Result "1/2-1/2"]`, "0:00:00.9} 1/2-1/2"},
		},
		{
			name: "count-up", head: "control ^\n", moves: 2,
			g:    clocklog.PGNGame{Moves: []string{"d4"}},
			want: []string{"1. d4 {[%egt 0:00:00.9] [%emt 0:00:00.9] clock record", "1... egt 0:00:00.9 emt", `[TimeControl "-"]`, `[ZeitnotControl "^"]`},
			not:  []string{"%clk", "WhiteClock", "BlackClock", " clk "},
		},
		{
			name: "armageddon", head: "control white 300+2@61\ncontrol black 240+2@61\n", moves: 1,
			want: []string{`[TimeControl "?"]`, `[ZeitnotControl "300+2@61|240+2@61"]`},
			not:  []string{"WhiteTimeControl"},
		},
		{
			name: "delay", head: "control 5400d5\n",
			want: []string{`[TimeControl "?"]`, `[ZeitnotControl "5400d5"]`, "\"] *"},
		},
		{
			name: "arbiter's increment", head: "control 300\n", moves: 3,
			tail: "3000 pause\n3000 increment both 5000\n3500 resume\n4000 press black\n",
			want: []string{`[TimeControl "?"]`, `[ZeitnotControl "300+5@3|300+5@2"]`, `[ZeitnotIncrement "white+5@3 black+5@2"]`},
		},
		{
			name: "refused increment", head: "control 300\n", moves: 1, tail: "1000 increment white 5000\n",
			want: []string{`[TimeControl "300"]`},
			not:  []string{"ZeitnotIncrement"},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l := gameLog(t, tt.head, tt.moves, tt.tail)
			var b bytes.Buffer
			if err := clocklog.WritePGN(l, &b, tt.g); err != nil {
				t.Fatal(err)
			}
			flat := strings.Join(strings.Fields(b.String()), " ") // line breaks are spaces
			for _, w := range tt.want {
				if !strings.Contains(flat, w) {
					t.Errorf("no %q in\n%s", w, b.String())
				}
			}
			for _, w := range tt.not {
				if strings.Contains(b.String(), w) {
					t.Errorf("%q in\n%s", w, b.String())
				}
			}
		})
	}
}

func TestPGNRefuses(t *testing.T) {
	l := gameLog(t, "control 60\n", 2, "")
	for _, g := range []clocklog.PGNGame{
		{Result: "1-1"},
		{Moves: []string{"e4 {x}"}},
		{Extra: [][2]string{{"Bad Tag", "x"}}},
	} {
		if err := clocklog.WritePGN(l, new(bytes.Buffer), g); err == nil {
			t.Errorf("%+v: no error", g)
		}
	}
}
