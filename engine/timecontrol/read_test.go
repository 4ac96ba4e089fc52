package timecontrol

import (
	"strings"
	"testing"
)

// How the hall's control field reads what an arbiter types (90+30 is 90
// minutes + 30 s a move; it was taken as 90 seconds + 30 s).
func TestReadHuman(t *testing.T) {
	for _, c := range []struct {
		in, want, words string
		confirm         bool
	}{
		{"90+30", "5400+30", "90 min + 30 s a move", false},
		{`90'+30"`, "5400+30", "90 min + 30 s a move", false},
		{"90 min + 30 s", "5400+30", "90 min + 30 s a move", false},
		{"90 minutes + 30 seconds per move", "5400+30", "90 min + 30 s a move", false},
		{"1h30 + 30", "5400+30", "90 min + 30 s a move", false},
		{"1 h 30 min + 30 s a move", "5400+30", "90 min + 30 s a move", false},
		{`1'30"+30"`, "90+30", "1 min 30 s + 30 s a move", false},
		{"5400+30", "5400+30", "90 min + 30 s a move", false}, // the notation: above 180, seconds
		{"15+10", "900+10", "15 min + 10 s a move", false},
		{"900+10", "900+10", "15 min + 10 s a move", false},
		{"3+2", "180+2", "3 min + 2 s a move", true}, // under 10 minutes, no unit
		{"300+3", "300+3", "5 min + 3 s a move", true},
		{"180+2", "10800+2", "3 h + 2 s a move", true}, // 3 hours? or the notation's 3 min
		{"3'+2\"", "180+2", "3 min + 2 s a move", false},
		{"120", "7200", "120 min", false},
		{`90/40+30'+30"`, "40/5400+30:1800+30", "90 min for 40 moves, then 30 min + 30 s a move", false},
		{`90'/40 + 30' + 30"`, "40/5400+30:1800+30", "90 min for 40 moves, then 30 min + 30 s a move", false},
		{`5'+3" from 61`, "300+3@61", "5 min + 3 s a move from move 61", false},
		{"40/5400+30:1800+30", "40/5400+30:1800+30", "90 min for 40 moves, then 30 min + 30 s a move", false},
		{"300|240", "300|240", "White 5 min; Black 4 min", false},
		{"hourglass 1'", "*60", "hourglass, 1 min each", false},
		{"count-up", "^", "counting up", false},
		{"5400d5", "5400d5", "90 min, delay 5 s a move", false},
		{"90′+30″", "5400+30", "90 min + 30 s a move", false},
	} {
		r, err := ReadHuman(c.in)
		if err != nil {
			t.Errorf("ReadHuman(%q): %v", c.in, err)
			continue
		}
		if got := FormatPair(r.Pair); got != c.want || r.Words() != c.words || r.Confirm() != c.confirm {
			t.Errorf("ReadHuman(%q) = %s, %q, confirm %v; want %s, %q, %v", c.in, got, r.Words(), r.Confirm(), c.want, c.words, c.confirm)
		}
	}
	if r, _ := ReadHuman("90'+30'"); !r.Unusual() {
		t.Errorf("90'+30' (30 minutes a move) is not marked unusual")
	}
	r, _ := ReadHuman("90+30")
	if r.Other == nil || FormatPair(*r.Other) != "90+30" {
		t.Errorf("90+30: the other reading %v, want 90 s + 30 s", r.Other)
	}
	for _, in := range []string{"", "ninety", "90 + ", "90x+30", `5'+3" from 1`, "hourglass 5", strings.Repeat("9", 300)} {
		if r, err := ReadHuman(in); err == nil {
			t.Errorf("ReadHuman(%q) = %s, want an error", in, FormatPair(r.Pair))
		}
	}
}

// What Human writes, ReadHuman reads back to the same control: what the
// hall says back, typed again, is what it understood. (Not for an
// increment of the last period only, 40/7200:20/3600:900+30: Human writes
// it 120/40+60/20+15'+30", which a person, and ReadHuman, reads as FIDE
// writes its controls, the increment from move 1.)
func TestReadHumanReadsHuman(t *testing.T) {
	for _, n := range []string{"5400+30", "40/5400+30:1800+30", "900+10", "180+2", "300+3@61", "*60", "^", "90+30", "7200", "60+1", "40/7200:20/3600:900"} {
		c, err := Parse(n)
		if err != nil {
			t.Fatal(err)
		}
		r, err := ReadHuman(Human(c))
		if err != nil || !r.Pair.White.Equal(c) || r.Notation {
			t.Errorf("%s: Human %q read back as %v, %v", n, Human(c), r.Pair, err)
		}
	}
}

// ReadHuman never panics, every reading is a valid control, and its
// human form reads back to it.
func FuzzReadHuman(f *testing.F) {
	for _, s := range []string{"90+30", `90'+30"`, "90 min + 30 s", "1h30+30", `90/40+30'+30"`, `5'+3" from 61`, "hourglass 1'", "300|240", "5400d5", "3+2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ReadHuman(s)
		if err != nil {
			return
		}
		if err := r.Pair.Validate(); err != nil {
			t.Fatalf("ReadHuman(%q) = %v, invalid: %v", s, r.Pair, err)
		}
		// Human writes an increment of a minute or more in minutes (+2'),
		// which reads as a period after a period with a quota, and a later
		// period under a minute in seconds (+10"), which reads as an
		// increment: the round trip holds for the controls events have,
		// increments under a minute and periods of minutes.
		if r.Notation || !r.Pair.White.Equal(r.Pair.Black) || r.Pair.White[0].Extra >= 60_000 {
			return
		}
		for _, p := range r.Pair.White[1:] {
			if p.Time < 60_000 {
				return
			}
		}
		back, err := ReadHuman(Human(r.Pair.White))
		if err != nil || !back.Pair.Equal(r.Pair) {
			t.Fatalf("ReadHuman(%q) = %s, whose human form %q reads back as %s, %v", s, FormatPair(r.Pair), Human(r.Pair.White), FormatPair(back.Pair), err)
		}
	})
}
