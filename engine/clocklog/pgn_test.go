package clocklog_test

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/engine/clocklog"
)

// The example log as PGN: the moves' numbers and clock comments, the
// control, and where each clock stood at the end
// (White's with the two minutes the arbiter added).
func ExampleWritePGN() {
	f, _ := os.Open("testdata/example.log")
	defer f.Close()
	l, err := clocklog.Parse("example.log", f)
	if err != nil {
		panic(err)
	}
	clocklog.WritePGN(l, os.Stdout, clocklog.PGNTags{Site: "Vienna", Date: "2026.03.14"})
	// Output:
	// [Event "?"]
	// [Site "Vienna"]
	// [Date "2026.03.14"]
	// [Round "?"]
	// [White "?"]
	// [Black "?"]
	// [Result "*"]
	// [TimeControl "40/5400+30:1800+30"]
	// [WhiteClock "1:32:13.4"]
	// [BlackClock "1:29:24.9"]
	//
	// 1. {[%clk 1:30:47.6] [%emt 0:00:12.4]} 1... {[%clk 1:30:41.4] [%emt 0:00:18.6]}
	// 2. {[%clk 1:30:13.4] [%emt 0:01:04.2]} 2... {[%clk 1:29:24.9] [%emt 0:01:46.5]}
	// *
}

// TestPGNMovesAreReplayClk: the movetext's comments, read back token by
// token, are exactly the lines WriteClk writes (what `zeitnot replay --clk`
// prints), across line breaks; a flag is named; tags are escaped.
func TestPGNMovesAreReplayClk(t *testing.T) {
	var b strings.Builder
	b.WriteString("format 1\ncontrol 60+1\n0 start\n")
	at := int64(0)
	for i := 0; i < 30; i++ {
		at += 900
		side := "white"
		if i%2 == 1 {
			side = "black"
		}
		b.WriteString(strings.Join([]string{itoa(at), "press", side}, " ") + "\n")
	}
	b.WriteString("200000 show\n") // White's flag falls
	l, err := clocklog.Parse("g.log", strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	var clk, pgn bytes.Buffer
	if err := clocklog.WriteClk(l, &clk); err != nil {
		t.Fatal(err)
	}
	if err := clocklog.WritePGN(l, &pgn, clocklog.PGNTags{Event: `Club "Open" \ 1`, Extra: [][2]string{{"Board", "7"}}}); err != nil {
		t.Fatal(err)
	}
	head, movetext, ok := strings.Cut(pgn.String(), "\n\n")
	if !ok {
		t.Fatalf("no blank line after the tags:\n%s", pgn.String())
	}
	if !strings.Contains(head, `[Event "Club \"Open\" \\ 1"]`) || !strings.Contains(head, `[Board "7"]`) {
		t.Errorf("tags:\n%s", head)
	}
	for _, ln := range strings.Split(movetext, "\n") {
		if len(ln) > 79 {
			t.Errorf("movetext line of %d characters: %q", len(ln), ln)
		}
	}
	got := pgnClk(movetext)
	if got != clk.String() {
		t.Errorf("movetext read back:\n%s\nwant (WriteClk):\n%s", got, clk.String())
	}
	if !strings.Contains(movetext, "{White's flag fell first} *") {
		t.Errorf("no flag comment or result:\n%s", movetext)
	}
	if strings.Contains(head, "WhiteClock \"0:00:00\"") == false {
		t.Errorf("White's flag fell: WhiteClock should be 0:00:00:\n%s", head)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// pgnClk reads PGN movetext back into WriteClk's lines: each move number
// ("12." or "12...") with the comment that follows it, one a line.
func pgnClk(movetext string) string {
	var b strings.Builder
	s := strings.Join(strings.Fields(movetext), " ")
	for s != "" {
		if s[0] == '{' {
			end := strings.IndexByte(s, '}')
			if end < 0 {
				break
			}
			s = strings.TrimSpace(s[end+1:])
			continue
		}
		tok, rest, _ := strings.Cut(s, " ")
		if strings.HasSuffix(tok, ".") && strings.HasPrefix(rest, "{") {
			end := strings.IndexByte(rest, '}')
			if end < 0 {
				break
			}
			b.WriteString(tok + " " + rest[:end+1] + "\n")
			s = strings.TrimSpace(rest[end+1:])
			continue
		}
		s = rest
	}
	return b.String()
}
