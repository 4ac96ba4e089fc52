package clocklog

import (
	"bytes"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/engine/clock"
)

func TestParseErrors(t *testing.T) {
	cases := []struct{ log, want string }{
		{"control 300\n0 start\n0 jump\n", "game.log:3: unknown verb \"jump\""},
		{"control 300\n5 start\n4 press white\n", "game.log:3: instant 4 is before the previous event's 5"},
		{"0 start\n", "game.log:1: no control line"},
		{"control white 300\n0 start\n", "game.log:2: no control for black"},
		{"control 300+\n", "game.log:1: control: timecontrol: \"300+\": column 5"},
		{"control 300\n0 press\n", "game.log:2: press takes 1 argument(s), got 0"},
		{"control 300\n0 press red\n", "game.log:2: press: want white or black, got \"red\""},
		{"control 300\n0 add white 2min\n", "game.log:2: add white: bad number \"2min\""},
		{"control 300\n0 start\noption after-flag freeze\n", "game.log:3: \"option\" after the first event"},
		{"control 300\noption after-flag melt\n", "game.log:2: option after-flag: want freeze or continue, got \"melt\""},
		{"control 300\noption colour blue\n", "game.log:2: unknown option \"colour\""},
		{"format 9\ncontrol 300\n", "game.log:1: format 9 is newer than this zeitnot reads"},
		{"control 300\n-5 start\n", "game.log:2: instant \"-5\": want milliseconds"},
		{"control 300\n0 start\n10 set white -1\n", "game.log:3: set white: bad number \"-1\""},
		{"control *60|300\n", "game.log:1: control: timecontrol: \"*60|300\": column 4"},
		{"control white *60\ncontrol black 300\n0 start\n", "game.log:3: timecontrol: hourglass is for both players or neither"},
		{"control 300\n0 start \xff\n", "game.log:2: invalid character"},
		{"control 300\n" + strings.Repeat("1", 5000) + "\n", "game.log:2: line longer than 4096 bytes"},
	}
	for _, tc := range cases {
		_, err := Parse("game.log", strings.NewReader(tc.log))
		if err == nil {
			t.Errorf("%q: no error, want %q", tc.log, tc.want)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q:\n got %v\nwant %s", tc.log, err, tc.want)
		}
	}
}

func TestCommentsAndBlankLines(t *testing.T) {
	log := "# a game\n\ncontrol 300 # five minutes\r\n  \n0 start\n1000 press white # 1. e4\n1000 show\n"
	got := shows(t, log)
	if len(got) != 1 || got[0] != "1000 black w=299000/1/1 b=300000/0/1" {
		t.Errorf("got %v", got)
	}
}

const sample = `format 1
control white 40/5400+30:1800+30
control black 300
option first-increment off
option period-trigger moves
option after-flag continue
0 turn black
0 start
1000 press black
1500 pause
1500 set white 12000
1500 add black -3000
1500 add white +120000
1500 moves white 3
1500 period white 2
1500 clear-overstep black
1500 turn white
2000 resume
2500 checkpoint
3000 show
`

func TestWriteParseRoundTrip(t *testing.T) {
	l, err := Parse("sample", strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	b := AppendHeader(nil, l.Header)
	for _, e := range l.Events {
		b = AppendEvent(b, e)
	}
	if string(b) != sample {
		t.Errorf("written log differs:\n%s\nwant\n%s", b, sample)
	}
}

func TestSalvage(t *testing.T) {
	whole := "control 300\n0 start\n1000 press white\n2000 press black\n"
	cases := []struct {
		log     string
		events  int
		wantErr string
	}{
		{whole, 3, ""},
		{whole + "3000 pre", 3, "game.log:5: last line \"3000 pre\" has no newline (torn write): dropped"},
		{whole + "3000 press white", 3, "no newline"},
		{whole + "30\x00\x00\n4000 press white\n5000 pause\n", 3, "game.log:5:"},
		{whole + "junk\n4000 press white\n5000 pause\n", 3, "dropped the 2 lines after line 5"},
		{"control 300\n0 sta", 0, "torn write"},
	}
	for _, tc := range cases {
		l, errs := Salvage("game.log", strings.NewReader(tc.log))
		if l == nil {
			t.Errorf("%q: no log salvaged: %v", tc.log, errs)
			continue
		}
		if len(l.Events) != tc.events {
			t.Errorf("%q: %d events salvaged, want %d", tc.log, len(l.Events), tc.events)
		}
		all := ""
		for _, e := range errs {
			all += e.Error() + "\n"
		}
		if tc.wantErr == "" && len(errs) > 0 || tc.wantErr != "" && !strings.Contains(all, tc.wantErr) {
			t.Errorf("%q: errors %q, want %q", tc.log, all, tc.wantErr)
		}
	}
	// A header that cannot be read gives nothing to recover.
	if l, errs := Salvage("game.log", strings.NewReader("contr")); l != nil || len(errs) == 0 {
		t.Errorf("unusable header: got %v %v", l, errs)
	}
}

// TestSalvageEveryCut truncates a log at every byte offset and checks that
// salvage always succeeds and keeps exactly the complete lines.
func TestSalvageEveryCut(t *testing.T) {
	log := sample
	for cut := strings.Index(log, "0 turn"); cut <= len(log); cut++ {
		part := log[:cut]
		l, _ := Salvage("game.log", strings.NewReader(part))
		if l == nil {
			t.Fatalf("cut at %d: nothing salvaged", cut)
		}
		complete := strings.Count(part, "\n") - 6 // header lines
		if len(l.Events) != complete {
			t.Fatalf("cut at %d: %d events, want %d", cut, len(l.Events), complete)
		}
	}
}

func TestClk(t *testing.T) {
	l, err := Parse("g", strings.NewReader("control 5400+30\n0 start\n5200 press white\n65000 press black\n70000 pause\n90000 resume\n100300 press white\n"))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteClk(l, &b); err != nil {
		t.Fatal(err)
	}
	want := "1. {[%clk 1:30:54.8] [%emt 0:00:05.2]}\n" +
		"1... {[%clk 1:30:00.2] [%emt 0:00:59.8]}\n" +
		"2. {[%clk 1:31:09.5] [%emt 0:00:15.3]}\n"
	if b.String() != want {
		t.Errorf("clk:\n%s\nwant\n%s", b.String(), want)
	}
}

func TestShowJSON(t *testing.T) {
	l, _ := Parse("g", strings.NewReader("control 60d5\n0 start\n2000 show\n"))
	var b bytes.Buffer
	if err := WriteShows(l, &b, nil, "g"); err != nil {
		t.Fatal(err)
	}
	want := `{"at":2000,"running":"white","paused":false,"first_flag":"none","white":{"ms":60000,"moves":0,"period":1,"flag":false,"overstep":false,"mode":"delay","delay_ms":3000,"overtime":false,"overtime_left":0,"quota_left":0},"black":{"ms":60000,"moves":0,"period":1,"flag":false,"overstep":false,"mode":"delay","delay_ms":0,"overtime":false,"overtime_left":0,"quota_left":0},"to_move":"white","started":true,"stopped":false}` + "\n"
	if b.String() != want {
		t.Errorf("got  %s\nwant %s", b.String(), want)
	}
}

// FuzzParse checks the log reader never panics, that errors name a line
// inside the input, that salvage keeps a prefix of what strict parsing
// keeps, and that a valid log written back parses to the same events.
func FuzzParse(f *testing.F) {
	f.Add(sample)
	f.Add("control 300\n0 start\n1000 press white\n")
	f.Add("control 10~3x5\n0 start\n29000 show\n")
	f.Add("control white *60\ncontrol black *60\n")
	f.Fuzz(func(t *testing.T, s string) {
		lines := strings.Count(s, "\n") + 1
		l, err := Parse("f", strings.NewReader(s))
		if err != nil {
			if e, ok := err.(*Error); ok && (e.Line < 1 || e.Line > lines) {
				t.Fatalf("error on line %d of a %d-line input: %v", e.Line, lines, err)
			}
		}
		sl, _ := Salvage("f", strings.NewReader(s))
		if err != nil {
			return
		}
		if sl != nil && len(sl.Events) > len(l.Events) {
			t.Fatalf("salvage kept more than strict parsing")
		}
		b := AppendHeader(nil, l.Header)
		for _, e := range l.Events {
			b = AppendEvent(b, e)
		}
		l2, err := Parse("f2", bytes.NewReader(b))
		if err != nil {
			t.Fatalf("written log does not parse: %v\n%s", err, b)
		}
		if len(l2.Events) != len(l.Events) || !l2.Controls.Equal(l.Controls) || l2.Options != l.Options {
			t.Fatalf("round trip changed the log")
		}
		for i := range l.Events {
			if l.Events[i] != l2.Events[i] {
				t.Fatalf("event %d: %v became %v", i, l.Events[i], l2.Events[i])
			}
		}
		// Replaying never panics and never shows negative time.
		Replay(l, Handlers{Show: func(st clock.State) {
			if st.Player[0].Ms < 0 || st.Player[1].Ms < 0 {
				t.Fatalf("negative time")
			}
		}})
	})
}
