package moves_test

import (
	"strings"
	"testing"

	"github.com/corentings/chess/v2"

	"github.com/zeitnot/zeitnot/drivers/eboard/simdgt"
	"github.com/zeitnot/zeitnot/drivers/eboard/simdgt/games"
	"github.com/zeitnot/zeitnot/engine/fen"
)

// TestCorpus plays every game of the corpus (real games from pychess's
// collections, stockfish's games of special moves) through the simulated
// board, the DGT driver, the Settler and the Tracker, and reads back every
// move, in UCI and in the source's SAN. Each game starts its gestures at
// another one, so every gesture meets every kind of move; the long run
// plays every game with all eight starts, and over a pseudo-terminal.
func TestCorpus(t *testing.T) {
	all, err := games.All()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) < 30 {
		t.Fatalf("%d games in the corpus", len(all))
	}
	starts := 1
	if !testing.Short() {
		starts = int(simdgt.NumGestures)
	}
	plies := 0
	for gi, g := range all {
		for k := range starts {
			first := simdgt.Gesture((gi + k) % int(simdgt.NumGestures))
			t.Run(g.Name+"/"+first.String(), func(t *testing.T) {
				board := fen.Start
				if g.FEN != "" {
					board = placement(t, g.FEN)
				}
				var r *rig
				if !testing.Short() && k == 0 {
					r = newPTYRig(t, board, g.FEN)
				} else {
					r = newRig(t, board, g.FEN)
				}
				if err := r.tracker.Check(&board); err != nil {
					t.Fatal(err)
				}
				h := simdgt.NewHand(board, 0)
				if err := h.Game(g.UCI, first); err != nil {
					t.Fatal(err)
				}
				r.play(h)
				if len(r.errs) > 0 {
					t.Fatalf("presses without a move: %v", r.errs)
				}
				if len(r.played) != len(g.UCI) {
					t.Fatalf("%d moves read back, want %d", len(r.played), len(g.UCI))
				}
				for i, m := range r.played {
					if m.UCI != g.UCI[i] || m.SAN != g.SAN[i] {
						t.Fatalf("ply %d: read %s %s, want %s %s (%s)", i+1, m.UCI, m.SAN, g.UCI[i], g.SAN[i], g.Source)
					}
				}
				plies += len(r.played)
			})
		}
	}
	t.Logf("%d games, %d plies read back", len(all), plies)
}

// TestCorpusSpecials: the corpus holds every special move for both sides,
// as the rules library reads its moves.
func TestCorpusSpecials(t *testing.T) {
	all, err := games.All()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, g := range all {
		from := g.FEN
		if from == "" {
			from = fen.StartFEN
		}
		var start chess.Position
		if err := start.UnmarshalText([]byte(from)); err != nil {
			t.Fatal(err)
		}
		pos := &start
		for i, u := range g.UCI {
			m, err := chess.UCINotation{}.Decode(pos, u)
			if err != nil {
				t.Fatalf("%s ply %d %s: %v", g.Name, i+1, u, err)
			}
			b := pos.Board()
			p := b.Piece(m.S1())
			side := "white "
			if p.Color() == chess.Black {
				side = "black "
			}
			df := int(m.S2().File()) - int(m.S1().File())
			switch {
			case p.Type() == chess.King && df == 2:
				seen[side+"O-O"] = true
			case p.Type() == chess.King && df == -2:
				seen[side+"O-O-O"] = true
			case p.Type() == chess.Pawn && df != 0 && b.Piece(m.S2()) == chess.NoPiece:
				seen[side+"en passant"] = true
			case m.Promo() != chess.NoPieceType:
				seen[side+"="+strings.ToUpper(m.Promo().String())] = true
			}
			pos = pos.Update(m)
		}
	}
	for _, w := range []string{"white O-O", "white O-O-O", "black O-O", "black O-O-O", "white =Q", "white =R", "white =B", "white =N", "black =Q", "black =R", "black =B", "black =N", "white en passant", "black en passant"} {
		if !seen[w] {
			t.Errorf("no %s in the corpus", w)
		}
	}
}
