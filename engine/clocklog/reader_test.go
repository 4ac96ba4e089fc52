package clocklog

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

// format2 is a format 2 journal of log text: its comments and blank lines
// dropped, each line with its checksum.
func format2(t *testing.T, text string) []string {
	t.Helper()
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if i := commentAt(l); i >= 0 {
			l = l[:i]
		}
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if l == "format 1" {
			l = "format 2"
		}
		out = append(out, WithChecksum(l))
	}
	return out
}

// TestReaderIsParse: a Reader fed a journal line by line has, after each
// line, the log Parse reads of the lines so far, and its Until is Parse of
// the lines up to an instant.
func TestReaderIsParse(t *testing.T) {
	for _, name := range []string{"testdata/example.log", "testdata/overstep-across-periods.log"} {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		lines := format2(t, string(data))
		r := NewReader(name)
		for i, l := range lines {
			if err := r.Add(l); err != nil {
				t.Fatalf("%s: line %d: %v", name, i+1, err)
			}
			want, werr := Parse(name, strings.NewReader(strings.Join(lines[:i+1], "\n")+"\n"))
			got, gerr := r.Log()
			if (werr == nil) != (gerr == nil) {
				t.Fatalf("%s: after line %d: Log's error %v, Parse's %v", name, i+1, gerr, werr)
			}
			if werr == nil && !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: after line %d: Log\n%+v\nParse\n%+v", name, i+1, got, want)
			}
		}
		whole, err := r.Log()
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range whole.Events {
			var upTo []string
			for _, l := range lines {
				if at, ok := Instant(l); ok && at > e.At {
					break
				}
				upTo = append(upTo, l)
			}
			want, err := Parse(name, strings.NewReader(strings.Join(upTo, "\n")+"\n"))
			if err != nil {
				t.Fatal(err)
			}
			if got := whole.Until(e.At); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: Until(%d) has %d events, Parse of the lines up to it %d", name, e.At, len(got.Events), len(want.Events))
			}
		}
	}
}

// TestInstant: the instant of an event line, as the reader reads it, and
// none for any other line.
func TestInstant(t *testing.T) {
	type instantOf struct {
		line string
		at   int64 // when ok
		ok   bool
	}
	for _, tc := range []instantOf{
		{"4000 press white *5a0bcfa9", 4000, true},
		{"0 start", 0, true},
		{"812340 move 1 e4 e2e4", 812340, true},
		{"  12\tpause", 12, true},
		{"2592000000 show", 2592000000, true},
		{"2592000001 show", 0, false}, // past clock.MaxInstant
		{"+5 press white", 0, false},
		{"-5 press white", 0, false},
		{"5x press white", 0, false},
		{"control 300+2 *6c2bd659", 0, false},
		{"format 2", 0, false},
		{"# a note", 0, false},
		{"", 0, false},
		{"99999999999999999999999 show", 0, false},
	} {
		if at, ok := Instant(tc.line); at != tc.at && tc.ok || ok != tc.ok {
			t.Errorf("Instant(%q) = %d, %t; want %d, %t", tc.line, at, ok, tc.at, tc.ok)
		}
	}
}

// TestReaderStops: a Reader stops at the first line it cannot use, with
// Parse's error naming the line, and a log that does not change as it
// reads on.
func TestReaderStops(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lines []string
		want  string
	}{
		{"no checksum", []string{WithChecksum("control 300"), "0 start"}, "game:2: no checksum"},
		{"bad checksum", []string{WithChecksum("control 300"), strings.Replace(WithChecksum("0 start"), "start", "stArt", 1)}, "game:2: checksum mismatch"},
		{"back in time", []string{WithChecksum("control 300"), WithChecksum("10 start"), WithChecksum("5 press white")}, "game:3: instant 5 is before the previous event's 10"},
		{"header after events", []string{WithChecksum("control 300"), WithChecksum("0 start"), WithChecksum("control 60")}, `game:3: "control" after the first event`},
		{"no control", []string{WithChecksum("format 2"), WithChecksum("0 start")}, "game:2: no control line"},
		{"unknown verb", []string{WithChecksum("control 300"), WithChecksum("0 launch")}, "game:2:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := NewReader("game")
			var err error
			for _, l := range tc.lines {
				if err = r.Add(l); err != nil {
					break
				}
			}
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q...", err, tc.want)
			}
			if r.Add(WithChecksum("20 press black")) != err || r.Err() != err {
				t.Errorf("a line after the error: the Reader did not stay stopped")
			}
			if _, lerr := r.Log(); lerr != err {
				t.Errorf("Log: %v, want %v", lerr, err)
			}
		})
	}
	r := NewReader("game")
	r.Add(WithChecksum("control 300"))
	r.Add(WithChecksum("0 start"))
	before, _ := r.Log()
	r.Add(WithChecksum("1000 press white"))
	after, _ := r.Log()
	if len(before.Events) != 1 || len(after.Events) != 2 {
		t.Errorf("events %d then %d, want 1 then 2", len(before.Events), len(after.Events))
	}
}

// TestReaderAddChecked: AddChecked reads a journal as Add does, and takes
// the checksum as the caller found it: a line whose checksum it is told is
// right is not summed again, while Add refuses the same line.
func TestReaderAddChecked(t *testing.T) {
	data, err := os.ReadFile("testdata/example.log")
	if err != nil {
		t.Fatal(err)
	}
	lines := format2(t, string(data))
	a, c := NewReader("a"), NewReader("c")
	for i, l := range lines {
		if err := a.Add(l); err != nil {
			t.Fatalf("Add line %d: %v", i+1, err)
		}
		if err := c.AddChecked(l); err != nil {
			t.Fatalf("AddChecked line %d: %v", i+1, err)
		}
	}
	la, _ := a.Log()
	lc, _ := c.Log()
	if !reflect.DeepEqual(la, lc) {
		t.Errorf("AddChecked read another log than Add:\n%+v\n%+v", lc, la)
	}
	bad := lines[len(lines)-1]
	bad = bad[:len(bad)-1] + string("0123456789abcdef"[(strings.IndexByte("0123456789abcdef", bad[len(bad)-1])+1)%16])
	r := NewReader("x")
	for _, l := range lines[:len(lines)-1] {
		r.Add(l)
	}
	if err := r.AddChecked(bad); err != nil {
		t.Errorf("AddChecked summed the line again: %v", err)
	}
	r = NewReader("x")
	for _, l := range lines[:len(lines)-1] {
		r.Add(l)
	}
	if err := r.Add(bad); err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Errorf("Add of a line with a wrong checksum: %v", err)
	}
	// A line that does not end like a checksum is read as Add reads it.
	if err := NewReader("y").AddChecked("format 2"); err == nil {
		t.Error("AddChecked took a line without a checksum")
	}
}
