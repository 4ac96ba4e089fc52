package screen

import (
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/drivers/display/sevenseg"
)

// everything is a game in which the left player has every status word.
func everything() View {
	v := View{Game: Game{
		Left: Player{Ms: 5345000, White: true, Running: true, ToMove: true, Flag: true, FirstFlag: true,
			Overstep: true, Delay: true, DelayMs: 3400, Overtime: true, OTLeft: 3,
			ShowMoves: true, Moves: 12, Periods: true, Period: 2},
		Right:       Player{Ms: 0, Flag: true},
		Paused:      true,
		Banner:      "RECOVERED",
		TenthsBelow: DefaultTenthsBelow,
	}}
	return v
}

// The one order of the status words, and their forms.
func TestStatusWords(t *testing.T) {
	v := everything()
	g := &v.Game
	var buf [numWordKinds]word
	var long, short, seg []string
	for _, w := range statusWords(buf[:0], allWords, &g.Left, &g.Right, g) {
		long, short, seg = append(long, w.long()), append(short, w.short()), append(seg, w.seg())
	}
	want := []string{"FLAG 1ST", "OVERSTEP", "RECOVERED", "PAUSED", "DELAY 4", "OVERTIME 3", "MOVES 12", "PERIOD 2"}
	if strings.Join(long, "|") != strings.Join(want, "|") {
		t.Errorf("long forms %q, want %q", long, want)
	}
	want = []string{"FLG1", "OS", "RECOVERED", "PAUSED", "D4", "OT3", "M12", "P2"}
	if strings.Join(short, "|") != strings.Join(want, "|") {
		t.Errorf("short forms %q, want %q", short, want)
	}
	want = []string{"F1", "oP", "", "PA", "d4", "o3", "12", "P2"}
	if strings.Join(seg, "|") != strings.Join(want, "|") {
		t.Errorf("segment forms %q, want %q", seg, want)
	}
	// The other side's flag, and the set picks words.
	got := statusWords(buf[:0], flagWords|gameWords, &g.Right, &g.Left, g)
	if len(got) != 3 || got[0].long() != "FLAG 2ND" || got[1].kind != wordBanner || got[2].kind != wordPaused {
		t.Errorf("right side, flags and game words: %+v", got)
	}
	g.Right.Flag = false
	if got := statusWords(buf[:0], flagWords, &g.Left, &g.Right, g); len(got) != 1 || got[0].long() != "FLAG" || got[0].form().segAlone != "FLAG" {
		t.Errorf("the only flag: %+v", got)
	}
	// Delay shows only to the side to move, rounded up to whole seconds.
	for _, tc := range []struct {
		ms   int64
		want string
	}{{3400, "DELAY 4"}, {3000, "DELAY 3"}, {1, "DELAY 1"}, {0, "DELAY 0"}, {-5, "DELAY 0"}, {1<<63 - 1, "DELAY 9223372036854776"}} {
		p := Player{Delay: true, ToMove: true, DelayMs: tc.ms}
		if got := statusWords(buf[:0], allWords, &p, &p, g); len(got) != 3 || got[2].long() != tc.want {
			t.Errorf("delay %d ms: %+v, want %s", tc.ms, got, tc.want)
		}
	}
	p := Player{Delay: true, DelayMs: 3000}
	if got := statusWords(buf[:0], sideWords, &p, &p, g); len(got) != 0 {
		t.Errorf("delay while not to move: %+v", got)
	}
}

// The text layouts write the words in the one order: what a wide LCD (one
// player, both players) and an 8-digit display show as the words leave one
// by one, the most important first. (The pixel panels' order is in the
// golden pictures.)
func TestStatusWordsOrder(t *testing.T) {
	order := []struct {
		drop    func(v *View)
		lcd     string // line 2 of a one-player 40x2 LCD
		lcdBoth string // the left side on a two-player 40x2 LCD
		seg     string // 8 digits
	}{
		{func(v *View) {}, "FLAG 1ST OVERSTEP RECOVERED PAUSED DELAY 4 OVERTIME 3 P2", "", "F1 1:29:05."},
		{func(v *View) { v.Game.Left.Flag, v.Game.Right.Flag = false, false }, "OVERSTEP RECOVERED PAUSED DELAY 4 OVERTIME 3 P2", "", "oP 1:29:05."},
		{func(v *View) { v.Game.Left.Overstep = false }, "RECOVERED PAUSED DELAY 4 OVERTIME 3 P2", "", "PA 1:29:05."},
		{func(v *View) { v.Game.Banner = "" }, "PAUSED DELAY 4 OVERTIME 3 P2", "", "PA 1:29:05."},
		{func(v *View) { v.Game.Paused = false }, "DELAY 4 OVERTIME 3 P2", "D4 OT3 M12 P2", "d4 1:29:05."},
		{func(v *View) { v.Game.Left.Delay = false }, "OVERTIME 3 P2", "OT3 M12 P2", "o3 1:29:05."},
		{func(v *View) { v.Game.Left.Overtime = false }, "P2", "M12 P2", "12 1:29:05."},
		{func(v *View) { v.Game.Left.ShowMoves = false }, "P2", "P2", "P2 1:29:05."},
	}
	v := everything()
	lcd := NewTextScreen(Characters, 60, 2, Left)
	both := NewTextScreen(Characters, 40, 2, Both)
	seg := NewTextScreen(Segments, 8, 1, Left)
	for i, o := range order {
		o.drop(&v)
		got := strings.Split(lcd.Render(&v), "\n")[1]
		if want := o.lcd + " " + strings.Repeat("=", 60-len(o.lcd)-1); got != want {
			t.Errorf("step %d, LCD: %q, want %q", i, got, want)
		}
		got = strings.Split(both.Render(&v), "\n")[1]
		if o.lcdBoth != "" && got[2:2+len(o.lcdBoth)] != o.lcdBoth {
			t.Errorf("step %d, LCD with both: %q, want %q on the left", i, got, o.lcdBoth)
		}
		if got := seg.Render(&v); got != o.seg {
			t.Errorf("step %d, 8 digits: %q, want %q", i, got, o.seg)
		}
	}
}

// The segment forms read on seven segments: no letter is left blank, and
// each fits before a time on 8 digits.
func TestSegmentForms(t *testing.T) {
	for k, f := range wordForms {
		for _, s := range []string{f.seg, f.segAlone} {
			for _, r := range s {
				if r != ' ' && sevenseg.Glyph(r) == 0 {
					t.Errorf("word %d: %q has %q, blank on 7 segments", k, s, r)
				}
			}
		}
		if len(f.seg) > 2 || len(f.segAlone) > 4 {
			t.Errorf("word %d: segment forms %q, %q too long", k, f.seg, f.segAlone)
		}
		if wordKind(k) != wordBanner && f.long == "" {
			t.Errorf("word %d has no long form", k)
		}
		if len(f.short) > len(f.long) {
			t.Errorf("word %d: short form %q longer than %q", k, f.short, f.long)
		}
	}
}
