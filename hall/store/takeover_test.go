package store

import (
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/protocol"
)

// A takeover is the hall's ask answered ok by the spare: a refusal, or a
// reply to another command, makes none; the spare's game after the ask is
// the one that carries the board's on, until the spare goes on to
// another; a restart of the hall keeps it.
func TestTakeoverRecorded(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	at := time.UnixMilli(1772904612400)
	s.PutState(7, stateMsg(t, 7, "0007", at.UnixMilli(), true), at)
	s.PutState(9, stateMsg(t, 9, "0009", at.UnixMilli(), false), at)

	// Refused: nothing.
	s.AskTakeover(9, 7, "h1")
	s.PutReply(9, protocol.Reply{ID: "h1", Cmd: "takeover", Board: 9, Error: "a game is in progress on this clock"}, at)
	if b, _ := s.Board(9); len(b.Takeovers) != 0 || b.AskedTakeover != nil {
		t.Errorf("a refused takeover: %+v, asked %+v", b.Takeovers, b.AskedTakeover)
	}
	// Another command's ok: nothing yet.
	s.AskTakeover(9, 7, "h2")
	s.PutReply(9, protocol.Reply{ID: "h0", Cmd: "pause", Board: 9, OK: true}, at)
	if b, _ := s.Board(9); len(b.Takeovers) != 0 || b.AskedTakeover == nil {
		t.Errorf("after another command's ok: %+v, asked %+v", b.Takeovers, b.AskedTakeover)
	}
	// The ok, then the spare's new game.
	s.PutReply(9, protocol.Reply{ID: "h2", Cmd: "takeover", Board: 9, OK: true}, at)
	if _, _, ok := s.Replaced(7); ok {
		t.Error("board 7 replaced before the spare has a game of the takeover")
	}
	s.PutState(9, stateMsg(t, 9, "0010", at.UnixMilli(), true), at)
	sp, to, ok := s.Replaced(7)
	if !ok || sp.Board != 9 || to != (Takeover{Board: 7, Game: "0007", SpareGame: "0010", Before: "0009", ID: "h2", At: at.UnixMilli()}) {
		t.Fatalf("board 7: replaced %v by %d, %+v", ok, sp.Board, to)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, to2, ok := s.Replaced(7); !ok || to2 != to {
		t.Errorf("after a restart: %v %+v", ok, to2)
	}
	// The spare's next game is its own; the old one is still board 7's.
	s.PutState(9, stateMsg(t, 9, "0011", at.UnixMilli(), false), at)
	if _, _, ok := s.Replaced(7); ok {
		t.Error("board 7 still replaced after the spare's next game")
	}
	if b, _ := s.Board(9); func() bool { c, ok := b.Carried("0010"); return !ok || c.Board != 7 }() {
		t.Errorf("game 0010 no longer carries board 7's: %+v", b.Takeovers)
	}
}

// TestTakeoverEndsWhenTheBoardIsBack: board 7's own clock comes back (a
// new clock set as board 7) with a game of its own while the spare still
// plays the game it took over: the board's commands stay the spare's
// (a correction of the names reaches the game). Once the spare's game
// has its result, they are board 7's clock's again.
func TestTakeoverEndsWhenTheBoardIsBack(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	at := time.UnixMilli(1772904612400)
	s.PutState(7, stateMsg(t, 7, "0007", at.UnixMilli(), true), at)
	s.PutState(9, stateMsg(t, 9, "0009", at.UnixMilli(), false), at)
	s.AskTakeover(9, 7, "h1")
	s.PutReply(9, protocol.Reply{ID: "h1", Cmd: "takeover", Board: 9, OK: true}, at)
	s.PutState(9, stateMsg(t, 9, "0010", at.UnixMilli(), true), at)
	// Board 7's new clock, online with a game of its own.
	s.PutState(7, stateMsg(t, 7, "0100", at.UnixMilli(), false), at)
	s.PutOnline(7, protocol.OnlineMsg{Online: true, Clock: true}, at)
	if sp, _, ok := s.Replaced(7); !ok || sp.Board != 9 {
		t.Fatalf("while the spare's game runs: replaced %v by %d, want the spare", ok, sp.Board)
	}
	// The spare's game ends.
	done := stateMsg(t, 9, "0010", at.UnixMilli(), true)
	done.State.Result, done.State.ResultBy = "1-0", "players"
	s.PutState(9, done, at)
	if sp, _, ok := s.Replaced(7); ok {
		t.Errorf("after the spare's result, board 7's commands still go to clock %d", sp.Board)
	}
	// Board 7's clock offline again: the spare's game is the board's.
	s.PutOnline(7, protocol.OnlineMsg{Online: false, Reason: "lost"}, at)
	if _, _, ok := s.Replaced(7); !ok {
		t.Error("board 7 offline: its game is the spare's again")
	}
}
