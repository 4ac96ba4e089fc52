package eboard_test

import (
	"fmt"
	"time"

	"github.com/zeitnot/zeitnot/drivers/eboard"
	"github.com/zeitnot/zeitnot/engine/fen"
)

func ExampleSettler() {
	const ms = time.Millisecond
	s := eboard.NewSettler(nil) // a position must stand 250 ms
	lifted := fen.Start
	lifted[fen.NewSquare(4, 1)] = fen.Empty // e2 lifted
	moved := lifted
	moved[fen.NewSquare(4, 3)] = fen.WhitePawn // and put on e4

	s.Observe(0, fen.Start)
	s.Observe(1000*ms, lifted)
	s.Observe(1300*ms, moved)
	s.Press(1400 * ms) // the lever, 100 ms after the pawn is down

	got, next := s.Advance(1400 * ms)
	fmt.Println(len(got), "answers; ask again at", next)
	got, _ = s.Advance(next)
	fmt.Println(got[0].OK, got[0].Position.String())
	// Output:
	// 0 answers; ask again at 1.55s
	// true rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR
}
