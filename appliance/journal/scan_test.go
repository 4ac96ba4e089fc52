package journal

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"syscall"
	"testing"
	"testing/iotest"

	"github.com/zeitnot/zeitnot/engine/clock"
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

// chunks reads r in pieces of random sizes, from 1 byte to a few times
// clocklog's buffer, as a file system may return them.
type chunks struct {
	r   io.Reader
	rng *rand.Rand
}

func (c *chunks) Read(p []byte) (int, error) {
	n := 1 + c.rng.IntN(3*clocklog.MaxLine)
	if c.rng.IntN(4) == 0 {
		n = 1 + c.rng.IntN(16)
	}
	return c.r.Read(p[:min(len(p), n)])
}

// sameReport reports whether two salvage reports say the same.
func sameReport(a, b *clocklog.Report) bool {
	return a.File == b.File && a.Format == b.Format && a.Lines == b.Lines && a.Torn == b.Torn && a.Dropped == b.Dropped &&
		a.Repaired == b.Repaired && a.Inferred == b.Inferred && slices.Equal(a.Defaulted, b.Defaulted) &&
		fmt.Sprint(a.Problems) == fmt.Sprint(b.Problems)
}

// checkScan compares the journal's recovery of text (a journal file: lines,
// then zeros), read in pieces of random sizes, with clocklog.SalvageReport
// of the whole text without its padding: the same header, events, clock and
// report. A journal that is not whole is rewritten: the rewrite must read
// strictly as the same game.
func checkScan(t *testing.T, text []byte, seed uint64) {
	t.Helper()
	unpadded, _ := io.ReadAll(Unpad(bytes.NewReader(text)))
	want, wrep := clocklog.SalvageReport(File, bytes.NewReader(unpadded))
	s := scanJournal(File, &chunks{bytes.NewReader(text), rand.New(rand.NewPCG(seed, 1))})
	if !sameReport(s.report, wrep) {
		t.Fatalf("%q: the journal's report\n%+v %v\nwhole text's\n%+v %v", text, s.report, s.report.Problems, wrep, wrep.Problems)
	}
	if s.text != int64(len(unpadded)) {
		t.Fatalf("%q: %d bytes of text, want %d", text, s.text, len(unpadded))
	}
	if want == nil {
		if s.header != nil || s.clock != nil {
			t.Fatalf("%q: the journal has a game, the whole text none", text)
		}
		return
	}
	if s.header == nil || !s.header.Controls.Equal(want.Controls) || s.header.Options != want.Options || s.header.Format != want.Format {
		t.Fatalf("%q: header %+v, whole text's %+v", text, s.header, want.Header)
	}
	if s.events != len(want.Events) || len(want.Events) > 0 && s.last != want.Events[len(want.Events)-1].At {
		t.Fatalf("%q: the journal kept %d events to %d, the whole text %d", text, s.events, s.last, len(want.Events))
	}
	c, _ := clocklog.Replay(want, clocklog.Handlers{})
	if c.State(s.last) != s.clock.State(s.last) {
		t.Fatalf("%q: the journal's clock %+v, the whole text's %+v", text, s.clock.State(s.last), c.State(s.last))
	}
	if s.whole() != (wrep.Clean() && !wrep.Torn && wrep.Format == clocklog.Format) {
		t.Fatalf("%q: whole %v, report %v", text, s.whole(), wrep)
	}
	if s.whole() {
		return
	}
	var b bytes.Buffer
	if _, err := rewrite(&b, File, bytes.NewReader(text), s); err != nil {
		t.Fatalf("%q: rewrite: %v", text, err)
	}
	l, err := clocklog.Parse("rewritten", &b)
	if err != nil {
		t.Fatalf("%q: the rewritten journal does not read: %v\n%s", text, err, b.Bytes())
	}
	if !slices.Equal(l.Events, want.Events) || !l.Controls.Equal(want.Controls) || l.Options != want.Options || l.Format != clocklog.Format {
		t.Fatalf("%q: rewritten as\n%s", text, b.Bytes())
	}
}

// game is a format 2 journal as the journal writes it: the header, a start,
// presses, checkpoints naming the running side and restating the header,
// a note; zeros after it.
func game(t testing.TB) []byte {
	h := header(t, "300+2")
	b := clocklog.AppendHeader(nil, h)
	b = clocklog.AppendEvent(b, ev(0, clocklog.Start, clock.NoSide))
	b = clocklog.AppendCheckpoint(b, 1000, clock.White, h)
	b = clocklog.AppendEvent(b, ev(1500, clocklog.Press, clock.White))
	b = clocklog.AppendCheckpoint(b, 2500, clock.Black, h)
	b = clocklog.AppendComment(b, "a note")
	b = clocklog.AppendEvent(b, ev(3000, clocklog.Press, clock.Black))
	b = clocklog.AppendCheckpoint(b, 4000, clock.White, h)
	b = clocklog.AppendEvent(b, ev(4200, clocklog.Pause, clock.NoSide))
	return append(b, make([]byte, 100)...)
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
	"control 300\n0 start\n1000 press white\nXXXX\n2000 press white\n3000 press black\n",
}

// gameCases are game with damage: a flipped bit, a line destroyed, the
// header destroyed, a torn last line, zeros in a line.
func gameCases(t testing.TB) [][]byte {
	g := game(t)
	text := g[:bytes.IndexByte(g, 0)]
	lines := bytes.SplitAfter(text, []byte("\n"))
	var cases [][]byte
	cases = append(cases, g)
	flip := bytes.Clone(g)
	flip[len(text)-10] ^= 4
	cases = append(cases, flip)
	for i := range lines[:len(lines)-1] {
		b := bytes.Clone(g)
		off := len(bytes.Join(lines[:i], nil))
		for k := off; k < off+len(lines[i])-1; k++ {
			b[k] = '?'
		}
		cases = append(cases, b)
	}
	torn := bytes.Clone(g)
	clear(torn[len(text)-8:])
	cases = append(cases, torn)
	// A game longer than clocklog's Lookahead, presses lost at its start
	// and in its middle, a header line after them.
	h := header(t, "300+2")
	b := clocklog.AppendHeader(nil, h)
	b = clocklog.AppendEvent(b, ev(0, clocklog.Start, clock.NoSide))
	for i := 1; i < 3*clocklog.Lookahead; i++ {
		side := []clock.Side{clock.White, clock.Black}[i/10%2]
		if i%10 == 0 {
			b = clocklog.AppendEvent(b, ev(int64(i)*1000, clocklog.Press, side.Other()))
		} else {
			b = clocklog.AppendCheckpoint(b, int64(i)*1000, side, h)
		}
	}
	for _, press := range []string{"\n10000 press white", "\n200000 press black"} {
		i := bytes.Index(b, []byte(press)) + 1
		b[i+2] = 'x'
	}
	b = append(b, "control 600 *00000000\n"...)
	cases = append(cases, append(b, make([]byte, 5000)...))
	return cases
}

func TestScanMatchesWholeReader(t *testing.T) {
	var all [][]byte
	for _, c := range scanCases {
		all = append(all, []byte(c))
	}
	all = append(all, gameCases(t)...)
	for _, text := range all {
		for seed := uint64(0); seed < 8; seed++ {
			checkScan(t, text, seed)
		}
	}
}

func FuzzScan(f *testing.F) {
	for _, s := range scanCases {
		f.Add([]byte(s), uint64(10))
	}
	for _, b := range gameCases(f) {
		f.Add(b, uint64(3))
	}
	f.Fuzz(func(t *testing.T, text []byte, seed uint64) {
		checkScan(t, text, seed)
	})
}

// TestScanReadError: a read error in the middle of the file keeps what
// came before it and says where the rest was lost.
func TestScanReadError(t *testing.T) {
	good := "control 300\n0 start\n1000 press white\n"
	r := io.MultiReader(strings.NewReader(good+"2000 pre"), iotest.ErrReader(syscall.EIO))
	s := scanJournal(File, r)
	if s.header == nil || s.events != 2 || s.whole() || !errors.Is(s.readErr, syscall.EIO) || s.lost() != 1 {
		t.Fatalf("%+v", s)
	}
	if msg := errors.Join(s.dropped()...).Error(); msg != "game.log:4: read error in this line: input/output error: the line and the rest of the log are lost" {
		t.Errorf("dropped %q", msg)
	}
	// An error in the middle of a long line: none of it is used.
	long := "# " + strings.Repeat("x", 100<<10)
	r = io.MultiReader(strings.NewReader(good+long), iotest.ErrReader(syscall.EIO))
	if s := scanJournal(File, r); s.events != 2 || s.readErr == nil || s.lost() != 1 {
		t.Errorf("error in a long line: %d events, %d lines lost, %v", s.events, s.lost(), s.readErr)
	}
	// At a line's end: no line is cut.
	r = io.MultiReader(strings.NewReader(good), iotest.ErrReader(syscall.EIO))
	if s := scanJournal(File, r); s.events != 2 || s.readErr == nil || s.lost() != 0 || len(s.dropped()) != 1 {
		t.Errorf("error after a line: %d events, %d lines lost, %v", s.events, s.lost(), s.dropped())
	}
}

// TestRewriteAsRecovered: the fresh file holds the game as recovered: a
// read error that went away adds no event the clock has not had, and a
// file that lost events since it was read is refused.
func TestRewriteAsRecovered(t *testing.T) {
	good := "control 300\n0 start\n1000 press white\n"
	s := scanJournal(File, io.MultiReader(strings.NewReader(good), iotest.ErrReader(syscall.EIO)))
	var b bytes.Buffer
	if _, err := rewrite(&b, File, strings.NewReader(good+"2000 press black\n# after\n"), s); err != nil {
		t.Fatal(err)
	}
	l, err := clocklog.Parse("fresh", &b)
	if err != nil || len(l.Events) != 2 || l.Events[1].At != 1000 {
		t.Errorf("rewritten: %v %v", l, err)
	}
	if _, err := rewrite(io.Discard, File, strings.NewReader("control 300\n0 start\n"), s); err == nil || !strings.Contains(err.Error(), "changed") {
		t.Errorf("a file that lost an event: %v", err)
	}
}
