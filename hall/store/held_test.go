package store

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestFirstLineStands: another line with a right checksum for a seq the
// store has is evidence, never served; after a restart too. Past
// MaxConflicts, such lines are refused.
func TestFirstLineStands(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	real := []string{sum("format 2"), sum("0 start"), sum("1000 press white"), sum("2000 result 0-1 players")}
	for i, l := range real {
		if _, err := s.PutLine(3, "g", int64(i+1), l); err != nil {
			t.Fatal(err)
		}
	}
	forged := sum("1000 result 1-0 players")
	if _, err := s.PutLine(3, "g", 4, forged); err != nil {
		t.Fatalf("the forged line, kept as evidence: %v", err)
	}
	for i := 1; i < MaxConflicts; i++ {
		if _, err := s.PutLine(3, "g", 3, sum(fmt.Sprintf("%d press white", 1000+i))); err != nil {
			t.Fatalf("conflict %d: %v", i+1, err)
		}
	}
	if _, err := s.PutLine(3, "g", 3, sum("999 press white")); err == nil || !strings.Contains(err.Error(), "the most the hall keeps") {
		t.Errorf("conflict %d: %v", MaxConflicts+1, err)
	}
	check := func(s *Store, when string) {
		if lines, _ := s.Lines(3, "g"); !slices.Equal(lines, real) {
			t.Errorf("%s: served %q", when, lines)
		}
		cs := s.Conflicts(3, "g")
		if len(cs) != MaxConflicts || cs[0] != (Conflict{Seq: 4, Kept: real[3], SetAside: forged, Why: "another line for a seq the hall had: the first stands"}) {
			t.Errorf("%s: %d conflicts, the first %+v", when, len(cs), cs[0])
		}
		if n := s.ConflictCount(3, "g"); n != MaxConflicts {
			t.Errorf("%s: ConflictCount %d", when, n)
		}
	}
	check(s, "at once")
	s.Close()
	if s, err = Open(dir); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	check(s, "after a restart")
}

// TestHeldLines: a line past a gap is held and blocks nothing. Once the
// gap is filled a held line that fits is taken, one that goes back in
// time is evidence and its seq waits for the real line; another line for
// a held seq is evidence. At most MaxHeld lines are held. The same after
// a restart.
func TestHeldLines(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	put := func(seq int64, line string) error {
		_, err := s.PutLine(5, "g", seq, line)
		return err
	}
	real := []string{sum("format 2"), sum("0 start")}
	for i := 1; i <= 12; i++ {
		real = append(real, sum(fmt.Sprintf("%d press white", i*1000)))
	}
	for i := range 4 { // lines 1-4
		if err := put(int64(i+1), real[i]); err != nil {
			t.Fatal(err)
		}
	}
	// Ahead: line 9 with line 4's instant (forged), line 11 as the clock
	// has it (lost lines before it), another line for 11.
	forged := sum("2000 press white")
	for _, l := range []struct {
		seq  int64
		line string
	}{{9, forged}, {11, real[10]}, {11, sum("1 press black")}} {
		if err := put(l.seq, l.line); err != nil {
			t.Fatalf("held line %d: %v", l.seq, err)
		}
	}
	for i := 4; i < len(real); i++ { // the real lines 5-14 all go in
		if err := put(int64(i+1), real[i]); err != nil {
			t.Fatalf("real line %d: %v", i+1, err)
		}
	}
	check := func(s *Store, when string) {
		lines, waiting := s.Lines(5, "g")
		if !slices.Equal(lines, real) || waiting != 0 {
			t.Errorf("%s: %d lines (%d held), %d as the clock's", when, len(lines), waiting, equalPrefix(lines, real))
		}
		cs := s.Conflicts(5, "g")
		if len(cs) != 2 || cs[0].Seq != 11 || cs[0].Kept != real[10] || cs[1] != (Conflict{Seq: 9, Kept: real[8], SetAside: forged, Why: "held past a gap, then out of place: instant 2000 before line 8's 6000"}) {
			t.Errorf("%s: conflicts %+v", when, cs)
		}
	}
	check(s, "at once")
	s.Close()
	if s, err = Open(dir); err != nil {
		t.Fatal(err)
	}
	check(s, "after a restart")

	// A held line that fits is taken when the gap fills.
	if err := put(16, sum("14000 press black")); err != nil {
		t.Fatal(err)
	}
	if err := put(15, sum("13000 press white")); err != nil {
		t.Fatal(err)
	}
	if lines, waiting := s.Lines(5, "g"); len(lines) != 16 || waiting != 0 {
		t.Errorf("held line that fits: %d lines, %d held", len(lines), waiting)
	}
	// At most MaxHeld.
	for i := range MaxHeld {
		if err := put(int64(18+i), sum(fmt.Sprintf("%d press white", 20000+i))); err != nil {
			t.Fatalf("held line %d: %v", 18+i, err)
		}
	}
	if err := put(int64(18+MaxHeld), sum("90000 press white")); err == nil || !strings.Contains(err.Error(), "the most the hall holds") {
		t.Errorf("held line %d: %v", MaxHeld+1, err)
	}
	if err := put(17, sum("15000 press white")); err != nil {
		t.Fatalf("the gap's line: %v", err)
	}
	if lines, waiting := s.Lines(5, "g"); len(lines) != 17+MaxHeld || waiting != 0 {
		t.Errorf("after the gap: %d lines, %d held", len(lines), waiting)
	}
	s.Close()
}

// TestHeldLineFromTheFuture: a line published ahead with an instant far
// in the future fits when its gap fills and is taken; the link's line for
// its seq is then evidence. The next line in order cannot follow it: the
// held line is set aside, the line waits, and the link's lines from the
// set-aside seq (the hall's resend) make the log the clock's. After a
// restart too.
func TestHeldLineFromTheFuture(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	put := func(seq int64, line string) error {
		_, err := s.PutLine(6, "g", seq, line)
		return err
	}
	real := []string{sum("format 2"), sum("0 start")}
	for i := 1; i <= 10; i++ {
		real = append(real, sum(fmt.Sprintf("%d press white", i*1000)))
	}
	for i := range 4 {
		if err := put(int64(i+1), real[i]); err != nil {
			t.Fatal(err)
		}
	}
	forged := sum("999999 press white")
	if err := put(9, forged); err != nil {
		t.Fatal(err)
	}
	for i := 4; i < 10; i++ { // the link's lines 5-10, as they come live
		if err := put(int64(i+1), real[i]); err != nil {
			t.Fatalf("real line %d: %v", i+1, err)
		}
	}
	if first, _ := s.Missing(6, "g"); first != 9 {
		t.Fatalf("the first line missing: %d, want 9 (the forged line set aside)", first)
	}
	for i := 8; i < len(real); i++ { // the resend from line 9
		if err := put(int64(i+1), real[i]); err != nil {
			t.Fatalf("resent line %d: %v", i+1, err)
		}
	}
	check := func(s *Store, when string) {
		lines, waiting := s.Lines(6, "g")
		if !slices.Equal(lines, real) || waiting != 0 {
			t.Errorf("%s: %d lines (%d held), %d as the clock's", when, len(lines), waiting, equalPrefix(lines, real))
		}
		cs := s.Conflicts(6, "g")
		if len(cs) != 2 || cs[0].SetAside != real[8] || cs[1].Seq != 9 || cs[1].SetAside != forged || cs[1].Kept != real[8] {
			t.Errorf("%s: conflicts %+v", when, cs)
		}
	}
	check(s, "at once")
	s.Close()
	if s, err = Open(dir); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	check(s, "after a restart")
}
