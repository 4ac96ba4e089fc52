package store

import (
	"fmt"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/protocol"
)

// pairedState is a state of board n's game with round's pairing and the
// names it came with.
func pairedState(t *testing.T, n int, game string, round int, white string) *protocol.StateMsg {
	t.Helper()
	raw := fmt.Sprintf(`{"hall":"club","board":%d,"game":%q,"time":1000,"state":{"at":0,"running":"none","paused":false,"first_flag":"none",`+
		`"white":{"ms":1,"moves":0,"period":1,"mode":"fischer"},"black":{"ms":1,"moves":0,"period":1,"mode":"fischer"},"to_move":"white","started":false,"stopped":false,`+
		`"players":{"white":%q,"black":"B"},"pairing":{"round":%d,"board":%d}}}`, n, game, white, round, n)
	m, err := protocol.ParseStateMsg([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	return &m
}

// Each game keeps the pairing it was opened for, and the names it came
// with, over a restart; names the hall sends later do not rename it.
func TestPairingsKept(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	s.PutState(5, pairedState(t, 5, "0001", 1, "A"), time.UnixMilli(1000))
	s.PutState(5, pairedState(t, 5, "0002", 2, "C"), time.UnixMilli(2000))
	s.PutState(5, pairedState(t, 5, "0002", 2, "D"), time.UnixMilli(3000)) // a later state: the game's names stay those of its pairing
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	b, _ := s.Board(5)
	if g1, g2, g3 := b.GameOf(1, 5), b.GameOf(2, 5), b.GameOf(3, 5); g1 != "0001" || g2 != "0002" || g3 != "" {
		t.Errorf("GameOf: round 1 %q, round 2 %q, round 3 %q", g1, g2, g3)
	}
	if b.GameOf(1, 4) != "" {
		t.Error("board 5's game bound to board 4's pairing")
	}
	if p := b.Players["0001"]; p.White != "A" {
		t.Errorf("round 1's game: %+v", p)
	}
	if p := b.Players["0002"]; p.White != "C" {
		t.Errorf("round 2's game: %+v", p)
	}
}

// The rounds before the current one are kept, each with its boards and
// the hall's results; setting a round again drops it and those after.
func TestTournamentRounds(t *testing.T) {
	dir := t.TempDir()
	ts, err := OpenTournament(dir)
	if err != nil {
		t.Fatal(err)
	}
	ts.Update(func(k *Tournament) error {
		k.NextRound(1, [][2]int{{1, 2}})
		k.Results = map[int]string{1: "1-0"}
		return nil
	})
	ts.Update(func(k *Tournament) error { k.NextRound(2, [][2]int{{2, 1}}); return nil })
	ts, err = OpenTournament(dir)
	if err != nil {
		t.Fatal(err)
	}
	k, _ := ts.Get()
	r1, ok1 := k.RoundOf(1)
	r2, ok2 := k.RoundOf(2)
	if !ok1 || !ok2 || r1.Results[1] != "1-0" || r2.Boards[0] != [2]int{2, 1} || len(r2.Results) != 0 || k.Round != 2 {
		t.Fatalf("rounds after a reopen: %+v", k)
	}
	ts.Update(func(k *Tournament) error { k.NextRound(1, [][2]int{{1, 2}}); return nil })
	k, _ = ts.Get()
	if _, ok := k.RoundOf(2); ok || len(k.Past) != 0 || k.Round != 1 {
		t.Errorf("round 1 set again: %+v", k)
	}
}
