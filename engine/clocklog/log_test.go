package clocklog

import (
	"bytes"
	"fmt"
	"hash/crc32"
	"slices"
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
		{"control 300\n0 start\n2592000001 show\n", "game.log:3: instant \"2592000001\": want milliseconds, a whole number from 0 to 2592000000 (30 days)"},
		{"format 2\ncontrol 300\n", "game.log:1: format 2, but no line has a right checksum"},
		{"control 300\n0 checkpoint red\n", "game.log:2: checkpoint: want white or black, got \"red\""},
		{"control 300\n0 checkpoint white extra\n", "game.log:2: checkpoint: want NAME=VALUE after the side, got \"extra\""},
		{"control 300\n0 checkpoint control=300 control=300\n", "game.log:2: checkpoint: control named twice"},
		{"control 300\n0 checkpoint after-flag=melt\n", "game.log:2: checkpoint: option after-flag: want freeze or continue"},
		{"control 300\n0 checkpoint control=300+\n", "game.log:2: checkpoint: control: white: timecontrol"},
		{"control 300\n0 checkpoint control=60\n", "game.log:2: checkpoint restates control 60, but the header says 300"},
		{"control 300\n0 checkpoint period-trigger=moves\n", "game.log:2: checkpoint restates option period-trigger moves, but the header says flag"},
		// Format 2: a line without its checksum, or with a wrong one.
		{"format 2 *5a1bec3d\ncontrol 300\n", "game.log:2: no checksum: every format 2 line ends in ' *' and the CRC-32C of its text in 8 hex digits"},
		{"format 2 *5a1bec3d\n# a note\n", "game.log:2: no checksum"},
		{"format 2 *5a1bec3e\n", "game.log:1: checksum mismatch: the line is damaged (one flipped bit: it read \"format 2\")"},
		{"format 2 *5a1bec3d\ncontrol 300 *00000000\n", "game.log:2: checksum mismatch: the line is damaged\n"},
		{"format 1 *494b1fc9\n", "game.log:1: format 1, but the lines carry format 2 checksums"},
		{"format 3 *a8706f3e\n", "game.log:1: format 3 is newer than this zeitnot reads (up to 2)"},
	}
	for _, tc := range cases {
		_, err := Parse("game.log", strings.NewReader(tc.log))
		if err == nil {
			t.Errorf("%q: no error, want %q", tc.log, tc.want)
			continue
		}
		if !strings.Contains(err.Error()+"\n", tc.want) {
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

// TestWriteParseRoundTrip reads a format 1 log, writes it (format 2), and
// reads that back: the same log, and without its checksums the same lines.
func TestWriteParseRoundTrip(t *testing.T) {
	l, err := Parse("sample", strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	if l.Format != 1 {
		t.Errorf("format %d, want 1", l.Format)
	}
	b := AppendHeader(nil, l.Header)
	for _, e := range l.Events {
		b = AppendEvent(b, e)
	}
	l2, err := Parse("written", bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	if l2.Format != 2 || !sameEvents(l, l2) {
		t.Errorf("written log reads differently:\n%s", b)
	}
	var plain []string
	for _, ln := range strings.SplitAfter(string(b), "\n") {
		if ln == "" {
			continue
		}
		text, sum, ok := strings.Cut(strings.TrimSuffix(ln, "\n"), " *")
		if !ok || len(sum) != 8 || fmt.Sprintf("%08x", crc32.Checksum([]byte(text), crc32.MakeTable(crc32.Castagnoli))) != sum {
			t.Errorf("line %q: no CRC-32C of its text", ln)
		}
		plain = append(plain, text+"\n")
	}
	if got := strings.Join(plain, ""); got != strings.Replace(sample, "format 1", "format 2", 1) {
		t.Errorf("written log without checksums:\n%s\nwant\n%s", got, sample)
	}
}

func sameEvents(a, b *Log) bool {
	if !a.Controls.Equal(b.Controls) || a.Options != b.Options || len(a.Events) != len(b.Events) {
		return false
	}
	for i := range a.Events {
		if a.Events[i] != b.Events[i] {
			return false
		}
	}
	return true
}

// TestChecksum pins the checksum: CRC-32C, whose check value (of
// "123456789") is e3069283.
func TestChecksum(t *testing.T) {
	if got := checksum([]byte("123456789")); got != 0xe3069283 {
		t.Errorf("checksum = %08x, want e3069283", got)
	}
	if got := string(AppendEvent(nil, Event{At: 0, Verb: Start, Side: clock.NoSide})); got != "0 start *37990e4f\n" {
		t.Errorf("start line %q", got)
	}
	if got := string(AppendComment(nil, "two\nlines")); got != "# two lines *"+fmt.Sprintf("%08x", checksum([]byte("# two lines")))+"\n" {
		t.Errorf("comment %q", got)
	}
}

// TestChecksumDetects checks what the package doc says of the checksum:
// in a text as long as the longest line repaired, every error of one, two
// or three bits changes it. By linearity, an error is missed when the
// checksum changes of its flipped bits cancel out.
func TestChecksumDetects(t *testing.T) {
	if testing.Short() {
		t.Skip("a million pairs")
	}
	text := make([]byte, repairMax)
	zero := checksum(text)
	change := make([]uint32, 8*len(text)) // what flipping bit i does
	single := map[uint32]bool{0: true}
	for i := range change {
		text[i/8] ^= 1 << (i % 8)
		change[i] = checksum(text) ^ zero
		text[i/8] ^= 1 << (i % 8)
		if single[change[i]] {
			t.Fatalf("bit %d: a one- or two-bit error is missed", i)
		}
		single[change[i]] = true
	}
	for i := range change {
		for j := i + 1; j < len(change); j++ {
			if single[change[i]^change[j]] {
				t.Fatalf("bits %d and %d: a three-bit error is missed", i, j)
			}
		}
	}
}

// TestSalvage checks the format 1 rules: a torn last line is dropped; a
// line that does not read is dropped and the rest read when they follow
// from what came before (see TestSalvageStops for when they do not).
func TestSalvage(t *testing.T) {
	whole := "control 300\n0 start\n1000 press white\n2000 press black\n"
	cases := []struct {
		log     string
		events  int
		dropped int
		wantErr string
	}{
		{whole, 3, 0, ""},
		{whole + "3000 pre", 3, 0, "game.log:5: last line \"3000 pre\" has no newline (torn write): dropped"},
		{whole + "3000 press white", 3, 0, "no newline"},
		{whole + "30\x00\x00\n4000 press white\n5000 pause\n", 5, 1, "game.log:5: dropped: invalid character"},
		{whole + "junk\n4000 press white\n5000 pause\n", 5, 1, "game.log:5: dropped: unknown directive \"junk\""},
		// A lost press: the next press is by the same side, so the
		// other side's press is put back, at the line before.
		{whole + "3000 prXss white\n4000 press black\n", 5, 1, "game.log:5: dropped: unknown verb \"prXss\", want start, press, pause, resume, show, checkpoint, set, add, moves, period, turn, clear-overstep, increment, result, move or position; in its place \"3000 press white\""},
		// An instant out of order: the line that breaks the order is dropped.
		{whole + "900000 press white\n4000 press white\n5000 press black\n", 5, 1, "game.log:5: dropped: instant 900000 is later than the events after it (4000): out of order"},
		{whole + "1500 press white\n4000 press white\n", 4, 1, "game.log:5: dropped: instant 1500 is before the previous event's 2000: out of order"},
		{"control 300\n0 sta", 0, 0, "torn write"},
	}
	for _, tc := range cases {
		l, rep := SalvageReport("game.log", strings.NewReader(tc.log))
		if l == nil {
			t.Errorf("%q: no log salvaged: %v", tc.log, rep.Problems)
			continue
		}
		if len(l.Events) != tc.events || rep.Dropped != tc.dropped {
			t.Errorf("%q: %d events salvaged, %d lines dropped; want %d, %d", tc.log, len(l.Events), rep.Dropped, tc.events, tc.dropped)
		}
		all := ""
		for _, e := range rep.Problems {
			all += e.Error() + "\n"
		}
		if tc.wantErr == "" && len(rep.Problems) > 0 || tc.wantErr != "" && !strings.Contains(all, tc.wantErr) {
			t.Errorf("%q: errors %q, want %q", tc.log, all, tc.wantErr)
		}
		if _, errs := Salvage("game.log", strings.NewReader(tc.log)); len(errs) != len(rep.Problems) {
			t.Errorf("%q: Salvage returns %d errors, the report %d", tc.log, len(errs), len(rep.Problems))
		}
	}
	// A header that cannot be read gives nothing to recover.
	if l, errs := Salvage("game.log", strings.NewReader("contr")); l != nil || len(errs) == 0 {
		t.Errorf("unusable header: got %v %v", l, errs)
	}
}

// TestSalvageStops: when the lines after a damage follow from the events
// before it neither as they are nor with one event in its place, salvage
// keeps what came before and drops, and counts, the rest.
func TestSalvageStops(t *testing.T) {
	log := "control 300\n0 start\n1000 press white\n2000 press black\nXXXX\n4000 resume\n5000 press black\n# a comment\n6000 press white\n"
	l, rep := SalvageReport("game.log", strings.NewReader(log))
	if l == nil || len(l.Events) != 3 || rep.Dropped != 4 || rep.Clean() {
		t.Fatalf("%v %+v", l, rep)
	}
	if got := rep.Problems[len(rep.Problems)-1].Error(); got != "game.log:5: dropped the 3 lines after line 5: they do not follow from the events before it, with or without one event in place of the damage" {
		t.Errorf("last problem %q", got)
	}
	if s := rep.String(); s != "4 lines dropped" {
		t.Errorf("summary %q", s)
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

// FuzzParse checks the log readers never panic, that errors name a line
// inside the input, that salvage reads a log the strict reader accepts the
// same (but for a torn last line) and calls it clean, that its counts agree
// with its problems, and that a valid log written back parses to the same
// events.
func FuzzParse(f *testing.F) {
	f.Add(sample)
	f.Add("control 300\n0 start\n1000 press white\n")
	f.Add("control 10~3x5\n0 start\n29000 show\n")
	f.Add("control 300+2\n0 position 0 rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\n0 start\n1000 press black\n1250 move 1 e5 e7e5\n")
	f.Add("control white *60\ncontrol black *60\n")
	f.Add("control 40/60\n0 start\n2592000000 show\n")
	f.Add("control 40/7200:20/3600\n0 start\n4503599627370496 checkpoint\n")
	f.Add("control 300\n0 start\n1000 checkpoint white control=300 after-flag=freeze\n")
	f.Add("format 2 *5a1bec3d\ncontrol 300+2 *6c2bd659\n0 start *37990e4f\n4000 press white *5a0bcfa9\n")
	f.Add("format 2 *5a1bec3d\ncontrol 300+2 *6c2bd659\n0 start *37990e4e\n4000 press white *5a0bcfa9\n")
	f.Fuzz(func(t *testing.T, s string) {
		lines := strings.Count(s, "\n") + 1
		inside := func(line int) bool { return line >= 1 && line <= lines }
		l, err := Parse("f", strings.NewReader(s))
		if err != nil {
			if e, ok := err.(*Error); ok && !inside(e.Line) {
				t.Fatalf("error on line %d of a %d-line input: %v", e.Line, lines, err)
			}
		}
		checkWhole(t, s)
		sl, rep := SalvageReport("f", strings.NewReader(s))
		for _, p := range rep.Problems {
			if !inside(p.Line) {
				t.Fatalf("problem on line %d of a %d-line input: %v", p.Line, lines, p)
			}
		}
		if rep.Inferred > rep.Dropped || rep.Clean() != (rep.Dropped+rep.Repaired+len(rep.Defaulted) == 0 && len(rep.Problems) == btoi(rep.Torn)) {
			t.Fatalf("report does not add up: %+v", rep)
		}
		if sl != nil {
			// What salvage keeps replays without panic.
			Replay(sl, Handlers{})
		}
		if err != nil {
			return
		}
		// Salvage drops a last line without its newline: compare it with
		// the strict reading of the complete lines.
		cut := l
		if i := strings.LastIndexByte(s, '\n'); i < len(s)-1 {
			if cut, err = Parse("f", strings.NewReader(s[:i+1])); err != nil {
				return
			}
		}
		if sl == nil || !rep.Clean() {
			t.Fatalf("salvage of a valid log: %v %v", sl, rep.Problems)
		}
		if !sameEvents(sl, cut) {
			t.Fatalf("salvage read a valid log differently: %v, strict %v", sl.Events, cut.Events)
		}
		b := AppendHeader(nil, l.Header)
		for _, e := range l.Events {
			b = AppendEvent(b, e)
		}
		l2, err := Parse("f2", bytes.NewReader(b))
		if err != nil {
			t.Fatalf("written log does not parse: %v\n%s", err, b)
		}
		if !sameEvents(l, l2) {
			t.Fatalf("round trip changed the log")
		}
		// Replaying never panics and never shows negative time.
		Replay(l, Handlers{Show: func(st clock.State) {
			if st.Player[0].Ms < 0 || st.Player[1].Ms < 0 {
				t.Fatalf("negative time")
			}
		}})
	})
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// FuzzDamage writes a valid log in format 2, as the journal does
// (checkpoints restate the header), then damages it: one bit flipped
// anywhere must be repaired exactly; one line replaced by junk must be
// counted, and never panics.
func FuzzDamage(f *testing.F) {
	f.Add(sample, uint32(0), "junk")
	f.Add(sample, uint32(9999), "")
	f.Add("control 300\n0 start\n1000 checkpoint white\n1000 press white\n1500 checkpoint black\n", uint32(8*30+5), "1 start")
	f.Add("control 8/20:5/10\n0 start\n700 press white\n1700 checkpoint black\n2000 press black\n", uint32(8*45+1), "0 start *37990e4f")
	f.Fuzz(damage)
}

// damage is the body of FuzzDamage.
func damage(t *testing.T, s string, pos uint32, junk string) {
	l, err := Parse("f", strings.NewReader(s))
	if err != nil || strings.ContainsAny(junk, "\n") {
		return
	}
	b := AppendHeader(nil, l.Header)
	for _, e := range l.Events {
		if e.Verb == Checkpoint {
			b = AppendCheckpoint(b, e.At, e.Side, l.Header)
		} else {
			b = AppendEvent(b, e)
		}
	}
	whole, err := Parse("whole", bytes.NewReader(b))
	if err != nil {
		t.Fatalf("written log does not parse: %v\n%s", err, b)
	}

	// One flipped bit.
	i, k := int(pos/8)%len(b), pos%8
	b[i] ^= 1 << k
	checkWhole(t, string(b))
	got, rep := SalvageReport("f", bytes.NewReader(b))
	if got == nil || rep.Repaired != 1 || rep.Dropped != 0 || !sameEvents(got, whole) {
		t.Fatalf("byte %d bit %d flipped: not repaired: %v\n%s", i, k, rep.Problems, b)
	}
	b[i] ^= 1 << k

	// One line replaced.
	lines := strings.SplitAfter(string(b), "\n")
	n := int(pos) % (len(lines) - 1)
	if _, ok := checked([]byte(junk)); ok {
		return // a line with a right checksum is an edit, not damage
	}
	lines[n] = junk + "\n"
	checkWhole(t, strings.Join(lines, ""))
	got, rep = SalvageReport("f", strings.NewReader(strings.Join(lines, "")))
	if got == nil {
		// No control left: the problems say why.
		if len(rep.Problems) == 0 {
			t.Fatalf("line %d replaced by %q: nothing salvaged, no problem", n+1, junk)
		}
		return
	}
	if rep.Dropped+rep.Repaired == 0 || rep.Clean() {
		t.Fatalf("line %d replaced by %q: not counted: %+v", n+1, junk, rep)
	}
	Replay(got, Handlers{})
}

// FuzzFields checks appendFields splits as strings.Fields does.
func FuzzFields(f *testing.F) {
	f.Add("1000 press white")
	f.Add(" \t\u00a0x\u0085y\xffz\u2003 ")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := appendFields(nil, s), strings.Fields(s); !slices.Equal(got, want) {
			t.Fatalf("%q: %q, want %q", s, got, want)
		}
	})
}

func TestCheckLine(t *testing.T) {
	good := WithChecksum("4000 press white")
	for _, c := range []struct {
		line, text string
		summed, ok bool
	}{
		{good, "4000 press white", true, true},
		{good + "\r", "4000 press white", true, true},
		{"4000 press white", "4000 press white", false, false},
		{strings.Replace(good, "4000", "4001", 1), "4001 press white", true, false},
		{"4000 press white *5A0BCFA9", "4000 press white *5A0BCFA9", false, false}, // capitals are no checksum
		{"", "", false, false},
	} {
		text, summed, ok := CheckLine([]byte(c.line))
		if string(text) != c.text || summed != c.summed || ok != c.ok {
			t.Errorf("%q: %q %v %v, want %q %v %v", c.line, text, summed, ok, c.text, c.summed, c.ok)
		}
	}
}

// TestLostPressInstant: a press whose line is lost is put back where the
// journal's writer put it, CheckpointDue before the checkpoint after it,
// not at the line before (267 ms earlier here); the problem says the
// instant was not in the journal, and its bounds.
func TestLostPressInstant(t *testing.T) {
	log := "control 300\n0 start\n800 checkpoint white\n1600 checkpoint white\n" +
		"1#6? prXss white\n" + // 1867 press white
		"2667 checkpoint black\n3467 checkpoint black\n"
	l, rep := SalvageReport("game.log", strings.NewReader(log))
	if l == nil || rep.Inferred != 1 {
		t.Fatalf("%v", rep.Problems)
	}
	var press *Event
	for i, e := range l.Events {
		if e.Verb == Press {
			press = &l.Events[i]
		}
	}
	if press == nil || press.At != 1867 || press.Side != clock.White {
		t.Fatalf("the lost press came back as %v, want 1867 press white", press)
	}
	if msg := rep.Problems[0].Error(); !strings.Contains(msg, "its instant is not in the journal: it lay between 1667 and 2600, taken at 1867") {
		t.Errorf("problem %q", msg)
	}
}
