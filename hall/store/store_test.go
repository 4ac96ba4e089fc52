package store

import (
	"fmt"
	"github.com/zeitnot/zeitnot/protocol"
	"os"
	"path/filepath"
	"slices"
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
		{1, "format 1", true}, {2, "control 300+2", true}, {2, "control 300+2", false},
		{4, "4000 press white", true}, {4, "4000 press white", false}, {1, "format 1", false},
	} {
		kept, err := s.PutLine(3, "0017", in.seq, in.line)
		if err != nil || kept != in.kept {
			t.Fatalf("PutLine(%d) = %v, %v; want %v", in.seq, kept, err, in.kept)
		}
	}
	lines, waiting := s.Lines(3, "0017")
	if !slices.Equal(lines, []string{"format 1", "control 300+2"}) || waiting != 1 {
		t.Fatalf("Lines = %q, %d waiting", lines, waiting)
	}
	s.PutLine(3, "0017", 3, "0 start")
	lines, waiting = s.Lines(3, "0017")
	if len(lines) != 4 || waiting != 0 || lines[3] != "4000 press white" {
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
	if kept, _ := s.PutLine(3, "0017", 5, "5000 press black"); !kept {
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
		{"../x", 1, "a"}, {"", 1, "a"}, {"g", 0, "a"}, {"g", 1, "a\nb"}, {"g", 1, string(make([]byte, MaxLine+1))},
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
