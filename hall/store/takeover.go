package store

import (
	"slices"
	"time"

	"github.com/zeitnot/zeitnot/protocol"
)

// A takeover is a game a spare clock carries on for a broken board's
// (FIDE 6.10). The game stays on its board: the hall records the takeover
// when the spare says ok to the hall's command, and the pages, the PGN and
// the round's results put the spare's game under the board it took over;
// the broken board's clock is retired from the pages while the spare
// carries its game (docs/arbiter-manual.md, "A spare clock").
//
// The hall knows it from its own command, not from the spare's log: the
// journal's note of a takeover is a comment, which the log the hall gets
// leaves out, and the spare's times are settled to the takeover's
// instant, so no state of the broken board matches them.

// MaxTakeovers is the most takeovers one spare clock keeps.
const MaxTakeovers = 100

// Takeover is one game a spare clock (the board it is kept under) took
// over.
type Takeover struct {
	// Board is the board whose game the spare took over, Game that
	// board's game then ("" if the hall had none).
	Board int    `json:"board"`
	Game  string `json:"game,omitempty"`
	// SpareGame is the spare's game that carries it on: the first game
	// its state names after the command other than Before (the spare's
	// game when the hall sent it); "" until then.
	SpareGame string `json:"spare_game,omitempty"`
	Before    string `json:"before,omitempty"`
	// ID is the hall's command; At when the spare said ok, Unix ms.
	ID string `json:"id"`
	At int64  `json:"at,omitempty"`
}

// AskTakeover records that the hall sent spare the takeover of board's
// game as command id: the spare's ok reply to it (PutReply) makes it a
// takeover. A later ask replaces one not answered.
func (s *Store) AskTakeover(spare, board int, id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sp, src := s.board(spare), s.board(board)
	sp.AskedTakeover = &Takeover{Board: board, Game: src.Game, Before: sp.Game, ID: id}
	s.dirty[spare] = true
}

// takeoverReply makes b's asked takeover a takeover when m answers it,
// at; s.mu held. It reports the broken board whose pages change, 0 if
// none.
func (s *Store) takeoverReply(b *Board, m protocol.Reply, at time.Time) int {
	t := b.AskedTakeover
	if t == nil || m.ID != t.ID || m.Cmd != (protocol.TakeoverCmd{}).Name() {
		return 0
	}
	b.AskedTakeover = nil
	if !m.OK {
		return 0
	}
	t.At = at.UnixMilli()
	if b.Game != "" && b.Game != t.Before {
		t.SpareGame = b.Game
	}
	if len(b.Takeovers) >= MaxTakeovers {
		b.Takeovers = slices.Delete(b.Takeovers, 0, 1)
	}
	b.Takeovers = append(b.Takeovers, *t)
	src := s.board(t.Board)
	src.ReplacedBy = b.Board
	return src.Board
}

// takeoverState names the spare game of b's last takeover from the
// state of game; s.mu held.
func takeoverState(b *Board, game string) {
	if len(b.Takeovers) == 0 || game == "" {
		return
	}
	t := &b.Takeovers[len(b.Takeovers)-1]
	if t.SpareGame == "" && game != t.Before {
		t.SpareGame = game
	}
}

// Carrying is the takeover whose game b's clock is on now: the board it
// is shown as. ok is false when b carries no other board's game.
func (b *Board) Carrying() (t Takeover, ok bool) {
	if n := len(b.Takeovers); n > 0 && b.Game != "" && b.Takeovers[n-1].SpareGame == b.Game {
		return b.Takeovers[n-1], true
	}
	return Takeover{}, false
}

// Carried is the takeover whose game b's game g carries on, if one does.
func (b *Board) Carried(g string) (t Takeover, ok bool) {
	for i := len(b.Takeovers) - 1; i >= 0; i-- {
		if b.Takeovers[i].SpareGame == g && g != "" {
			return b.Takeovers[i], true
		}
	}
	return Takeover{}, false
}

// Replaced is the spare clock that carries board n's game now, and that
// takeover; ok is false when none does.
func (s *Store) Replaced(n int) (spare Board, t Takeover, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.boards[n]
	if b == nil || b.ReplacedBy == 0 {
		return Board{}, Takeover{}, false
	}
	sp := s.boards[b.ReplacedBy]
	if sp == nil {
		return Board{}, Takeover{}, false
	}
	t, ok = sp.Carrying()
	if !ok || t.Board != n {
		return Board{}, Takeover{}, false
	}
	// The board's own clock is back (repaired, or a new one set as the
	// board) with a game of its own, and the spare's game has ended: the
	// takeover is over, and the board's commands are its own clock's
	// again. While the spare's game runs they stay the spare's.
	if b.IsOnline() && b.Game != t.Game && !sp.runs(t.SpareGame) {
		return Board{}, Takeover{}, false
	}
	return sp.clone(), t, true
}

// runs reports whether game g is the board's current game and has started
// without a result yet.
func (b *Board) runs(g string) bool {
	return b.Game == g && b.State != nil && b.State.State.Started && b.State.State.Result == ""
}
