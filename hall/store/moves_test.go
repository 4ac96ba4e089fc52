package store

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/protocol"
)

// boardState is a state of board n's game with the board status bs (""
// for none), held at Unix ms unix with the clock at instant at.
func boardState(t *testing.T, n int, game string, unix, at int64, bs string) *protocol.StateMsg {
	t.Helper()
	board := ""
	if bs != "" {
		board = `,"board":` + bs
	}
	raw := fmt.Sprintf(`{"hall":"club","board":%d,"game":%q,"time":%d,"state":{"at":%d,"running":"white","paused":false,"first_flag":"none",`+
		`"white":{"ms":1,"moves":0,"period":1,"mode":"fischer"},"black":{"ms":1,"moves":0,"period":1,"mode":"fischer"},"to_move":"white","started":true,"stopped":false%s}}`, n, game, unix, at, board)
	m, err := protocol.ParseStateMsg([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	return &m
}

// The store keeps a game's moves from its move lines, its last board
// status and the epoch of its log, and marks the moves incomplete from
// missing_from or from the first press without a move line; a move line
// is announced as MovesChange, the other lines as LogChange; it all
// survives a restart.
func TestMoves(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	sub := s.Subscribe(64)
	lines := []string{"format 2", "control 300+2", "0 start", "1000 press white", "1200 move 1 e4 e2e4", "1500 show",
		"2000 press black", "2300 move 2 c5 c7c5"}
	for i, l := range lines {
		if _, err := s.PutLine(5, "0005-aaaaaa", int64(i+1), sum(l)); err != nil {
			t.Fatalf("line %d %q: %v", i+1, l, err)
		}
	}
	var moveEvents int
	for len(sub.C) > 0 {
		if ev := <-sub.C; ev.What == MovesChange {
			moveEvents++
		}
	}
	if moveEvents != 2 {
		t.Errorf("%d MovesChange events, want 2 (one a move line)", moveEvents)
	}
	m := s.Moves(5, "0005-aaaaaa")
	if !slices.Equal(m.SAN, []string{"e4", "c5"}) || !slices.Equal(m.UCI, []string{"e2e4", "c7c5"}) || m.IncompleteFrom != 0 || m.Status != nil || !m.HasBoard() {
		t.Fatalf("Moves = %+v", m)
	}
	// Press 3 has no move line, press 4 has: incomplete from 3.
	for i, l := range []string{"3000 press white", "4000 press black", "4300 move 4 Nc6 b8c6"} {
		s.PutLine(5, "0005-aaaaaa", int64(len(lines)+i+1), sum(l))
	}
	if m := s.Moves(5, "0005-aaaaaa"); m.IncompleteFrom != 3 || len(m.SAN) != 4 {
		t.Errorf("a press without its move line: IncompleteFrom %d, %d moves; want 3, 4", m.IncompleteFrom, len(m.SAN))
	}
	// The board status says the moves went missing at press 2.
	fen := "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
	s.PutState(5, boardState(t, 5, "0005-aaaaaa", 1772904612400, 4400, `{"state":"lost","fen":"`+fen+`","ply":2,"san":"c5","uci":"c7c5","missing_from":2}`), time.UnixMilli(1772904612400))
	m = s.Moves(5, "0005-aaaaaa")
	if m.IncompleteFrom != 2 || m.Status == nil || m.Status.State != protocol.BoardLost || m.Status.FEN != fen {
		t.Errorf("after a lost board's state: %+v", m)
	}
	// A game without a board has none.
	s.PutLine(6, "0006-aaaaaa", 1, sum("format 2"))
	s.PutLine(6, "0006-aaaaaa", 2, sum("control 300+2"))
	s.PutState(6, boardState(t, 6, "0006-aaaaaa", 1772904612400, 0, ""), time.UnixMilli(1772904612400))
	if m := s.Moves(6, "0006-aaaaaa"); m.HasBoard() || len(m.SAN) != 0 {
		t.Errorf("a game without a board: %+v", m)
	}
	s.Close()
	s, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	m = s.Moves(5, "0005-aaaaaa")
	if len(m.SAN) != 4 || m.SAN[3] != "Nc6" || m.IncompleteFrom != 2 || m.Status == nil {
		t.Errorf("after a restart: %+v", m)
	}
	if b, _ := s.Board(5); b.Epoch["0005-aaaaaa"] != 1772904612400-4400 {
		t.Errorf("epoch %d, want %d", b.Epoch["0005-aaaaaa"], 1772904612400-4400)
	}
}

// A set-up position: the moves go on from its FEN.
func TestMovesFromAPosition(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fen := "8/8/8/8/8/8/4k3/4K2R w K - 0 60"
	for i, l := range []string{"format 2", "control 300+2", "0 position 0 " + fen, "0 start", "1000 press white", "1100 move 1 O-O+ e1g1"} {
		if _, err := s.PutLine(1, "0001-aaaaaa", int64(i+1), sum(l)); err != nil {
			t.Fatal(err)
		}
	}
	if m := s.Moves(1, "0001-aaaaaa"); m.FEN != fen || !slices.Equal(m.SAN, []string{"O-O+"}) {
		t.Errorf("Moves = %+v", m)
	}
}

// BenchmarkMovesAfterAMoveLine: the cost, per move, of a game's moves in a
// view: a move line joins a game of 2,000 lines (a checkpoint a second)
// and the view reads the moves again.
func BenchmarkMovesAfterAMoveLine(b *testing.B) {
	s, err := Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	seq := int64(0)
	put := func(l string) {
		seq++
		if _, err := s.PutLine(1, "0001-aaaaaa", seq, sum(l)); err != nil {
			b.Fatal(err)
		}
	}
	put("format 2")
	put("control 5400+30")
	put("0 start")
	at, ply := int64(0), 0
	for i := 0; i < 2000; i++ {
		at += 1000
		if i%25 == 24 {
			ply++
			put(fmt.Sprintf("%d press %s", at, []string{"white", "black"}[(ply-1)%2]))
			put(fmt.Sprintf("%d move %d Nf3 g1f3", at+300, ply))
			continue
		}
		put(fmt.Sprintf("%d show", at))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ply++
		put(fmt.Sprintf("%d move %d Nf3 g1f3", at+300, ply))
		if m := s.Moves(1, "0001-aaaaaa"); len(m.SAN) != ply {
			b.Fatalf("%d moves, want %d", len(m.SAN), ply)
		}
	}
}
