package journal

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"syscall"
	"testing"
	"testing/iotest"

	"github.com/zeitnot/zeitnot/engine/clocklog"
)

func TestUnpad(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", ""},
		{"\x00\x00\x00", ""},
		{"a\n\x00\x00", "a\n"},
		{"a\n", "a\n"},
		{"a\x00b\n\x00", "a\x00b\n"},
		{"3678 p\x00\x00\x00", "3678 p"},
		{"\x00\x00x\n", "\x00\x00x\n"},
		{"a\n" + strings.Repeat("\x00", 100000) + "b\n" + strings.Repeat("\x00", 70000), "a\n" + strings.Repeat("\x00", 100000) + "b\n"},
	}
	for _, tc := range cases {
		for name, r := range map[string]io.Reader{
			"whole":         Unpad(strings.NewReader(tc.in)),
			"one byte":      Unpad(iotest.OneByteReader(strings.NewReader(tc.in))),
			"one byte read": iotest.OneByteReader(Unpad(strings.NewReader(tc.in))),
		} {
			got, err := io.ReadAll(r)
			if err != nil || string(got) != tc.want {
				t.Errorf("%s %q: got %q, %v", name, trunc(tc.in), trunc(string(got)), err)
			}
		}
	}
	// A read error is passed on.
	r := Unpad(io.MultiReader(strings.NewReader("a\n\x00"), iotest.ErrReader(syscall.EIO)))
	if got, err := io.ReadAll(r); !errors.Is(err, syscall.EIO) || string(got) != "a\n" {
		t.Errorf("read error: %q %v", got, err)
	}
}

func trunc(s string) string {
	if len(s) > 20 {
		return s[:20] + "..."
	}
	return s
}

// whole is what the clock log's reader says of the whole unpadded text:
// the events it keeps, the line of the first error, the offset after the
// last line it keeps.
func whole(text []byte) (events []clocklog.Event, badLine int, good int64, ok bool) {
	b, _ := io.ReadAll(Unpad(bytes.NewReader(text)))
	l, errs := clocklog.Salvage(File, bytes.NewReader(b))
	if l == nil {
		return nil, 0, 0, false
	}
	lines := bytes.SplitAfter(b, []byte{'\n'})
	good = int64(len(b))
	if len(errs) > 0 {
		var le *clocklog.Error
		if errors.As(errs[0], &le) {
			badLine = le.Line
			good = 0
			for _, ln := range lines[:badLine-1] {
				good += int64(len(ln))
			}
		}
	}
	return l.Events, badLine, good, true
}

// checkScan compares scanJournal, reading in chunks of a few lines, with
// the clock log's reader given the whole text.
func checkScan(t *testing.T, text []byte, chunk int) {
	t.Helper()
	defer func(c int) { chunkText = c }(chunkText)
	chunkText = chunk
	events, badLine, good, ok := whole(text)
	s := scanJournal(File, bytes.NewReader(text))
	if !ok {
		if s.header != nil {
			t.Fatalf("%q: scan found a header the whole reader refuses", text)
		}
		return
	}
	if s.header == nil {
		t.Fatalf("%q: scan refused a header the whole reader takes: %v", text, s.dropped)
	}
	if s.events != len(events) || len(events) > 0 && s.last != events[len(events)-1].At {
		t.Fatalf("%q, chunks of %d: scan kept %d events to %d, whole %d", text, chunk, s.events, s.last, len(events))
	}
	if s.good != good {
		t.Fatalf("%q, chunks of %d: good up to %d, whole %d", text, chunk, s.good, good)
	}
	if badLine > 0 {
		var le *clocklog.Error
		if len(s.dropped) == 0 || !errors.As(s.dropped[0], &le) || le.Line != badLine {
			t.Fatalf("%q, chunks of %d: dropped %v, whole reader fails at line %d", text, chunk, s.dropped, badLine)
		}
	} else if len(s.dropped) > 0 {
		t.Fatalf("%q: dropped %v, whole reader nothing", text, s.dropped)
	}
	// The clock is the one the events give.
	c, _ := clocklog.Replay(&clocklog.Log{Header: *s.header, Events: events}, clocklog.Handlers{})
	if c.State(s.last) != s.clock.State(s.last) {
		t.Fatalf("%q: scan's clock %+v, whole %+v", text, s.clock.State(s.last), c.State(s.last))
	}
}

var scanCases = []string{
	"format 1\ncontrol 300\n0 start\n1000 press white\n2000 press black\n3000 checkpoint\n",
	"control 300\n# a note\n\n0 start\n# another\n1000 press white\n\x00\x00\x00",
	"control 300\n0 start\n1000 press white\n2000 pre\x00\x00",
	"control 300\n0 start\n1000 press white\n\x00\x00ess black\n\x00",
	"control 300\n0 start\n1000 press white\ncontrol 600\n2000 press black\n",
	"control 300\n0 start\n5000 press white\n4000 press black\n6000 pause\n",
	"control 300\n0 start\n1000 press white\n" + strings.Repeat("9", 5000) + "\n3000 pause\n",
	"control 300\noption after-flag continue\n0 start\n400000 checkpoint\n",
	"control 300\n",
	"",
	"contr",
	"0 start\ncontrol 300\n",
	"control white 300\n# between\ncontrol black 600\n0 start\n10 press white\n",
	"control 300\n0 start\n1000 press white\n2000 press black",
}

func TestScanMatchesWholeReader(t *testing.T) {
	for _, text := range scanCases {
		for _, chunk := range []int{1, 7, 20, 40, 64 << 10} {
			checkScan(t, []byte(text), chunk)
		}
	}
}

func FuzzScan(f *testing.F) {
	for _, s := range scanCases {
		f.Add([]byte(s), uint8(10))
	}
	f.Fuzz(func(t *testing.T, text []byte, chunk uint8) {
		checkScan(t, text, int(chunk)+1)
	})
}

// TestScanReadError: a read error in the middle of the file keeps what
// came before it and says where the rest was lost.
func TestScanReadError(t *testing.T) {
	good := "control 300\n0 start\n1000 press white\n"
	r := io.MultiReader(strings.NewReader(good+"2000 pre"), iotest.ErrReader(syscall.EIO))
	s := scanJournal(File, r)
	if s.header == nil || s.events != 2 || s.good != int64(len(good)) || !errors.Is(s.readErr, syscall.EIO) {
		t.Fatalf("%+v", s)
	}
	if msg := errors.Join(s.dropped...).Error(); !strings.Contains(msg, "game.log: read error after byte 37: input/output error") {
		t.Errorf("dropped %q", msg)
	}
	// An error in the middle of a long line: none of it is used.
	defer func(c int) { chunkText = c }(chunkText)
	chunkText = 10
	long := "# " + strings.Repeat("x", 100<<10)
	r = io.MultiReader(strings.NewReader(good+long), iotest.ErrReader(syscall.EIO))
	if s := scanJournal(File, r); s.events != 2 || s.good != int64(len(good)) || s.readErr == nil {
		t.Errorf("error in a long line: %d events, good to %d", s.events, s.good)
	}
}
