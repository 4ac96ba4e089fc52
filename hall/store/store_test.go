package store

import (
	"fmt"
	"github.com/zeitnot/zeitnot/engine/clocklog"
	"github.com/zeitnot/zeitnot/protocol"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestLinesInOrderAfterGapsAndDuplicates(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []struct {
		seq  int64
		line string
		kept bool
	}{
		{1, sum("format 2"), true}, {2, sum("control 300+2"), true}, {2, sum("control 300+2"), false},
		{4, sum("4000 press white"), true}, {4, sum("4000 press white"), false}, {1, sum("format 2"), false},
	} {
		kept, err := s.PutLine(3, "0017", in.seq, in.line)
		if err != nil || kept != in.kept {
			t.Fatalf("PutLine(%d) = %v, %v; want %v", in.seq, kept, err, in.kept)
		}
	}
	lines, waiting := s.Lines(3, "0017")
	if !slices.Equal(lines, []string{sum("format 2"), sum("control 300+2")}) || waiting != 1 {
		t.Fatalf("Lines = %q, %d waiting", lines, waiting)
	}
	s.PutLine(3, "0017", 3, sum("0 start"))
	lines, waiting = s.Lines(3, "0017")
	if len(lines) != 4 || waiting != 0 || lines[3] != sum("4000 press white") {
		t.Fatalf("after the gap: %q, %d waiting", lines, waiting)
	}
	if st := s.Stats(); st.Duplicates != 3 {
		t.Errorf("duplicates %d, want 3", st.Duplicates)
	}
	s.PutState(3, stateMsg(t, 3, "0017", 1000, false), time.UnixMilli(1000))
	s.SetPlayers(3, "0017", Players{White: "A", Black: "B"})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// A torn last record (the hall stopped while writing) is cut off.
	f, _ := os.OpenFile(filepath.Join(dir, "games", "3", "0017.lines"), os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString("5 5000 pre")
	f.Close()

	s, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	lines, _ = s.Lines(3, "0017")
	if len(lines) != 4 {
		t.Fatalf("after a restart: %q", lines)
	}
	if kept, _ := s.PutLine(3, "0017", 5, sum("5000 press black")); !kept {
		t.Fatal("line 5 not kept after the torn record")
	}
	b, ok := s.Board(3)
	if !ok || b.State == nil || b.State.Board != 3 || b.State.Game != "0017" || b.State.State.Running != "none" || b.Players["0017"].White != "A" || !slices.Equal(b.Games, []string{"0017"}) {
		t.Fatalf("board after a restart: %+v", b)
	}
}

func TestRefused(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, c := range []struct {
		game string
		seq  int64
		line string
	}{
		{"../x", 1, "a"}, {"", 1, "a"}, {"g", 0, "a"}, {"g", 1, "a\nb"}, {"g", 1, string(make([]byte, protocol.MaxLine+1))},
	} {
		if _, err := s.PutLine(1, c.game, c.seq, c.line); err == nil {
			t.Errorf("PutLine(%q, %d) accepted", c.game, c.seq)
		}
	}
}

func TestSubscribersOverflow(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sub := s.Subscribe(2)
	for i := 0; i < 3; i++ {
		s.PutOnline(1, protocol.OnlineMsg{Online: true}, time.Now())
	}
	n := 0
	for range sub.C {
		n++
	}
	if n != 2 || !s.Overflowed(sub) {
		t.Errorf("%d events, overflowed %v", n, s.Overflowed(sub))
	}
}

// The time a game's clock was first seen running is kept, and kept over a
// restart of the hall: it dates the game's PGN.
func TestStartedKept(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	at := time.UnixMilli(1772904612400)
	s.PutState(5, stateMsg(t, 5, "0021", 1772900000000, false), at)
	s.PutState(5, stateMsg(t, 5, "0021", 1772904612400, true), at)
	s.PutState(5, stateMsg(t, 5, "0021", 1772999999999, true), at)
	s.PutState(5, stateMsg(t, 5, "0022", 1772999999999, false), at)
	b, _ := s.Board(5)
	if b.Started["0021"] != 1772904612400 || b.Started["0022"] != 0 {
		t.Fatalf("started %v", b.Started)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if b, _ := s2.Board(5); b.Started["0021"] != 1772904612400 {
		t.Errorf("after a restart: started %v", b.Started)
	}
}

// stateMsg is a state message of board n as intake takes it.
func stateMsg(t *testing.T, n int, game string, at int64, started bool) *protocol.StateMsg {
	t.Helper()
	raw := fmt.Sprintf(`{"hall":"club","board":%d,"game":%q,"time":%d,"state":{"at":0,"running":"none","paused":false,"first_flag":"none",`+
		`"white":{"ms":1,"moves":0,"period":1,"mode":"fischer"},"black":{"ms":1,"moves":0,"period":1,"mode":"fischer"},"to_move":"white","started":%t,"stopped":false}}`, n, game, at, started)
	m, err := protocol.ParseStateMsg([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	return &m
}

// sum is text as the clock's journal writes it, with its checksum.
func sum(text string) string { return clocklog.WithChecksum(text) }

// TestForgedLinesWhileTheLinkIsAway: while a board's link is away, a
// forger publishes lines for the next seqs; then the link comes back with
// the real ones. Lines without their checksum are refused, lines out of
// place too. Forged lines with right checksums came first for their seqs,
// and the store cannot tell them from the link's (the first line of a seq
// stands): the real ones meet them as conflicts, kept as evidence for the
// arbiter, after a restart too, and the rest of the game follows.
func TestForgedLinesWhileTheLinkIsAway(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	var journal []string
	journal = append(journal, sum("format 2"), sum("control 300+2"), sum("0 start"))
	for i := 1; i <= 40; i++ {
		journal = append(journal, sum(fmt.Sprintf("%d press %s", i*1000, []string{"white", "black"}[i%2])))
	}
	put := func(seq int64, line string) error {
		_, err := s.PutLine(9, "0042", seq, line)
		return err
	}
	for i := 0; i < 10; i++ { // the link's lines before it went away
		if err := put(int64(i+1), journal[i]); err != nil {
			t.Fatal(err)
		}
	}
	// 30 forged lines for seqs 11-40 without checksums: all refused.
	for seq := int64(11); seq <= 40; seq++ {
		if err := put(seq, fmt.Sprintf("%d press white", seq*500)); err == nil || !strings.Contains(err.Error(), "no format 2 checksum") {
			t.Fatalf("forged line %d without checksum: %v", seq, err)
		}
	}
	// A wrong checksum, and an instant before line 10's.
	if err := put(11, journal[10][:len(journal[10])-1]+"0"); err == nil || !strings.Contains(err.Error(), "checksum mismatch") {
		t.Errorf("wrong checksum: %v", err)
	}
	if err := put(11, sum("5 press white")); err == nil || !strings.Contains(err.Error(), "instant 5 before line 10's") {
		t.Errorf("instant going back: %v", err)
	}
	// Forged lines with right checksums for seqs 11-30: taken, for now.
	for seq := int64(11); seq <= 30; seq++ {
		if err := put(seq, sum(fmt.Sprintf("%d press white", 7000+seq*10))); err != nil {
			t.Fatalf("forged line %d: %v", seq, err)
		}
	}
	// The link is back: its real lines 11-30, then the rest of the game.
	for i := 10; i < len(journal); i++ {
		if err := put(int64(i+1), journal[i]); err != nil {
			t.Fatalf("the link's line %d: %v", i+1, err)
		}
	}
	served := slices.Clone(journal[:10])
	for seq := int64(11); seq <= 30; seq++ {
		served = append(served, sum(fmt.Sprintf("%d press white", 7000+seq*10)))
	}
	served = append(served, journal[30:]...)
	check := func(s *Store, when string) {
		lines, waiting := s.Lines(9, "0042")
		if !slices.Equal(lines, served) || waiting != 0 {
			t.Errorf("%s: the hall has %d lines (%d waiting), %d as served first of %d", when, len(lines), waiting, equalPrefix(lines, served), len(served))
		}
		cs := s.Conflicts(9, "0042")
		if len(cs) != 20 || cs[0].Seq != 11 || cs[0].Kept != served[10] || cs[0].SetAside != journal[10] || cs[19].Seq != 30 {
			t.Errorf("%s: conflicts %+v", when, cs)
		}
		if d := s.Disputed(9); d["0042"] != 20 {
			t.Errorf("%s: disputed %v", when, d)
		}
	}
	check(s, "at once")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	check(s, "after a restart")
}

func equalPrefix(a, b []string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}
