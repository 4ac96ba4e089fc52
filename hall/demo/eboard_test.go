package demo

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/zeitnot/zeitnot/drivers/eboard/simdgt"
	"github.com/zeitnot/zeitnot/engine/fen"
)

// A game the clock recovered from an earlier run of make hall: the
// demo's arbiter sets the board up as the clock has it, and the players
// go on from there with legal moves (the corpus's games do not hold the
// position). Before, the boards stayed at the initial position and every
// recovered game showed BOARD? to its end.
func TestResumeARecoveredGame(t *testing.T) {
	sb, err := newSimBoard(1, EBoardOpts{Timing: simdgt.Timing{Touch: time.Millisecond, Pass: time.Millisecond, Press: time.Millisecond, Think: time.Millisecond}})
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer sb.close()
	ctx := context.Background()
	const position = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
	if err := sb.resume(ctx, position); err != nil {
		t.Fatal(err)
	}
	if got, want := sb.sim.Position(), fen.MustParsePlacement(position); got != want {
		t.Fatalf("the board after the set-up:\n%v\nwant\n%v", got, want)
	}
	if sb.move(ctx, "black") {
		t.Fatal("a move for Black, with White to move in the position")
	}
	for i, side := range []string{"white", "black", "white", "black"} {
		if !sb.move(ctx, side) {
			t.Fatalf("move %d (%s): none made", i+1, side)
		}
		want := strings.Fields(sb.free.Position().String())[0]
		if got := sb.sim.Position(); got != fen.MustParsePlacement(want) {
			t.Fatalf("move %d: the board is not the game's position %s", i+1, want)
		}
	}
	if n := len(sb.free.Moves()); n != 4 {
		t.Errorf("%d moves in the free game, want 4", n)
	}
	if err := sb.resume(ctx, "not a fen"); err == nil {
		t.Error("a position that is no FEN was set up")
	}
	sb.reset(ctx, 1)
	if sb.free != nil || sb.sim.Position() != fen.Start {
		t.Error("the next game is not the corpus's from the initial position")
	}
}
