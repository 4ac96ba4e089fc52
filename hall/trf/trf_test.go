package trf

import (
	"bytes"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
)

func load(t *testing.T, name string) (*Tournament, []byte) {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	tt, err := Parse(name, data)
	if err != nil {
		t.Fatal(err)
	}
	return tt, data
}

// TestReadBothFormats: the same tournament written as TRF-16 (with
// JaVaFo's XXR) and as TRF-2026 (with 142, 222, comments and a 240 bye)
// reads as the same players, rounds and pairings.
func TestReadBothFormats(t *testing.T) {
	for _, name := range []string{"open16.trf", "open26.trf"} {
		t.Run(name, func(t *testing.T) {
			tt, _ := load(t, name)
			if tt.Name != "Zeitnot Open 2026" || tt.Rounds != 5 || len(tt.Players()) != 8 {
				t.Fatalf("name %q rounds %d players %d", tt.Name, tt.Rounds, len(tt.Players()))
			}
			p, _ := tt.Player(1)
			if p.Name != "Meier, Jürgen" || p.Title != "GM" || p.Rating != 2512 || p.Fed != "GER" || p.FideID != "4600001" || p.Points != 5 || p.Rank != 1 {
				t.Errorf("player 1: %+v", p)
			}
			if p, _ := tt.Player(3); p.Name != "Nguyễn, Văn An" || p.Rating != 2301 || p.FideID != "12400033" {
				t.Errorf("player 3 (columns after a name with diacritics): %+v", p)
			}
			if p, _ := tt.Player(6); p.FideID != "" || p.Rating != 1875 {
				t.Errorf("player 6, no FIDE id: %+v", p)
			}
			if p, _ := tt.Player(7); p.Rating != 0 || p.Game(3).Result != 'Z' {
				t.Errorf("player 7, unrated, zero-point bye in round 3: %+v", p)
			}
			boards, byes := tt.Round(3)
			// Forfeit 4-6 included; byes: 7 Z, 8 F.
			want := []Board{{1, 2}, {5, 3}, {4, 6}}
			if !reflect.DeepEqual(boards, want) {
				t.Errorf("round 3 boards %v, want %v", boards, want)
			}
			if !reflect.DeepEqual(byes, []Bye{{7, 'Z'}, {8, 'F'}}) {
				t.Errorf("round 3 byes %v", byes)
			}
			boards, byes = tt.Round(4)
			// Before round 4: 1 and 3 have 2.5; 2, 4 and 8 have 2.0; 6 has 1.0,
			// 5 0.5 and 7 nothing. 1-4 and 6-3 both lead with 2.5: 1-4 has the
			// higher sum.
			want = []Board{{1, 4}, {6, 3}, {2, 8}, {5, 7}}
			if !reflect.DeepEqual(boards, want) || len(byes) != 0 {
				t.Errorf("round 4 boards %v byes %v, want %v in FIDE's order", boards, byes, want)
			}
			_, byes = tt.Round(2)
			if !reflect.DeepEqual(byes, []Bye{{5, 'H'}, {8, 'U'}}) {
				t.Errorf("round 2 byes %v", byes)
			}
			if tt.Rounds != 5 {
				t.Errorf("rounds %d", tt.Rounds)
			}
		})
	}
	tt, _ := load(t, "open26.trf")
	if c, err := ControlNotation(tt.TimeControl); err != nil || c != "5400+30" {
		t.Errorf("222 %q: %q %v", tt.TimeControl, c, err)
	}
}

// TestWriteUnchanged: a tournament the hall changed nothing in is written
// back byte for byte, line ends included.
func TestWriteUnchanged(t *testing.T) {
	for _, name := range []string{"open16.trf", "open26.trf"} {
		tt, data := load(t, name)
		var b bytes.Buffer
		if err := tt.Write(&b); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b.Bytes(), data) {
			t.Errorf("%s: written back differs", name)
		}
	}
}

// TestResultsRoundTrip: the results of round 4 entered, the file written
// and read again holds exactly those results and the points that follow;
// nothing else changed, and reading it again changes nothing.
func TestResultsRoundTrip(t *testing.T) {
	tt, data := load(t, "open16.trf")
	set := map[Board]string{{1, 4}: "1-0", {6, 3}: "1/2-1/2", {2, 8}: "0-1", {5, 7}: "+-"}
	for b, r := range set {
		if err := tt.SetResult(4, b.White, b.Black, r); err != nil {
			t.Fatal(err)
		}
	}
	// A correction: the arbiter changes 2-8 to a draw.
	if err := tt.SetResult(4, 2, 8, "1/2-1/2"); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	tt.Write(&b)
	back, err := Parse("back.trf", b.Bytes())
	if err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	want := map[int]struct {
		res byte
		pts Points
	}{1: {'1', 7}, 4: {'0', 4}, 6: {'=', 3}, 3: {'=', 6}, 2: {'=', 5}, 8: {'=', 5}, 5: {'+', 3}, 7: {'-', 0}}
	for n, w := range want {
		p, _ := back.Player(n)
		if p.Game(4).Result != w.res || p.Points != w.pts {
			t.Errorf("player %d: result %c points %s, want %c %s", n, p.Game(4).Result, p.Points, w.res, w.pts)
		}
	}
	// Every other line is as it came.
	in, _ := splitLines(data)
	out, _ := splitLines(b.Bytes())
	if len(in) != len(out) {
		t.Fatalf("%d lines, want %d", len(out), len(in))
	}
	for i := range in {
		if !strings.HasPrefix(in[i], "001") && in[i] != out[i] {
			t.Errorf("line %d changed: %q", i+1, out[i])
		}
		if strings.HasPrefix(in[i], "001") && in[i][:80] != out[i][:80] {
			t.Errorf("line %d: the player's own columns changed:\n%s\n%s", i+1, in[i], out[i])
		}
	}
	var again bytes.Buffer
	back.Write(&again)
	if !bytes.Equal(again.Bytes(), b.Bytes()) {
		t.Error("re-reading the export and writing it changes it")
	}
}

// TestPairingList: JaVaFo's and bbpPairings' -p output becomes round 5's
// pairings, in the program's board order, with its bye.
func TestPairingList(t *testing.T) {
	tt, _ := load(t, "open16.trf")
	list := "4\n3 1\n8 4\n2 6\n7 0\n"
	boards, err := ParsePairingList("r5.txt", []byte(list))
	if err != nil {
		t.Fatal(err)
	}
	// 5 is not on the list: it keeps what its line says (nothing).
	if err := tt.SetPairings(5, boards); err != nil {
		t.Fatal(err)
	}
	got, byes := tt.Round(5)
	if want := []Board{{3, 1}, {8, 4}, {2, 6}}; !reflect.DeepEqual(got, want) {
		t.Errorf("round 5: %v, want %v", got, want)
	}
	if !reflect.DeepEqual(byes, []Bye{{7, 'U'}}) {
		t.Errorf("round 5 byes %v", byes)
	}
	var b bytes.Buffer
	tt.Write(&b)
	back, err := Parse("back.trf", b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := back.Player(7); p.Game(5) != (Game{Colour: '-', Result: 'U'}) || p.Points != 2 {
		t.Errorf("player 7 round 5: %+v, points %s", p.Game(5), p.Points)
	}
	if p, _ := back.Player(3); p.Game(5) != (Game{Opponent: 1, Colour: 'w', Result: ' '}) {
		t.Errorf("player 3 round 5: %+v", p.Game(5))
	}
}

// TestBadInput: each hostile or broken file gets an error naming the line
// (and column) and what is wrong, and nothing panics.
func TestBadInput(t *testing.T) {
	good, _ := os.ReadFile("testdata/open16.trf")
	lines, _ := splitLines(good)
	with := func(n int, line string) []byte {
		l := append([]string(nil), lines...)
		l[n-1] = line
		return []byte(strings.Join(l, "\r\n"))
	}
	p12 := lines[11]
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"huge", bytes.Repeat([]byte("001 x\n"), MaxSize/6+1), "more than the 4194304"},
		{"long line", with(3, "032 "+strings.Repeat("x", 100_000)), "bad.trf:3: 100004 characters"},
		{"latin-1", with(12, strings.Replace(p12, "ü", "\xfc", 1)), "bad.trf:12:23: not UTF-8"},
		{"NUL", with(3, "032 G\x00ER"), "bad.trf:3:6: control character"},
		{"no players", []byte("012 x\n"), "no player lines"},
		{"opponent nowhere", with(12, strings.Replace(p12, "    5 w 1", "   57 w 1", 1)), "bad.trf:12:92: round 1: opponent 57 has no player line"},
		{"opponent disagrees", with(12, strings.Replace(p12, "    5 w 1", "    6 w 1", 1)), "round 1: 1 plays 6, but line 17 pairs 6 with 2"},
		{"result disagrees", with(12, strings.Replace(p12, "    5 w 1", "    5 w 0", 1)), "bad.trf:12:99: round 1: 1's result 0 does not match 5's 0"},
		{"same colour", with(12, strings.Replace(p12, "    5 w 1", "    5 b 1", 1)), "round 1: 1 and 5 both have b"},
		{"bad result", with(12, strings.Replace(p12, "    5 w 1", "    5 w 7", 1)), "bad.trf:12:99: round 1: result '7'"},
		{"bad rating", with(12, strings.Replace(p12, "2512", "25x2", 1)), "bad.trf:12:49: rating"},
		{"duplicate start", with(17, strings.Replace(lines[16], "001    6", "001    1", 1)), "bad.trf:17:5: starting rank 1 again (first on line 12)"},
		{"rounds", with(20, "XXR 2"), "holds 4 rounds, the file says the tournament has 2"},
		{"time control", []byte("222 90 minutes\n" + p12), "bad.trf:1:5: time control"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("bad.trf", tc.data)
			var e *Error
			if err == nil || !errors.As(err, &e) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want %q", err, tc.want)
			}
		})
	}
}

func TestPairingListErrors(t *testing.T) {
	for list, want := range map[string]string{
		"":                "empty",
		"3\n1 2\n3 4\n":   "says 3 pairs, it has 2",
		"1\n1 2\n3 4\n":   "p.txt:3: the list says 1 pairs, and this is one more",
		"2\n1 2\n2 3\n":   "p.txt:3: player 2 is paired on line 2 too",
		"1\n1 x\n":        `p.txt:2: "x" is not a starting rank`,
		"1\n0 4\n":        `"0" is not a starting rank`,
		"x\n":             "p.txt:1: want the number of pairs",
		"1\n1 2 3\n":      "want two starting ranks",
		"2\n1 2\n\n3 0\n": "",
		"1\r\n7 0\r\n":    "",
		"1\r1 99999\r":    `"99999" is not a starting rank`,
	} {
		_, err := ParsePairingList("p.txt", []byte(list))
		if want == "" {
			if err != nil {
				t.Errorf("%q: %v", list, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want %q", list, err, want)
		}
	}
	tt, _ := load(t, "open16.trf")
	if err := tt.SetPairings(5, []Board{{1, 99}}); err == nil || !strings.Contains(err.Error(), "no player 99") {
		t.Errorf("pairing a player who is not there: %v", err)
	}
	if err := tt.SetResult(4, 4, 1, "1-0"); err == nil {
		t.Error("a result with the colours swapped was taken")
	}
	if err := tt.SetResult(4, 1, 4, "2-0"); err == nil {
		t.Error("result 2-0 taken")
	}
}

func TestControlNotation(t *testing.T) {
	for in, want := range map[string]string{
		"5400+30":           "5400+30",
		"40/6000+30:900+30": "40/6000+30:900+30",
		"W300-B240":         "300|240",
		"40/7200:1800":      "40/7200:1800",
		"180+2":             "180+2",
	} {
		if got, err := ControlNotation(in); err != nil || got != want {
			t.Errorf("%q: %q %v, want %q", in, got, err, want)
		}
	}
	if _, err := ControlNotation("90 min"); err == nil {
		t.Error("90 min taken")
	}
}

// FuzzParse: any input gives a tournament or an error, never a panic; a
// tournament written and read again is the same tournament.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"open16.trf", "open26.trf"} {
		data, _ := os.ReadFile("testdata/" + name)
		f.Add(data)
	}
	f.Add([]byte("001    1 m    A                                 "))
	f.Fuzz(func(t *testing.T, data []byte) {
		tt, err := Parse("fuzz.trf", data)
		if err != nil {
			return
		}
		for r := 1; r <= tt.Rounds; r++ {
			tt.Round(r)
		}
		var b bytes.Buffer
		if err := tt.Write(&b); err != nil {
			t.Fatal(err)
		}
		back, err := Parse("fuzz.trf", b.Bytes())
		if err != nil {
			t.Fatalf("written file does not read back: %v", err)
		}
		if !reflect.DeepEqual(back.Players(), tt.Players()) {
			t.Fatal("players differ after a round trip")
		}
	})
}

// TestSetBye: the arbiter's byes for a round not yet paired (H, Z, F) are
// written into the player's block with their points, read back as the
// round's byes; a paired player, an unknown one, a bad code and the
// pairing program's U are refused; a bye taken back leaves no block.
func TestSetBye(t *testing.T) {
	src := "012 Byes\nXXR 3\n" +
		"001    1 m    Alpha, A                          2400 GER             1990/01/01  1.0    1     2 w 1\n" +
		"001    2 m    Beta, B                           2300 GER             1990/01/01  0.0    2     1 b 0\n" +
		"001    3 m    Gamma, C                          2200 GER             1990/01/01  1.0    3  0000 - U\n"
	tr, err := Parse("byes.trf", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		round, player int
		kind          byte
		points        Points
	}{{2, 1, 'H', 3}, {2, 2, 'Z', 0}, {2, 3, 'F', 4}} {
		if err := tr.SetBye(c.round, c.player, c.kind); err != nil {
			t.Fatalf("round %d player %d %c: %v", c.round, c.player, c.kind, err)
		}
		if p, _ := tr.Player(c.player); p.Game(c.round) != (Game{Colour: '-', Result: c.kind}) || p.Points != c.points {
			t.Errorf("player %d: %+v, %v points; want %c and %v", c.player, p.Game(c.round), p.Points, c.kind, c.points)
		}
	}
	for _, c := range []struct {
		round, player int
		kind          byte
		want          string
	}{
		{1, 1, 'H', "paired in round 1"},
		{1, 3, 'H', "pairing-allocated bye"},
		{2, 9, 'H', "no player 9"},
		{2, 1, 'U', "want H"},
		{0, 1, 'H', "round 0"},
	} {
		if err := tr.SetBye(c.round, c.player, c.kind); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("round %d player %d %c: %v, want %q", c.round, c.player, c.kind, err, c.want)
		}
	}
	var b strings.Builder
	tr.Write(&b)
	back, err := Parse("back.trf", []byte(b.String()))
	if err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	_, byes := back.Round(2)
	if !reflect.DeepEqual(byes, []Bye{{1, 'H'}, {2, 'Z'}, {3, 'F'}}) {
		t.Errorf("round 2's byes read back: %v\n%s", byes, b.String())
	}
	if err := back.SetBye(2, 2, ' '); err != nil {
		t.Fatal(err)
	}
	b.Reset()
	back.Write(&b)
	if line := strings.Split(b.String(), "\n")[3]; strings.HasSuffix(line, "-") || strings.Contains(line[91:], "0000") {
		t.Errorf("a bye taken back left a block: %q", line)
	}
}

// TestShortAndForfeitResults: the results of a game of less than one move
// (W-L, D-D, L-W) and the forfeits (+-, -+, --) are written with their
// TRF-2026 codes and points, and read back; a corrected one takes the old
// one's points back.
func TestShortAndForfeitResults(t *testing.T) {
	src := "012 Codes\nXXR 1\n" +
		"001    1 m    Alpha, A                          2400 GER             1990/01/01  0.0    1     2 w  \n" +
		"001    2 m    Beta, B                           2300 GER             1990/01/01  0.0    2     1 b  \n"
	for _, c := range []struct {
		result string
		w, b   byte
		pw, pb Points
	}{
		{ShortResult("1-0"), 'W', 'L', 2, 0},
		{ShortResult("1/2-1/2"), 'D', 'D', 1, 1},
		{ShortResult("0-1"), 'L', 'W', 0, 2},
		{"+-", '+', '-', 2, 0},
		{"-+", '-', '+', 0, 2},
		{"--", '-', '-', 0, 0},
		{ShortResult("+-"), '+', '-', 2, 0},
	} {
		tr, err := Parse("codes.trf", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if err := tr.SetResult(1, 1, 2, "1-0"); err != nil {
			t.Fatal(err)
		}
		if err := tr.SetResult(1, 1, 2, c.result); err != nil {
			t.Fatalf("%s: %v", c.result, err)
		}
		var b strings.Builder
		tr.Write(&b)
		back, err := Parse("back.trf", []byte(b.String()))
		if err != nil {
			t.Fatalf("%s: %v\n%s", c.result, err, b.String())
		}
		w, _ := back.Player(1)
		bl, _ := back.Player(2)
		if w.Game(1).Result != c.w || bl.Game(1).Result != c.b || w.Points != c.pw || bl.Points != c.pb {
			t.Errorf("%s: %c %c, points %v %v; want %c %c, %v %v", c.result, w.Game(1).Result, bl.Game(1).Result, w.Points, bl.Points, c.w, c.b, c.pw, c.pb)
		}
	}
}
