package moves_test

import (
	"fmt"
	"log"

	"github.com/zeitnot/zeitnot/appliance/eboard/moves"
	"github.com/zeitnot/zeitnot/engine/fen"
)

func ExampleTracker_Press() {
	t, err := moves.New("") // a game from the initial position
	if err != nil {
		log.Fatal(err)
	}
	if err := t.Check(&fen.Start); err != nil {
		log.Fatal(err) // the board is not set up right
	}
	board := fen.MustParsePlacement("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR")
	m, err := t.Press(&board)
	fmt.Println(m.Ply, m.UCI, m.SAN, err)

	wrong := fen.MustParsePlacement("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBN1")
	_, err = t.Press(&wrong)
	fmt.Println(err)
	// Output:
	// 1 e2e4 e4 <nil>
	// moves: ILLEGAL? no legal move from rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1 leads to the board rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBN1 (changed: h1)
}
