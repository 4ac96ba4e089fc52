package moves

import (
	"fmt"

	"github.com/zeitnot/zeitnot/engine/fen"
)

// Reachable says why no sequence of legal moves leads from the position
// from to the position to, or returns nil when nothing it checks rules
// that out. It checks what moves can never undo, side by side:
//   - a side never gains pieces: each piece it has beyond from's came
//     from a pawn's promotion, so it has at most as many pieces in all,
//     no more pawns, and at most as many promoted pieces as pawns lost;
//   - a pawn never moves back or sideways without a capture: each pawn of
//     to is one of from's on its file or, by captures, on another, on its
//     own rank or behind it, and the files crossed are at most the
//     captures the side can have made (the pieces the other side lost),
//     one pawn each, matched in full.
//
// It is a bound, not a proof: a position it passes may still be
// unreachable, but one it refuses is. The follower takes a position the
// board shows after moves went missing (it was unplugged) only if it is
// Reachable from the game's last one, so a set-up the game cannot lead to
// is never recorded as the game's.
func Reachable(from, to *fen.Placement) error {
	var nf, nt [2][7]int // by colour (white 0), by piece type (1 pawn .. 6 king)
	for _, p := range from {
		if c, k, ok := kind(p); ok {
			nf[c][k]++
		}
	}
	for _, p := range to {
		if c, k, ok := kind(p); ok {
			nt[c][k]++
		}
	}
	total := func(n [7]int) (s int) {
		for _, v := range n {
			s += v
		}
		return s
	}
	for c, side := range [2]string{"white", "black"} {
		if total(nt[c]) > total(nf[c]) {
			return fmt.Errorf("%s has %d pieces, %d before: a side never gains pieces", side, total(nt[c]), total(nf[c]))
		}
		lost := nf[c][pawn] - nt[c][pawn]
		if lost < 0 {
			return fmt.Errorf("%s has %d pawns, %d before: a side never gains pawns", side, nt[c][pawn], nf[c][pawn])
		}
		promoted := 0
		for k := knight; k <= queen; k++ {
			promoted += max(nt[c][k]-nf[c][k], 0)
		}
		if promoted > lost {
			return fmt.Errorf("%s has %d pieces more than before but %d pawns fewer to have promoted", side, promoted, lost)
		}
		captures := total(nf[1-c]) - total(nt[1-c])
		if err := pawnsReach(from, to, c, captures); err != nil {
			return fmt.Errorf("%s: %v", side, err)
		}
	}
	return nil
}

const (
	pawn = 1 + iota
	knight
	bishop
	rook
	queen
	king
)

// kind is piece p's colour (white 0) and type (pawn to king).
func kind(p fen.Piece) (colour, typ int, ok bool) {
	switch {
	case p >= fen.WhitePawn && p <= fen.WhiteKing:
		return 0, int(p-fen.WhitePawn) + 1, true
	case p >= fen.BlackPawn && p <= fen.BlackKing:
		return 1, int(p-fen.BlackPawn) + 1, true
	}
	return 0, 0, false
}

// pawnsReach checks that every pawn of colour c in to is one of from's
// moved forward, with at most captures files crossed in all: a matching
// of to's pawns to from's (at most eight each) of the least files
// crossed, found by trying every assignment that respects direction.
func pawnsReach(from, to *fen.Placement, c, captures int) error {
	p := [2]fen.Piece{fen.WhitePawn, fen.BlackPawn}[c]
	var before, after []fen.Square
	for sq := range fen.Square(64) {
		if from[sq] == p {
			before = append(before, sq)
		}
		if to[sq] == p {
			after = append(after, sq)
		}
	}
	// forward is how far a pawn went from a to b, -1 if it went back.
	forward := func(a, b fen.Square) int {
		d := b.Rank() - a.Rank()
		if c == 1 {
			d = -d
		}
		return d
	}
	best := -1
	used := make([]bool, len(before))
	var try func(i, crossed int)
	try = func(i, crossed int) {
		if best >= 0 && crossed >= best {
			return
		}
		if i == len(after) {
			best = crossed
			return
		}
		b := after[i]
		for j, a := range before {
			if used[j] {
				continue
			}
			d := forward(a, b)
			x := abs(a.File() - b.File())
			// Each file crossed is a capture, which moves the pawn one
			// rank on as well.
			if d < 0 || x > d {
				continue
			}
			used[j] = true
			try(i+1, crossed+x)
			used[j] = false
		}
	}
	try(0, 0)
	switch {
	case best < 0:
		return fmt.Errorf("a pawn of the board's position came from none of the game's: pawns never move back or sideways")
	case best > captures:
		return fmt.Errorf("the pawns crossed %d files, but only %d of the other side's pieces were captured", best, captures)
	}
	return nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
