package timecontrol

import (
	"strings"
	"testing"
)

func TestParseFormat(t *testing.T) {
	const s, m = 1000, 60000
	cases := []struct {
		in     string
		want   Control
		format string // canonical form, if different from in
	}{
		{in: "300+2", want: Control{{Time: 5 * m, Mode: Fischer, Extra: 2 * s}}},
		{in: "300", want: Control{{Time: 5 * m}}},
		{in: "300+0", want: Control{{Time: 5 * m}}, format: "300"},
		{in: "300d0", want: Control{{Time: 5 * m}}, format: "300"},
		{in: "40/5400+30:1800+30", want: Control{
			{Moves: 40, Time: 90 * m, Mode: Fischer, Extra: 30 * s},
			{Time: 30 * m, Mode: Fischer, Extra: 30 * s},
		}},
		{in: "5400d5", want: Control{{Time: 90 * m, Mode: Delay, Extra: 5 * s}}},
		{in: "1500b5", want: Control{{Time: 25 * m, Mode: Bronstein, Extra: 5 * s}}},
		{in: "*60", want: Control{{Time: m, Mode: Hourglass}}},
		{in: "^", want: Control{{Mode: CountUp}}},
		{in: "40/7200:20/3600", want: Control{{Moves: 40, Time: 120 * m}, {Moves: 20, Time: 60 * m}}},
		{in: "3600~5x30", want: Control{{Time: 60 * m, Mode: ByoYomi, Extra: 30 * s, OvertimeCount: 5}}},
		{in: "0~1x30", want: Control{{Mode: ByoYomi, Extra: 30 * s, OvertimeCount: 1}}},
		{in: "1800~20/300", want: Control{{Time: 30 * m, Mode: Canadian, Extra: 5 * m, OvertimeCount: 20}}},
		{in: "0+5", want: Control{{Mode: Fischer, Extra: 5 * s}}},
		{in: "007", want: Control{{Time: 7 * s}}, format: "7"},
		{in: "300+3@61", want: Control{{Time: 5 * m, Mode: Fischer, Extra: 3 * s, From: 61}}},
		{in: "300+3@1", want: Control{{Time: 5 * m, Mode: Fischer, Extra: 3 * s}}, format: "300+3"},
		{in: "300+3@061", want: Control{{Time: 5 * m, Mode: Fischer, Extra: 3 * s, From: 61}}, format: "300+3@61"},
		{in: "300+0@61", want: Control{{Time: 5 * m}}, format: "300"},
		{in: "40/5400+30@41:1800+30", want: Control{
			{Moves: 40, Time: 90 * m, Mode: Fischer, Extra: 30 * s, From: 41},
			{Time: 30 * m, Mode: Fischer, Extra: 30 * s},
		}},
	}
	for _, tc := range cases {
		got, err := Parse(tc.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		if !got.Equal(tc.want) {
			t.Errorf("Parse(%q) = %#v, want %#v", tc.in, got, tc.want)
		}
		want := tc.format
		if want == "" {
			want = tc.in
		}
		if f := Format(got); f != want {
			t.Errorf("Format(Parse(%q)) = %q, want %q", tc.in, f, want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", `column 1: empty time control`},
		{"40/54x0", `column 6: unexpected 'x', want '+' (increment), 'd' (delay), 'b' (Bronstein), '~' (overtime), ':' or the end`},
		{"300+", `column 5: unexpected end of text, want increment seconds (a whole number)`},
		{"300+2:", `column 7: unexpected end of text, want moves or seconds`},
		{"abc", `column 1: unexpected 'a', want moves or seconds`},
		{"0/300", `a move quota must be from 1 to 999, got 0`},
		{"?", `means an unknown or no time control in PGN`},
		{"-", `means an unknown or no time control in PGN`},
		{"300:60", `period 1 has no move quota, so no period can follow it`},
		{"40/0:60", `period 1 has a move quota but no time`},
		{"0", `period 1 has no time`},
		{"*0", `hourglass needs a time above zero`},
		{"*60x", `column 4: unexpected 'x', want ':' and another period or the end`},
		{"^5", `column 2: unexpected '5'`},
		{"40/5400~5x30:1800", `overtime only ends the last period`},
		{"3600~5y30", `column 7: unexpected 'y', want 'x' (byo-yomi periods) or '/' (Canadian moves)`},
		{"99999999999999999999", `column 1: moves or seconds 99999999999999999999 is too large, at most 360000`},
		{"300+3601", `increment seconds 3601 is too large, at most 3600`},
		{"300 +2", `column 4: unexpected ' '`},
		{"1/1:1/1:1/1:1/1:1/1:1/1:1/1:1/1:1/1:1/1", `too many periods, at most 9`},
		{"300+3@", `column 7: unexpected end of text, want the increment's first move (a whole number)`},
		{"300+3@x", `column 7: unexpected 'x', want the increment's first move (a whole number)`},
		{"300+3@0", `column 7: the increment's first move must be from 1 to 999, got 0`},
		{"300+3@1000", `column 7: the increment's first move 1000 is too large, at most 999`},
		{"300d3@61", `column 6: unexpected '@': only a Fischer increment (+I) starts from a later move`},
		{"300b3@61", `column 6: unexpected '@': only a Fischer increment (+I) starts from a later move`},
		{"300~3x30@61", `column 9: unexpected '@', want ':' and another period or the end`},
		{"300+3@61@62", `column 9: unexpected '@', want ':' and another period or the end`},
		{"300@61", `column 4: unexpected '@', want '+' (increment)`},
	}
	for _, tc := range cases {
		_, err := Parse(tc.in)
		if err == nil {
			t.Errorf("Parse(%q): no error, want %q", tc.in, tc.want)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q) error %q, want it to contain %q", tc.in, err, tc.want)
		}
	}
}

func TestPair(t *testing.T) {
	p, err := ParsePair("300|240")
	if err != nil {
		t.Fatal(err)
	}
	if p.White[0].Time != 300000 || p.Black[0].Time != 240000 {
		t.Errorf("ParsePair(300|240) = %v", p)
	}
	if f := FormatPair(p); f != "300|240" {
		t.Errorf("FormatPair = %q", f)
	}
	same, _ := ParsePair("300+2")
	if f := FormatPair(same); f != "300+2" {
		t.Errorf("FormatPair(same) = %q, want 300+2", f)
	}
	if _, err := ParsePair("*60|300"); err == nil || !strings.Contains(err.Error(), "hourglass is for both players or neither") {
		t.Errorf("mixed hourglass: got %v", err)
	}
	_, err = ParsePair("300|24x")
	if err == nil || !strings.Contains(err.Error(), `column 7`) {
		t.Errorf("black error column: got %v, want column 7 of the whole pair", err)
	}
	arm, err := ParsePair("300+3@61|240+3@61")
	if err != nil {
		t.Fatal(err)
	}
	if arm.White[0].From != 61 || arm.Black[0].From != 61 || arm.Black[0].Time != 240000 {
		t.Errorf("ParsePair(300+3@61|240+3@61) = %v", arm)
	}
	if f := FormatPair(arm); f != "300+3@61|240+3@61" {
		t.Errorf("FormatPair = %q", f)
	}
	_, err = ParsePair("300+3@61|240+3@0")
	if err == nil || !strings.Contains(err.Error(), `"300+3@61|240+3@0": column 16: the increment's first move must be from 1 to 999, got 0`) {
		t.Errorf("black @0: got %v, want column 16 of the whole pair", err)
	}
}

// TestValidateFrom: a Period built in Go follows the notation's rules for
// the increment's first move.
func TestValidateFrom(t *testing.T) {
	for _, c := range []struct {
		p    Period
		want string // "" valid
	}{
		{Period{Time: 300000, Mode: Fischer, Extra: 3000, From: 61}, ""},
		{Period{Time: 300000, Mode: Fischer, Extra: 3000, From: 1}, "must be from 2 to 999, or 0 for every move"},
		{Period{Time: 300000, Mode: Fischer, Extra: 3000, From: -5}, "must be from 2 to 999"},
		{Period{Time: 300000, Mode: Fischer, Extra: 3000, From: 1000}, "must be from 2 to 999"},
		{Period{Time: 300000, Mode: Delay, Extra: 3000, From: 61}, "only a Fischer increment starts from a later move"},
		{Period{Time: 300000, From: 61}, "only a Fischer increment starts from a later move"},
		{Period{Mode: CountUp, From: 61}, "count-up takes no increment or delay"},
	} {
		err := Control{c.p}.Validate()
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%+v: %v", c.p, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%+v: error %v, want %q", c.p, err, c.want)
		}
	}
}

func TestQuotaAndRepeat(t *testing.T) {
	c, err := Parse("40/7200:20/3600")
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[int]int{1: 40, 2: 60, 3: 80, 10: 220} {
		if got := c.Quota(k); got != want {
			t.Errorf("Quota(%d) = %d, want %d", k, got, want)
		}
	}
	if p, ok := c.Period(7); !ok || p.Moves != 20 {
		t.Errorf("Period(7) = %v %v, want the repeating 20/3600", p, ok)
	}
	sd, _ := Parse("40/5400+30:1800+30")
	if _, ok := sd.Period(3); ok {
		t.Error("a control ending without a quota has no period 3")
	}
	if sd.Quota(2) != 0 {
		t.Error("the quota of a period without one is 0")
	}
}

// FuzzParse checks that parsing never panics, that errors name a column
// inside the input, and that every valid control round-trips.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"300+2", "40/5400+30:1800+30", "5400d5", "*60", "40/7200:20/3600", "^", "3600~5x30", "1800~20/300", "1500b5", "", "?", "300|240",
		"300+3@61", "300+2@61|240+2@61", "40/5400+30@41:1800+30", "300+3@1", "300d3@61", "300+0@0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := Parse(s)
		if err != nil {
			if se, ok := err.(*SyntaxError); ok && (se.Column < 1 || se.Column > len(s)+1) {
				t.Fatalf("Parse(%q): column %d outside the input", s, se.Column)
			}
			return
		}
		f := Format(c)
		c2, err := Parse(f)
		if err != nil {
			t.Fatalf("Parse(Format(Parse(%q))) = Parse(%q): %v", s, f, err)
		}
		if !c2.Equal(c) {
			t.Fatalf("round trip of %q via %q changed the control", s, f)
		}
		if Format(c2) != f {
			t.Fatalf("format not canonical: %q then %q", f, Format(c2))
		}
		if p, err := ParsePair(s); err == nil && FormatPair(p) != f {
			t.Fatalf("ParsePair and Parse disagree on %q", s)
		}
	})
}

// The PGN standard's TimeControl where it has a form, "?" where it has
// none (the form zeitnot's notation extends).
func TestFormatPGN(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"40/5400+30:1800+30", "40/5400+30:1800+30"},
		{"180+2", "180+2"},
		{"300", "300"},
		{"40/7200:20/3600", "40/7200:20/3600"},
		{"*60", "*60"},
		{"^", "-"},
		{"300d5", "?"},
		{"5400d5", "?"},
		{"300b5", "?"},
		{"60~3x10", "?"},
		{"60~5/30", "?"},
		{"300+2@61", "?"},
		{"300|240", "?"},
		{"300+2@61|240+2@61", "?"},
		{"40/5400:1800d5", "?"},
	} {
		p, err := ParsePair(tt.in)
		if err != nil {
			t.Fatalf("%s: %v", tt.in, err)
		}
		if got := FormatPGN(p); got != tt.want {
			t.Errorf("FormatPGN(%s) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
